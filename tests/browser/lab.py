"""JupyterLab / Notebook 7 + Debian chromium + Playwright helpers for the browser tests and benchmarks.

Shared by ``tests/browser/conftest.py`` (pytest fixtures) and ``benchmarks/browser_roundtrip.py``
(a plain script), so this module imports neither pytest nor anything from cardwidgets.

What is here:

- :class:`LabServer`: a private JupyterLab server (temporary ``JUPYTER_*`` dirs, token, free port,
  root allowed, ``window.jupyterapp`` exposed, news/update toasts silenced, log to a file) with a
  clean shutdown through ``/api/shutdown`` that reports any kernel that survived. The same server
  serves Notebook 7 (``/notebooks/<path>``): pass ``frontend="notebook"`` to the page helpers.
- :func:`launch_browser`: Debian's ``/usr/bin/chromium`` driven by Python Playwright (never
  ``playwright install``).
- page helpers: :func:`open_notebook`, :func:`run_all_cells`, :func:`run_in_kernel`,
  :func:`kernel_json`, :func:`wait_for_kernel`.
- :data:`COUNTER_CODE`: a trivial anywidget counter whose Python observer writes ``kernel_value``,
  so the DOM alone proves a click -> Python -> DOM round trip.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts" / "browser"

#: Debian's apt chromium; Playwright drives it through ``executable_path``.
CHROMIUM = os.environ.get("CW_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-quic", "--no-first-run", "--no-default-browser-check",
]
VIEWPORT = {"width": 1280, "height": 1300}  # tall enough for a whole table in screenshots

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
#: The front ends the tests open: JupyterLab 4 and Notebook 7 (both served by the same server).
FRONTENDS = ("lab", "notebook")


def browser_required() -> bool:
    """True when a missing browser/server must fail instead of skip (CI sets ``CI``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def chromium_available() -> bool:
    return os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, cells: list[str]) -> Path:
    """Write a notebook of code cells with the python3 kernelspec (so no kernel picker appears)."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


class LabServer:
    """A private JupyterLab server rooted in ``base/root``.

    ``start()`` returns once ``/api/status`` answers; ``stop()`` shuts it down through the REST API
    and returns a report (exit code, seconds, kernels that survived).
    """

    def __init__(self, base: Path, log_path: Path | None = None, python: str = sys.executable,
                 server_config: str = ""):
        self.base = Path(base)
        self.server_config = server_config  # Python for the server's jupyter_server_config.py
        self.root = self.base / "root"
        self.log_path = Path(log_path) if log_path else self.base / "jupyter-server.log"
        self.python = python
        self.token = secrets.token_hex(16)
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.timings: dict[str, float] = {}
        self._log_fh = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ------------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 90.0) -> "LabServer":
        dirs = {name: self.base / name for name in
                ("root", "config", "data", "runtime", "ipython", "settings", "workspaces")}
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        if self.server_config:
            (dirs["config"] / "jupyter_server_config.py").write_text(self.server_config)
        notif = dirs["settings"] / "@jupyterlab" / "apputils-extension"
        notif.mkdir(parents=True, exist_ok=True)
        (notif / "notification.jupyterlab-settings").write_text(
            json.dumps({"checkForUpdates": False, "fetchNews": "false"}))

        env = dict(os.environ)
        env.update({
            "JUPYTER_CONFIG_DIR": str(dirs["config"]),
            "JUPYTER_DATA_DIR": str(dirs["data"]),
            "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
            "IPYTHONDIR": str(dirs["ipython"]),
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYTHONUNBUFFERED": "1",
        })
        env.pop("JUPYTER_PATH", None)
        env.pop("ANYWIDGET_HMR", None)  # a file watcher thread per kernel is not wanted here

        self.port = _free_port()
        cmd = [
            self.python, "-m", "jupyterlab", "--no-browser",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={dirs['root']}",
            "--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            f"--LabApp.user_settings_dir={dirs['settings']}",
            f"--LabApp.workspaces_dir={dirs['workspaces']}",
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log_fh = open(self.log_path, "wb")
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(cmd, cwd=dirs["root"], env=env, stdout=self._log_fh,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.1)
        self.timings["server_start_s"] = time.perf_counter() - t0
        return self

    def log_tail(self, n: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"

    def kernel_processes(self) -> list:
        """Child processes of the server (the kernels), via psutil."""
        import psutil

        if self.proc is None or self.proc.poll() is not None:
            return []
        try:
            return psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def stop(self) -> dict[str, Any]:
        """Shut down via ``POST /api/shutdown`` (kernels first), falling back to signals."""
        import psutil

        report: dict[str, Any] = {"exit_code": None, "survivors": [], "shutdown_s": None, "forced": False}
        if self.proc is None:
            return report
        children = self.kernel_processes()
        t0 = time.perf_counter()
        if self.proc.poll() is None:
            try:
                self.api("POST", "/api/shutdown", timeout=10)
            except Exception:  # noqa: BLE001 - fall back to signals below
                pass
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                report["forced"] = True
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(self.proc.pid, sig)
                    except ProcessLookupError:
                        break
                    try:
                        self.proc.wait(10)
                        break
                    except subprocess.TimeoutExpired:
                        continue
        report["exit_code"] = self.proc.returncode
        report["shutdown_s"] = round(time.perf_counter() - t0, 3)
        time.sleep(0.2)
        survivors = []
        for c in children:
            try:
                if c.is_running() and c.status() != psutil.STATUS_ZOMBIE:
                    survivors.append(c)
            except psutil.NoSuchProcess:
                pass
        report["survivors"] = [f"{c.pid} {' '.join(c.cmdline()[:4])}" for c in survivors]
        for c in survivors:  # never leave a kernel behind, even after reporting it
            try:
                c.kill()
            except psutil.NoSuchProcess:
                pass
        if self._log_fh:
            self._log_fh.close()
            self._log_fh = None
        self.timings["shutdown_s"] = report["shutdown_s"]
        return report

    # ------------------------------------------------------------------ REST
    def api(self, method: str, path: str, data: Any = None, timeout: float = 30) -> Any:
        body = None if data is None else json.dumps(data).encode()
        req = urllib.request.Request(f"{self.url}{path}", data=body, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def shutdown_sessions(self) -> int:
        """Delete every session (stopping its kernel); returns how many there were."""
        sessions = self.api("GET", "/api/sessions") or []
        for s in sessions:
            try:
                self.api("DELETE", f"/api/sessions/{s['id']}")
            except urllib.error.HTTPError:
                pass
        return len(sessions)

    # ------------------------------------------------------------------ notebooks
    def write_notebook(self, name: str, cells: list[str]) -> Path:
        return write_notebook(self.root / name, cells)

    def copy_into_root(self, src: Path, name: str | None = None) -> Path:
        dest = self.root / (name or Path(src).name)
        shutil.copyfile(src, dest)
        return dest

    def lab_url(self, notebook: str) -> str:
        # A fresh workspace per page: nothing from earlier pages is restored (and no extra kernel starts).
        return f"{self.url}/lab/workspaces/w{uuid.uuid4().hex[:10]}/tree/{notebook}?token={self.token}"

    def notebook_url(self, notebook: str) -> str:
        """The notebook in Notebook 7 (one document per page, the classic layout)."""
        return f"{self.url}/notebooks/{notebook}?token={self.token}"

    def page_url(self, notebook: str, frontend: str = "lab") -> str:
        if frontend not in FRONTENDS:
            raise ValueError(f"frontend must be one of {FRONTENDS}, not {frontend!r}")
        return self.lab_url(notebook) if frontend == "lab" else self.notebook_url(notebook)


# ---------------------------------------------------------------------- browser
def launch_browser(playwright, headless: bool = True):
    """Launch Debian chromium through Playwright (no browser download)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=headless, args=CHROMIUM_ARGS)


