"""The documentation site builds with warnings as errors, and what it promises is there.

The build is the documented command (``python -m sphinx -W --keep-going -n -b html docs
<out>``), run once for this module into a temporary folder. Then every relative link and
``#anchor`` of the built HTML must point at an existing file and id (external links are not
fetched), every rule has its anchor, and the generated pages hold what they are made from.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import cardwidgets
from cardwidgets import Timeline, lessons, rules
from cardwidgets.games import available_games

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from cwdocs import generate  # noqa: E402


class _Page(HTMLParser):
    """The ids and the links (href, src) of one HTML file."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []  # (tag, url)
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.ids.add(values[key])  # type: ignore[arg-type]
        for key in ("href", "src"):
            if values.get(key) is not None:
                self.links.append((tag, values[key]))  # type: ignore[arg-type]
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _words(text: str) -> str:
    """Text with runs of space as one space and typographic quotes (Sphinx's) as plain ones."""
    return " ".join(text.translate(_QUOTES).split())


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site once: ``(html folder, build log)``."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html",
           "-d", str(out / "doctrees"), "docs", str(out / "html")]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log[-6000:]
    return out / "html", log


@pytest.fixture(scope="module")
def pages(site):
    html, _ = site
    return {p.relative_to(html).as_posix(): _read(p) for p in html.rglob("*.html")}


def test_build_has_no_warning(site):
    _, log = site
    assert "build succeeded" in log
    assert "WARNING" not in "\n".join(line for line in log.splitlines() if "IPKernelApp" not in line)


def test_every_internal_link_and_anchor_resolves(site, pages, report):
    html, _ = site
    broken, checked = [], 0
    for name, page in pages.items():
        for tag, url in page.links:
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("mailto:", "data:", "javascript:")):
                continue  # external: not fetched
            target = (html / name).parent / unquote(parts.path) if parts.path else html / name
            if parts.path.endswith("/") or target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.resolve().is_file():
                broken.append(f"{name}: <{tag}> {url} (no file)")
                continue
            if parts.fragment and target.suffix == ".html":
                rel = target.resolve().relative_to(html.resolve()).as_posix()
                if unquote(parts.fragment) not in pages[rel].ids:
                    broken.append(f"{name}: <{tag}> {url} (no id {parts.fragment!r} in {rel})")
    report("docs site", "all", internal_links=checked, pages=len(pages))
    assert checked > 1000
    assert not broken, broken[:30]


@pytest.mark.parametrize("name", [*rules.games(), rules.CORE])
def test_every_rule_has_its_anchor(pages, name):
    page = pages[f"rules/{name}.html"]
    missing = [rid for rid in rules.rules(name) if rid not in page.ids]
    assert not missing
    for rid, rule in rules.rules(name).items():
        path, anchor = rules.url(rid, game=name).split("#")
        assert path == f"rules/{name}.html" and anchor == rid
        assert rule.title in _words("".join(page.text))


def test_rule_ids_in_the_text_link_to_their_rule(pages):
    """D4.2's text cites D4.3 and D4.4; those become links to their anchors."""
    page = pages["rules/depot.html"]
    links = {url for tag, url in page.links if tag == "a"}
    assert {"#D3.4", "#D10.5", "#DA-3"} <= links
    assert any(url == "../rules/cirno_neu.html#N4.3" for _, url in pages["lessons/cirno_neu.html"].links)


def test_rules_url_points_into_the_built_site(site, pages):
    for name in [*rules.games(), rules.CORE]:
        for rid in rules.rules(name):
            path, anchor = rules.url(rid, game=name).split("#")
            assert anchor in pages[path].ids, rid
    html, _ = site
    assert (html / rules.url("D4.2").split("#")[0]).is_file()


@pytest.mark.parametrize("game", available_games())
def test_lessons_page_holds_every_lesson_and_step(site, pages, game):
    ids = lessons.available(game)
    _, log = site
    if not ids:
        assert f"lessons/{game}.html" not in pages
        assert f"no lessons for {game} yet" in log
        return
    text = _words("".join(pages[f"lessons/{game}.html"].text))
    for lesson_id in ids:
        lesson = lessons.load(lesson_id)
        assert _words(lesson.title) in text
        assert lesson_id in text
        for rid in lesson.rules:
            assert rid in text
        for step in lesson.steps:
            assert _words(step.say) in text, (lesson_id, step.say)
    assert f"{game}.html" in {url for _, url in pages["lessons/index.html"].links}


def test_some_game_has_lessons():
    assert any(lessons.available(g) for g in available_games())


def test_every_game_has_an_embedded_replay(site, pages):
    html, _log = site
    assert "api/export.html" in pages
    for game in available_games():
        frames = [url for tag, url in pages[f"replays/{game}.html"].links if tag == "iframe"]
        assert frames == [f"{game}-replay.html"]
        exported = (html / "replays" / frames[0]).read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']https?:""", exported)  # self-contained


def test_every_game_and_lesson_page_embeds_a_live_table(site, pages):
    """The rules page of each game and the lessons page of each game embed a table of the static
    site (built by the same command, cardwidgets.site.build) whose link the site reads; every
    lesson links to its own live page; the pages say the game lives in the visitor's browser."""
    from cardwidgets.site.query import lesson_id, table_arguments

    html, _log = site
    assert (html / "play" / "index.html").is_file() and (html / "play" / "pyodide" / "pyodide.asm.wasm").is_file()
    for game in available_games():
        frames = [url for tag, url in pages[f"rules/{game}.html"].links if tag == "iframe"]
        assert len(frames) == 1 and frames[0].startswith("../play/play.html?"), frames
        assert table_arguments(urlsplit(frames[0]).query)[0] == game
        assert "no way to keep cards secret" in _words(" ".join(pages[f"rules/{game}.html"].text))
        ids = lessons.available(game)
        if not ids:
            continue
        page = pages[f"lessons/{game}.html"]
        frames = [url for tag, url in page.links if tag == "iframe"]
        assert frames == [f"../play/lesson.html?id={ids[0]}"]
        linked = [lesson_id(urlsplit(url).query) for tag, url in page.links
                  if tag == "a" and url.startswith("../play/lesson.html?")]
        assert set(ids) <= set(linked)


