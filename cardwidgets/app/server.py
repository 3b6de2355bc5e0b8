"""Serve the app (:class:`cardwidgets.app.App`) as a web page through Voilà: ``cardwidgets play``.

Voilà runs a notebook in a kernel of its own and shows its outputs only (no code). The
notebook is one cell, written to a temporary folder for the time the server runs.
"""

from __future__ import annotations

import errno
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

#: The notebook Voilà serves: the app, and nothing else.
CELL = "from cardwidgets.app import App\n\nApp()\n"
#: Voilà's own default port; the next free one is taken when it is busy (a port given is
#: refused when busy).
DEFAULT_PORT = 8866


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
            "--VoilaConfiguration.show_tracebacks=True", "--theme=light",
            # the port checked and printed, or none: never another port than the address said
            "--Voila.port_retries=0"]


def check_voila() -> None:
    """``ImportError`` saying how to install Voilà when it is missing."""
    try:
        import voila  # noqa: F401
    except ImportError:
        raise ImportError("cardwidgets play needs Voilà: pip install \"cardwidgets[app]\"") from None


def serve(port: int | None = None, host: str = "127.0.0.1", open_browser: bool = True,
          say: Callable[[str], None] = print, argv_extra: Sequence[str] = ()) -> int:
    """Run Voilà on the app until it stops (Ctrl+C); returns its exit status.

    ``port=None`` takes :data:`DEFAULT_PORT` or the next free one; the page's address is
    said (``say``) before the server starts.
    """
    check_voila()
    if port is None:
        port = free_port(host=host)
    else:
        check_address(host, port)
    folder = Path(tempfile.mkdtemp(prefix="cardwidgets-play-"))
    try:
        path = notebook(folder)
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        say(f"cardwidgets play: http://{shown}:{port}/ (Ctrl+C stops the server)")
        proc = subprocess.Popen([*command(path, port, host, open_browser), *argv_extra], cwd=folder)
        try:
            return proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
            return 130
    finally:
        shutil.rmtree(folder, ignore_errors=True)
