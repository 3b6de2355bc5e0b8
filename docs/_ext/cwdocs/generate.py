"""The generated pages of the documentation site, written as MyST Markdown.

Plain Python (no Sphinx): each function writes its pages under the docs source folder
and says what it wrote, so the tests can call them directly. A file is only rewritten
when its text changes, which keeps Sphinx's incremental builds incremental.

* :func:`rules_pages`: one page per rules reference (every game and ``core``), the
  reference file shipped in ``cardwidgets.rules`` as it is; the Sphinx side gives every
  rule heading the anchor named by its ID.
* :func:`lessons_pages`: one page per game that has lessons, from ``cardwidgets.lessons``.
* :func:`notebook_copies`: the notebooks of ``notebooks/``, copied to be executed.
* :func:`replay_pages`: one exported replay per game (``Timeline.to_html``), embedded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

@dataclass
class Written:
    """What a generator produced: the page names (docnames) and the notes for the build log."""

    pages: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def write_if_changed(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that; say if it wrote."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def _prune(folder: Path, keep: set[str], pattern: str) -> None:
    """Remove generated files that a previous build wrote and this one did not."""
    if folder.is_dir():
        for old in folder.glob(pattern):
            if old.name not in keep and old.name != "index.md":
                old.unlink()


_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")


def escape(text: str) -> str:
    """Plain text as Markdown that reads back as the same text (one paragraph).

    CommonMark lets a backslash escape any ASCII punctuation, so every one is escaped:
    lesson texts use brackets, stars and leading numbers that would otherwise be markup.

    >>> escape("Play [5] *now* (D4.2)")
    'Play \\\\[5\\\\] \\\\*now\\\\* \\\\(D4\\\\.2\\\\)'
    """
    return _PUNCT.sub(r"\\\1", " ".join(text.split()))


def toctree(entries: list[str], *, maxdepth: int = 1) -> str:
    """A MyST toctree block listing ``entries`` (page names relative to the including page)."""
    lines = "\n".join(entries)
    return f"```{{toctree}}\n:maxdepth: {maxdepth}\n\n{lines}\n```\n"


# --------------------------------------------------------------------------- live tables
#: Where the static site (``cardwidgets site``) goes in the built docs: ``<html>/play/``.
LIVE = "play"
#: What every live table's page says: the whole game lives in the visitor's browser.
LIVE_NOTE = ("It runs in your browser (Python in the page, through Pyodide; the first visit loads about "
             "14 MB), with no server and no network. The page holds the whole game in your browser, every "
             "card included: fine for learning and playing against bots, but no way to keep cards secret "
             "from the person at the screen.")


def live_site(src: Path) -> Written:
    """Write the static site (``cardwidgets.site.build``, the command ``cardwidgets site``) into
    the extra files, so that the game and lesson pages embed tables that play."""
    from cardwidgets.site import build

    build(src / "_generated" / "extra" / LIVE)
    return Written()


def live_table(link: str, title: str, *, depth: int = 1) -> str:
    """A raw HTML block: a live table of the static site (``play.html?...`` or ``lesson.html?id=...``)."""
    href = f"{'../' * depth}{LIVE}/{link}"
    return "\n".join([
        "```{raw} html",
        f'<iframe class="cw-live" src="{escape_attr(href)}" title="{escape_attr(title)}" loading="lazy"></iframe>',
        f'<p><a href="{escape_attr(href)}">Open it on its own page</a></p>',
        "```",
        "",
    ])


def escape_attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


#: The table each game's rules page embeds: a seat against the computer, at a person's pace.
def _live_link(game: str) -> str:
    from cardwidgets.bots import bot_names
    from cardwidgets.games import game_spec

    mode = game_spec(game).modes[0]
    bot = "greedy" if "greedy" in bot_names(game) else "random"
    players = 3 if 3 in mode.players else mode.players[0]
    return f"play.html?game={game}&players={players}&seat=0&bots={bot}"


# --------------------------------------------------------------------------- rules
def rules_pages(src: Path) -> Written:
    """Write ``rules/<name>.md`` for every game's reference and for the core rules."""
    from cardwidgets import rules

    out = Written()
    names = [*rules.games(), rules.CORE]
    for name in names:
        text = resources.files("cardwidgets.rules").joinpath(f"{name}.md").read_text(encoding="utf-8")
        title, _, body = text.partition("\n")
        first = next(iter(rules.rules(name)))
        note = (f"Every rule has an anchor named by its ID: "
                f"`rules/{name}.html#{first}`, which `cardwidgets.rules.url(\"{first}\")` "
                f"returns. This page is generated from the reference shipped with the library "
                f"(`cardwidgets.rules`).\n")
        live = ""
        if name != rules.CORE:
            from cardwidgets.games import game_spec

            live = (f"Play it here, seat A against the computer (the page's first link leads to every "
                    f"game, its options and its lessons). {LIVE_NOTE}\n\n"
                    + live_table(_live_link(name), f"A live table: {game_spec(name).title}") + "\n")
        write_if_changed(src / "rules" / f"{name}.md", f"{title}\n\n{note}\n{live}{body.lstrip()}")
        out.pages.append(f"rules/{name}")
    _prune(src / "rules", {f"{n}.md" for n in names}, "*.md")
    write_if_changed(src / "_generated" / "rules-toc.md", toctree(names))
    return out


