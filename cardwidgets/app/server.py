"""Serve the app (:class:`cardwidgets.app.App`) as a web page through Voilà: ``cardwidgets play``.

Voilà runs a notebook in a kernel of its own and shows its outputs only (no code). The
notebook is one cell, written to a temporary folder for the time the server runs, with the
page's template: Voilà's own, less the icon font it asks a CDN for (the page loads nothing
from outside the machine). Idle kernels are culled and their number is capped
(:mod:`cardwidgets.app.kernels`). Ctrl+C, SIGTERM and SIGHUP stop Voilà and every kernel it
started, free the port and remove the folder.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

#: The notebook Voilà serves: the app, and nothing else.
CELL = "from cardwidgets.app import App\n\nApp()\n"
#: Voilà's own default port; the next free one is taken when it is busy (a port given is
#: refused when busy).
DEFAULT_PORT = 8866
#: A kernel idle this long (seconds) with no page connected to it is shut down: a GET that never
#: opened its page, or a page closed. A page left open keeps its game.
CULL_IDLE = 600
#: How often (seconds) the idle kernels are looked for.
CULL_INTERVAL = 60
#: The most kernels (open games) at once; a page asked for beyond it gets "503".
MAX_KERNELS = 16
#: The signals that stop the server as Ctrl+C does (SIGINT), with their exit status 128 + n.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
#: The page's template: Voilà's ``lab`` one without what it asks CDNs for (an icon font the app does
#: not use, and a diagram library).
TEMPLATE = "cardwidgets"
_CDN_LINKS = ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/'
              'all.min.css" type="text/css" />',
              '<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/'
              'v4-shims.min.css" type="text/css" />')


def notebook(folder: Path) -> Path:
    """Write the app's notebook (one cell) into ``folder``; return its path."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [nbformat.v4.new_code_cell(CELL)]
    path = folder / "cardwidgets.ipynb"
    nbformat.write(nb, str(path))
    return path


def template(folder: Path) -> Path:
    """Write the page's template (:data:`TEMPLATE`) under ``folder``, a Jupyter data folder; return it."""
    where = folder / "voila" / "templates" / TEMPLATE
    where.mkdir(parents=True, exist_ok=True)
    (where / "conf.json").write_text(json.dumps({"base_template": "lab"}))
    drop = "".join(f"|replace({json.dumps(link)}, '')" for link in _CDN_LINKS)
    (where / "index.html.j2").write_text(
        "{%- extends 'lab/index.html.j2' -%}\n"
        "{%- block notebook_css -%}{% filter trim" + drop + " %}{{ super() }}{% endfilter %}"
        "{%- endblock notebook_css -%}\n"
        # nor the diagram library a page with diagrams would load from a CDN (the app has none)
        "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n")
    return where


def check_address(host: str, port: int) -> None:
    """``OSError`` in words when the server could not listen on ``host``, ``port``.

    Voilà would find out only once started, with a traceback for a host that is not this
    machine's, and it would move to another port than the one printed when that port is busy.
    """
    try:
        family, _, _, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                      flags=socket.AI_PASSIVE)[0]
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
            s.bind(address)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            said = (f"port {port} is in use on {host}: choose another with --port, or leave --port out to "
                    "take the next free one")
        else:
            said = (f"cannot listen on {host} port {port}: {e.strerror or e} (--host takes an address of "
                    "this machine, such as 127.0.0.1 or 0.0.0.0)")
        error = OSError(said)
        error.errno = e.errno  # free_port tells a busy port from a bad host by it
        raise error from None


def free_port(start: int = DEFAULT_PORT, tries: int = 50, host: str = "127.0.0.1") -> int:
    """The first port from ``start`` that ``host`` can listen on (``OSError`` for a bad host)."""
    for port in range(start, start + tries):
        try:
            check_address(host, port)
        except OSError as e:
            if e.errno in (errno.EADDRINUSE, errno.EACCES):
                continue
            raise
        return port
    raise OSError(f"no free port from {start} to {start + tries - 1}: give one with --port")