_PANEL_JS = """
(path) => {
  const app = window.jupyterapp;
  if (!app) throw new Error("window.jupyterapp missing (expose_app_in_browser?)");
  for (const w of app.shell.widgets("main")) {
    if (w.context && w.context.path === path) return w;
  }
  throw new Error("no open notebook " + path);
}
"""


def open_notebook(page, server: LabServer, name: str, timeout_ms: int = 60_000, frontend: str = "lab") -> None:
    """Open ``name`` (relative to the server root) in Lab (or Notebook 7) and wait until its kernel is ready."""
    page.goto(server.page_url(name, frontend))
    page.wait_for_function(
        """(path) => { const app = window.jupyterapp; if (!app || !app.shell) return false;
             for (const w of app.shell.widgets("main"))
               if (w.context && w.context.path === path && w.sessionContext) return true;
             return false; }""",
        arg=name, timeout=timeout_ms)
    wait_for_kernel(page, name, timeout_ms)


def wait_for_kernel(page, name: str, timeout_ms: int = 60_000) -> None:
    page.evaluate(f"""async (path) => {{
        const panel = ({_PANEL_JS})(path);
        await panel.context.ready; await panel.sessionContext.ready; }}""", name)
    page.wait_for_function(
        f"""(path) => {{ const p = ({_PANEL_JS})(path);
             const k = p.sessionContext.session && p.sessionContext.session.kernel;
             return !!k && k.connectionStatus === "connected" && k.status === "idle"; }}""",
        arg=name, timeout=timeout_ms)


