// The stylesheets must not leak into the notebook: every selector is scoped under
// .cw-table, and the dark theme follows JupyterLab and the OS.
import { describe, it, expect } from "vitest";
import { readFileSync, readdirSync } from "node:fs";

const SRC = new URL("../src/", import.meta.url);
const files = ["lib/table.css", ...readdirSync(SRC, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== "lib")
  .flatMap((d) => readdirSync(new URL(`${d.name}/`, SRC)).filter((f) => f.endsWith(".css")).map((f) => `${d.name}/${f}`))];

/** Selectors of the style rules in a stylesheet (not @-rules, not keyframe steps). */
function selectors(css) {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, "");
  const out = [];
  let inKeyframes = 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    // walk braces so keyframe bodies can be skipped
    if (text[i] === "{") {
      const start = Math.max(...["{", "}", ";"].map((c) => text.lastIndexOf(c, i - 1)));
      const prelude = text.slice(start + 1, i).trim();
      if (prelude.startsWith("@keyframes")) inKeyframes = depth + 1;
      else if (!prelude.startsWith("@") && !(inKeyframes && depth >= inKeyframes)) {
        out.push(...prelude.split(",").map((s) => s.trim()));
      }
      depth++;
    } else if (text[i] === "}") {
      depth--;
      if (inKeyframes && depth < inKeyframes) inKeyframes = 0;
    }
  }
  return out;
}

describe("stylesheets", () => {
  // An exported page's own styles never reach a notebook: they are scoped under the page's root
  // (a static site's page: its body, .cw-site).
  const scope = (/** @type {string} */ file) => (file.startsWith("export/") ? "cw-export-page"
    : file.startsWith("site/") ? "cw-site" : "cw-table");
  it.each(files)("%s scopes every selector under .cw-table (an exported page's under its root)", (file) => {
    const sels = selectors(readFileSync(new URL(file, SRC), "utf8"));
    expect(sels.length).toBeGreaterThan(10);
    const root = new RegExp(`(^|\\s)\\.${scope(file)}(\\[|\\s|\\.|:|>|$)`);
    const unscoped = sels.filter((s) => !root.test(s));
    expect(unscoped).toEqual([]);
  });

  it("has a dark theme for JupyterLab and for the OS setting", () => {
    const css = readFileSync(new URL("lib/table.css", SRC), "utf8");
    expect(css).toContain('body[data-jp-theme-light="false"] .cw-table');
    expect(css).toMatch(/@media \(prefers-color-scheme: dark\)/);
  });

  it("loads no fonts or other network assets", () => {
    for (const file of files) {
      const css = readFileSync(new URL(file, SRC), "utf8");
      expect(css, file).not.toMatch(/@import|@font-face|url\(/);
    }
  });
});
