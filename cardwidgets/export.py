"""A game as one self-contained HTML page that plays without Python.

``timeline.to_html(path, seat=None)``, ``Replay.to_html(path, seat=None)`` and
``table.to_html(path)`` write one file: the game's own table renderers (the same as
the live table), every line of play with each position as ``seat`` sees it
(``state.view(seat)``), the narration that seat may see, the notes, a scrubber
(buttons, a slider, the lines of play) and the keyboard (the left and right arrows
step, Home and End jump to the ends). The file holds its scripts, styles and data;
it loads nothing from anywhere (its content security policy forbids it).

What a file for seat ``k`` holds is what ``k`` saw: the views ``view(k)`` and the
narration lines ``k`` may see, at every position of every line, and the notes. No
seed, no deck order, no action list (an action can name a card given face down),
no other seat's hand. Two games that seat ``k`` cannot tell apart, at every
position, give byte-identical files. Notes are written by whoever annotated the
game and are shown as they are: write none that gives a hidden card away.

>>> from cardwidgets import Timeline, make
>>> tl = Timeline(make("depot", players=3, seed=11))
>>> _ = tl.step("play 3")
>>> data = export_data(tl, seat=1)
>>> data["seat"], [line["name"] for line in data["lines"]], len(data["lines"][0]["steps"])
(1, ['main'], 1)
>>> decode(data).view("main", 1) == tl.position(1).view(1)
True

The data (``export_data``) is JSON: ``strings`` (every narration line once),
``root`` (the first position's view and its narration, as string indexes),
``lines`` (each with ``name``, ``parent``, ``from``, ``length``, ``notes`` on its own
actions (those of the shared part are its parents') and one step per own position: ``[patch, narration]``, the patch taking the view of the
position before to this one) and ``start`` (the line and position shown first).
A patch is ``[value]`` (the new value), or an object of patches by key (by index,
for a list of the same length) when the keys stay the same; an unchanged view is
``{}``. :func:`decode` reads it back.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .core.errors import show
from .core.registry import game_spec
from .core.replay import Replay
from .core.timeline import Timeline
from .rules import as_json

__all__ = ["FORMAT", "VERSION", "Exported", "decode", "export_data", "read_html", "render_html", "write_html"]

FORMAT = "cardwidgets-export"
#: Raised when the data's layout changes (the page's player reads this version).
VERSION = 2
#: Where the build puts each game's static player (``js/build.mjs``).
STATIC = Path(__file__).resolve().parent / "static" / "export"

#: Nothing may be loaded from anywhere: the inline scripts and styles, and data: images.
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
       "font-src data:; base-uri 'none'; form-action 'none'")
DATA_ID = "cw-export-data"


# --------------------------------------------------------------------------- the data
def export_data(timeline: Timeline, seat: int | None = None) -> dict[str, Any]:
    """Every line of ``timeline`` as ``seat`` sees it (``None``: the teacher view), as JSON data.

    Parameters
    ----------
    timeline:
        The game, with its lines of play and notes.
    seat:
        The seat whose views and narration the data holds; ``None`` for everything.

    Returns
    -------
    dict
        The data the page plays (see the module docstring). It holds nothing but views
        ``view(seat)``, the narration ``seat`` may see, the notes and the lines' shape.
    """
    root = timeline.root
    seat = root.check_seat(seat)
    strings: dict[str, int] = {}

    def narration(n: int, line: str) -> list[int]:
        texts = [e.text for e in timeline.events(n, line) if e.text and e.visible_to(seat)]
        return [strings.setdefault(t, len(strings)) for t in texts]

    first = _plain(root.view(seat))
    lines = []
    # A seat's page leaves out the lines re-dealt for another seat (and those drawn on from them):
    # their new hands would tell it which cards that seat cannot hold (rule G5). A line branched
    # from one of them before its re-deal hangs from the nearest line kept: it shares those moves.
    parent_of: dict[str, str | None] = {}
    for info in timeline.branches:
        parent = info.parent
        if seat is not None and not timeline.redealt_for(info.length, info.name) <= {seat}:
            parent_of[info.name] = parent
            continue
        while parent in parent_of:
            parent = parent_of[parent]
        before = first if info.start == 0 else _plain(timeline.position(info.start, info.name).view(seat))
        steps = []
        for n in range(info.start + 1, info.length + 1):
            view = _plain(timeline.position(n, info.name).view(seat))
            patch = _diff(before, view)
            steps.append([{} if patch is None else patch, narration(n, info.name)])
            before = view
        lines.append({"name": info.name, "parent": parent, "from": info.start, "length": info.length,
                      "notes": {str(k): v for k, v in timeline.notes(info.name, own=True).items()}, "steps": steps})
    spec = game_spec(root.game)
    return {
        "format": FORMAT, "version": VERSION, "game": root.game, "title": spec.title, "seat": seat,
        "rules": as_json(root.game),
        "root": [first, narration(0, "main")],
        "lines": lines,
        "start": ({"branch": timeline.branch, "cursor": timeline.cursor} if timeline.branch not in parent_of
                  else {"branch": "main", "cursor": timeline.branches[0].length}),
        "strings": list(strings),
    }


def _plain(value: Any) -> Any:
    """A view as JSON reads it back (lists, not tuples), so that equal means equal in JSON."""
    return json.loads(json.dumps(value))


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def _diff(a: Any, b: Any) -> Any:
    """The patch from ``a`` to ``b``: ``None`` (the same), ``[b]``, or an object of patches.

    A dict is patched by key only when its keys stay the same, in the same order, and a list
    by index only when its length does: the patched value is then ``b`` exactly, key order
    included. A patch is kept only where it is shorter than ``b`` itself.
    """
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return [b]
        patch = {}
        for key, value in b.items():
            change = _diff(a[key], value)
            if change is not None:
                patch[key] = change
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [b]
        patch = {}
        for i, (x, y) in enumerate(zip(a, b)):
            change = _diff(x, y)
            if change is not None:
                patch[str(i)] = change
    else:
        # type first: in JSON true is not 1
        return None if type(a) is type(b) and a == b else [b]
    if not patch:
        return None
    return patch if _size(patch) < _size(b) + 2 else [b]


def _patch(base: Any, patch: Any) -> Any:
    """``base`` with ``patch`` applied (a new value; ``base`` is left as it is). A patch that
    does not fit ``base`` (read from a file: anything may stand there) is a ``ValueError``."""
    if isinstance(patch, list) and len(patch) == 1:
        return patch[0]
    if not isinstance(patch, dict):
        raise ValueError(f"a patch is [value] or an object of patches, got {show(patch)}")
    if isinstance(base, list):
        out = list(base)
        for key, change in patch.items():
            # digits only: int("-1") would patch from the end, and the page's player would not
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < len(out)):
                raise ValueError(f"the patch index {show(key)} is not an index of a list of {len(out)}")
            out[int(key)] = _patch(out[int(key)], change)
        return out
    if not isinstance(base, dict):
        raise ValueError(f"a patch by key or index does not apply to {show(base)}")
    out = dict(base)
    for key, change in patch.items():
        if key not in out:
            raise ValueError(f"the patch key {show(key)} is not a key of the value patched")
        out[key] = _patch(out[key], change)
    return out


# --------------------------------------------------------------------------- reading it back
class Exported:
    """What an exported file holds, read back: the views and narration of every position.

    ``data`` is the file's data; ``seat`` (``None``: the teacher view), ``game`` and ``lines``
    (name -> the line's data) come from it; :meth:`view`, :meth:`narration` and :meth:`notes`
    give what the page shows at a position.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        # version 1 held every note along a line, version 2 those of its own part: read alike
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") not in (1, VERSION):
            raise ValueError(f"not {FORMAT} data of version 1 or {VERSION}")
        _check(data)
        self.data = data
        self.lines: dict[str, dict[str, Any]] = {line["name"]: line for line in data["lines"]}
        self._views: dict[str, list[Any]] = {}
        for line in data["lines"]:  # a line's parent comes before it (checked): no cycle
            base = data["root"][0] if line["parent"] is None else self.view(line["parent"], line["from"])
            self._views[line["name"]] = out = []
            for i, (patch, _) in enumerate(line["steps"]):
                try:
                    base = _patch(base, patch)
                except (ValueError, RecursionError) as e:
                    raise ValueError(f"not {FORMAT} data: line {line['name']!r}, step {i}: {e}") from None
                out.append(base)

    @property
    def seat(self) -> int | None:
        return self.data["seat"]

    @property
    def game(self) -> str:
        return self.data["game"]

    def _owner(self, line: str, n: int) -> dict[str, Any] | None:
        """The line whose own steps hold position ``n`` of ``line`` (``None``: the start)."""
        ln: dict[str, Any] | None = self.lines[line]
        if not 0 <= n <= ln["length"]:
            raise IndexError(f"position {n}: the line {line!r} has positions 0..{ln['length']}")
        while ln is not None and n <= ln["from"]:
            ln = None if ln["parent"] is None else self.lines[ln["parent"]]
        return ln

    def view(self, line: str, n: int) -> Any:
        """The view shown at position ``n`` of ``line``."""
        ln = self._owner(line, n)
        return self.data["root"][0] if ln is None else self._views[ln["name"]][n - ln["from"] - 1]

    def narration(self, line: str, n: int) -> list[str]:
        """The narration lines shown at position ``n`` of ``line``, oldest first."""
        groups: list[list[int]] = []
        ln = self._owner(line, n)
        while ln is not None:
            groups += [step[1] for step in reversed(ln["steps"][: n - ln["from"]])]
            n = ln["from"]
            ln = None if ln["parent"] is None else self._owner(ln["parent"], n)
        groups.append(self.data["root"][1])
        strings = self.data["strings"]
        return [strings[i] for group in reversed(groups) for i in group]

    def notes(self, line: str) -> dict[int, str]:
        """The notes along ``line``: action index -> text (each line holds those of its own part)."""
        out: dict[int, str] = {}
        ln: dict[str, Any] | None = self.lines[line]
        limit = ln["length"]
        while ln is not None:
            for k, v in ln["notes"].items():
                if ln["from"] <= int(k) < limit:
                    out.setdefault(int(k), v)
            limit = ln["from"]
            ln = None if ln["parent"] is None else self.lines[ln["parent"]]
        return dict(sorted(out.items()))


def _check(data: dict[str, Any]) -> None:
    """Refuse data whose shape this reader cannot follow (``ValueError``, saying what is wrong):
    a file may hold anything, and a line whose parent came after it made :meth:`Exported.view`
    loop for ever (two lines each the other's parent)."""
    def bad(msg: str) -> ValueError:
        return ValueError(f"not {FORMAT} data: {msg}")

    strings = data.get("strings")
    if not isinstance(strings, list) or not all(isinstance(t, str) for t in strings):
        raise bad('"strings" must be a list of text')

    def narration(ids: Any, where: str) -> None:
        if not isinstance(ids, list) or not all(type(i) is int and 0 <= i < len(strings) for i in ids):
            raise bad(f"{where}: the narration must be a list of indexes into \"strings\"")

    seat = data.get("seat")
    if seat is not None and type(seat) is not int:
        raise bad(f'"seat" must be a seat number or null, got {show(seat)}')
    if not isinstance(data.get("game"), str):
        raise bad('"game" must be text')
    root = data.get("root")
    if not isinstance(root, list) or len(root) != 2:
        raise bad('"root" must be [view, narration]')
    narration(root[1], '"root"')
    lines = data.get("lines")
    if not isinstance(lines, list) or not lines:
        raise bad('"lines" must be a non-empty list of lines of play')
    length: dict[str, int] = {}
    for k, line in enumerate(lines):
        if not isinstance(line, dict) or not {"name", "parent", "from", "length", "notes", "steps"} <= set(line):
            raise bad(f'line #{k} must be an object of "name", "parent", "from", "length", "notes", "steps"')
        name, parent, start, steps = line["name"], line["parent"], line["from"], line["steps"]
        if not isinstance(name, str) or name in length:
            raise bad(f"line #{k}: the name {show(name)} is not a new name")
        if (parent is None) != (k == 0) or (parent is not None and parent not in length):
            raise bad(f"line {name!r}: the parent {show(parent)} is not an earlier line (only the first line "
                      f"has none)")
        top = 0 if parent is None else length[parent]
        if type(start) is not int or not 0 <= start <= top:
            raise bad(f'line {name!r}: "from" must be a position 0..{top} of its parent, got {show(start)}')
        if not isinstance(steps, list) or line["length"] != start + len(steps) or type(line["length"]) is not int:
            raise bad(f'line {name!r}: "length" must be "from" plus the number of steps')
        for i, step in enumerate(steps):
            if not isinstance(step, list) or len(step) != 2:
                raise bad(f"line {name!r}, step {i}: a step is [patch, narration]")
            narration(step[1], f"line {name!r}, step {i}")
        notes = line["notes"]
        if not isinstance(notes, dict) or not all(isinstance(n, str) and n.isascii() and n.isdigit()
                                                  and isinstance(v, str) for n, v in notes.items()):
            raise bad(f'line {name!r}: "notes" must map action indexes to text')
        length[name] = line["length"]


def decode(data: dict[str, Any]) -> Exported:
    """Read export data back (every view rebuilt from its patches); ``ValueError`` for data
    that is not what :func:`export_data` writes."""
    return Exported(data)


def read_html(path: str | Path) -> Exported:
    """The data of an exported file, read back: what the file shows, and nothing else."""
    text = Path(path).read_text(encoding="utf-8")
    m = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', text, re.S)
    if m is None:
        raise ValueError(f"{Path(path).name} is not a page written by cardwidgets' to_html")
    try:
        data = json.loads(m.group(1))
    except (ValueError, RecursionError) as e:  # RecursionError: "[[[[..." past what the decoder follows
        raise ValueError(f"{Path(path).name}: the page's data is not valid JSON ({e})") from None
    return decode(data)


# --------------------------------------------------------------------------- the page
def _player(game: str) -> tuple[str, str]:
    """The built static player of a game: its script and its styles."""
    out = []
    for ext in ("js", "css"):
        path = STATIC / f"{game}.{ext}"
        if not path.is_file():
            raise FileNotFoundError(
                f"the cardwidgets front end is not built (static/export/{path.name} is missing); install the "
                f"package with `pip install -e .` (it runs the npm build) or run `npm ci && npm run build` in js/")
        out.append(path.read_text(encoding="utf-8"))
    return out[0], out[1]


def _inline(text: str, tag: str) -> str:
    """Text that may stand inside a ``<script>`` or ``<style>`` element without ending it."""
    if tag == "script":
        if "<!--" in text:  # would change how the page's parser reads the script; no rewrite is safe
            raise ValueError("the player's script holds '<!--', which cannot be inlined")
        # "<\/script" is the same string (or regex) in JS as "</script", which would end the element
        return re.sub(r"</(script)", r"<\\/\1", text, flags=re.I)
    if re.search(r"</style", text, re.I):
        raise ValueError("the player's styles hold '</style', which cannot be inlined")
    return text


def render_html(data: dict[str, Any]) -> str:
    """The page for export data (see :func:`export_data`): one string, nothing to fetch."""
    script, styles = _player(data["game"])
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # "<" only ever stands inside JSON strings, where \\u003c reads back as the same text: the
    # data can then never close its <script> element, whatever the notes and names say.
    payload = payload.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    who = "teacher view" if data["seat"] is None else f"as seen by {_seat_name(data)}"
    title = _escape(f"{data['title']} replay ({who})")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="cardwidgets">',
        f"<title>{title}</title>",
        f"<style>\n{_inline(styles, 'style')}\n</style>",
        "</head>",
        '<body style="margin: 0">',
        f'<div id="cw-export" class="cw-export-page" data-game="{_escape(data["game"])}">'
        "<noscript>This replay is drawn by JavaScript: allow scripts for this file to see it.</noscript></div>",
        f'<script type="application/json" id="{DATA_ID}">{payload}</script>',
        f"<script>\n{_inline(script, 'script')}\n</script>",
        "</body>",
        "</html>",
        "",
    ])


def _seat_name(data: dict[str, Any]) -> str:
    names = data["root"][0].get("names") or []
    seat = data["seat"]
    return str(names[seat]) if seat < len(names) else chr(ord("A") + seat)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_html(timeline: Timeline | Replay, path: str | Path, seat: int | None = None) -> Path:
    """Write ``timeline`` (or a replay, played first) as one self-contained page for ``seat``
    (``None``: the teacher view).

    Returns the path written. Raises ``ValueError`` for a seat the game does not have,
    ``FileNotFoundError`` when the front end was never built and ``ReplayError`` for a bad
    replay.
    """
    if isinstance(timeline, Replay):
        timeline = Timeline.from_replay(timeline)
    page = render_html(export_data(timeline, seat))
    out = Path(path)
    out.write_bytes(page.encode("utf-8"))  # the same bytes on every system (no newline translation)
    return out