# --------------------------------------------------------------------------- lessons
def _lesson_md(lesson: Any, number: int) -> str:
    rules = ", ".join(f"{{rule}}`{lesson.game}:{r}`" for r in lesson.rules) or "none"
    parts = [
        f"({_label('lesson', lesson.id)})=",
        f"## {number}. {escape(lesson.title)}",
        "",
        f"Lesson `{lesson.id}` · {len(lesson.steps)} "
        f"{'step' if len(lesson.steps) == 1 else 'steps'} · rules {rules}",
        "",
    ]
    if lesson.intro:
        parts += [escape(lesson.intro), ""]
    parts += [f"{i}. {escape(step.say)}" for i, step in enumerate(lesson.steps, start=1)]
    href = escape_attr(f"../{LIVE}/lesson.html?id={lesson.id}")
    parts += ["", "```{raw} html", f'<p><a href="{href}">Play this lesson in your browser</a></p>', "```", ""]
    if lesson.outro:
        parts += [f"*{escape(lesson.outro)}*", ""]
    return "\n".join(parts)


def _label(kind: str, ident: str) -> str:
    return f"{kind}-" + re.sub(r"[^a-z0-9]+", "-", ident.lower()).strip("-")


def lessons_pages(src: Path) -> Written:
    """Write ``lessons/<game>.md`` for every game with lessons (title, rules, prompts)."""
    import cardwidgets
    from cardwidgets.games import available_games, game_spec

    from cardwidgets import lessons

    out = Written()
    how = ("`cardwidgets.lesson(id)` opens a lesson on a table; "
           if hasattr(cardwidgets, "lesson") else "")
    for game in available_games():
        ids = lessons.available(game)
        if not ids:
            out.notes.append(f"no lessons for {game} yet: its page is left out")
            continue
        title = game_spec(game).title
        head = [
            f"# {escape(title)} lessons",
            "",
            f"{len(ids)} lessons, in teaching order. Each starts from a position built for "
            f"it and asks you for one move per step; a wrong move is explained and changes "
            f"nothing. {how}`cardwidgets.lessons.load(id).start()` runs one without a table "
            f"(`run.prompt`, `run.attempt(\"<move>\")`, `run.hint()`).",
            "",
        ]
        first = lessons.load(ids[0])
        head += [f"The first lesson, live: play it here (every lesson below has its own page on the "
                 f"site, linked under its title). {LIVE_NOTE}", "",
                 live_table(f"lesson.html?id={first.id}", f"A live lesson: {first.title}")]
        body = [_lesson_md(lessons.load(i), n) for n, i in enumerate(ids, start=1)]
        write_if_changed(src / "lessons" / f"{game}.md", "\n".join(head + body))
        out.pages.append(f"lessons/{game}")
    _prune(src / "lessons", {f"{p.split('/')[1]}.md" for p in out.pages}, "*.md")
    write_if_changed(src / "_generated" / "lessons-toc.md",
                     toctree([p.split("/")[1] for p in out.pages]))
    return out


# --------------------------------------------------------------------------- notebooks
def notebook_copies(src: Path, notebooks: Path) -> Written:
    """Copy ``notebooks/*.ipynb`` to ``docs/notebooks/`` (MyST-NB executes them there)."""
    from cardwidgets.games import available_games

    out = Written()
    found = {p.stem: p for p in notebooks.glob("*.ipynb")}
    # The games' notebooks in the registry's order, then any other notebook.
    order = [g for g in available_games() if g in found] + sorted(set(found) - set(available_games()))
    for name in order:
        dest = src / "notebooks" / f"{name}.ipynb"
        data = found[name].read_bytes()
        if not dest.exists() or dest.read_bytes() != data:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        out.pages.append(f"notebooks/{name}")
    _prune(src / "notebooks", {f"{n}.ipynb" for n in order}, "*.ipynb")
    write_if_changed(src / "_generated" / "notebooks-toc.md", toctree(order))
    return out


