"""The ``cardwidgets`` command: play in the browser, simulate games, read and export replays,
look up rules.

Run ``cardwidgets --help`` (or ``python -m cardwidgets --help``) for the commands
and ``cardwidgets COMMAND --help`` for one command's options and an example.

A command is one :class:`Command` in :data:`COMMANDS`: a name, its help texts, a
function that adds its arguments to its parser and a function that runs it. A new
command is one more :func:`register` call.

>>> main(["rules", "D4.2"])  # doctest: +ELLIPSIS
D4.2 — Sets and runs (depot)
...
0
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from .core.spec import option_value, seat_number

#: Exit status of a run that went wrong (a bad file, an unknown rule ...).
FAILED = 1
#: Exit status of a command line that does not parse (argparse's own).
USAGE = 2


class CommandError(Exception):
    """A problem to report in one line, without a traceback."""


def printable(text: str) -> str:
    r"""``text`` with every control, format or separator character written as an escape.

    What the command prints can come from a file (a replay's branch names, notes ...): an ESC
    or BEL there would otherwise reach the terminal, which could set its title, clear the
    screen or change its colours.

    >>> printable("main\x1b]0;owned\x07 ok")
    'main\\x1b]0;owned\\x07 ok'
    """
    if text.isprintable():  # the usual case, at C speed (a space is printable, a newline is not)
        return text
    return "".join(ch if ch.isprintable() or ch == " " else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    if unicodedata.category(ch) == "Zs":  # a space of another width (no-break, thin ...): harmless
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line on stderr."""

    def error(self, message: str) -> Any:  # type: ignore[override]
        self.exit(USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


@dataclass(frozen=True)
class Command:
    """One subcommand of ``cardwidgets``.

    ``summary`` is its line in ``cardwidgets --help``; ``description`` and
    ``examples`` open and close its own ``--help``; ``configure`` adds its
    arguments; ``run`` does the work and returns the exit status (raise
    :class:`CommandError`, ``ValueError``, ``LookupError`` or ``OSError`` to report a
    problem in one line).
    """

    name: str
    summary: str
    description: str
    examples: tuple[str, ...]
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: The subcommands, in the order ``cardwidgets --help`` lists them.
COMMANDS: dict[str, Command] = {}


def register(command: Command) -> Command:
    """Add a subcommand (a later one with the same name replaces it)."""
    COMMANDS[command.name] = command
    return command


def _games() -> list[str]:
    from .games import available_games

    return available_games()


# --------------------------------------------------------------------------- play
def _play_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=int, metavar="PORT",
                   help="the port to serve on (default: 8866, or the next free one)")
    p.add_argument("--host", default="127.0.0.1", metavar="HOST",
                   help="the address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets "
                        "others on the network in)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser; just print the address")


def _play(args: argparse.Namespace) -> int:
    from .app.server import serve

    if args.port is not None and not 0 < args.port < 65536:
        raise CommandError(f"--port must be 1 to 65535, got {args.port}")
    return serve(port=args.port, host=args.host, open_browser=not args.no_browser,
                 say=lambda line: print(line, flush=True))


register(Command(
    "play",
    "serve a page to play in the browser: choose a game and the players, press Start",
    "Serve a web page (through Voilà, pip install \"cardwidgets[app]\") where you choose a game, its "
    "mode, its player count and rules options, who plays each seat (a person with a name, or a "
    "bot), and how the screen is shared (your own seat, hot seat with a curtain between people, "
    "or the teacher's view); Start shows a live table, and New game begins another. No code "
    "is shown, and nothing is asked of another machine. The page's address is printed; Ctrl+C, "
    "SIGTERM or SIGHUP stops the server and every game it runs. A game whose page is gone is "
    "closed after 10 idle minutes; at most 16 run at once.",
    ("cardwidgets play", "cardwidgets play --port 8900 --no-browser"),
    _play_args,
    _play,
))


# --------------------------------------------------------------------------- simulate
def _option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"option {text!r} must read NAME=VALUE, such as games=3")
    try:
        return name.strip(), option_value(raw)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"option {text[:40]!r}: {e}") from None


