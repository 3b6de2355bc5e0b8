"""Regression tests for the holes that attacking the library and new users found.

Each test names the problem it pins down; each failed before its fix.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import textwrap

import pytest

from cardwidgets import IllegalActionError, InvalidActionError, Replay, ReplayError, make
from cardwidgets.core import Termination, seat_name
from cardwidgets.games import cirno_neu, depot


# --------------------------------------------------------------------------- hidden information
def test_two_card_command_never_peeks_at_the_draw_pile():
    """With cards drawn after each card of a double turn, 'play a, b' used to be checked on a
    copy that had drawn the hidden top card: refusals and even acceptance told a player what it
    was. Now the answer is the same whatever lies on the pile."""
    answers = set()
    for top in ("50", "9", "99", "PASS", "1"):
        rest = [c for c in cirno_neu.DEFAULT_DECK for _ in range(cirno_neu.DEFAULT_DECK[c])]
        st = cirno_neu.setup_position(4, [["9", "99", "SHOT"], ["7"], ["1"], ["2"]], sum=20, required=2,
                                      draw=[top, "3", "4"], double_draw_timing="after_each")
        del rest
        texts = tuple(str(st.explain(t, 0)) for t in ("play 9, 50", "play 9, 99", "play 99, 9", "play 9, 1"))
        answers.add(texts)
    assert len(answers) == 1, answers
    (texts,) = answers
    assert all(t.startswith("Illegal: rule N4.6 — with double_draw_timing='after_each'") for t in texts)


def test_two_card_command_after_both_still_works_and_is_one_action_each():
    st = cirno_neu.setup_position(4, [["4", "-1", "7"], ["1"], ["1"], ["2"]], sum=90, draw=["5", "6", "3"],
                                  required=2)
    events = st.apply("play 4, -1")
    assert [str(a) for a in st.history] == ["play 4", "play -1"] and st.sum == 93
    assert any(e.rule == "N4.7" for e in events)


def test_preview_stops_before_the_hidden_pile():
    st = depot.setup_position(4, [[1, 2], [3, 3], [1], [1]], [2, 5, 5, 7], deck=[8, 6], standing=(0, [2]),
                              current=1, target=4)
    effects = st.preview("pass take 5")
    assert [e.kind for e in effects] == ["pass", "preview_stop"]
    assert effects[-1].text == "Then the Storage is refilled from the deck."
    assert "8" not in " ".join(map(str, effects))
    assert st.to_dict() == depot.setup_position(4, [[1, 2], [3, 3], [1], [1]], [2, 5, 5, 7], deck=[8, 6],
                                                standing=(0, [2]), current=1, target=4).to_dict()


# --------------------------------------------------------------------------- parsing
def test_cirno_parser_is_linear_in_the_text():
    """A run of spaces before a junk character made the old regex quadratic: 32k spaces took
    3.5 s and 256 KB minutes, so one browser message froze the kernel. This guard runs 4 MB."""
    code = textwrap.dedent("""
        from cardwidgets.games.cirno_neu import parse_action
        from cardwidgets.core import InvalidActionError
        for text in ("play" + " " * 2_000_000 + "!", " " * 2_000_000 + "7 @" + " " * 2_000_000 + "x"):
            try:
                parse_action(text)
            except InvalidActionError:
                pass
        print("done")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "done", out.stderr


@pytest.mark.parametrize("game", ["depot", "cirno_neu"])
def test_long_action_text_is_refused_before_parsing(game):
    st = make(game, players=4, seed=1)
    before = st.to_dict()
    with pytest.raises(InvalidActionError, match="at most 200 characters"):
        st.apply("play " + "1 " * 50_000)
    assert st.to_dict() == before


@pytest.mark.parametrize("text", ["play ⑨", "play ²", "play ٣", "pass take ²", "play " + "9" * 5000,
                                  "pass take " + "1" * 5000, "play 01", "play +3"])
def test_depot_parser_lets_no_odd_number_reach_int(text):
    with pytest.raises(InvalidActionError, match="is not a card value 1-8"):
        depot.parse_action(text)


