"""Serve a built static site on loopback for a browser, and refuse everything else.

:class:`SiteServer` serves one folder (a thread of ``http.server``, as any static server
would); :func:`guard` routes every request of a browser context: the site's own go through,
anything else is refused and recorded, so a test can require that the site asked for
nothing outside its folder (the count must be 0). Shared by the browser tests and
``benchmarks/site.py``.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        self.server.requests.append(self.path)  # type: ignore[attr-defined]

    def end_headers(self) -> None:
        if getattr(self.server, "cors", False):  # a hosted copy of Pyodide, as a CDN serves it
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


class SiteServer:
    """A static server for ``root`` on 127.0.0.1 (a free port); ``.url`` ends with ``/``. With
    ``cors``, any origin may read its files (as a CDN serving Pyodide)."""

    def __init__(self, root: Path, cors: bool = False) -> None:
        handler = functools.partial(_Quiet, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.requests = []  # type: ignore[attr-defined]
        self.httpd.cors = cors  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def requests(self) -> list[str]:
        return self.httpd.requests  # type: ignore[attr-defined]

    def __enter__(self) -> "SiteServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


def guard(context, base: str, *more: str) -> list[str]:
    """Route every request of ``context`` (pages and their workers): those under ``base`` (or
    ``more`` addresses) go on, the others are aborted and listed in the returned list."""
    refused: list[str] = []
    allowed = (base, *more, "blob:", "data:")

    def route(r):
        url = r.request.url
        if url.startswith(allowed):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    context.route("**/*", route)
    return refused
