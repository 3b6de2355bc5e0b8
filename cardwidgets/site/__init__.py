"""A static site that plays every game and lesson in a browser tab: no install, no server.

``cardwidgets site OUT`` (or :func:`build`) writes a folder with relative URLs only, which
any static server serves (``python -m http.server``, GitHub Pages, a school's web space):

- ``index.html``: the chooser (game, mode, players, who plays each seat, the screen, the
  pace, a seed, every rules option in words) and every lesson by game;
- ``play.html?game=depot&players=3&seat=0&bots=greedy&seed=7``: a table; the link is the
  game (see :mod:`cardwidgets.site.query` for its parameters);
- ``lesson.html?id=depot/sets-and-runs``: a lesson.

Python (the engines, bots, lessons and the table model, ``cardwidgets.table``) runs in
Pyodide inside a Web Worker, so the page never freezes while a bot thinks; the page draws
with the same renderers as the notebook's tables. The site makes no request outside its
folder: Pyodide itself is in it (``pyodide/``, about 13.5 MB, shipped in the wheel), unless
``pyodide=`` points at a hosted copy of the same version.

A page holds the whole game in its visitor's browser: fine for lessons, bots and hot seat,
but no way to keep cards secret from the person at the screen.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import shutil
import zipfile
from importlib import util as importlib_util
from pathlib import Path
from typing import Any

from ..games import game_spec

PACKAGE = Path(__file__).resolve().parent.parent
STATIC = PACKAGE / "static"
#: The Pyodide files a page loads (the standard library only: the site needs no other package).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Parts of the package a page never imports: the Jupyter and app transports, the built front end
#: (copied apart), adapters and the fast lane that need packages Pyodide does not have here.
_LEFT_OUT = {"static", "app", "widgets", "envs", "fast", "__pycache__"}
_KEPT = {".py", ".json", ".md"}

#: The sentence every page says about hidden cards.
HONESTY = ("This page holds the whole game in your browser, every card included: it is fine for "
           "lessons, bots and hot seat, but it is no way to keep cards secret from the person at "
           "this screen.")


class SiteError(RuntimeError):
    """The site cannot be built (the front end or Pyodide is missing); the message says what to do."""


def pyodide_version() -> str:
    """The version of the Pyodide files shipped with the package (``""`` when they are missing)."""
    path = STATIC / "pyodide" / "VERSION"
    return path.read_text().strip() if path.exists() else ""


def build(out: str | os.PathLike[str], *, pyodide: str | None = None) -> Path:
    """Write the static site into the folder ``out`` (made if needed; the site's files in it
    are replaced) and return its path.

    ``pyodide`` is the address of a hosted copy of Pyodide (the version of
    :func:`pyodide_version`, a folder holding ``pyodide.mjs``) instead of the copy written
    into the site; the site then loads Python from there. Raises :class:`SiteError` when
    the package's front end was never built.
    """
    out = Path(out)
    manifest = STATIC / "manifest.json"
    page = STATIC / "site" / "page.js"
    if not manifest.exists() or not page.exists():
        raise SiteError("the cardwidgets front end is not built (cardwidgets/static is missing files); install "
                        "the package with `pip install -e .` or run `npm install && npm run build` in js/")
    if pyodide is None and not all((STATIC / "pyodide" / f).exists() for f in PYODIDE_FILES):
        raise SiteError("the Pyodide files are missing from cardwidgets/static/pyodide (run `npm install && "
                        "npm run build` in js/), or give the address of a hosted copy with pyodide=URL")
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    games = json.loads(manifest.read_text())["games"]
    for sub in ("static", "site", "py"):
        shutil.rmtree(out / sub, ignore_errors=True)
        (out / sub).mkdir()
    for game in games:
        for ext in ("js", "css"):
            shutil.copy2(STATIC / f"{game}.{ext}", out / "static" / f"{game}.{ext}")
    for f in (STATIC / "site").iterdir():
        shutil.copy2(f, out / "site" / f.name)
    if pyodide is None:
        shutil.rmtree(out / "pyodide", ignore_errors=True)
        (out / "pyodide").mkdir()
        for f in PYODIDE_FILES:
            shutil.copy2(STATIC / "pyodide" / f, out / "pyodide" / f)
        base = "pyodide/"
    else:
        base = pyodide if pyodide.endswith("/") else pyodide + "/"
    zips = {"py/cardwidgets.zip": _package_zip(), "py/traitlets.zip": _module_zip("traitlets")}
    for name, data in zips.items():
        (out / name).write_bytes(data)
    # A browser keeps a snapshot of Python's memory per build (see js/src/site/worker.js): a new
    # build (or Pyodide) starts afresh once.
    digest = hashlib.sha256(base.encode())
    for data in zips.values():
        digest.update(data)
    for name, title, heading in (("play", "A game — cardwidgets", "Starting the game"),
                                 ("lesson", "A lesson — cardwidgets", "Starting the lesson")):
        cfg = {"page": name, "pyodide": base, "files": list(zips), "bundles": "static/",
               "build": digest.hexdigest()[:16]}
        (out / f"{name}.html").write_text(_table_page(cfg, title, heading), encoding="utf-8")
    (out / "index.html").write_text(_index_page(games), encoding="utf-8")
    return out


# --------------------------------------------------------------------------- what Python gets
def _package_zip() -> bytes:
    """The cardwidgets package as the worker unpacks it: sources and data, no built front end."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(PACKAGE.rglob("*")):
            rel = path.relative_to(PACKAGE)
            if path.is_file() and path.suffix in _KEPT and not _LEFT_OUT & set(rel.parts):
                z.write(path, f"cardwidgets/{rel.as_posix()}")
    return buf.getvalue()