@pytest.mark.parametrize("cards", [(True,), (1.0,), ("3",), (9,), (0,), [None]])
def test_depot_actions_validate_their_fields(cards):
    with pytest.raises(InvalidActionError):
        depot.Play(cards)


@pytest.mark.parametrize("take, give", [(True, None), (None, 2.0), ("3", None), (9, None)])
def test_depot_pass_validates_its_fields(take, give):
    with pytest.raises(InvalidActionError):
        depot.Pass(take, give)


def test_cirno_card_ids_never_convert_huge_numbers():
    assert cirno_neu.card_id(10**5000) is None
    with pytest.raises(InvalidActionError):
        cirno_neu.Play(10**5000)


# --------------------------------------------------------------------------- replays
def _replay_text(n: int = 20) -> str:
    st = make("depot", players=4, seed=9)
    rng = random.Random(1)
    for _ in range(n):
        st.apply(rng.choice(st.legal_actions()))
    return Replay.from_state(st).to_json()


def test_replay_that_is_not_utf8_names_its_line():
    data = _replay_text().encode()
    at = data.index(b'"play')
    bad = data[:at] + b"\xff" + data[at + 1:]
    with pytest.raises(ReplayError, match="not UTF-8") as info:
        Replay.from_json(bad)
    assert info.value.line == data[:at].count(b"\n") + 1


