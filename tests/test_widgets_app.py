"""The app without code (``cardwidgets.app.App``) and ``cardwidgets play``, without a browser:
the chooser reads every game's ``SPEC``, Start builds the table it says, errors are shown, and
the command serves the app's notebook through Voilà."""

from __future__ import annotations

import re
import signal
import socket
from pathlib import Path

import ipywidgets as w
import pytest

from cardwidgets import available_games, game_spec
from cardwidgets.app import HOTSEAT, PERSON, TEACHER, App
from cardwidgets.app import server
from cardwidgets.bots import bot_names
from cardwidgets.cli import main
from cardwidgets.core.spec import option_form


def each_mode():
    for game in available_games():
        spec = game_spec(game)
        for mode in spec.modes:
            yield game, mode


@pytest.mark.parametrize("game, mode", list(each_mode()), ids=lambda x: getattr(x, "name", x))
def test_the_chooser_offers_what_the_spec_declares(game, mode):
    app = App(game)
    app.mode.value = mode.name
    spec = game_spec(game)
    assert app.players.options == tuple(str(n) for n in mode.players)
    assert (app.mode.layout.display == "none") == (len(spec.modes) == 1)
    form = {e["name"]: e for e in option_form(game, mode.name, int(app.players.value))}
    for opt in spec.options_for(mode.name):
        e = form[opt.name]
        if e["input"] == "choice":
            # named in words, its values in words, at its default
            box = app.fields[opt.name]
            assert isinstance(box, w.Dropdown) and box.description == opt.label
            assert [label for label, _ in box.options] == [c["label"] for c in e["choices"]]
            assert app.option_value(opt.name) == e["default"]
        elif e["input"] in ("number", "text"):
            assert isinstance(app.fields[opt.name], w.Text) and app.fields[opt.name].value == ""
            assert app.fields[opt.name].placeholder == f"{e['default_label']} (default)"
        else:
            assert opt.name not in app.fields  # a table of numbers keeps its default
    assert set(app.fields) <= {o.name for o in spec.options_for(mode.name)}
    n = int(app.players.value)
    assert len(app.seats_box.children) == n
    assert [who.value for _, who in app._seats][0] == PERSON
    choices = [v for _, v in app._seats[1][1].options] if n > 1 else []
    assert all(c == PERSON or c[4:] in bot_names(game) for c in choices)
    table = app.start()
    assert table is not None, app.status.value
    assert type(table).__name__ == spec.table and table.state.mode == mode.name and table.seat == 0
    assert sorted(table.bot_seats) == list(range(1, n)) and table.bot_delay == 0.7


def test_the_options_are_words_grouped_folded_with_help_default_and_rule():
    app = App("depot")
    assert app.options_box.layout.display == "none"  # folded under "Rules options"
    assert app.options_toggle.description == "Show the rules options"
    app.options_toggle.click()
    assert app.options_box.layout.display is None and app.options_toggle.description == "Hide the rules options"
    groups = [s.children[0].value for s in app.options_box.children]
    assert groups == ["<h3>Who starts</h3>", "<h3>The cards and the deal</h3>", "<h3>How play goes</h3>",
                      "<h3>Scoring and winning</h3>", "<h3>How long a game lasts</h3>"]
    page = "".join(c.value for c in _walk(app.options_box) if isinstance(c, w.HTML))
    said = re.sub(r"<details>.*?</details>", "", page, flags=re.S)  # what shows, the rules' own text folded away
    for raw in ("seat_after_winner", "penalty_cards_leave_play", "reshuffle_timing"):
        assert raw not in said and all(raw not in label for b in app.fields.values()
                                       for label, _ in getattr(b, "options", ()))
    assert "Default: Clockwise from the seat after the winner." in page
    assert "Rule D10.2: Ranking after a game" in page and "rank_tiebreak" in page  # the rule's own text
    box = app.fields["rank_tiebreak"]
    assert box.description == "Ties in the ranking" and box.tooltip.startswith("How players still tied")
    # a seat option offers the seats of the table, by letter
    assert [label for label, _ in app.fields["starting_player"].options] == \
        ["Seat A", "Seat B", "Seat C", "Seat D", "A random seat"]
    app.players.value = "3"
    assert [label for label, _ in app.fields["starting_player"].options][-2:] == ["Seat C", "A random seat"]


def _walk(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)


