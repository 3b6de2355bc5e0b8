"""The static site without a browser: the link's parameters, the builder's folder, the CLI."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from cardwidgets import cli, lessons
from cardwidgets.games import available_games
from cardwidgets.site import HONESTY, build
from cardwidgets.site.query import QueryError, lesson_id, table_arguments

STATIC = Path(__file__).resolve().parent.parent / "cardwidgets" / "static"
built = pytest.mark.skipif(not (STATIC / "site" / "page.js").exists() or not (STATIC / "pyodide").exists(),
                           reason="the front end is not built (npm run build in js/)")


@pytest.mark.parametrize("q, param", [
    ("players=3", "game"),
    ("game=chess", "game"),
    ("game=depot&players=9", "players"),
    ("game=depot&players=three", "players"),
    ("game=depot&games=7", "games"),
    ("game=depot&no_such=1", "no_such"),
    ("game=depot&seat=D", "seat"),
    ("game=depot&seat=0&hotseat=true", "seat"),
    ("game=depot&bots=chess_engine", "bots"),
    ("game=depot&bots=greedy,greedy", "bots"),
    ("game=depot&seat=1&bots=,greedy,", "seat"),
    ("game=depot&bot_delay=99", "bot_delay"),
    ("game=depot&hotseat=maybe", "hotseat"),
    ("game=depot&names=Ann,Bob", "names"),
    ("game=depot&seed=1&seed=2", "seed"),
    ("game=yadokarick&mode=nope", "mode"),
])
def test_a_bad_link_names_its_parameter(q, param):
    with pytest.raises(QueryError) as e:
        table_arguments(q)
    assert e.value.param == param
    assert e.value.message and str(e.value).startswith(f"{param}: ")


def test_a_link_is_the_tables_arguments_written_as_the_cli_writes_them():
    game, kw = table_arguments("?game=cirno_neu&players=4&seat=B&bots=greedy&seed=7&bot_delay=0.3"
                               "&life_system=true&shot_resume=after_target&limit=50")
    assert game == "cirno_neu"
    assert kw == {"players": 4, "seed": 7, "seat": 1, "bots": "greedy", "bot_delay": 0.3,
                  "life_system": True, "shot_resume": "after_target", "limit": 50}
    game, kw = table_arguments("game=crypto_trick&players=4&hotseat=true&bots=,,,random&names=Ann,Bob,Cy,Di")
    assert kw == {"players": 4, "hotseat": True, "bots": {3: "random"}, "names": ["Ann", "Bob", "Cy", "Di"]}
    # the same parser as the command line's --option and --seat
    assert cli.option_value("[1, 2]") == [1, 2] and cli.option_value("after_target") == "after_target"
    assert cli.seat_number("c", 3) == 2


def test_a_lesson_link_names_a_lesson_the_library_has():
    assert lesson_id("id=depot/sets-and-runs") == "depot/sets-and-runs"
    for q, param in (("", "id"), ("id=depot/nope", "id"), ("id=depot/sets-and-runs&x=1", "x")):
        with pytest.raises(QueryError) as e:
            lesson_id(q)
        assert e.value.param == param


@built
def test_build_writes_a_folder_with_relative_urls_only(tmp_path):
    out = build(tmp_path / "site")
    for page in ("index.html", "play.html", "lesson.html"):
        text = (out / page).read_text()
        urls = re.findall(r'(?:href|src)="([^"]*)"', text)
        assert urls and all("://" not in u and not u.startswith("/") for u in urls), urls
        assert HONESTY in text
        cfg = json.loads(re.search(r'id="cw-site">(.*?)</script>', text).group(1))
        for f in cfg.get("files", []):
            assert (out / f).is_file()
    for f in ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
              "site/page.js", "site/worker.js", *(f"static/{g}.js" for g in available_games())):
        assert (out / f).is_file(), f
    names = zipfile.ZipFile(out / "py" / "cardwidgets.zip").namelist()
    assert "cardwidgets/site/_worker.py" in names and "cardwidgets/lessons/depot/sets-and-runs.json" in names
    # the Jupyter transport and the built front end stay out of Python's files
    assert not [n for n in names if n.startswith(("cardwidgets/widgets/", "cardwidgets/static/"))]
    assert "traitlets/__init__.py" in zipfile.ZipFile(out / "py" / "traitlets.zip").namelist()
    index = (out / "index.html").read_text()
    for lesson in lessons.available():
        assert f'lesson.html?id={lesson}"' in index
    choices = json.loads(re.search(r'id="cw-choices">(.*?)</script>', index).group(1).replace("<\\/", "</"))
    assert [g["name"] for g in choices["games"]] == available_games()
    depot = choices["games"][0]
    assert all(o["label"] and o["text"] for o in depot["modes"][0]["options"])


@built
def test_a_hosted_pyodide_is_not_copied(tmp_path):
    out = build(tmp_path / "site", pyodide="https://example.org/pyodide/v314")
    assert not (out / "pyodide").exists()
    assert '"pyodide":"https://example.org/pyodide/v314/"' in (out / "play.html").read_text()


@built
def test_the_site_command(tmp_path, capsys):
    assert cli.main(["site", str(tmp_path / "out")]) == 0
    said = capsys.readouterr().out
    assert "index.html" in said and "MB" in said
    assert (tmp_path / "out" / "index.html").is_file()
    (tmp_path / "file").write_text("x")
    assert cli.main(["site", str(tmp_path / "file")]) == cli.FAILED


# --------------------------------------------------------------------------- the worker's transport
class _Page:
    """What worker.js does with the worker's messages: keep them, decoded."""

    def __init__(self) -> None:
        self.got: list[tuple[str, dict]] = []

    def __call__(self, kind: str, text: str) -> None:
        self.got.append((kind, json.loads(text)))

    def last(self, kind: str) -> dict:
        return [m for k, m in self.got if k == kind][-1]