def run_all_cells(page, name: str, wait: bool = True, timeout_ms: int = 120_000) -> bool | None:
    """Run every cell with Lab's ``notebook:run-all-cells`` command (notebook ``name`` activated first).

    With ``wait`` the call returns after execution finished (the command's promise), with its result.
    """
    page.evaluate(f"""(path) => {{ const p = ({_PANEL_JS})(path);
        window.jupyterapp.shell.activateById(p.id); }}""", name)
    if not wait:
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        return None
    return page.evaluate("""async (ms) => {
        const run = window.jupyterapp.commands.execute('notebook:run-all-cells');
        const late = new Promise((_, reject) =>
            setTimeout(() => reject(new Error("run-all-cells took longer than " + ms + " ms")), ms));
        return await Promise.race([run, late]); }""", timeout_ms)


def cell_errors(page, name: str) -> list[str]:
    """Error outputs (``ename: evalue``) currently in the notebook model."""
    return page.evaluate(f"""(path) => {{ const p = ({_PANEL_JS})(path);
        const errs = [];
        for (const cell of p.model.cells) {{
          if (cell.type !== "code") continue;
          const outs = cell.outputs;
          for (let i = 0; i < outs.length; i++) {{
            const o = outs.get(i).toJSON();
            if (o.output_type === "error") errs.push(o.ename + ": " + o.evalue);
          }}
        }}
        return errs; }}""", name)


class KernelError(RuntimeError):
    pass


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_in_kernel(page, name: str, code: str) -> str:
    """Run ``code`` in the notebook's own kernel (no cell, no history) and return its stdout.

    Raises :class:`KernelError` with the traceback if the code raised.
    """
    res = page.evaluate(f"""async ([path, code]) => {{
        const kernel = ({_PANEL_JS})(path).sessionContext.session.kernel;
        let out = "", err = "", exc = null;
        const f = kernel.requestExecute({{ code, store_history: false }});
        f.onIOPub = (m) => {{
          const t = m.header.msg_type;
          if (t === "stream") {{ if (m.content.name === "stdout") out += m.content.text; else err += m.content.text; }}
          else if (t === "error") exc = m.content.ename + ": " + m.content.evalue + "\\n" + m.content.traceback.join("\\n");
        }};
        await f.done;
        return {{ out, err, exc }};
    }}""", [name, code])
    if res["exc"]:
        raise KernelError(_ANSI.sub("", res["exc"]) + ("\nstderr: " + res["err"] if res["err"] else ""))
    return res["out"]


def kernel_json(page, name: str, expr: str, setup: str = "") -> Any:
    """Evaluate ``expr`` in the kernel and return it, sent back as JSON on stdout."""
    marker = "@@CWJSON@@"
    code = f"{setup}\nimport json as _cw_json\nprint({marker!r} + _cw_json.dumps({expr}, default=str))"
    out = run_in_kernel(page, name, code)
    for line in reversed(out.splitlines()):
        if line.startswith(marker):
            return json.loads(line[len(marker):])
    raise KernelError(f"no JSON in kernel output: {out!r}")