def _module_zip(name: str) -> bytes:
    """An installed pure-Python package (traitlets: the table model's only dependency), zipped."""
    spec = importlib_util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SiteError(f"{name} is not installed (pip install {name})")
    root = Path(next(iter(spec.submodule_search_locations)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" not in path.parts and "tests" not in path.relative_to(root).parts:
                z.write(path, f"{name}/{path.relative_to(root).as_posix()}")
    return buf.getvalue()


# --------------------------------------------------------------------------- the pages
def _json_script(node_id: str, data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="{node_id}">{text}</script>'


def _page(title: str, body: str, data: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="site/page.css">
{data}
<script type="module" src="site/page.js"></script>
</head>
<body class="cw-site">
<main>
{body}
</main>
</body>
</html>
"""


def _table_page(cfg: dict[str, Any], title: str, heading: str) -> str:
    body = f"""<p><a href="index.html">All games and lessons</a></p>
<h1 id="cw-heading">{html.escape(heading)}</h1>
<p id="cw-about" class="cw-note"></p>
<div id="cw-status" class="cw-status" role="status">Loading the page…</div>
<noscript><p class="cw-status" data-state="problem">This page needs JavaScript: Python runs in your browser.</p></noscript>
<div id="cw-table"></div>
<p class="cw-note">{html.escape(HONESTY)}</p>"""
    return _page(title, body, _json_script("cw-site", cfg))


def _text(value: Any) -> str:
    """A value as a link (and ``--option NAME=VALUE``) writes it: text that reads back as itself."""
    from ..core.spec import option_value

    if isinstance(value, str) and option_value(value) == value:
        return value
    return json.dumps(value, separators=(",", ":"))


def _choices(games: list[str]) -> dict[str, Any]:
    """What the chooser offers for each game, from each game's option form."""
    from ..bots import bot_names
    from ..core.spec import option_form

    out = []
    for game in games:
        spec = game_spec(game)
        modes = []
        for m in spec.modes:
            options = []
            for o in option_form(spec, m.name):
                entry = {k: o[k] for k in ("name", "label", "help", "input", "accepts", "default_label")}
                entry["text"] = _text(o["default"])
                if o["input"] == "choice":
                    entry["choices"] = [{"text": _text(c["value"]), "label": c["label"]} for c in o["choices"]]
                options.append(entry)
            modes.append({"name": m.name, "label": m.name.replace("_", " ").capitalize() + (f": {m.doc}" if m.doc else ""),
                          "players": list(m.players), "help": m.doc, "options": options})
        bots = [b for b in bot_names(game)]
        out.append({"name": game, "title": spec.title, "summary": spec.summary, "modes": modes, "bots": bots,
                    "default_bot": "greedy" if "greedy" in bots else bots[0]})
    return {"games": out}


def _index_page(games: list[str]) -> str:
    from .. import lessons
    from urllib.parse import quote

    parts = []
    for game in games:
        ids = lessons.available(game)
        if not ids:
            continue
        items = "".join(f'<li><a href="lesson.html?id={html.escape(quote(i, safe="/"))}">'
                        f"{html.escape(lessons.load(i).title)}</a></li>" for i in ids)
        parts.append(f"<h3>{html.escape(game_spec(game).title)}</h3><ul>{items}</ul>")
    body = f"""<h1>Card games to play and learn</h1>
<p class="cw-note">Choose a game and who plays it, then press Play. Everything runs in this browser tab:
nothing to install, and no network needed once the page is here.</p>
<p class="cw-note">{html.escape(HONESTY)}</p>
<h2 id="play">Play a game</h2>
<form id="cw-chooser" aria-labelledby="play"><p>The chooser needs JavaScript.</p></form>
<section class="cw-lessons" aria-labelledby="lessons">
<h2 id="lessons">Lessons</h2>
{"".join(parts)}
</section>"""
    return _page("cardwidgets: play and learn card games", body,
                 _json_script("cw-site", {"page": "index"}) + "\n" + _json_script("cw-choices", _choices(games)))


__all__ = ["HONESTY", "SiteError", "build", "pyodide_version"]