@pytest.fixture
def worker(monkeypatch):
    import asyncio

    from cardwidgets.site import _worker

    loop = asyncio.new_event_loop()
    monkeypatch.setattr(asyncio, "get_event_loop", lambda: loop)  # as Pyodide's web loop
    monkeypatch.setattr(_worker, "_table", None)
    yield _worker
    loop.close()


def test_the_worker_sends_the_first_paint_and_each_move(worker):
    page = _Page()
    worker.start("play", "game=depot&players=3&seed=7", page)
    ready = page.last("ready")
    assert ready["game"] == "depot" and ready["title"] == "Depot"
    values = ready["values"]
    assert values["history_len"] == 0 and values["seat"] is None and values["legal"]
    # JSON as the page reads it: every synced value of the model
    assert set(values) == set(worker._table.synced_names())
    action = values["legal"][0]
    worker.handle(json.dumps({"kind": "msg", "seq": 5, "content": {"type": "act", "action": action}}))
    changes = [m["values"] for k, m in page.got if k == "changes"]
    assert changes and changes[-1]["history_len"] == 1
    assert page.got[-1] == ("answered", {"seq": 5})
    # a refused move: the reason, nothing else changes
    worker.handle(json.dumps({"kind": "msg", "seq": 6, "content": {"type": "act", "action": "play 9 9 9"}}))
    assert page.last("changes")["values"].get("last_error") and worker._table.history_len == 1


def test_the_worker_refuses_a_write_and_sends_the_value_back(worker):
    page = _Page()
    worker.start("play", "game=depot&players=3&seat=0&seed=1", page)
    worker.handle(json.dumps({"kind": "state", "values": {"seat": None}}))
    back = page.last("changes")["values"]
    assert back["seat"] == 0 and "Refused" in back["last_error"]
    assert worker._table.seat == 0


def test_the_worker_paces_the_bots_on_the_event_loop(worker):
    import asyncio

    page = _Page()
    worker.start("play", "game=depot&players=3&seat=0&bots=greedy&seed=1&bot_delay=0.01", page)
    action = page.last("ready")["values"]["legal"][0]
    worker.handle(json.dumps({"kind": "msg", "seq": 1, "content": {"type": "act", "action": action}}))
    assert worker._table.history_len == 1 and worker._table.thinking  # the bots wait their pace
    loop = asyncio.get_event_loop()
    loop.run_until_complete(asyncio.sleep(0.2))
    assert worker._table.history_len >= 3
    assert page.last("changes")["values"].get("thinking") is False or not worker._table.thinking


def test_the_worker_names_a_bad_parameter_and_starts_a_lesson(worker):
    page = _Page()
    worker.start("play", "game=depot&players=3&seat=1&bots=greedy,greedy,", page)
    assert page.last("problem")["param"] == "seat"
    worker.start("play", "game=depot&players=3&names=Ann,ann,Cy", page)
    assert page.last("problem")["param"] == "names"
    worker.start("lesson", "id=nope", page)
    assert page.last("problem")["param"] == "id"
    worker.start("lesson", "id=depot/sets-and-runs", page)
    ready = page.last("ready")
    assert ready["game"] == "depot" and ready["values"]["lesson"]["id"] == "depot/sets-and-runs"


def test_the_worker_imports_nothing_of_jupyter():
    """What a page's Python imports (the worker, the table model, every game, mode and bot) loads
    neither ipywidgets, anywidget nor IPython: none of them is in the page."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from cardwidgets.site import _worker\n"
            "from cardwidgets.games import available_games\n"
            "from cardwidgets.bots import bot_names, make_bot\n"
            "from cardwidgets.table import game_model, lesson_model\n"
            "for g in available_games():\n"
            "    game_model(g)\n"
            "    [make_bot(g, b) for b in bot_names(g)]\n"
            "lesson_model('depot/sets-and-runs')\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'ipywidgets', 'anywidget', 'IPython', 'comm'}))\n")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120,
                         env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_without_the_built_front_end_the_site_says_what_to_do(tmp_path, monkeypatch):
    import cardwidgets.site as site

    monkeypatch.setattr(site, "STATIC", tmp_path / "static")
    with pytest.raises(site.SiteError, match="npm run build"):
        site.build(tmp_path / "out")
    assert cli.main(["site", str(tmp_path / "out")]) == cli.FAILED


def test_the_worker_compiles_the_package_for_the_next_visit(tmp_path):
    import io
    import sys

    from cardwidgets.site._worker import compiled

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("X = 1\n")
    names = zipfile.ZipFile(io.BytesIO(compiled(str(tmp_path)))).namelist()
    tag = sys.implementation.cache_tag
    assert names == [f"pkg/__pycache__/__init__.{tag}.pyc"]
