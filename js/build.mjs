// Bundle one ESM file per game for anywidget:
//   src/<game>/index.js -> ../cardwidgets/static/<game>.js
//   (+ ../cardwidgets/static/<game>.css from the CSS the entry imports).
// `node build.mjs --watch` rebuilds on change, unminified with inline source maps
// (use with ANYWIDGET_HMR=1).
import * as esbuild from "esbuild";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";

// The games come from the Python registry (one line per game in registry.json);
// a game's front end is src/<game>/index.js.
const GAMES = JSON.parse(readFileSync("../cardwidgets/games/registry.json", "utf8"));
const OUT = "../cardwidgets/static";

const watch = process.argv.includes("--watch");

const missing = GAMES.filter((g) => !existsSync(`src/${g}/index.js`));
if (missing.length) {
  console.error(`build.mjs: no entry src/<game>/index.js for: ${missing.join(", ")}`);
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

if (watch) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
  // The packaging hook checks this one file; it lists every bundle built.
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/manifest.json`, JSON.stringify({ games: GAMES }, null, 1) + "\n");
}