def test_utf16_replay_is_refused_clearly(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(_replay_text(), encoding="utf-16")
    with pytest.raises(ReplayError, match="UTF-16") as info:
        Replay.load(path)
    assert info.value.line == 1


def test_utf8_with_bom_loads(tmp_path):
    path = tmp_path / "g.json"
    path.write_text(_replay_text(), encoding="utf-8-sig")
    assert Replay.load(path).actions


def test_huge_seed_is_a_replay_error_with_a_line():
    text = _replay_text().replace('"seed": 9', '"seed": ' + "9" * 5000)
    with pytest.raises(ReplayError) as info:
        Replay.from_json(text)
    assert info.value.line == 1


def test_deep_nesting_is_a_replay_error_with_a_line():
    text = _replay_text().replace('"notes": {}', '"notes": ' + "[" * 5000 + "]" * 5000)
    with pytest.raises(ReplayError, match="nested") as info:
        Replay.from_json(text)
    assert info.value.line == text.splitlines().index(next(ln for ln in text.splitlines() if "[[[[" in ln)) + 1


@pytest.mark.parametrize("key", ["²", "-1", "1.5", "99999999999999999999", "x"])
def test_odd_note_keys_are_replay_errors(key):
    text = _replay_text().replace('"notes": {}', '"notes": {' + json.dumps(key) + ': "hi"}')
    with pytest.raises(ReplayError, match="notes") as info:
        Replay.from_json(text)
    assert info.value.line is not None


def test_loading_is_linear_in_the_file():
    """80k actions took 13 s (quadratic line counting, also with validate=False). This guard
    loads 400k, which the quadratic loader needed minutes for (past the files' action limit,
    raised for the test: the lines of a refused file are located the same way)."""
    code = textwrap.dedent("""
        import json
        from cardwidgets import Replay
        from cardwidgets.core import replay
        replay.MAX_ACTIONS = 400_000
        text = json.dumps({"format": "cardwidgets-replay", "version": 2, "game": "depot", "engine_version": 1,
                           "options": {"players": 4}, "seed": 1, "actions": ["play 1"] * 400_000,
                           "notes": {}, "branches": []}, indent=1)
        rep = Replay.from_json(text, validate=False)
        print(len(rep._lines["actions"]))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "400000", out.stderr


def test_a_two_card_entry_in_a_replay_is_refused_not_misaligned():
    st = cirno_neu.setup_position(4, [["4", "-1", "7"], ["7"], ["1"], ["2"]], sum=90, draw=["5", "6", "3"],
                                  required=2)
    rep = Replay.from_state(st)
    assert rep.position is not None
    rep.actions = ["play 4, -1"]
    with pytest.raises(ReplayError, match="stands for 2 actions") as info:
        Replay.from_json(rep.to_json())
    assert info.value.index == 0 and info.value.line is not None


@pytest.mark.parametrize("game", ["depot", "cirno_neu"])
def test_hand_built_positions_are_recorded_in_replays(game):
    if game == "depot":
        st = depot.setup_position(4, [[3, 3, 4], [5, 6], [1, 1], [7, 8]], [2, 4, 5], deck=[1, 2, 3])
    else:
        st = cirno_neu.setup_position(3, [["7", "8"], ["9"], ["PASS"]], sum=80, draw=["1", "2", "3"])
    st.apply(st.legal_actions()[0])
    rep = Replay.from_json(Replay.from_state(st).to_json())
    assert rep.position is not None and rep.build().to_dict() == st.to_dict()


def test_version_1_replays_still_load():
    text = ('{"format": "cardwidgets-replay", "version": 1, "game": "depot", "options": {"players": 4, '
            '"games": 1}, "seed": 7, "deck": null,\n "actions": [\n  "play 1"\n ],\n "notes": {"0": "hi"}}\n')
    st = make("depot", players=4, seed=7)
    if st.is_legal("play 1"):
        rep = Replay.from_json(text)
        assert rep.engine_version == 1 and rep.notes == {0: "hi"}
    else:
        with pytest.raises(ReplayError, match="action #0"):
            Replay.from_json(text)


def test_other_engine_version_is_refused():
    text = _replay_text().replace('"engine_version": 1', '"engine_version": 7')
    with pytest.raises(ReplayError, match="rules version 7"):
        Replay.from_json(text)


# --------------------------------------------------------------------------- options and bounds
@pytest.mark.parametrize("game, kwargs, words", [
    ("depot", {"hand_size": {3: 9, 4: 0, 5: 8}}, "could never play"),
    ("depot", {"players": 4.0}, "players=4.0 is not allowed"),
    ("depot", {"max_turns": 0}, "max_turns"),
    ("cirno_neu", {"set_value": -10**30}, "set_value"),
    ("cirno_neu", {"set_value": -1e30}, "set_value"),
    ("cirno_neu", {"limit": 10**30}, "limit"),
    ("cirno_neu", {"deck_counts": {"-10": 40, "PASS": 20}}, "no plus number card"),
    ("cirno_neu", {"players": 4.0}, "players=4.0 is not allowed"),
    ("cirno_neu", {"hand_size": 0}, "hand_size"),
])
def test_unplayable_options_are_refused(game, kwargs, words):
    with pytest.raises(ValueError, match=words):
        make(game, **{"players": 4, **kwargs})


def test_seats_are_checked_everywhere():
    with pytest.raises(ValueError):
        seat_name(-1)
    with pytest.raises(ValueError):
        make("depot", players=3, seed=1).view(-1)


def test_every_game_stops_at_its_bound(monkeypatch):
    st = make("depot", players=4, seed=1, max_turns=5)
    for _ in range(5):
        st.apply(st.legal_actions()[-1])
    assert st.outcome().termination is Termination.ABORTED
    monkeypatch.setattr(cirno_neu.state, "ACTION_BOUND", 6)
    st = make("cirno_neu", players=4, seed=1, life_system=True)
    while not st.is_terminal:
        st.apply(st.legal_actions()[0])
    out = st.outcome()
    assert out.termination is Termination.ABORTED and out.winners == () and "safety cap" in out.reason


def test_every_state_pickles():
    for game in ("depot", "cirno_neu"):
        st = make(game, players=4, seed=3)
        st.apply(st.legal_actions()[0])
        again = pickle.loads(pickle.dumps(st))
        assert again.to_dict() == st.to_dict() and again.legal_actions() == st.legal_actions()


# --------------------------------------------------------------------------- narration
def test_depot_round_end_with_nothing_to_draw_reads_right():
    st = depot.setup_position(3, [[1, 2], [1], [1]], [3, 4], standing=(0, [8]), current=1, target=2)
    st.apply("pass take 3 give 1")
    events = st.apply("pass take 4")
    texts = [e.text for e in events]
    kinds = [e.kind for e in events]
    # the pass, then the round end (the target grows), then the one refill attempt and its shortfall
    assert kinds[:2] == ["pass", "short"] and "round_end" in kinds
    end = kinds.index("round_end")
    assert "the Storage target grows to 3" in texts[end]
    assert not any("grows to" in t and "stays" in t for t in texts)
    assert all("draws" not in t for t in texts), "drawn cards go to the Storage, not to a hand"


def test_depot_reshuffle_is_narrated_after_the_pass_that_caused_it():
    st = depot.setup_position(4, [[1], [1], [1], [1]], [1, 3, 3, 8], deck=[4], discard=[2, 2, 7],
                              standing=(0, [5, 6]), current=1, target=4)
    kinds = [e.kind for e in st.apply("pass take 3")]
    assert kinds == ["pass", "refill", "reshuffle", "refill"]  # the 4 is drawn before the reshuffle


def test_cirno_first_shot_of_a_double_turn_does_not_claim_who_plays():
    st = cirno_neu.setup_position(4, [["SHOT", "SHOT", "5"], ["7"], ["1"], ["2"]], sum=10, required=2,
                                  draw=["1", "2", "3"])
    first = st.apply("play shot @3")[0].text
    assert "plays now" not in first and "if no other SHOT follows" in first and "card 1 of 2" in first
    second = st.apply("play shot @2")[0].text
    assert "C plays now" in second and "card 2 of 2" in second


@pytest.mark.parametrize("game", ["depot", "cirno_neu"])
def test_narration_reads_as_a_person_would_say_it(game):
    rng = random.Random(3)
    bad = ["(s)", " a 8", " 1 cards", " 0 card ", "took the", "1 × "]
    for seed in range(6):
        st = make(game, players=4, seed=seed)
        lines = [e.text for e in st.setup_events]
        while not st.is_terminal:
            legal = st.legal_actions()
            a = rng.choice(legal)
            lines += [e.text for e in st.apply(a)]
            for t in rng.sample(["play 1 8", "pass take 9", "play 50", "play shot", "pass give 1"], 2):
                try:
                    lines.append(str(st.explain(t)))
                except Exception:
                    pass
        for line in lines:
            assert not any(b in line for b in bad), line


def test_depot_gives_an_8():
    st = depot.setup_position(4, [[8, 1], [1], [1], [1]], [2, 3, 4, 5], deck=[1, 1], standing=(3, [1]),
                              current=0, target=4)
    assert "gives an 8" in st.apply("pass take 2 give 8")[0].text


def test_new_round_and_game_clear_the_last_move():
    st = depot.setup_position(3, [[5, 1], [1, 1], [1, 1]], [2, 3, 4], deck=[1, 2, 3, 4], standing=(0, [8]),
                              current=1)
    st.apply("pass take 2")
    assert st.view(0)["last_action"] is not None
    st.apply("pass take 3")  # the round ends
    assert st.view(0)["last_action"] is None and st.phase == "lead"
    c = make("cirno_neu", players=3, seed=2)
    while not c.is_terminal and c.round == 1:
        c.apply(c.legal_actions()[-1])
    if not c.is_terminal:
        assert c.view(0)["last_action"] is None or c.view(0)["last_action"]["seat"] is not None


def test_errors_never_echo_huge_input():
    st = make("depot", players=4, seed=1)
    with pytest.raises(InvalidActionError) as info:
        st.apply("dance " + "x" * 190)
    assert len(str(info.value)) < 200


def test_illegal_error_message_has_rule_and_reason():
    st = make("depot", players=4, seed=1)
    with pytest.raises(IllegalActionError) as info:
        st.apply("pass take 1")
    assert info.value.rule == "D5.3" and str(info.value).startswith("Illegal: rule D5.3 — ")


# --------------------------------------------------------------------------- seats
@pytest.mark.parametrize("game, players", [("depot", 4), ("cirno_neu", 3), ("yadokarick", 1)])
@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, -1, "A", "0", [0]])
def test_a_seat_is_an_int_never_a_bool_or_float(game, players, seat):
    """``seat=True`` and ``seat=1.0`` were taken for seat 1 (``True == 1``)."""
    from cardwidgets import Timeline

    st = make(game, players=players, seed=1, **({"mode": "solo"} if players == 1 else {}))
    legal = str(st.legal_actions()[0])
    before = st.to_dict()
    for call in (lambda: st.explain(legal, seat), lambda: st.apply(legal, seat), lambda: st.is_legal(legal, seat),
                 lambda: st.preview(legal, seat), lambda: Timeline(st).step(legal, seat)):
        with pytest.raises(ValueError, match=rf"^no seat .* in this {players}-player game: "):
            call()
    assert st.to_dict() == before


@pytest.mark.parametrize("game, players, mode", [("depot", 4, None), ("cirno_neu", 3, None),
                                                 ("yadokarick", 1, "solo"), ("crypto_trick", 5, None),
                                                 ("yadokarick", 7, "standard")])
def test_a_seat_past_the_player_count_is_refused_with_the_real_range(game, players, mode):
    """Seat 4 at 4 players was narrated as a seat that does not exist ("it is A's turn, not
    E's"), and junk seats were told "seats are 0 to 7" whatever the player count."""
    from cardwidgets import Timeline

    st = make(game, players=players, seed=1, **({"mode": mode} if mode else {}))
    legal = str(st.legal_actions()[0])
    tl = Timeline(st)
    for seat in (players, players + 1, 7, 8, -1, 10**20):
        for call in (lambda: st.explain(legal, seat), lambda: st.apply(legal, seat), lambda: tl.step(legal, seat)):
            with pytest.raises(ValueError) as info:
                call()
            text = str(info.value)
            assert ("seat 0" if players == 1 else f"seats are 0 to {players - 1}") in text, text
            assert "turn" not in text, text
            assert not isinstance(info.value, IllegalActionError)
    assert tl.length == 0 and st.move_count == 0
    seats = "seat 0" if players == 1 else f"seats are 0 to {players - 1}"
    if mode != "solo":  # solo narrates its one player as "you", whatever the number
        with pytest.raises(ValueError, match=seats):
            st.seat_label(players)
    with pytest.raises(ValueError, match=seats):
        st.view(players)


def test_the_duo_npc_may_be_asked_about_and_is_never_to_act():
    """Yadokarick duo's NPC is no player's seat but a participant the game names: an action
    asked for it (seat 2) is refused under G3; it has no view."""
    st = make("yadokarick", players=2, mode="duo", seed=1)
    legal = str(st.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="not NPC's") as info:
        st.apply(legal, 2)
    assert info.value.rule == "G3" and st.explain(legal, 2).rule == "G3"
    for seat in (True, 2.0, "NPC"):
        with pytest.raises(ValueError, match="seats are 0 to 1"):
            st.apply(legal, seat)
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        st.view(2)


@pytest.mark.parametrize("seat", [3, 4, -1, 10**20])
def test_duo_seats_that_are_no_participant_are_refused(seat):
    """Duo names every seat but A and B "the NPC": only seat 2 is taken for it."""
    st = make("yadokarick", players=2, mode="duo", seed=1)
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        st.apply(str(st.legal_actions()[0]), seat)


def test_tables_take_the_same_seat_check():
    from cardwidgets import widgets

    for seat in (True, 1.0, 3, -1):
        with pytest.raises(ValueError, match="seats are 0 to 2"):
            widgets.Depot(players=3, seed=1, seat=seat, bot_delay=0)
    t = widgets.Depot(players=3, seed=1, bot_delay=0)
    with pytest.raises(ValueError, match="seats are 0 to 2"):
        t.explain("play 1", 3)


# --------------------------------------------------------------------------- the rules reference
@pytest.mark.parametrize("game", ["depot", "cirno_neu", "crypto_trick", "yadokarick", "core"])
def test_an_unknown_rule_of_a_game_is_a_lookup_error(game):
    """``lookup("Z9.9", game="depot")`` raised IndexError (an empty list of other games)."""
    from cardwidgets import rules

    with pytest.raises(LookupError, match=r"^Z9\.9 is not a rule of "):
        rules.lookup("Z9.9", game=game)
    with pytest.raises(LookupError, match="is not a rule"):
        rules.lookup("", game=game)