def command(path: Path, port: int, host: str, open_browser: bool) -> list[str]:
    """The Voilà command line serving ``path``."""
    return [sys.executable, "-m", "voila", str(path), f"--port={port}", f"--Voila.ip={host}",
            "--no-browser" if not open_browser else "--Voila.open_browser=True",
            "--VoilaConfiguration.show_tracebacks=True", "--theme=light", f"--template={TEMPLATE}",
            # the port checked and printed, or none: never another port than the address said
            "--Voila.port_retries=0",
            # every GET starts a kernel: cull the idle ones and cap how many run
            f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE}",
            f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
            "--VoilaConfiguration.multi_kernel_manager_class=cardwidgets.app.kernels.CappedKernelManager",
            f"--CappedKernelManager.max_kernels={MAX_KERNELS}"]


def check_voila() -> None:
    """``ImportError`` saying how to install Voilà when it is missing."""
    try:
        import voila  # noqa: F401
    except ImportError:
        raise ImportError("cardwidgets play needs Voilà: pip install \"cardwidgets[app]\"") from None


class _Stopped(Exception):
    """A stop signal arrived (SIGTERM, SIGHUP): stop as Ctrl+C does."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, _frame: Any) -> None:
    raise _Stopped(signum)


def _descendants(pid: int) -> list[Any]:
    """The processes started under ``pid`` (psutil, which ipykernel brings; none without it)."""
    try:
        import psutil

        return psutil.Process(pid).children(recursive=True)
    except Exception:  # no psutil, or the process is gone
        return []


def stop(proc: subprocess.Popen, grace: float = 10.0) -> None:
    """Stop Voilà and every process under it (its kernels start sessions of their own, so a
    signal to its process group would miss them): SIGTERM, which shuts the kernels down, then
    SIGKILL for whatever is left after ``grace`` seconds."""
    tree = _descendants(proc.pid)
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(grace)
    for child in tree:
        try:
            child.wait(grace if child.is_running() else 0)
        except Exception:  # gone already, or still there after the grace period
            pass
        try:
            if child.is_running():
                child.kill()
        except Exception:
            pass


@contextlib.contextmanager
def _handling(new: Any, signals: Sequence[int] = STOP_SIGNALS) -> Iterator[None]:
    """Install ``new`` for ``signals`` while the server runs (the old handlers after)."""
    old = {}
    for sig in signals:
        try:
            old[sig] = signal.signal(sig, new)
        except ValueError:  # not the main thread: whoever runs it there stops the server
            pass
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def serve(port: int | None = None, host: str = "127.0.0.1", open_browser: bool = True,
          say: Callable[[str], None] = print, argv_extra: Sequence[str] = ()) -> int:
    """Run Voilà on the app until it stops; returns its exit status (128 + the signal's number
    when Ctrl+C, SIGTERM or SIGHUP stopped it).

    ``port=None`` takes :data:`DEFAULT_PORT` or the next free one; the page's address is
    said (``say``) before the server starts.
    """
    check_voila()
    if port is None:
        port = free_port(host=host)
    else:
        check_address(host, port)
    folder = Path(tempfile.mkdtemp(prefix="cardwidgets-play-"))
    proc: subprocess.Popen | None = None
    try:
        with _handling(_raise_stopped):
            path = notebook(folder)
            template(folder)
            shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
            say(f"cardwidgets play: http://{shown}:{port}/ (Ctrl+C stops the server)")
            # the template is found in the folder, before the installed ones
            paths = [str(folder), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
            env = dict(os.environ, JUPYTER_PATH=os.pathsep.join(paths))
            # A session of its own: a terminal's Ctrl+C reaches this process only, which stops
            # Voilà the one way that also stops its kernels.
            proc = subprocess.Popen([*command(path, port, host, open_browser), *argv_extra], cwd=folder, env=env,
                                    start_new_session=True)
            return proc.wait()
    except (KeyboardInterrupt, _Stopped) as e:
        if proc is not None:
            # a second Ctrl+C or SIGTERM while the kernels shut down must not leave them behind
            with _handling(signal.SIG_IGN, (*STOP_SIGNALS, signal.SIGINT)):
                stop(proc)
        return 128 + (e.signum if isinstance(e, _Stopped) else signal.SIGINT)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