def _simulate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", choices=_games(), help=f"one of: {', '.join(_games())}")
    p.add_argument("-n", "--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    p.add_argument("--players", type=int, metavar="P", help="number of players (default: the game's)")
    p.add_argument("--mode", metavar="M", help="the game's mode, such as duo or solo for yadokarick")
    p.add_argument("--bots", default="random", metavar="B[,B...]",
                   help="one bot name for every seat, or one per seat separated by commas "
                        "(default random; most games also have greedy)")
    p.add_argument("--option", action="append", type=_option, default=[], metavar="NAME=VALUE",
                   help="a rule option; repeat for several. VALUE is read as JSON when it can be "
                        "(3, true, [30]), else as text")
    p.add_argument("--seed", type=int, default=0, help="seed of the run: the same seed plays the same games "
                                                       "(default 0)")
    p.add_argument("--workers", type=int, default=1, metavar="W",
                   help="processes to play on (default 1; -1: every core). More than the cores play on "
                        "every core, and never more processes start than there are chunks of games")
    p.add_argument("--out", metavar="FILE", help="also save one row per game to FILE (.parquet or .csv)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr")
    p.add_argument("--engine", choices=("auto", "fast", "python"), default="auto",
                   help="auto (default): the compiled fast lane where the 'fast' extra is installed and covers "
                        "the game, options and bots, else the reference engine; fast: the lane or an error "
                        "saying what it does not cover; python: the reference engine")


def _simulate(args: argparse.Namespace) -> int:
    try:
        from .sim import simulate
    except ImportError as e:
        raise CommandError(str(e)) from None
    if args.games < 1:
        raise CommandError(f"-n must be at least 1, got {args.games}")
    if args.out is not None:
        _check_out(args.out)  # a file that cannot be written fails before minutes of play
    kwargs: dict[str, Any] = dict(args.option)
    _check_options(args.game, kwargs)
    for name, value in (("players", args.players), ("mode", args.mode)):
        if value is not None:
            if name in kwargs:
                raise CommandError(f"give {name} once: --{name} or --option {name}=..., not both")
            kwargs[name] = value
    names = [b.strip() for b in args.bots.split(",")]
    bots: Any = names[0] if len(names) == 1 else names
    if args.engine == "fast":
        from .fast import not_covered

        try:
            problem = not_covered(args.game, bots=bots, **kwargs)
        except (TypeError, ValueError):
            problem = None  # bad options or bots: simulate says what is wrong, as for any engine
        if problem is not None:
            raise CommandError(f"--engine fast: {problem}")
    result = simulate(args.game, args.games, bots=bots, seed=args.seed, workers=args.workers,
                      progress=args.progress, engine=args.engine, **kwargs)
    print(result.summary())
    if args.out:
        result.save(args.out)
        print(f"saved {len(result)} games to {args.out}")
    return 0


#: simulate's own parameters, which are flags rather than rule options.
_FLAGS = {"seed": "--seed", "bots": "--bots", "workers": "--workers", "n": "-n", "game": "the GAME argument",
          "progress": "--progress", "out": "--out", "engine": "--engine"}


def _check_options(game: str, options: dict[str, Any]) -> None:
    """Only the game's rule options (and players, mode) are ``--option``: simulate's own
    parameters would clash with its flags, and new_game's other arguments are not rules."""
    from .games import game_spec

    spec = game_spec(game)
    known = {o.name for o in spec.options} | {"players", "mode"}
    for name in options:
        if name in known:
            continue
        if name in _FLAGS:
            raise CommandError(f"--option {name}=...: {name} is not a rule option; use {_FLAGS[name]}")
        if name == "backend":
            raise CommandError("--option backend=...: backend is not a rule option; the command plays on "
                               "this machine (--workers); pass backend= to cardwidgets.sim.simulate for others")
        raise CommandError(f"--option {name}=...: {spec.title} has no option {name!r}; its options: "
                           f"{', '.join(o.name for o in spec.options)}")


def _check_out(out: str) -> None:
    """``CommandError`` unless ``out`` names a .parquet or .csv file that can be written."""
    import tempfile

    from .sim._result import file_format

    if not out.strip():
        raise CommandError("--out needs a file name, such as runs.csv or runs.parquet")
    path = Path(out)
    file_format(path)
    if path.is_dir():
        raise CommandError(f"--out {out}: is a folder; give a file name in it, such as {path / 'runs.csv'}")
    folder = path.parent
    if not folder.is_dir():
        raise CommandError(f"--out {out}: no folder {folder}")
    if path.exists() and not os.access(path, os.W_OK):
        raise CommandError(f"--out {out}: the file cannot be written (permission denied)")
    try:  # the surest test that the folder takes a new file (permissions, read-only or virtual file systems)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise CommandError(f"--out {out}: cannot write in {folder}: {e.strerror or e}") from None


register(Command(
    "simulate",
    "play many games between bots and print win rates, scores and lengths",
    "Play N seeded games between bots, without any table, and print each seat's win rate "
    "(with its 95% interval), mean score, and the games' lengths. The same seed plays "
    "the same games, on any number of workers.",
    ("cardwidgets simulate depot -n 500 --players 4 --bots greedy,random,random,random",
     "cardwidgets simulate cirno_neu -n 1000 --players 5 --option life_system=true --workers 2 --out runs.parquet",
     "cardwidgets simulate yadokarick --mode duo --players 2 --bots greedy"),
    _simulate_args,
    _simulate,
))


# --------------------------------------------------------------------------- replay
def _replay_file_args(p: argparse.ArgumentParser) -> None:
    """The replay file and the seat whose sight to keep (``replay`` and ``export``)."""
    p.add_argument("file", metavar="FILE", help="a replay file (JSON), as table.replay().save(FILE) writes it")
    p.add_argument("--seat", metavar="K", help="show only what seat K saw: 0, 1, ... or A, B, ... "
                                               "(default: everything, the teacher's view)")


def _load_timeline(file: str) -> Any:
    """The ``Timeline`` of a replay file, or a ``CommandError`` saying what is wrong with it."""
    from .core.replay import Replay, ReplayError
    from .core.timeline import Timeline

    try:
        try:
            # Not validated here: from_replay plays every line once, and says what is wrong.
            replay = Replay.load(Path(file), validate=False)
        except ReplayError:
            # A bad structure: the validating load looks for the file's first problem and raises it.
            replay = Replay.load(Path(file))
        return Timeline.from_replay(replay)
    except OSError as e:
        raise CommandError(f"cannot read {file}: {e.strerror or e}") from None
    except ReplayError as e:  # it says which line of the file, and which action
        raise CommandError(f"{file} is not a valid replay: {e}") from None


def _replay_args(p: argparse.ArgumentParser) -> None:
    _replay_file_args(p)
    p.add_argument("--branch", metavar="NAME", help="read this line of play instead of the main line")


def _seat(text: str | None, players: int) -> int | None:
    if text is None:
        return None
    try:
        return seat_number(text, players)
    except ValueError as e:
        from .core.errors import quote  # a shortened, escaped copy: the text may be thousands of digits

        raise CommandError(f"--seat {quote(text)}: {e}") from None


def _replay(args: argparse.Namespace) -> int:
    from .core.errors import IllegalActionError

    path = Path(args.file)
    timeline = _load_timeline(args.file)
    seat = _seat(args.seat, timeline.state.players)
    if args.branch is not None:
        names = [b.name for b in timeline.branches]
        if args.branch not in names:
            raise CommandError(f"--branch {args.branch!r}: {path.name} has the lines {', '.join(names)}")
        try:  # a line re-dealt for one seat is told to that seat alone (G5)
            timeline.switch(args.branch, shown_to=() if seat is None else (seat,))
        except IllegalActionError as e:
            raise CommandError(f"--branch {args.branch!r} --seat {args.seat}: {e}") from None
    for line in timeline.narration(seat):
        print(printable(line))
    return 0


register(Command(
    "replay",
    "print the narration of a replay file, as one seat saw it",
    "Print the story of a saved game, one narrated line per event. With --seat, only the "
    "lines that seat could see (its own cards, never another player's).",
    ("cardwidgets replay lesson.json", "cardwidgets replay lesson.json --seat B --branch branch-1"),
    _replay_args,
    _replay,
))


# --------------------------------------------------------------------------- export
def _export_args(p: argparse.ArgumentParser) -> None:
    _replay_file_args(p)
    p.add_argument("-o", "--out", metavar="OUT", help="the page to write (default: FILE with .html instead "
                                                      "of .json)")


def _export(args: argparse.Namespace) -> int:
    path = Path(args.file)
    out = Path(args.out) if args.out else path.with_suffix(".html")
    if out.resolve() == path.resolve():
        raise CommandError(f"the page would replace the replay {args.file}: give another name with -o")
    timeline = _load_timeline(args.file)
    seat = _seat(args.seat, timeline.state.players)
    try:
        written = timeline.to_html(out, seat)
    except OSError as e:
        raise CommandError(f"cannot write {out}: {e.strerror or e}") from None
    lines = timeline.line_count
    who = "the teacher view" if seat is None else f"seat {timeline.root.seat_label(seat)}"
    print(printable(f"wrote {written} ({written.stat().st_size:,} bytes): {lines} line{'s' * (lines != 1)} of "
                    f"play as {who} saw {'them' if lines != 1 else 'it'}"))
    return 0


register(Command(
    "export",
    "write a replay file as one HTML page that plays without Python",
    "Write a saved game as one self-contained HTML page: the game's own table, every line "
    "of play with a scrubber, the narration and the notes. It needs no Python and loads "
    "nothing from the network. With --seat, the page holds only what that seat saw (its "
    "own cards, never another player's hand, the seed or the deck).",
    ("cardwidgets export lesson.json", "cardwidgets export lesson.json --seat B -o lesson-B.html"),
    _export_args,
    _export,
))


# --------------------------------------------------------------------------- site
def _site_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("out", metavar="OUT", help="the folder to write (made if needed; the site's files in it "
                                               "are replaced)")
    p.add_argument("--pyodide", metavar="URL", help="load Python from a hosted copy of Pyodide at URL "
                                                    "instead of the copy written into the site (about 13.5 MB)")


def _site(args: argparse.Namespace) -> int:
    from .site import SiteError, build

    try:
        out = build(args.out, pyodide=args.pyodide)
    except SiteError as e:
        raise CommandError(str(e)) from None
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"wrote {out} ({size / 1e6:.1f} MB): open index.html through any static server, such as\n"
          f"  python -m http.server --directory {out}\n"
          f"then http://localhost:8000/ in a browser (play.html?game=..., lesson.html?id=...)")
    return 0


register(Command(
    "site",
    "write a static site that plays every game and lesson in a browser tab",
    "Write a folder of pages that play every game, mode and lesson in a browser tab, with no "
    "install, no server and no network: index.html (choose a game and its players, or a lesson), "
    "play.html?game=... (the link is the game) and lesson.html?id=.... Python runs in the page "
    "(Pyodide, written into the folder). Any static server serves it: python -m http.server, "
    "GitHub Pages, a school's web space. A page holds the whole game in its visitor's browser, "
    "every card included: no way to keep cards secret from the person at the screen.",
    ("cardwidgets site public", "cardwidgets site public --pyodide https://example.org/pyodide/v314.0.8/"),
    _site_args,
    _site,
))


# --------------------------------------------------------------------------- rules
def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="a rule ID as refusals and narration cite it, such as D4.2 or G1")
    p.add_argument("--game", metavar="GAME", help="look in this game's rules first (needed for IDs that "
                                                  f"several games share); one of: {', '.join(_games())}")


