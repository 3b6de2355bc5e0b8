"""Tables for teaching, without a browser: previews, replay as a seat (and playing it), lessons on a
table, and time travel by a seated player. Messages in, traits out, as the browser would see them."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

import cardwidgets
import kit
from cardwidgets import available_games, game_spec, lessons, widgets
from cardwidgets.games import game_module
from invariants import FakeLoop, forge, send, table, table_key

GAMES = available_games()


def cls(game: str):
    return getattr(widgets, game_spec(game).table)


@pytest.fixture
def loop(monkeypatch):
    fake = FakeLoop()
    monkeypatch.setattr(asyncio, "get_running_loop", lambda: fake)
    return fake


class BotMoves:
    """The scheduled calls of ``loop`` that stand for bot moves (a replay's next step is not one)."""

    def __init__(self, loop: FakeLoop, t) -> None:
        self.loop, self.t = loop, t

    def live(self):
        return [h for h in self.loop.live() if h.fn != self.t._play_tick]


def played(game: str, n: int, seed: int = 3, **cfg):
    """A timeline of ``n`` random legal moves (fewer if the game ends)."""
    spec = game_spec(game)
    mode = spec.modes[0]
    cfg = {"players": mode.players[min(1, len(mode.players) - 1)], **cfg}
    return kit.random_line(game, cfg, seed, n)


# =========================================================================== previews
def test_a_preview_is_the_viewers_lines_up_to_the_first_hidden_step():
    t = widgets.Depot(players=4, seed=1, seat=0, bots="greedy", bot_delay=0)
    until_pass = 0
    while not any(a.startswith("pass take") and " give " not in a for a in t.legal):
        t.step(t.legal[0])
        until_pass += 1
        assert until_pass < 50
    take = next(a for a in t.legal if a.startswith("pass take") and " give " not in a)
    send(t, {"type": "preview", "action": take})
    ex = t.state.explain(take, 0)
    assert t.preview == {"action": take, "lines": [e.text for e in ex.effects]}
    assert t.preview["lines"][-1] == "Then the Storage is refilled from the deck."  # stops before the refill
    assert "takes" in t.preview["lines"][0] and t.last_error == ""
    play = next(a for a in t.legal if a.startswith("play"))
    send(t, {"type": "preview", "action": play})
    assert t.preview["action"] == play and "beats" in t.preview["lines"][0]
    # the next step clears it
    send(t, {"type": "act", "action": play})
    assert t.preview is None


def test_a_preview_of_a_move_the_viewer_may_not_make_is_empty_and_never_an_error():
    t = widgets.CirnoNeu(players=3, seed=7, seat=0, bot_delay=0)
    send(t, {"type": "act", "action": "play 99 99"})  # a refusal shown on the table
    shown = t.last_error
    assert shown
    for text in ["play 50", "dance", "", "play 5 @9", "x" * 300, t.legal[0] + "!"]:
        send(t, {"type": "preview", "action": text})
        assert t.preview == {"action": text[:199] + "…" if len(text) > 200 else text, "lines": []}
        assert t.last_error == shown  # a pointer passing by neither shows nor hides a refusal
    send(t, {"type": "preview", "action": t.legal[0]})
    assert t.preview["lines"] and t.last_error == shown
    for junk in [None, 3, ["play 5"], {"a": 1}]:
        send(t, {"type": "preview", "action": junk})
        assert t.last_error == "Bad 'preview' message: 'action' must be action text."
    send(t, {"type": "preview"})
    assert t.last_error.startswith("Bad 'preview' message")


def test_no_preview_when_it_is_not_the_viewers_turn_and_the_teacher_previews_for_the_actor():
    t = widgets.CryptoTrick(players=3, seed=4, seat=1, bot_delay=0)
    legal = [str(a) for a in t.state.legal_actions()]  # seat 0's moves
    send(t, {"type": "preview", "action": legal[0]})
    assert t.preview == {"action": legal[0], "lines": []}
    teacher = widgets.CryptoTrick(players=3, seed=4, bot_delay=0)
    send(teacher, {"type": "preview", "action": legal[0]})
    assert teacher.preview["lines"] == [e.text for e in teacher.state.preview(legal[0])]
    assert teacher.preview_lines(legal[0]) == teacher.preview["lines"]


def test_a_preview_is_one_small_sync_message():
    t = widgets.Yadokarick(players=2, mode="duo", seed=3, seat=0, bots={1: "greedy"}, bot_delay=0)
    sent = []
    t.comm.send = lambda *a, **k: sent.append(k.get("data") or (a[0] if a else None))
    send(t, {"type": "preview", "action": t.legal[0]})
    updates = [m for m in sent if m and m.get("method") == "update"]
    assert len(updates) == 1 and set(updates[0]["state"]) == {"preview"}
    assert t.preview["lines"][-1] == "Then the NPC turns over the top card of its deck."


@pytest.mark.parametrize("game", GAMES)
def test_twin_deals_give_identical_previews(game, report):
    """Positions the viewer cannot tell apart give it the same preview for every move it might
    point at: the legal ones, and moves seen legal elsewhere (most illegal here)."""
    spec = game_spec(game)
    mod = game_module(game)
    rng = random.Random(11)
    compared = 0
    for mode in spec.modes:
        base = {"mode": mode.name} if len(spec.modes) > 1 else {}
        players = mode.players[min(1, len(mode.players) - 1)]
        vocab = kit.vocabulary(mod, {"players": players, **base}, games=2)
        for _ in range(4):
            st = mod.new_game(players=players, seed=rng.randrange(10_000), **base)
            kit.advance(st, rng, rng.randint(2, 50))
            if st.is_terminal:
                continue
            seat = st.current_player
            a = cls(game)(state=st, seat=seat, bot_delay=0)
            b = cls(game)(state=st._twin(seat, random.Random(seat + 1)), seat=seat, bot_delay=0)
            for text in [str(x) for x in st.legal_actions()] + rng.sample(vocab, min(25, len(vocab))):
                send(a, {"type": "preview", "action": text})
                send(b, {"type": "preview", "action": text})
                assert a.get_state()["preview"] == b.get_state()["preview"], f"{game}: {text!r} tells the twins apart"
                compared += 1
    report("twin previews", game, previews_compared=compared)


# =========================================================================== replay as a seat
@pytest.mark.parametrize("game", GAMES)
def test_a_replay_as_a_seat_shows_that_seats_view_and_narration_only(game, tmp_path, report):
    tl = played(game, 40)
    path = tmp_path / "game.json"
    tl.to_replay().save(path)
    seat = 0
    checked = 0
    for source in (tl.to_replay(), str(path), tl, cls(game)(timeline=tl, bot_delay=0)):
        t = cls(game).from_replay(source, seat=seat)
        assert t.seat == seat and t.cursor == t.history_len == tl.length
    rng = random.Random(2)
    for n in range(tl.length + 1):
        t.goto(n)
        st = tl.position(n)
        assert t.view == st.view(seat) and t.narration == t.timeline.narration(seat, last=80)
        # a position the seat cannot tell apart syncs the same: nothing more than its view leaks
        twin = cls(game)(state=st._twin(seat, rng), seat=seat, bot_delay=0) if not st.is_terminal else None
        if twin is not None:
            for key in ("view", "legal", "refusals"):
                assert getattr(t, key) == getattr(twin, key), (game, n, key)
        checked += 1
    assert tl.length == t.timeline.length and tl.to_replay().to_json() == t.replay().to_json()
    report("replays as a seat", game, positions=checked)


def test_from_replay_copies_a_timeline_and_refuses_other_things():
    tl = played("depot", 10)
    before = tl.to_replay().to_json()
    t = widgets.Depot.from_replay(tl, seat=2)
    t.goto(3)
    t.step(next(a for a in t.legal_actions() if str(a) != t.timeline.line[3]))
    assert tl.to_replay().to_json() == before and len(t.timeline.branches) == 2
    with pytest.raises(TypeError, match="from_replay takes"):
        widgets.Depot.from_replay(42)


def test_play_replay_moves_one_position_per_tick_and_stops_at_the_end(loop):
    tl = played("cirno_neu", 6)
    t = widgets.CirnoNeu.from_replay(tl, seat=1)
    end = t.history_len
    t.play_replay(speed=4)
    assert t.cursor == 0 and t.playing == 4.0 and len(loop.live()) == 1  # at the end: from the start
    seen = []
    while loop.live():
        loop.run_next()
        seen.append(t.cursor)
        assert t.view == t.timeline.state.view(1)
    assert seen == list(range(1, end + 1)) and t.playing == 0 and t.cursor == end
    table(t, loop)


@pytest.mark.parametrize("how", ["pause message", "pause_replay", "act", "refused act", "goto message", "goto",
                                 "undo message", "switch"])
def test_a_replay_playing_stops_when_a_person_acts_or_pauses(loop, how):
    t = widgets.Depot.from_replay(played("depot", 12), seat=None)
    t.goto(2)
    send(t, {"type": "play", "speed": 3})
    assert t.playing == 3.0 and t.cursor == 2 and t.last_error == ""
    loop.run_next()
    assert t.cursor == 3
    {"pause message": lambda: send(t, {"type": "pause"}), "pause_replay": t.pause_replay,
     "act": lambda: send(t, {"type": "act", "action": t.legal[0]}),
     "refused act": lambda: send(t, {"type": "act", "action": "play 1 8"}),
     "goto message": lambda: send(t, {"type": "goto", "index": 1}), "goto": lambda: t.goto(5),
     "undo message": lambda: send(t, {"type": "undo"}), "switch": lambda: t.switch("main")}[how]()
    assert t.playing == 0 and not loop.live()
    table(t, loop)


def test_play_messages_are_checked(loop):
    t = widgets.Depot.from_replay(played("depot", 5))
    before = table_key(t, loop)
    for bad in [None, "fast", True, 0, -2, -10**400, float("nan"), float("inf"), [2], {"s": 1}]:
        send(t, {"type": "play", "speed": bad})
        assert t.last_error.startswith("Bad 'play' message"), bad
        assert table_key(t, loop) == before and t.playing == 0
    send(t, {"type": "play", "speed": 1e9})
    assert t.playing == 20.0
    send(t, {"type": "play", "speed": 10**400})  # a JSON int too big for a float: the fastest pace
    assert t.playing == 20.0 and t.last_error == ""
    send(t, {"type": "play"})  # the default pace
    assert t.playing == 2.0 and len(loop.live()) == 1
    send(t, {"type": "pause"})
    send(t, {"type": "pause"})  # pausing twice is harmless
    assert t.playing == 0 and t.last_error == ""
    empty = widgets.Depot(players=3, seed=1, bot_delay=0)
    send(empty, {"type": "play"})
    assert empty.last_error == "There is nothing to play: the line has no moves yet." and empty.playing == 0


def test_play_replay_needs_an_event_loop_and_a_pace():
    t = widgets.Depot.from_replay(played("depot", 5))
    with pytest.raises(RuntimeError, match="event loop"):
        t.play_replay()
    send(t, {"type": "play", "speed": 2})
    assert t.last_error == "The table cannot play the line here (no event loop)." and t.playing == 0


def test_at_the_end_of_a_replay_the_bots_play_on(loop):
    t = widgets.Depot(players=3, seed=2, seat=0, bots="greedy", bot_delay=0)
    for _ in range(3):
        t.step(t.legal[0])
    end = t.history_len
    t.bot_delay = 0.5
    t.goto(end - 2)
    t.play_replay(speed=10)
    while t.playing:
        loop.run_next()
    assert t.cursor == end and t.state.current_player == 0  # the viewer's turn: nothing to schedule
    table(t, loop)


def test_a_table_playing_a_replay_stays_sound(loop):
    """Playing, pausing, acting and looking back in any order: the invariants of every table hold."""
    rng = random.Random(5)
    t = widgets.CryptoTrick(players=3, seed=5, seat=0, bots="greedy", bot_delay=0.2)

    plays = 0
    for _ in range(300):
        r = rng.random()
        if r < 0.2 and t.history_len:
            send(t, {"type": "play", "speed": rng.choice([1, 5, 20])})
        elif r < 0.5 and loop.live():
            loop.run_next()
        elif r < 0.6:
            send(t, {"type": "pause"})
        elif r < 0.7 and t.history_len:
            send(t, {"type": "goto", "index": rng.randrange(t.history_len + 1)})
        elif t.legal:
            send(t, {"type": "act", "action": rng.choice(t.legal)})
        table(t, BotMoves(loop, t))
        assert (t.playing > 0) == (t._play is not None)
        assert len(loop.live()) <= 1, "a bot move and a replay step are scheduled together"
        plays += t.playing > 0
    assert plays > 20


# =========================================================================== lessons on a table
FIRST_LESSONS = [lessons.available(g)[0] for g in GAMES]


@pytest.mark.parametrize("lesson_id", FIRST_LESSONS)
def test_a_lesson_table_is_the_games_table_at_the_runs_position(lesson_id):
    lesson = lessons.load(lesson_id)
    t = cardwidgets.lesson(lesson_id, bot_delay=0)
    assert isinstance(t, cls(lesson.game)) and t.seat == lesson.seat
    assert t.state.to_dict() == lesson.start().state.to_dict()
    assert t.view == t.state.view(lesson.seat) and t.bot_seats == []
    panel = t.lesson
    assert (panel["id"], panel["title"], panel["step"], panel["steps"]) == (lesson_id, lesson.title, 0,
                                                                             len(lesson.steps))
    assert panel["prompt"] == lesson.steps[0].say and panel["feedback"] is None and not panel["done"]
    assert panel["intro"] == lesson.intro and panel["rules"] == list(lesson.rules)
    # the lesson's start (every card) never reaches the browser, and a table on a position the
    # student cannot tell from it syncs the same view, moves, refusals and previews
    synced = json.dumps(t.get_state(), ensure_ascii=False)
    assert lesson.position not in synced
    twin = cls(lesson.game)(state=t.state._twin(lesson.seat, random.Random(1)), seat=lesson.seat, bot_delay=0)
    for move in t.legal:
        send(t, {"type": "preview", "action": move})
        send(twin, {"type": "preview", "action": move})
        for key in ("view", "legal", "refusals", "preview"):
            assert getattr(t, key) == getattr(twin, key), key
    assert repr(t).startswith(f"<{type(t).__name__} {lesson_id!r} step 1 of")


@pytest.mark.parametrize("lesson_id", lessons.available())
def test_every_lesson_plays_through_its_table(lesson_id):
    lesson = lessons.load(lesson_id)
    t = cardwidgets.lesson(lesson_id, bot_delay=0)
    for k, move in enumerate(lesson.solution()):
        assert t.lesson["step"] == k and move in t.legal, (k, move)
        send(t, {"type": "act", "action": move})
        assert t.lesson["feedback"]["ok"], t.lesson["feedback"]
        assert t.last_error == "" and t.cursor == t.history_len == t.run.timeline.length
    assert t.lesson["done"] and t.lesson["step"] == len(lesson.steps)
    assert t.lesson["prompt"] == (lesson.outro or "Lesson complete.")


def test_a_wrong_move_changes_nothing_and_the_panel_says_why():
    t = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0)
    before = json.dumps([t.timeline.state.to_dict(), t.cursor, t.history_len])
    send(t, {"type": "act", "action": "play 10"})  # refused by the engine: its rule
    assert t.lesson["feedback"] == {"ok": False, "rule": "N4.3", "text": (
        "10 would make the sum 100 (over 99) while you hold a safe card (5, PASS) — rule N4.3.")}
    send(t, {"type": "act", "action": "play pass"})  # legal, not what the step asks: the lesson's words
    fb = t.lesson["feedback"]
    assert not fb["ok"] and fb["text"].startswith("PASS is always safe") and fb["rule"] == "N3.9"
    send(t, {"type": "act", "action": "dance"})  # malformed
    assert not t.lesson["feedback"]["ok"] and t.lesson["feedback"]["rule"] is None
    assert json.dumps([t.timeline.state.to_dict(), t.cursor, t.history_len]) == before
    assert t.last_error == "" and t.lesson["step"] == 0