def choose(app, name, value):
    """Pick ``value`` in the drop-down of option ``name`` (its entries are words)."""
    box = app.fields[name]
    box.value = next(i for i, c in enumerate(app._form[name]["choices"]) if c["value"] == value)


def test_start_builds_the_table_the_chooser_says():
    app = App("depot")
    app.players.value = "3"
    choose(app, "games", 3)
    choose(app, "starting_player", "random")
    app.fields["max_turns"].value = "400"
    app._seats[0][0].value = "  Ann "
    app._seats[2][1].value = "bot:random"
    app.pace.value = 0.0
    app.seed.value = "11"
    kw = app.arguments()
    assert kw == {"players": 3, "games": 3, "starting_player": "random", "max_turns": 400,
                  "names": ["Ann", "B", "C"], "bots": {1: "greedy", 2: "random"}, "seat": 0, "seed": 11,
                  "bot_delay": 0.0}
    t = app.start()
    assert t.state.options["games"] == 3 and t.state.names == ("Ann", "B", "C") and t.state.seed == 11
    assert app.table_box.children == (t,) and "Depot, 3 players, Ann's seat</span>" in app.status.value
    assert app.start_button.description == "Start a new game"
    # the table takes the page: the chooser folds away until "Change the game"
    assert app.chooser.layout.display == "none" and app.change_button.layout.display is None
    app.change_button.click()
    assert app.chooser.layout.display is None
    # a new game replaces the old table, which is closed
    t2 = app.start()
    assert t2 is not t and app.table is t2 and t.comm is None and app.table_box.children == (t2,)


def test_two_people_share_the_screen_or_watch_as_teachers():
    app = App("crypto_trick")
    app.players.value = "3"
    app._seats[1][1].value = PERSON
    app._seats[0][0].value, app._seats[1][0].value = "Ann", "Bob"
    assert [v for _, v in app.screen.options] == [HOTSEAT, TEACHER] and app.screen.value == HOTSEAT
    t = app.start()
    assert t.hotseat and t.curtain == {"seat": 0, "name": "Ann"} and t.bot_seats == [2]
    app.screen.value = TEACHER
    t = app.start()
    assert not t.hotseat and t.seat is None
    app._seats[1][1].value = "bot:greedy"  # one person again: their seat, or still the teacher's view
    assert app.screen.value == TEACHER and app.screen.options[0] == ("Ann's seat: their cards only", 0)
    app.screen.value = HOTSEAT if HOTSEAT in [v for _, v in app.screen.options] else 0
    assert app.start().seat == 0


@pytest.mark.parametrize("change, words", [
    (lambda a: setattr(a._seats[1][0], "value", "ann"), "names must differ"),
    (lambda a: setattr(a.seed, "value", "twelve"), "the seed must be a whole number"),
    (lambda a: setattr(a.fields["rounds"], "value", "[" * 100_000 + "]" * 100_000),
     "rounds: the value is nested too deeply"),
    (lambda a: setattr(a.fields["rounds"], "value", "0"), "rounds=0"),
])
# a table whose construction failed is collected without an error in its close()
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
def test_a_bad_choice_is_said_and_the_table_stays(change, words):
    app = App("crypto_trick")
    app._seats[0][0].value = "Ann"
    first = app.start()
    change(app)
    assert app.start() is None
    assert words in app.status.value and "cw-app-error" in app.status.value
    assert app.table is first and app.table_box.children == (first,) and first.comm is not None


def test_the_seed_is_shown_on_the_teacher_screen_only():
    """The seed deals every hand: a seated or hot-seat player who saw it could rebuild them all."""
    app = App("crypto_trick")
    app.players.value = "3"
    t = app.start()
    assert t.seat == 0 and "seed" not in app.status.value and str(t.state.seed) not in app.status.value
    app._seats[1][1].value = PERSON
    t = app.start()
    assert t.hotseat and "seed" not in app.status.value and str(t.state.seed) not in app.status.value
    app.screen.value = TEACHER
    t = app.start()
    assert t.seat is None and f"teacher view: seed {t.state.seed}" in app.status.value


def test_every_seat_a_bot_plays_on_the_teacher_screen():
    app = App("depot")
    for _, who in app._seats:
        who.value = "bot:random"
    assert [v for _, v in app.screen.options] == [TEACHER]
    t = app.start()
    assert t is not None, app.status.value
    assert t.seat is None and sorted(t.bot_seats) == list(range(len(app._seats)))