# --------------------------------------------------------------------------- replays
#: The game each replay page shows: players, options, and a seed whose game is worth watching.
REPLAYS: dict[str, dict[str, Any]] = {
    "depot": {"players": 4, "seed": 2026},
    "cirno_neu": {"players": 3, "seed": 7},
    "crypto_trick": {"players": 3, "seed": 5},
    "yadokarick": {"players": 4, "seed": 7, "rounds": 1},
}
#: Longest game exported (moves): a safety net, the games above end well before it.
MAX_MOVES = 600


def play_out(game: str, options: dict[str, Any]) -> Any:
    """A timeline of one game played by the game's best named bot for every seat.

    A branch is added at the first move where the player had a choice: the same
    position with the player's other first option, played on for a few moves, so the
    replay shows how branches look.
    """
    from cardwidgets import Timeline, make
    from cardwidgets.bots import bot_names, make_bot

    name = "greedy" if "greedy" in bot_names(game) else "random"
    kwargs = dict(options)
    players = kwargs["players"]
    bots = [make_bot(game, name, seed=kwargs["seed"] + k) for k in range(players)]
    timeline = Timeline(make(game, **kwargs))

    def play(limit: int) -> None:
        while not timeline.state.is_terminal and limit > 0:
            st = timeline.state
            seat = st.current_player
            timeline.step(bots[seat].act(st.view(seat), st.legal_actions()))
            limit -= 1

    play(MAX_MOVES)
    if not timeline.state.is_terminal:
        raise RuntimeError(f"{game}: the replay's game did not end in {MAX_MOVES} moves")
    timeline.goto(1)
    timeline.note(f"Each seat is played by the {name!r} bot; scrub back and forth to follow the game.")
    for n in range(timeline.length):
        timeline.goto(n)
        legal = timeline.state.legal_actions()
        if len(legal) > 1:
            played = timeline.line[n]
            other = next(a for a in legal if str(a) != str(played))
            timeline.step(other)
            timeline.note(f"A branch: {other} instead of {played}.")
            play(8)
            break
    timeline.switch("main")
    return timeline


def replay_pages(src: Path) -> Written:
    """Export one replay per game with ``Timeline.to_html`` and write a page embedding it."""
    from cardwidgets.games import available_games, game_spec

    out = Written()
    extra = src / "_generated" / "extra" / "replays"
    extra.mkdir(parents=True, exist_ok=True)
    for game in available_games():
        options = REPLAYS.get(game) or {"players": min(game_spec(game).modes[0].players), "seed": 1}
        timeline = play_out(game, options)
        file = f"{game}-replay.html"
        timeline.to_html(str(extra / file), seat=None)
        title = game_spec(game).title
        moves = timeline.length
        setup = ", ".join(f"{k}={v!r}" for k, v in options.items())
        page = "\n".join([
            f"# {escape(title)}: a whole game",
            "",
            f"A game of {escape(title)} ({moves} moves, `make({game!r}, {setup})`), every seat "
            f"played by a bot, exported with `Timeline.to_html` in the teacher view: every hand "
            f"is open. Step with the buttons or the slider, or click the replay and use the arrow "
            f"keys (Home and End jump to the ends). It has one branch, a different move early "
            f"on. It runs without Python and without any network access.",
            "",
            "```{raw} html",
            f'<iframe class="cw-replay" src="{file}" title="{title} replay" loading="lazy"></iframe>',
            f'<p><a href="{file}">Open the replay on its own page</a></p>',
            "```",
            "",
        ])
        write_if_changed(src / "replays" / f"{game}.md", page)
        out.pages.append(f"replays/{game}")
    _prune(src / "replays", {f"{p.split('/')[1]}.md" for p in out.pages}, "*.md")
    _prune(extra, {f"{p.split('/')[1]}-replay.html" for p in out.pages}, "*.html")
    write_if_changed(src / "_generated" / "replays-toc.md",
                     toctree([p.split("/")[1] for p in out.pages]))
    return out