def test_the_scripted_replies_come_one_after_another_like_bot_moves(loop):
    t = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0.5)
    send(t, {"type": "act", "action": "play 5"})
    assert t.lesson["feedback"]["ok"] and t.lesson["waiting"] and t.thinking
    assert t.history_len == 1 and t.lesson["step"] == 0 and t.legal == []
    send(t, {"type": "act", "action": "play 3"})  # too early: the replies are still coming
    assert t.lesson["feedback"]["text"] == "Wait for the other players' moves." and t.history_len == 1
    loop.run_next()
    assert t.history_len == 2 and t.thinking and len(loop.live()) == 1
    loop.run_next()
    assert t.history_len == 3 and not t.thinking and not t.lesson["waiting"] and not loop.live()
    assert t.lesson["step"] == 1 and t.legal and t.lesson["prompt"].startswith("The sum is 95")


def test_looking_back_during_the_replies_plays_them_at_once(loop):
    t = cardwidgets.lesson("cirno_neu/the-running-sum", bot_delay=0.5)
    send(t, {"type": "act", "action": "play 5"})
    send(t, {"type": "goto", "index": 0})
    assert not loop.live() and not t.thinking and t.history_len == 3 and t.cursor == 0
    assert t.lesson["step"] == 1 and not t.lesson["waiting"]
    send(t, {"type": "act", "action": "play 5"})  # in the past: the panel says where to play
    assert t.lesson["feedback"]["text"].startswith("You are looking at an earlier position")
    assert len(t.timeline.branches) == 1
    send(t, {"type": "goto", "index": 3})
    send(t, {"type": "act", "action": "play 3"})
    assert t.lesson["done"]


