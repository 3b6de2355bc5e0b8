"""The static site without a browser: the link's parameters, the builder's folder, the CLI."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from cardwidgets import cli, lessons
from cardwidgets.games import available_games
from cardwidgets.site import HONESTY, build, query
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