def _rules(args: argparse.Namespace) -> int:
    from . import rules

    try:
        rule = rules.lookup(args.id, game=args.game)
    except LookupError as e:
        raise CommandError(str(e.args[0] if e.args else e).replace("pass game=", "give --game GAME")) from None
    print(f"{rule.id} — {rule.title} ({rule.game})\n\n{rule.text}")
    return 0


register(Command(
    "rules",
    "print one rule of the rules reference",
    "Print a rule of the library's rules reference: the text behind a rule ID that a "
    "refusal or a narration line cites.",
    ("cardwidgets rules D4.2", "cardwidgets rules C7.1 --game crypto_trick"),
    _rules_args,
    _rules,
))


# --------------------------------------------------------------------------- the command
def parser() -> argparse.ArgumentParser:
    """The ``cardwidgets`` argument parser with every registered command."""
    from . import __version__

    top = _Parser(
        prog="cardwidgets",
        description="Card-game tables for Jupyter, from the terminal: play in the browser, simulate "
                    "games between bots, read saved games, export them as pages, look up rules.",
        epilog="Run 'cardwidgets COMMAND --help' for a command's options and examples.",
    )
    top.add_argument("--version", action="version", version=f"cardwidgets {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_Parser)
    for cmd in COMMANDS.values():
        p = sub.add_parser(cmd.name, help=cmd.summary, description=textwrap.fill(cmd.description, 80),
                           epilog="examples:\n" + "\n".join(f"  {e}" for e in cmd.examples),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        cmd.configure(p)
        p.set_defaults(run=cmd.run)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    top = parser()
    try:
        args = top.parse_args(argv)
    except SystemExit as e:  # --help, --version, or a usage error already printed
        return int(e.code or 0)
    if getattr(args, "run", None) is None:
        print(f"cardwidgets: error: name a command: {', '.join(COMMANDS)} (see 'cardwidgets --help')",
              file=sys.stderr)
        return USAGE
    try:
        code = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at the interpreter's exit
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader has gone (cardwidgets replay f.json | head): stop quietly. As Python's
        # documentation recommends (signal module, "Note on SIGPIPE"), point stdout at devnull
        # so that the flush at exit does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return FAILED
    except (CommandError, ValueError, TypeError, LookupError, OSError, ImportError) as e:
        # Engines and files say what is wrong (and where) in their messages: one line of it.
        text = str(e.args[0]) if isinstance(e, KeyError) and e.args else str(e)
        print(f"cardwidgets {args.command}: error: {printable(' '.join(text.split()))}", file=sys.stderr)
        return FAILED


__all__ = ["COMMANDS", "Command", "CommandError", "main", "option_value", "parser", "register", "seat_number"]