def test_hint_restart_and_the_next_lesson():
    ids = lessons.available("depot")
    t = cardwidgets.lesson(ids[0], bot_delay=0)
    send(t, {"type": "hint"})
    assert t.lesson["hint"] == t.run.hint() and t.lesson["hint"]
    move = lessons.load(ids[0]).solution()[0]
    send(t, {"type": "act", "action": move})
    assert t.lesson["hint"] is None and t.lesson["step"] == 1  # a hint belongs to its step
    send(t, {"type": "restart"})
    assert t.lesson["step"] == 0 and t.history_len == 0 and t.lesson["feedback"] is None
    assert t.lesson["next"] == lessons.load(ids[1]).title
    send(t, {"type": "next_lesson"})
    assert t.lesson["id"] == ids[1] and t.state.to_dict() == lessons.load(ids[1]).start().state.to_dict()
    assert t.view == t.state.view(t.seat) and t.branches == [b.to_dict() for b in t.timeline.branches]
    last = cardwidgets.lesson(ids[-1], bot_delay=0)
    assert last.lesson["next"] is None
    before = table_key(last)
    send(last, {"type": "next_lesson"})
    assert last.last_error == "This is the last lesson of the game." and table_key(last) == before


def test_a_lesson_table_from_python():
    t = cardwidgets.lesson("depot/sets-and-runs", bot_delay=0)
    moves = lessons.load("depot/sets-and-runs").solution()
    fb = t.attempt("play 1 8")
    assert not fb.ok and t.lesson["feedback"]["text"] == fb.text
    for move in moves:
        assert t.step(move).ok
    assert t.lesson["done"] and t.hint() == ""
    with pytest.raises(TypeError, match="bot_delay and animations only"):
        cardwidgets.lesson("depot/sets-and-runs", bots="greedy")
    with pytest.raises(LookupError):
        cardwidgets.lesson("depot/no-such-lesson")


