// The Python of a page: Pyodide in a Web Worker, so the page never freezes while a bot thinks.
// The page sends {kind: "start", pyodide, files, build, page, query} once, then the table's messages
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

const LIB = "/home/pyodide/site-lib";
const IMPORT = `import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})\n` +
  "import cardwidgets.site._worker";

/**
 * The browser's copy of Python's memory after a first start (Pyodide's memory snapshot, about
 * 30 MB in the Cache API, never on the server): a later visit restores it in about a second
 * instead of starting the interpreter again (seconds). One per site
 * folder, for one build of the site and of Pyodide; none where the browser keeps no Cache
 * (a page served over plain http from another machine).
 * @param {{pyodide: string, build: string}} m
 * @returns {Promise<{cache: Cache, key: string, bytes: Uint8Array | null} | null>}
 */
async function snapshot(m) {
  try {
    if (!self.caches || !m.build) return null;
    const cache = await caches.open(`cardwidgets-site ${new URL(".", self.location.href).href}`);
    const key = new URL(`cw-python-snapshot?build=${encodeURIComponent(m.build)}`, m.pyodide).href;
    const hit = await cache.match(key);
    return { cache, key, bytes: hit ? new Uint8Array(await hit.arrayBuffer()) : null };
  } catch {
    return null;
  }
}

/** @param {any} py @param {Promise<ArrayBuffer>[]} zips */
async function unpack(py, zips) {
  for (const zip of zips) py.unpackArchive(await zip, "zip", { extractDir: LIB });
}

/** @param {{pyodide: string, files: string[], page: string, query: string, build: string}} m */
async function start(m) {
  /** @type {any} */
  let py = null;
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
  let stage = "python";
  try {
    const { loadPyodide } = await import(new URL("pyodide.mjs", m.pyodide).href);
    const saved = await snapshot(m);
    if (saved?.bytes) {
      try {
        py = await loadPyodide({ indexURL: m.pyodide, _loadSnapshot: saved.bytes });
        timings.snapshot = 1;
      } catch {
        py = null;  // a snapshot this Pyodide cannot take: start afresh, and replace it
        await saved.cache.delete(saved.key).catch(() => {});
      }
    }
    if (py === null) {
      py = await loadPyodide({ indexURL: m.pyodide, fullStdLib: false, _makeSnapshot: !!saved });
      if (saved) {
        // Taken before anything else runs: Pyodide restores a snapshot of a freshly started
        // interpreter (one taken after the package's imports failed to restore, "offset is out
        // of bounds").
        try {
          const bytes = py.makeMemorySnapshot();
          for (const old of await saved.cache.keys()) await saved.cache.delete(old);
          // Awaited: a page left at once would end the worker, and the write, half way.
          await saved.cache.put(saved.key, new Response(bytes));
          mark("saved");
        } catch {
          // no snapshot this time: the next visit starts afresh too
        }
      }
    }
    mark("python");
    stage = "package";
    await unpack(py, zips);
    const pyc = saved ? await saved.cache.match(`${saved.key}&pyc`).catch(() => undefined) : undefined;
    if (pyc) {
      try {
        py.unpackArchive(await pyc.arrayBuffer(), "zip", { extractDir: LIB });
        timings.pyc = 1;
      } catch {
        // compiled again as it is imported
      }
    }
    py.runPython(IMPORT);
    mark("files");
    driver = py.pyimport("cardwidgets.site._worker");
    mark("import");
    // Python calls back with (kind, JSON text): one copy, no proxies left behind.
    await driver.start(m.page, m.query, (/** @type {string} */ kind, /** @type {string} */ text) =>
      post({ kind, ...JSON.parse(text) }));
    mark("table");
    post({ kind: "timings", timings });
    if (saved && !pyc) {
      // Once the table is up: compile the package for the next visit (the page waits for
      // nothing; a move clicked meanwhile is answered after it).
      try {
        const zip = py.runPython(`import cardwidgets.site._worker as w\nw.compiled(${JSON.stringify(LIB)})`);
        const bytes = zip.toJs();
        zip.destroy();
        await saved.cache.put(`${saved.key}&pyc`, new Response(bytes));
      } catch {
        // the next visit compiles as it imports, as this one did
      }
    }
  } catch (e) {
    fatal(stage, e);
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