def test_a_seat_name_is_text_in_the_status_line():
    app = App("depot")
    app._seats[0][0].value = "<svg/onload=alert()>"
    assert app.start() is not None
    assert "<svg" not in app.status.value and "&lt;svg/onload=alert()&gt;'s seat" in app.status.value


def test_changing_the_player_count_keeps_the_seats_chosen():
    app = App("depot")
    app._seats[0][0].value = "Ann"
    app._seats[1][1].value = "bot:random"
    app.players.value = "5"
    assert len(app._seats) == 5 and app._seats[0][0].value == "Ann" and app._seats[1][1].value == "bot:random"
    app.game.value = "yadokarick"
    app.mode.value = "solo"
    assert app.players.options == ("1",) and len(app._seats) == 1 and app._seats[0][0].value == "Ann"
    t = app.start()
    assert t.state.mode == "solo" and t.view["names"] == ["Ann"]


# --------------------------------------------------------------------------- cardwidgets play
def test_play_help_explains_the_command(capsys):
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for words in ("Voilà", "--port", "--no-browser", "Start", "hot seat", "cardwidgets play --port 8900"):
        assert words in out, words
    assert main(["--help"]) == 0
    assert "play" in capsys.readouterr().out


def test_play_refuses_a_bad_port(capsys):
    assert main(["play", "--port", "70000"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardwidgets play: error: --port must be 1 to 65535") and err.count("\n") == 1


@pytest.mark.parametrize("host", ["999.1.1.1", "8.8.8.8"])
def test_play_refuses_a_host_it_cannot_listen_on_in_one_line(monkeypatch, capsys, host):
    monkeypatch.setattr(server.subprocess, "Popen", FakeVoila)  # Voilà must not even start
    FakeVoila.calls = []
    assert main(["play", "--host", host, "--port", "8997", "--no-browser"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and FakeVoila.calls == []
    assert err.startswith(f"cardwidgets play: error: cannot listen on {host} port 8997") and err.count("\n") == 1


def test_play_refuses_a_busy_port_and_voila_never_moves_to_another(monkeypatch, capsys):
    monkeypatch.setattr(server.subprocess, "Popen", FakeVoila)
    FakeVoila.calls = []
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        assert main(["play", "--port", str(busy), "--no-browser"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and FakeVoila.calls == []
    assert err.startswith(f"cardwidgets play: error: port {busy} is in use") and err.count("\n") == 1
    # the printed address is the one served: Voilà is told not to try other ports
    assert "--Voila.port_retries=0" in server.command(Path("x.ipynb"), 8999, "127.0.0.1", False)


class FakeVoila:
    """Stands in for the Voilà process: records its command line and the notebook it serves."""

    calls: list = []

    def __init__(self, cmd, cwd=None, **_kwargs):
        nb = Path(cmd[3])
        FakeVoila.calls.append({"cmd": cmd, "cwd": cwd, "notebook": nb.read_text(), "folder": nb.parent})

    def wait(self, timeout=None):
        return 0


def test_play_serves_the_app_notebook_through_voila(monkeypatch, capsys):
    monkeypatch.setattr(server.subprocess, "Popen", FakeVoila)
    FakeVoila.calls = []
    assert main(["play", "--port", "8999", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "cardwidgets play: http://127.0.0.1:8999/ (Ctrl+C stops the server)"
    (call,) = FakeVoila.calls
    cmd = call["cmd"]
    assert cmd[1:3] == ["-m", "voila"] and "--port=8999" in cmd and "--no-browser" in cmd
    assert "--Voila.ip=127.0.0.1" in cmd
    assert "from cardwidgets.app import App" in call["notebook"] and "App()" in call["notebook"]
    assert not call["folder"].exists()  # the notebook's folder is gone with the server
    FakeVoila.calls = []
    assert main(["play", "--port", "8999"]) == 0
    assert "--Voila.open_browser=True" in FakeVoila.calls[0]["cmd"]


def test_the_default_port_skips_a_busy_one():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        busy = s.getsockname()[1]
        assert server.free_port(busy) == busy + 1 or server.free_port(busy) > busy


def test_play_without_voila_says_how_to_get_it(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def no_voila(name, *a, **k):
        if name == "voila":
            raise ImportError("no voila")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_voila)
    assert main(["play", "--no-browser"]) == 1
    assert 'pip install "cardwidgets[app]"' in capsys.readouterr().err


def test_an_all_bot_game_starts_at_once_and_plays_at_the_chosen_pace():
    """Start answers before any bot moves; the bots then play on the table's own pacing, one
    move per pace on the kernel's event loop, so people can watch (and the kernel answers)."""
    import asyncio
    import time

    async def watch():
        app = App("cirno_neu")
        app.players.value = "5"
        for _, who in app._seats:
            who.value = "bot:random"
        assert [v for _, v in app.pace.options] == [1.5, 0.7, 0.3]  # no "Instant" with nobody to play
        app.pace.value = 0.3
        began = time.monotonic()
        table = app.start()
        assert table.history_len == 0 and table.thinking  # nothing played inside the handler
        times = []
        table.observe(lambda _c: times.append(time.monotonic()), "history_len")
        for _ in range(100):
            if len(times) >= 3:
                break
            await asyncio.sleep(0.1)
        gaps = [b - a for a, b in zip([began, *times], times)]
        assert len(gaps) >= 3 and min(gaps) >= 0.27, gaps  # a pace, never a burst
        assert not table.state.is_terminal
        # a new game replaces it: the old table's bots stop with it
        app.start()
        played = table.history_len
        await asyncio.sleep(1.0)
        assert table.history_len == played and table.comm is None
        app.table.close()

    asyncio.run(watch())


def test_the_server_culls_idle_kernels_and_caps_them():
    cmd = server.command(Path("x.ipynb"), 8999, "127.0.0.1", False)
    assert f"--MappingKernelManager.cull_idle_timeout={server.CULL_IDLE}" in cmd and server.CULL_IDLE > 0
    assert "--VoilaConfiguration.multi_kernel_manager_class=cardwidgets.app.kernels.CappedKernelManager" in cmd
    assert f"--CappedKernelManager.max_kernels={server.MAX_KERNELS}" in cmd
    pytest.importorskip("jupyter_server")
    import asyncio

    from tornado.web import HTTPError

    from cardwidgets.app.kernels import CappedKernelManager

    manager = CappedKernelManager(max_kernels=2)
    manager.list_kernel_ids = lambda: ["one", "two"]  # two games open: a third page is refused
    with pytest.raises(HTTPError) as refused:
        asyncio.run(manager.start_kernel(kernel_name="python3"))
    assert refused.value.status_code == 503 and "Too many games" in refused.value.reason


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_stops_voila_and_its_kernels_frees_the_port_and_removes_the_folder(sig, tmp_path):
    """``cardwidgets play`` as a service manager stops it: the whole tree goes, and the page
    it served asked nothing of another machine."""
    pytest.importorskip("voila")
    psutil = pytest.importorskip("psutil")
    import os
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(tmp_path / "play.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "cardwidgets", "play", "--no-browser", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True)
    tree = []
    try:
        assert proc.stdout.readline().startswith("cardwidgets play: http://127.0.0.1:")
        deadline, page = time.monotonic() + 120, None
        while page is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as r:
                    page = r.read().decode()  # the app ran in a kernel of its own
            except OSError:
                time.sleep(0.3)
        assert page is not None, (tmp_path / "play.log").read_text()
        assert "cdn.jsdelivr" not in page and "fontawesome" not in page and "mermaid.esm" not in page
        tree = psutil.Process(proc.pid).children(recursive=True)
        voila = next(p for p in tree if "voila" in " ".join(p.cmdline()))
        folder = Path(next(a for a in voila.cmdline() if a.endswith(".ipynb"))).parent
        assert folder.is_dir() and any("ipykernel" in " ".join(p.cmdline()) for p in tree)

        os.kill(proc.pid, sig)
        assert proc.wait(60) == 128 + sig
        gone, alive = psutil.wait_procs(tree, timeout=20)
        assert alive == [], [p.cmdline() for p in alive]
        server.check_address("127.0.0.1", port)  # the port is free again
        assert not folder.exists()
    finally:  # whatever a failure left running (the old code left Voilà and its kernels)
        if proc.poll() is None:
            tree = [psutil.Process(proc.pid), *tree, *psutil.Process(proc.pid).children(recursive=True)]
        for p in tree:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
        proc.wait(10)
        log.close()