def test_a_lesson_table_resists_hostile_messages(loop):
    rng = random.Random(3)
    t = cardwidgets.lesson("crypto_trick/the-offer", bot_delay=0.3)
    kinds = ["hint", "restart", "next_lesson", "preview", "play", "pause", "act", "goto", "undo", "junk"]
    for _ in range(600):
        kind = rng.choice(kinds)
        legal = t.legal or ["pass"]
        msg = {"act": {"type": "act", "action": rng.choice(legal + ["play X9", "", "\x00" * 50])},
               "preview": {"type": "preview", "action": rng.choice(legal + [None, 5])},
               "play": {"type": "play", "speed": rng.choice([1, "x", -1])},
               "goto": {"type": "goto", "index": rng.choice([0, t.history_len, -1, "2"])},
               "junk": rng.choice([{"type": "hint", "x": "y" * 3000}, {"type": "restart", "a": 1, "b": 2, "c": 3,
                                                                       "d": 4}, [], None])}.get(kind, {"type": kind})
        send(t, msg)
        if loop.live() and rng.random() < 0.5:
            loop.run_next()
        table(t, BotMoves(loop, t))
        assert len(loop.live()) <= 1 and t.thinking == t.lesson["waiting"]
        assert t.lesson is not None and len(t.last_error) <= 400
        assert t.view == t.state.view(t.seat)
    forge(t, {"lesson": {"prompt": "hacked"}})
    assert t.last_error.startswith("Refused") and t.lesson["prompt"] != "hacked"


