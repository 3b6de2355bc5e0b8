// The Python of a page: Pyodide in a Web Worker, so the page never freezes while a bot thinks.
// The page sends {kind: "start", pyodide, files, page, query} once, then the table's messages
// ({kind: "msg", seq, content}); Python answers with {kind: "ready" | "problem" | "changes" |
// "custom" | "answered" | "fatal", ...} (see cardwidgets/site/_worker.py).

/** @type {any} */
let driver = null;
/** @type {Promise<void>} one message at a time, in order */
let queue = Promise.resolve();

/** @param {any} msg */
const post = (msg) => self.postMessage(msg);

/** @param {string} stage @param {unknown} e */
const fatal = (stage, e) => {
  // A Python error's message is its whole traceback: the page says its last line only.
  const lines = String((e && /** @type {any} */ (e).message) || e).trim().split("\n");
  post({ kind: "fatal", stage, message: lines[lines.length - 1] });
};

/** @param {{pyodide: string, files: string[], page: string, query: string}} m */
async function start(m) {
  /** @type {any} */
  let py;
  const t0 = performance.now();
  /** @type {Record<string, number>} milliseconds from the start message, for benchmarks/site.py */
  const timings = {};
  const mark = (/** @type {string} */ name) => { timings[name] = Math.round(performance.now() - t0); };
  // The package zips download while Pyodide starts.
  const zips = m.files.map((file) => fetch(file).then((reply) => {
    if (!reply.ok) throw new Error(`${file}: ${reply.status} ${reply.statusText}`);
    return reply.arrayBuffer();
  }));
  zips.forEach((z) => z.catch(() => {}));  // reported below, where they are awaited
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", m.pyodide).href);
    py = await loadPyodide({ indexURL: m.pyodide, fullStdLib: false });
    mark("python");
  } catch (e) {
    fatal("python", e);
    return;
  }
  try {
    for (const zip of zips) py.unpackArchive(await zip, "zip", { extractDir: "/home/pyodide/site-lib" });
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/site-lib')");
    mark("files");
    driver = py.pyimport("cardwidgets.site._worker");
    mark("import");
    // Python calls back with (kind, JSON text): one copy, no proxies left behind.
    await driver.start(m.page, m.query, (/** @type {string} */ kind, /** @type {string} */ text) =>
      post({ kind, ...JSON.parse(text) }));
    mark("table");
    post({ kind: "timings", timings });
  } catch (e) {
    fatal("package", e);
  }
}

// Pyodide does not always reject loadPyodide when its files cannot be fetched: a failed fetch of
// the WebAssembly surfaces as a rejection nobody handles. Before Python is up, that is Python
// failing to start; the page must say so rather than wait forever.
self.addEventListener("unhandledrejection", (ev) => {
  ev.preventDefault();
  fatal(driver === null ? "python" : "message", ev.reason);
});

self.onmessage = (ev) => {
  const m = ev.data;
  if (m.kind === "start") {
    queue = queue.then(() => start(m));
  } else if (m.kind === "msg" || m.kind === "state") {
    queue = queue.then(async () => {
      if (driver === null) return;
      try {
        await driver.handle(JSON.stringify(m));
      } catch (e) {
        fatal("message", e);
      }
    });
  }
};