# ---------------------------------------------------------------------- test widget
#: Notebook source of a trivial anywidget counter. A click sets ``value`` in JS; the Python observer
#: copies it into ``kernel_value``, which only the kernel writes: ``.e2e-counter-kernel`` changes only
#: after Python has seen the click.
COUNTER_CODE = r'''
import anywidget
import traitlets


class Counter(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const root = document.createElement("div");
      root.className = "e2e-counter";
      const button = document.createElement("button");
      button.className = "e2e-counter-button";
      button.textContent = "+1";
      const value = document.createElement("span");
      value.className = "e2e-counter-value";
      const kernel = document.createElement("span");
      kernel.className = "e2e-counter-kernel";
      const show = () => {
        value.textContent = String(model.get("value"));
        kernel.textContent = String(model.get("kernel_value"));
      };
      button.addEventListener("click", () => {
        model.set("value", model.get("value") + 1);
        model.save_changes();
      });
      model.on("change:value", show);
      model.on("change:kernel_value", show);
      root.append(button, " count: ", value, " | kernel saw: ", kernel);
      el.appendChild(root);
      show();
      return () => {
        model.off("change:value", show);
        model.off("change:kernel_value", show);
        root.remove();
      };
    }
    export default { render };
    """
    value = traitlets.Int(0).tag(sync=True)
    kernel_value = traitlets.Int(0).tag(sync=True)
    seen = traitlets.List()  # not synced: what the kernel observed

    @traitlets.observe("value")
    def _on_value(self, change):
        self.seen = [*self.seen, change["new"]]
        self.kernel_value = change["new"]


counter = Counter()
counter
'''

#: In-page round-trip timer. ``n`` times: ``pick(root)`` returns the element to click (or
#: ``{el, kind}``, or null to stop; it may click local UI controls first), ``probe(root)`` is read
#: just before the click, then ``el.click()`` and a MutationObserver on ``root`` waits until
#: ``done(root, before)`` is true. Returns ``[{ms, kind}, ...]``.
ROUNDTRIP_JS = """
async ({ rootSel, n, pick, probe, done, timeoutMs, settle = false }) => {
  const pickFn = new Function("root", pick);
  const probeFn = new Function("root", probe);
  const doneFn = new Function("root", "before", done);
  const root = document.querySelector(rootSel);
  if (!root) throw new Error("no " + rootSel);
  const times = [];
  for (let i = 0; i < n; i++) {
    let picked = pickFn(root);
    if (!picked) break;
    if (picked instanceof Element) picked = { el: picked, kind: "click" };
    const before = probeFn(root);
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => { obs.disconnect(); reject(new Error("timeout at click " + i)); }, timeoutMs);
      const obs = new MutationObserver(() => {
        if (doneFn(root, before)) { clearTimeout(timer); obs.disconnect(); resolve(); }
      });
      obs.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
      picked.el.click();
    });
    const t1 = performance.now();
    times.push({ ms: t1 - t0, kind: picked.kind, t0, t1 });
    // settle: the next click waits until this answer is on the screen (two frames), so a click
    // is not charged with drawing the one before (as a person clicking at once would be)
    if (settle) await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0))));
  }
  return times;
}
"""


class Notebook:
    """One notebook opened in a Lab (or Notebook 7) page: ``open()``, ``run_all()``, ``run(code)``, ``json(expr)``."""

    def __init__(self, page, server: LabServer, name: str, frontend: str = "lab"):
        self.page, self.server, self.name, self.frontend = page, server, name, frontend

    def open(self, timeout_ms: int = 60_000) -> "Notebook":
        open_notebook(self.page, self.server, self.name, timeout_ms, frontend=self.frontend)
        return self

    def cells(self) -> list[str]:
        """The type of every cell, in order (what a notebook shortcut would change)."""
        return self.page.evaluate(f"""(path) => {{ const p = ({_PANEL_JS})(path);
            return Array.from(p.model.cells, (c) => c.type); }}""", self.name)

    def mode(self) -> str:
        """The notebook's mode: "command" or "edit"."""
        return self.page.evaluate(f"(path) => ({_PANEL_JS})(path).content.mode", self.name)

    def run_all(self, wait: bool = True, timeout_ms: int = 120_000):
        return run_all_cells(self.page, self.name, wait=wait, timeout_ms=timeout_ms)

    def run(self, code: str) -> str:
        return run_in_kernel(self.page, self.name, code)

    def json(self, expr: str, setup: str = "") -> Any:
        return kernel_json(self.page, self.name, expr, setup)

    def errors(self) -> list[str]:
        return cell_errors(self.page, self.name)