# =========================================================================== time travel at the table
def _past_choice(t):
    """Go back to an earlier turn of the viewer with a choice; returns (index, a move that differs)."""
    tl = t.timeline
    k = next(k for k in range(tl.length - 1, -1, -1)
             if tl.position(k).current_player == t.seat and len(tl.position(k).legal_actions()) > 1)
    other = next(str(a) for a in tl.position(k).legal_actions() if str(a) != tl.line[k])
    return k, other


@pytest.mark.parametrize("game", GAMES)
def test_a_seated_player_going_back_gets_a_re_dealt_line(game):
    spec = game_spec(game)
    players = spec.modes[0].players[min(1, len(spec.modes[0].players) - 1)]
    t = cls(game)(players=players, seed=6, seat=0, bots="greedy", bot_delay=0)
    for _ in range(8):
        if not t.legal:
            break
        send(t, {"type": "act", "action": t.legal[-1]})
    k, other = _past_choice(t)
    real = t.timeline.position(k)
    send(t, {"type": "goto", "index": k})
    send(t, {"type": "act", "action": other})
    assert t.last_error == "" and t.branch != "main"
    info = t.timeline.branches[-1]
    assert info.dealt_for == 0 and t.branches[-1]["dealt_for"] == 0
    assert t.timeline._lines[info.name].dealt.view(0) == real.view(0)
    table(t)
    # the teacher's table (and Python code) replays exactly
    teacher = cls(game).from_replay(t.replay())
    teacher.goto(k)
    teacher.step(other)
    assert teacher.timeline.branches[-1].dealt_for is None
    expected = real.clone()
    expected.apply(other)
    assert teacher.timeline.position(k + 1).to_dict() == expected.to_dict()


