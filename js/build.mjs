// Bundle one ESM file per game for anywidget:
//   src/<game>/index.js -> ../cardwidgets/static/<game>.js
//   (+ ../cardwidgets/static/<game>.css from the CSS the entry imports),
// and one static player per game for exported pages (cardwidgets/export.py inlines it):
//   the game's layout + src/export/player.js -> ../cardwidgets/static/export/<game>.js (+ .css),
//   a classic script (IIFE), since the page holds it inline.
// and the static site's page and worker (cardwidgets/site/ writes them into a site):
//   src/site/{page,worker}.js -> ../cardwidgets/static/site/ (+ page.css),
// with the Pyodide files a site runs Python on, copied from node_modules/pyodide into
// ../cardwidgets/static/pyodide/ (so a plain install builds a site that needs no network).
// `node build.mjs --watch` rebuilds on change, unminified with inline source maps
// (use with ANYWIDGET_HMR=1).
//
// The games come from the Python registry (cardwidgets/games/registry.json). A game
// registered before its front end exists (no src/<game>/index.js) is skipped with a
// warning, so the other games still build; static/manifest.json lists only the games
// built, and tests/test_js.py fails until every registered game has its bundle.
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";

const REGISTRY = JSON.parse(readFileSync("../cardwidgets/games/registry.json", "utf8"));
const OUT = "../cardwidgets/static";

const watch = process.argv.includes("--watch");

const GAMES = REGISTRY.filter((g) => existsSync(`src/${g}/index.js`));
for (const g of REGISTRY.filter((x) => !GAMES.includes(x))) {
  console.warn(`build.mjs: WARNING: "${g}" is registered but has no front end (src/${g}/index.js is missing); ` +
    "it is not built, and its table cannot be shown until it is.");
}
if (!GAMES.length) {
  console.error("build.mjs: no registered game has a front end; nothing to build");
  process.exit(1);
}

/** @type {import("esbuild").BuildOptions} */
const options = {
  entryPoints: Object.fromEntries(GAMES.map((g) => [g, `src/${g}/index.js`])),
  bundle: true,
  format: "esm",                // anywidget imports the file as an ES module with a default export
  target: "es2020",
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  outdir: OUT,
  legalComments: "none",
  logLevel: "info",
};

// The export players: one entry per game, made here (each is three lines), not kept as files.
/** @type {import("esbuild").Plugin} */
const exportEntries = {
  name: "export-entries",
  setup(build) {
    build.onResolve({ filter: /^cw-export:/ }, (args) => ({ path: args.path.slice("cw-export:".length), namespace: "cw-export" }));
    build.onLoad({ filter: /.*/, namespace: "cw-export" }, (args) => ({
      contents: `import { layout } from "./src/${args.path}/index.js";\n` +
        `import { boot } from "./src/export/player.js";\nboot(layout);\n`,
      resolveDir: process.cwd(),
      loader: "js",
    }));
  },
};

/** @type {import("esbuild").BuildOptions} */
const exportOptions = {
  ...options,
  entryPoints: Object.fromEntries(GAMES.map((g) => [g, `cw-export:${g}`])),
  format: "iife",
  outdir: `${OUT}/export`,
  plugins: [exportEntries],
};

/** @type {import("esbuild").BuildOptions} */
const siteOptions = {
  ...options,
  entryPoints: { page: "src/site/page.js", worker: "src/site/worker.js" },
  outdir: `${OUT}/site`,
};

// What loadPyodide fetches for the standard library alone (the npm package ships no wheels).
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

function copyPyodide() {
  const dir = `${OUT}/pyodide`;
  mkdirSync(dir, { recursive: true });
  for (const f of PYODIDE_FILES) copyFileSync(`node_modules/pyodide/${f}`, `${dir}/${f}`);
  const { version } = JSON.parse(readFileSync("node_modules/pyodide/package.json", "utf8"));
  writeFileSync(`${dir}/VERSION`, `${version}\n`);
}

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
  const exportCtx = await esbuild.context(exportOptions);
  await exportCtx.watch();
  const siteCtx = await esbuild.context(siteOptions);
  await siteCtx.watch();
  copyPyodide();
} else {
  await esbuild.build(options);
  await esbuild.build(exportOptions);
  await esbuild.build(siteOptions);
  copyPyodide();
  // The packaging hook checks this one file; it lists every bundle built.
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/manifest.json`, JSON.stringify({ games: GAMES }, null, 1) + "\n");
}
