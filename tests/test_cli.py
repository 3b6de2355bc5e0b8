"""The ``cardwidgets`` command, in process (``main``) and as a program (``python -m cardwidgets``)."""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import kit

from cardwidgets import Timeline, make
from cardwidgets.cli import COMMANDS, Command, main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def program(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardwidgets", *argv], capture_output=True, text=True, cwd=ROOT)


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "error:" in lines[0]
    for w in words:
        assert w in lines[0], lines[0]


# --------------------------------------------------------------------------- the program and its help
def test_console_script_and_module_run_main():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"cardwidgets": "cardwidgets.cli:main"}
    done = program("--version")
    assert done.returncode == 0 and done.stdout.startswith("cardwidgets ")


def test_help_at_every_level(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for name in COMMANDS:
        assert name in out
    assert "cardwidgets COMMAND --help" in out
    for name in COMMANDS:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and "examples:" in out and f"cardwidgets {name} " in out, name


def test_no_command_is_a_one_line_error(capsys):
    code, _, err = run(capsys)
    one_line_error(code, err, "simulate", "replay", "rules")


def test_a_new_command_is_one_registration(capsys, monkeypatch):
    seen = []

    def configure(p: argparse.ArgumentParser) -> None:
        p.add_argument("name")

    def hello(args: argparse.Namespace) -> int:
        seen.append(args.name)
        print(f"hello {args.name}")
        return 0

    monkeypatch.setitem(COMMANDS, "hello", Command("hello", "say hello", "Say hello to NAME.",
                                                   ("cardwidgets hello Ann",), configure, hello))
    assert "say hello" in run(capsys, "--help")[1]
    assert run(capsys, "hello", "Ann") == (0, "hello Ann\n", "")
    assert seen == ["Ann"]


# --------------------------------------------------------------------------- simulate
def test_simulate_prints_the_summary_and_saves(capsys, tmp_path):
    pd = pytest.importorskip("pandas")
    from cardwidgets.sim import load, simulate

    out_file = tmp_path / "runs.csv"
    code, out, err = run(capsys, "simulate", "cirno_neu", "-n", "30", "--players", "3", "--bots", "greedy,random,random",
                         "--option", "life_system=true", "--option", "shot_resume=after_target", "--seed", "4",
                         "--out", str(out_file))
    assert code == 0 and err == ""
    expected = simulate("cirno_neu", 30, bots=["greedy", "random", "random"], seed=4, players=3,
                        life_system=True, shot_resume="after_target")
    table = repr(expected.summary()).splitlines()[:-1]  # the last line is the speed
    assert out.splitlines()[:len(table)] == table
    assert out.splitlines()[-1] == f"saved 30 games to {out_file}"
    back = load(out_file)
    pd.testing.assert_frame_equal(back.games, expected.games)
    assert back.options == {"life_system": True, "shot_resume": "after_target"}


def test_simulate_modes_workers_and_parquet(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    from cardwidgets.sim import load

    one = tmp_path / "one.parquet"
    two = tmp_path / "two.parquet"
    assert run(capsys, "simulate", "yadokarick", "-n", "8", "--mode", "duo", "--players", "2", "--bots", "greedy",
               "--out", str(one))[0] == 0
    assert run(capsys, "simulate", "yadokarick", "-n", "8", "--option", "mode=\"duo\"", "--option", "players=2",
               "--bots", "greedy", "--workers", "2", "--out", str(two))[0] == 0
    assert load(one).games.equals(load(two).games)
    assert load(one).mode == "duo"


@pytest.mark.parametrize("argv, words", [
    (["simulate", "chess"], ["invalid choice: 'chess'", "depot"]),
    (["simulate", "depot", "--option", "games=7"], ["games=7 is not allowed", "1, 3"]),
    (["simulate", "depot", "--option", "colour=red"], ["colour"]),
    (["simulate", "depot", "--option", "games"], ["must read NAME=VALUE"]),
    (["simulate", "depot", "--players", "9"], ["players"]),
    (["simulate", "depot", "--players", "3", "--bots", "greedy,random"], ["expected 3 entries"]),
    (["simulate", "depot", "--bots", "oracle"], ["unknown bot 'oracle'", "greedy"]),
    (["simulate", "depot", "-n", "0"], ["-n must be at least 1"]),
    (["simulate", "depot", "-n", "many"], ["invalid int value: 'many'"]),
    (["simulate", "depot", "--workers", "0"], ["workers"]),
    (["simulate", "depot", "--out", "runs.xlsx"], ["runs.xlsx: save a result as .parquet or .csv"]),
    (["simulate", "depot", "--players", "3", "--option", "players=4"], ["give players once"]),
    # simulate's own parameters are flags, not rule options
    (["simulate", "depot", "--option", "seed=5"], ["seed is not a rule option; use --seed"]),
    (["simulate", "depot", "--option", "bots=greedy"], ["use --bots"]),
    (["simulate", "depot", "--option", "workers=2"], ["use --workers"]),
    (["simulate", "depot", "--option", "n=3"], ["use -n"]),
    (["simulate", "depot", "--option", "game=depot"], ["use the GAME argument"]),
    (["simulate", "depot", "--option", "backend=threading"], ["backend is not a rule option", "--workers"]),
    (["simulate", "depot", "--option", "deck=[1,2]"], ["Depot has no option 'deck'", "max_turns"]),
    (["simulate", "depot", "--workers", "-3"], ["workers must be a positive int (or -1"]),
])
def test_simulate_bad_arguments(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    one_line_error(code, err, *words)
    assert "saved" not in out


@pytest.mark.parametrize("out, words", [
    ("", ["--out needs a file name"]),
    ("   ", ["--out needs a file name"]),
    ("{tmp}/nowhere/x.csv", ["no folder", "nowhere"]),
    ("{tmp}/folder.csv", ["folder.csv: is a folder"]),
    ("/proc/x.csv", ["--out /proc/x.csv: cannot write in /proc"]),
])
def test_simulate_checks_the_out_file_before_playing(capsys, monkeypatch, tmp_path, out, words):
    import cardwidgets.sim._run as sim_run

    if out.startswith("/proc") and not Path("/proc").is_dir():
        pytest.skip("no /proc here")
    (tmp_path / "folder.csv").mkdir()
    monkeypatch.setattr(sim_run, "play_chunk", lambda *a: pytest.fail("a game was played"))
    code, printed, err = run(capsys, "simulate", "depot", "-n", "5", "--out", out.format(tmp=tmp_path))
    one_line_error(code, err, *words)
    assert printed == ""


def test_simulate_help_says_how_workers_are_capped(capsys):
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "-1: every core" in " ".join(out.split())
    assert "never more processes start than there are chunks" in " ".join(out.split())


# --------------------------------------------------------------------------- replay
@pytest.fixture
def replay_file(tmp_path) -> tuple[Path, Timeline]:
    """A Crypto Trick game with cards given face down (private to two seats) and a second line."""
    tl = Timeline(make("crypto_trick", players=4, seed=3))
    rng = random.Random(2)
    while not tl.state.is_terminal and tl.length < 60:
        tl.step(rng.choice(tl.state.legal_actions()))
    tl.goto(tl.length - 5)
    tl.step([a for a in tl.state.legal_actions() if str(a) != tl.line[tl.cursor]][0])
    tl.switch("main")
    path = tmp_path / "game.json"
    tl.to_replay().save(path)
    return path, tl


def test_replay_prints_what_a_seat_saw(capsys, replay_file):
    path, tl = replay_file
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and out.splitlines() == tl.narration(None)
    private = [e for n in range(tl.length + 1) for e in tl.events(n) if e.audience is not None]
    assert private, "the game gives a card face down"
    for seat, text in [(0, "0"), (1, "B"), (2, "c"), (3, "3")]:
        code, out, _ = run(capsys, "replay", str(path), "--seat", text)
        assert code == 0 and out.splitlines() == tl.narration(seat)
        hidden = [e.text for e in private if seat not in e.audience]
        assert not set(hidden) & set(out.splitlines())
    tl.switch("branch-1")
    code, out, _ = run(capsys, "replay", str(path), "--branch", "branch-1", "--seat", "A")
    assert code == 0 and out.splitlines() == tl.narration(0)


def test_replay_bad_files_and_arguments(capsys, replay_file, tmp_path):
    path, _ = replay_file
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    one_line_error(code, err, "cannot read", "missing.json", "No such file")
    code, _, err = run(capsys, "replay", str(tmp_path))
    one_line_error(code, err, "cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{\n  \"format\": ")
    code, _, err = run(capsys, "replay", str(bad))
    one_line_error(code, err, "bad.json is not a valid replay", "line")
    data = json.loads(path.read_text())
    data["actions"][3] = "play Z9"
    bad.write_text(json.dumps(data, indent=1))
    code, _, err = run(capsys, "replay", str(bad))
    one_line_error(code, err, "bad.json is not a valid replay", "Z9")
    code, _, err = run(capsys, "replay", str(path), "--branch", "nope")
    one_line_error(code, err, "'nope'", "main, branch-1")
    for seat in ("4", "E", "-1", "AB", "²", "٣"):  # Unicode digits pass str.isdigit
        code, _, err = run(capsys, "replay", str(path), "--seat", seat)
        one_line_error(code, err, "seats 0-3 (A-D)")


def test_replay_escapes_control_characters_from_the_file(capsys, replay_file, tmp_path):
    path, _ = replay_file
    data = json.loads(path.read_text())
    evil = "evil\x1b]0;owned\x07\x1b[2J\u202e\x9b"  # set the title, ring, clear the screen, bidi, CSI
    data["branches"][0]["name"] = evil
    bad = tmp_path / "evil.json"
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(bad), "--branch", "X")
    one_line_error(code, err, "main, evil\\x1b]0;owned\\x07\\x1b[2J\\u202e\\x9b")
    data["actions"][3] = "play \x1b[31mZ9"  # an error that quotes the file's text
    bad.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(bad))
    assert code != 0 and "\x1b" not in err and "\\x1b" in err
    code, out, _ = run(capsys, "replay", str(path))  # narration in words is printed as it is
    assert code == 0 and out.isprintable() is False and all(line.isprintable() for line in out.splitlines())


def test_a_seat_of_thousands_of_digits_is_the_seat_message(capsys, replay_file):
    path, _ = replay_file
    for seat in ("1" * 5000, "9" * 4301, "1" + "0" * 5000):
        code, _, err = run(capsys, "replay", str(path), "--seat", seat)
        one_line_error(code, err, "seats 0-3 (A-D)")
        assert len(err) < 200
    code, out, _ = run(capsys, "replay", str(path), "--seat", "0001")
    assert code == 0 and out


def test_replay_plays_the_file_once(capsys, monkeypatch, replay_file):
    from cardwidgets.core.replay import Replay

    path, tl = replay_file
    real, calls = Replay.play, []
    monkeypatch.setattr(Replay, "play", lambda self: calls.append(1) or real(self))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and out.splitlines() == tl.narration(None)
    assert len(calls) == 1


def test_replay_into_a_closed_pipe_stops_quietly(replay_file):
    """``cardwidgets replay f.json | head``: the reader goes away; no error is printed."""
    import os

    path, _ = replay_file
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line is written
    try:
        done = subprocess.run([sys.executable, "-m", "cardwidgets", "replay", str(path)], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60)
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 1  # as Python's documentation does it


# --------------------------------------------------------------------------- rules
def test_rules(capsys, monkeypatch):
    from cardwidgets import rules

    code, out, _ = run(capsys, "rules", "d4.2")
    rule = rules.lookup("D4.2")
    assert code == 0 and out == f"D4.2 — {rule.title} (depot)\n\n{rule.text}\n"
    assert run(capsys, "rules", "G1", "--game", "depot")[1].startswith("G1 — ")
    # An ID that two games define needs --game (the shipped games share none today: make one).
    from cardwidgets.rules import Rule

    real = rules.lookup

    def shared(rule_id, game=None):
        if rule_id.upper() == "Q1" and game is None:
            raise LookupError("rule Q1 is defined by depot and cirno_neu; pass game=")
        if rule_id.upper() == "Q1":
            return Rule("Q1", game, "Shared", "A rule two games define.")
        return real(rule_id, game)

    monkeypatch.setattr(rules, "lookup", shared)
    out = run(capsys, "rules", "Q1", "--game", "cirno_neu")[1]
    assert out.startswith("Q1 — Shared (cirno_neu)")
    code, _, err = run(capsys, "rules", "Q1")
    one_line_error(code, err, "depot and cirno_neu", "--game")
    code, _, err = run(capsys, "rules", "X9")
    one_line_error(code, err, "X9")
    code, _, err = run(capsys, "rules", "D4.2", "--game", "chess")
    one_line_error(code, err, "chess")


# --------------------------------------------------------------------------- as a program
def test_the_program_reports_errors_in_one_line():
    done = program("rules", "D4.2")
    assert done.returncode == 0 and done.stdout.startswith("D4.2 — ")
    for argv in (["rules", "X9"], ["simulate", "depot", "--option", "games=[1,"], ["replay", "nowhere.json"],
                 ["simulate", "chess"], ["bogus"]):
        done = program(*argv)
        one_line_error(done.returncode, done.stderr, "cardwidgets")
        assert done.stdout == ""


def test_simulate_as_a_program_with_workers_and_progress(tmp_path):
    done = program("simulate", "depot", "-n", "40", "--players", "3", "--bots", "greedy", "--workers", "2",
                   "--progress", "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Depot: 40 games, 3 players") and "40/40" in done.stderr


def test_rules_and_replay_load_no_tables_and_no_pandas(replay_file):
    path, _ = replay_file
    code = ("import contextlib, io\nfrom cardwidgets.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['rules', 'D4.2']); main(['replay', {str(path)!r}])")
    assert kit.modules_loaded(code, ("pandas", "joblib", "anywidget", "traitlets")) == []