def test_the_readme_on_teaching_tells_the_truth():
    run = lessons.load("cirno_neu/the-running-sum").start()
    assert str(run.attempt("play 10")) == ("10 would make the sum 100 (over 99) while you hold a safe card "
                                           "(5, PASS) — rule N4.3.")
    assert (run.attempt("play 5").ok, run.progress) == (True, (1, 2))


def test_a_view_plays_no_replay_and_previews_nothing_while_it_looks_back(loop):
    """A view (``view_for``) follows the game: playing a line would move every other table's game,
    and a move previewed in the past could not be played there."""
    t = widgets.CryptoTrick(players=4, seed=3, bot_delay=0)
    views = [t.view_for(s) for s in range(4)]
    for _ in range(5):
        actor = t.state.current_player
        send(views[actor], {"type": "act", "action": views[actor].legal[0]})
    actor = t.state.current_player
    me = views[actor]
    move = me.legal[0]
    assert me.preview_lines(move)  # at the game's position: the preview of a legal move
    send(me, {"type": "goto", "index": 2})
    assert me.cursor == 2 and t.cursor == 5
    assert me.preview_lines(move) == []
    send(me, {"type": "preview", "action": move})
    assert me.preview == {"action": move, "lines": []}
    before = (t.cursor, me.cursor)
    send(me, {"type": "play", "speed": 4})
    assert "play the line on the table it views" in me.last_error and not loop.live()
    with pytest.raises(ValueError, match="play the line on the table it views"):
        me.play_replay(speed=4)
    assert (t.cursor, me.cursor, me.playing) == (*before, 0.0)
    # the game's own table plays the line, and every view that follows the game goes with it
    t.play_replay(speed=4)
    loop.run_next()
    assert t.cursor == 1 and all(v.cursor == 1 for v in views if v is not me) and me.cursor == 2