def test_notebooks_are_executed(pages):
    names = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert names
    for name in names:
        page = pages[f"notebooks/{name}.html"]
        text = "".join(page.text)
        # The tables show their static fallback: the text table of what the viewer may see.
        assert "Traceback" not in text
        assert any(tag == "img" and url.startswith("../_images/") for tag, url in page.links) or name != "depot"
    depot = _words("".join(pages["notebooks/depot.html"].text))
    assert "A leads" in depot and "win rate" in depot and "95% interval" in depot


def test_getting_started_examples_ran(pages):
    text = _words("".join(pages["getting-started.html"].text))
    assert "A leads [2] (single; limits: set 1, run 1) — rule D4.8." in text
    assert "Illegal: rule D4.2 — [1,8] is neither a set nor a run" in text
    assert "Sets and runs -> rules/depot.html#D4.2" in text
    assert "['main', 'branch-1']" in text
    assert "Storage" in text and "B 9 cards (hidden)" in text  # seat A's view of the first table


API = [
    "cardwidgets.make",
    "cardwidgets.core.state.State",
    "cardwidgets.core.state.State.legal_actions",
    "cardwidgets.core.spec.GameSpec",
    "cardwidgets.core.timeline.Timeline",
    "cardwidgets.core.timeline.Timeline.step",
    "cardwidgets.core.replay.Replay",
    "cardwidgets.core.position.from_position",
    "cardwidgets.core.position.PositionError",
    "cardwidgets.core.errors.IllegalActionError",
    "cardwidgets.bots.make_bot",
    "cardwidgets.sim.simulate",
    "cardwidgets.envs.pettingzoo_env",
    "cardwidgets.envs.register_openspiel",
    "cardwidgets.lessons.load",
    "cardwidgets.lessons.available",
    "cardwidgets.rules.lookup",
    "cardwidgets.rules.url",
    "cardwidgets.widgets.TableWidget",
]


def test_api_reference_documents_the_public_names(pages):
    ids = set().union(*(p.ids for name, p in pages.items() if name.startswith("api/")))
    names = API + [f"cardwidgets.games.{g}.new_game" for g in available_games()]
    names += [f"cardwidgets.widgets.{cardwidgets.game_spec(g).table}" for g in available_games()]
    missing = [n for n in names if n not in ids]
    assert not missing


# --------------------------------------------------------------------------- the generators alone
@pytest.mark.parametrize("text", [
    "Play [5] *now* (D4.2)", "1. not a list", "# not a heading", "% not a comment", "a_b_c <b>x</b> `y`",
    "{rule}`D4.2` | pipes | and \\ backslashes", "(label)= and $x$ and ~~strike~~",
])
def test_escaped_text_reads_back_as_itself(text):
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parseInline(generate.escape(text))
    plain = "".join(t.content for t in tokens[0].children if t.type in ("text", "text_special"))
    assert plain == text


def test_replay_pages_embed_the_export(tmp_path, monkeypatch):
    """The replay generator against the export's contract, ``Timeline.to_html(path, seat=None)``."""
    calls = []

    def to_html(self, path, seat=None):
        calls.append((self.state.game, seat, self.state.is_terminal))
        Path(path).write_text(f"<!doctype html><title>{self.state.game}</title>", encoding="utf-8")

    monkeypatch.setattr(Timeline, "to_html", to_html, raising=False)
    made = generate.replay_pages(tmp_path)
    assert made.pages == [f"replays/{g}" for g in available_games()]
    assert [c[0] for c in calls] == available_games() and all(c[1] is None for c in calls)
    for game in available_games():
        page = (tmp_path / "replays" / f"{game}.md").read_text(encoding="utf-8")
        assert f'<iframe class="cw-replay" src="{game}-replay.html"' in page
        assert (tmp_path / "_generated" / "extra" / "replays" / f"{game}-replay.html").is_file()


def test_replay_games_end_and_have_a_branch():
    for game in available_games():
        timeline = generate.play_out(game, generate.REPLAYS[game])
        assert timeline.state.is_terminal and timeline.branch == "main"
        assert [b.name for b in timeline.branches] == ["main", "branch-1"]
        assert timeline.notes()


@pytest.mark.parametrize("game, text, linked", [
    ("depot", "C passes (D6): takes both 5s, see D4.2 and DA-7.", ["D6", "D4.2", "DA-7"]),
    ("crypto_trick", "S1 wins with G3 (C7.2); Y3 is a block (C1.3).", ["C7.2", "C1.3"]),  # G3, Y3: cards
    ("yadokarick", "B plays G3 and P12 (rules Y5.1, Y5.2).", ["Y5.1", "Y5.2"]),
    ("depot", "Nothing cited here: 5 5 and N4.3 of another game.", []),
])
def test_rule_citations_become_links_and_cards_stay_text(game, text, linked):
    from cwdocs import _split

    pieces = _split(text, game)
    links = [] if pieces is None else [p.astext() for p in pieces if p.tagname == "reference"]
    assert links == linked
    if pieces is not None:
        assert "".join(p.astext() for p in pieces) == text
        assert all(p["cw_rule"] == f"rules/{game}#{p.astext()}" for p in pieces if p.tagname == "reference")
