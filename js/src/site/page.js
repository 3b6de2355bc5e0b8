// The pages of a static site (cardwidgets site OUT): play.html and lesson.html start Python in a
// Web Worker and draw its table with the game's own renderer (the same bundle as the widget's),
// through a stand-in for the anywidget model; index.html is the chooser, which needs no Python.
// Every URL is relative to the page, so any static server (or a sub-folder of one) serves the site.
import "./site.css";
import { WorkerModel } from "./model.js";
import { chooser } from "./chooser.js";

/**
 * What the builder writes into each page (`<script type="application/json" id="cw-site">`).
 * @typedef {{page: "play" | "lesson" | "index", pyodide: string, files: string[], bundles: string, build: string}} SiteConfig
 */

/** @returns {SiteConfig} */
function config() {
  const node = document.getElementById("cw-site");
  return JSON.parse(node?.textContent || "{}");
}

/** @param {string} url @returns {string} the URL, absolute (a worker resolves against its own) */
const absolute = (url) => new URL(url, document.baseURI).href;

/** The line under the heading that says what the page is doing, or what went wrong.
 * @param {string} text @param {"busy" | "problem" | "done"} state */
function status(text, state) {
  const box = /** @type {HTMLElement} */ (document.getElementById("cw-status"));
  box.textContent = text;
  box.dataset.state = state;
  box.setAttribute("role", state === "problem" ? "alert" : "status");
  box.hidden = state === "done";
}

/** A problem with the link or with Python: one clear message, never a blank page.
 * @param {string} text @param {string | null} param */
function problem(text, param) {
  const box = /** @type {HTMLElement} */ (document.getElementById("cw-status"));
  status(text, "problem");
  if (param) box.dataset.param = param;
  const back = document.createElement("p");
  const a = document.createElement("a");
  a.href = "index.html";
  a.textContent = "Choose a game or a lesson";
  back.append(a);
  box.after(back);
}

/** @param {SiteConfig} cfg */
function play(cfg) {
  status("Starting Python in this tab (the first visit loads about 14 MB, later ones come from the browser's cache)…", "busy");
  const started = performance.now();
  /** @type {WorkerModel | null} */
  let model = null;
  let worker;
  try {
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  } catch (e) {
    problem(`Python could not start in this browser: ${e}`, null);
    return;
  }
  worker.onerror = (ev) => {
    ev.preventDefault();
    problem(`Python could not start in this browser: ${ev.message || "the worker failed to load"}.`, null);
  };
  // The game's renderer loads while Python starts (the link names the game; Python checks it).
  const params = new URLSearchParams(location.search);
  const guess = cfg.page === "lesson" ? (params.get("id") || "").split("/")[0] : params.get("game") || "";
  if (/^[a-z_]+$/.test(guess)) bundle(cfg, guess).catch(() => {});
  /** @param {any} msg */
  const post = (msg) => worker.postMessage(msg);
  worker.onmessage = async (ev) => {
    const m = ev.data;
    if (m.kind === "ready") {
      model = new WorkerModel(m.values, post);
      await draw(cfg, m, model);
      document.documentElement.dataset.ready = String(Math.round(performance.now() - started));
    } else if (m.kind === "changes") {
      model?.update(m.values);
    } else if (m.kind === "answered") {
      model?.answered(m.seq);
    } else if (m.kind === "custom") {
      model?.custom(m.content);
    } else if (m.kind === "timings") {
      /** @type {any} */ (window).cwTimings = m.timings;
    } else if (m.kind === "problem") {
      problem(m.message, m.param ?? null);
    } else if (m.kind === "fatal") {
      const what = { python: "Python could not start in this browser", package: "The game could not be loaded",
        message: "The table stopped after an error" }[/** @type {string} */ (m.stage)] || "Something went wrong";
      problem(`${what}: ${m.message}`, null);
    }
  };
  post({ kind: "start", pyodide: absolute(cfg.pyodide), files: cfg.files.map(absolute), build: cfg.build, page: cfg.page,
    query: location.search.replace(/^\?/, "") });
}

/** @type {Map<string, Promise<any>>} */
const bundles = new Map();

/**
 * A game's bundle (the widget's renderer) and its CSS, loaded once.
 * @param {SiteConfig} cfg @param {string} game @returns {Promise<any>}
 */
function bundle(cfg, game) {
  let loading = bundles.get(game);
  if (!loading) {
    const base = new URL(cfg.bundles, document.baseURI);
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL(`${game}.css`, base).href;
    document.head.append(css);
    loading = import(new URL(`${game}.js`, base).href);
    bundles.set(game, loading);
  }
  return loading;
}

/**
 * Draw the table with its game's bundle (the widget's own renderer and CSS).
 * @param {SiteConfig} cfg @param {any} m @param {WorkerModel} model
 */
async function draw(cfg, m, model) {
  const mod = await bundle(cfg, m.game);
  document.title = m.title;
  const heading = document.getElementById("cw-heading");
  if (heading) heading.textContent = m.title;
  const about = document.getElementById("cw-about");
  if (about) about.textContent = m.about || "";
  const el = /** @type {HTMLElement} */ (document.getElementById("cw-table"));
  el.replaceChildren();
  mod.default.render({ model, el });
  status("", "done");
  if (cfg.page === "lesson") {
    // "Next lesson" loads the next one on the same table: the address and the heading follow,
    // so a reload or a shared link opens the lesson on screen.
    const game = m.title.split(" — ").pop();
    model.on("change:lesson", () => {
      const lesson = model.get("lesson");
      if (!lesson?.id || new URLSearchParams(location.search).get("id") === lesson.id) return;
      history.replaceState(null, "", `?id=${encodeURIComponent(lesson.id).replaceAll("%2F", "/")}`);
      const title = `${lesson.title} — ${game}`;
      document.title = title;
      if (heading) heading.textContent = title;
    });
  }
}

const cfg = config();
if (cfg.page === "index") chooser();
else play(cfg);
