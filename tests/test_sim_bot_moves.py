"""``simulate`` checks a bot object's move before playing it, as a table does."""

from __future__ import annotations

import math
import pickle

import pytest

pytest.importorskip("pandas")

from cardwidgets.sim import BotMoveError, compare, simulate  # noqa: E402
from cardwidgets.sim._play import play_game  # noqa: E402


class Revoker:
    """Crypto Trick: plays the first card of its hand whatever was led (no following suit)."""

    name = "revoker"

    def act(self, view, legal):
        if view["phase"] == "follow":
            return f"play {view['hands'][view['seat']][0]}"
        return legal[0]


class Texter:
    """Answers in notation text: the first legal move, written out."""

    name = "texter"

    def act(self, view, legal):
        return str(legal[0])


class Odd:
    """Returns what it was built with, whatever the position."""

    name = "odd"

    def __init__(self, move):
        self.move = move

    def act(self, view, legal):
        return self.move


def test_a_refused_move_stops_the_run_naming_bot_seat_move_and_rule():
    with pytest.raises(BotMoveError) as info:
        simulate("crypto_trick", 20, bots=[Revoker(), "greedy", "greedy", "greedy"], players=4, seed=1)
    e = info.value
    assert e.bot == "revoker" and e.seat == 0 and e.rule == "C6.3" and e.move.startswith("play ")
    text = str(e)
    assert "'revoker'" in text and "seat A" in text and f"'{e.move}'" in text and "rule C6.3" in text
    # the refused move was not played: the position is the one the bot was asked in
    assert e.state.current_player == 0 and not e.state.is_legal(e.move)


def test_forfeits_are_recorded_in_the_rows():
    res = simulate("crypto_trick", 20, bots=[Revoker(), "greedy", "greedy", "greedy"], players=4, seed=1,
                   on_illegal="forfeit")
    forfeit = res.games[res.games["termination"] == "forfeit"]
    assert len(forfeit) > 0
    assert all(w == () for w in forfeit["winners"]) and all(math.isnan(s) for t in forfeit["scores"] for s in t)
    assert all("revoker" in r and "C6.3" in r for r in forfeit["reason"])
    # the revoker no longer "wins" by revoking: its share of forfeited games is nothing
    assert res.seats[(res.seats["seat"] == 0) & res.seats["game_index"].isin(forfeit["game_index"])]["share"].sum() == 0
    summary = res.summary()
    assert summary.forfeits == len(forfeit) and f"forfeits (a bot's move refused): {len(forfeit)}" in repr(summary)
    assert not math.isnan(summary.table["mean_score"].iat[1])  # scores of the finished games
    # a forfeited game plays again up to the refused move
    i = int(forfeit["game_index"].iat[0])
    assert res.replay(i).build().move_count == int(forfeit["length"].iat[0])


def test_on_illegal_is_checked():
    with pytest.raises(ValueError, match="on_illegal must be one of 'raise', 'forfeit'"):
        simulate("depot", 2, bots="random", players=3, seed=1, on_illegal="ignore")
    c = compare("depot", {"a": {}}, 3, bots=[Odd("play 1 8"), "random", "random"], players=3, seed=1,
                metric="mean_score", on_illegal="forfeit")
    assert (c.results["a"].games["termination"] == "forfeit").all()


@pytest.mark.parametrize("game", ["depot", "cirno_neu", "crypto_trick", "yadokarick"])
def test_notation_text_from_a_bot_is_played(game):
    text = simulate(game, 3, bots=[Texter(), "random", "random"], players=3, seed=2)
    objects = simulate(game, 3, bots=[_First(), "random", "random"],
                       players=3, seed=2)
    assert text.games[["winners", "scores", "length"]].equals(objects.games[["winners", "scores", "length"]])
    assert (text.games["termination"] == "normal").all()


class _First:
    name = "first"

    def act(self, view, legal):
        return legal[0]


@pytest.mark.parametrize("move, rule", [
    ("play 1 8", "D4.1"),                      # well formed, not held
    ("S2: play 3", "G3"),                      # another seat's move
    ("play 99999999999999999999", None),       # not a card
    (5, None), (None, None), (object(), None),  # not a move at all
    ("x" * 10_000, None),
])
def test_odd_moves_are_clear_errors(move, rule):
    with pytest.raises(BotMoveError) as info:
        play_game("depot", {"players": 3}, [Odd(move), "random", "random"], 5)
    assert info.value.rule == rule and "'odd'" in str(info.value) and "seat A" in str(info.value)
    assert len(str(info.value)) < 400


def test_an_illegal_action_object_is_refused_by_its_rule():
    from cardwidgets.games.depot import parse_action

    # applied unchecked, this object overflowed deep in the engine (OverflowError)
    with pytest.raises(BotMoveError, match=r"chose 'play 1 8' .* rule D4.1"):
        play_game("depot", {"players": 3}, [Odd(parse_action("play 1 8")), "random", "random"], 5)


class Same(Odd):
    def __deepcopy__(self, memo):
        return self


def test_a_malformed_action_object_is_a_clear_error():
    from cardwidgets.games.depot import Play

    bad = object.__new__(Play)
    object.__setattr__(bad, "cards", (-1,))  # no such card, and fields left unset
    with pytest.raises(BotMoveError, match="seat A") as info:
        play_game("depot", {"players": 3}, [Same(bad), "random", "random"], 5)
    assert "'play -1'" in str(info.value)


def test_the_error_crosses_processes():
    e = BotMoveError("m", seat=1, bot="b", move="play 3", rule="D4.1", seed=7, state=object())
    back = pickle.loads(pickle.dumps(e))
    assert (str(back), back.seat, back.bot, back.move, back.rule, back.seed) == ("m", 1, "b", "play 3", "D4.1", 7)
