"""A search bot: single-observer information-set Monte Carlo tree search (IS-MCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG
4(2), 2012. The bot searches one tree of its own information set. Each iteration

1. samples a *world*: a position the bot's seat cannot tell from the real one, the cards
   it has not seen dealt again at random (``state.sample_world(seat, rng)``, handed to
   the bot by the caller as ``worlds``; the bot never holds the real state);
2. descends the tree by UCB1 over the actions legal *in that world* only, each child
   counting how often it was available (``avail``) in place of its parent's visits;
3. adds one child, plays the world on with the rollout policy (random moves, or the
   game's greedy bot) up to a depth, and scores the end with the game's reward: each
   seat's share of the win, or an estimate of it where the rollout stopped early;
4. backs the reward up, each node taking the share of the seat that chose its action.

The rollouts of step 3 run in Python on the reference engine, or, with ``engine="fast"``
(or ``"auto"``), in the compiled fast lane (the extra ``cardwidgets[fast]``): the world is
loaded into the game's kernel as arrays and played on there with the same policy, stop and
reward, several times faster, so a search with a time budget does more iterations.

The move played is the root's most visited action. Everything random comes from one
RNG seeded with the bot's seed and the seat's view, so the same seed and position give
the same move, and twin positions (the same view, hidden cards dealt differently) give
the same move too: the choice is a function of what the seat knows.

>>> import cardwidgets
>>> from cardwidgets.bots import ask
>>> st = cardwidgets.make("crypto_trick", players=3, seed=4)
>>> bot = ISMCTSBot(iterations=50, seed=1)
>>> ask(bot, st) in st.legal_actions(), bot.last.iterations
(True, 50)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..core.errors import SamplingLimitError, show
from ..core.registry import provider
from ..games import game_module
from .base import playing_bot

#: A world sampler: ``worlds(rng)`` is ``state.sample_world(seat, rng)`` of the real
#: state and the bot's seat, bound by whoever asks the bot for a move.
Worlds = Callable[[random.Random], Any]


# --------------------------------------------------------------------------- rewards
def win_shares(state: Any) -> list[float]:
    """Each seat's share of the win of a finished game: 1 split among the winners
    (a game stopped by a safety cap, with no winner, is a draw: 1/n each)."""
    out = state.outcome()
    n = state.players
    winners = out.winners
    if not winners:
        return [1.0 / n] * n
    share = 1.0 / len(winners)
    r = [0.0] * n
    for w in winners:
        r[w] = share
    return r


def _soft_shares(values: Sequence[float], temperature: float) -> list[float]:
    """Win shares estimated from per-seat values (higher is better): a softmax, so that a
    clear leader gets nearly everything and close seats split."""
    top = max(values)
    e = [math.exp((v - top) / temperature) for v in values]
    total = sum(e)
    return [x / total for x in e]


def _depot_estimate(state: Any) -> list[float]:
    """Depot (D8, D10): the first player out wins a game; a match goes to the fewest lost
    points. Mid-game, fewer cards in hand is closer to going out."""
    v = state.view(None)
    hands = [len(h) for h in v["hands"]]
    if v["games"] == 1:
        return _soft_shares([-h for h in hands], 1.5)
    lost = v["lost_points"]
    left = v["games"] - v["game_no"]  # games still to play after this one
    return _soft_shares([-(lost[s] + 0.5 * hands[s]) for s in range(len(hands))], 3.0 + 4.0 * left)


def _cirno_estimate(state: Any) -> list[float]:
    """cirno+neu (N6): the last player standing wins. A player out has nothing; in the
    life system chips (N2.4) keep a player in, so more chips is a larger share."""
    v = state.view(None)
    chips = v["chips"]
    values = [(chips[s] if chips is not None else 0.0) if v["active"][s] else -1e9 for s in range(state.players)]
    return _soft_shares(values, 1.0)


def _totals_estimate(state: Any) -> list[float]:
    """Crypto Trick (C10) and standard Yadokarick (Y11): the highest total wins; the
    running totals (with the round's score so far where the view has it) decide."""
    v = state.view(None)
    totals = list(v["totals"])
    now = v.get("score_now")
    if now is not None:
        totals = [t + s for t, s in zip(totals, now)]
    rounds_left = v["rounds"] - v["round"]
    return _soft_shares(totals, 4.0 + 6.0 * rounds_left)


#: Where each game keeps the number of its round in play (a Depot match: the game in
#: play): the rollouts of ``depth="round"`` stop when it changes. Read from the engine's
#: field rather than a view because it is asked after every rollout action (a test
#: checks it against ``view(None)``); a mode without rounds (duo, solo) has none.
ROUND_FIELDS = {"depot": "_game_no", "cirno_neu": "_round", "crypto_trick": "_round", "yadokarick": "_round"}


#: Solo Yadokarick has nobody to beat: the reward is the score (Y14.14), mapped
#: linearly (so a higher mean reward is a higher mean score) so that typical scores
#: fall in [0, 1].
SOLO_SCALE = (-100.0, 200.0)

#: How much of the size on a crab a solo estimate counts (a house is not finished yet).
SOLO_PARTIAL = 0.5


def solo_reward(score: float) -> float:
    lo, hi = SOLO_SCALE
    return (score - lo) / (hi - lo)


def _yadokarick_estimate(state: Any) -> list[float]:
    """Standard: the totals (Y11). Duo: who would win if the houses stayed as they are
    (Y13.10). Solo: the score so far (Y14.14) and part of the size already on each crab,
    more of it the nearer the house is to finished (Y14.8)."""
    if state.mode == "standard":
        return _totals_estimate(state)
    if state.mode == "duo":
        from ..games.yadokarick.cards import duo_winners

        v = state.view(None)
        h = v["house_sizes"]
        winners, _ = duo_winners(h[0], h[1], v["target"])
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(2)]
    # Solo reads the engine's fields: its view works out the hint, which costs more than
    # the whole rollout (a test checks these fields against the view).
    size = state._cfg.size
    need = state._cfg.complete
    partial = sum(sum(size[c] for c in crab) * len(crab) / need for crab in state._crabs)
    return [solo_reward(state.score + SOLO_PARTIAL * partial)]


#: Reward estimates where a rollout stops before the game's end (``depth=``).
ESTIMATES: dict[str, Callable[[Any], list[float]]] = {
    "depot": _depot_estimate,
    "cirno_neu": _cirno_estimate,
    "crypto_trick": _totals_estimate,
    "yadokarick": _yadokarick_estimate,
}


# --------------------------------------------------------------------------- defaults
#: Per game (and mode) settings that keep a decision around 0.05-0.3 s on one core
#: (``benchmarks/strength.py`` measures them). Keys: ``iterations``, ``rollout``,
#: ``depth``, ``exploration``.
DEFAULTS: dict[tuple[str, str | None], dict[str, Any]] = {
    # A Depot game is one long round: greedy rollouts (the random ones pass forever) to its end.
    ("depot", None): dict(iterations=400, rollout="greedy", depth=None, exploration=0.7, root="halving"),
    # The games with rounds roll out to the end of the round in play and score the totals
    # (or who is still in): the rounds after it are mostly luck of deals not yet made.
    ("cirno_neu", None): dict(iterations=800, rollout="random", depth="round", exploration=0.7, root="halving"),
    ("crypto_trick", None): dict(iterations=800, rollout="random", depth="round", exploration=0.7, root="halving"),
    ("yadokarick", "standard"): dict(iterations=800, rollout="random", depth="round", exploration=0.7,
                                     root="halving"),
    # Duo is one round of ten tricks: rollouts to its end are short.
    ("yadokarick", "duo"): dict(iterations=800, rollout="random", depth=None, exploration=0.7, root="halving"),
    # Solo: random rollouts that place (no give-ups) over the next 10 actions, scored by the
    # score and the houses under way; rollouts to the end are mostly forced give-ups.
    ("yadokarick", "solo"): dict(iterations=400, rollout="random", depth=10, exploration=0.3, root="halving"),
}


def defaults_for(game: str, mode: str | None = None) -> dict[str, Any]:
    """The default search settings of a game and mode (see ``DEFAULTS``)."""
    game_module(game)  # an unknown game is a ValueError naming the games
    return dict(DEFAULTS.get((game, mode)) or DEFAULTS.get((game, None)) or DEFAULTS[("cirno_neu", None)])


# --------------------------------------------------------------------------- the tree
class _Node:
    """A node of the observer's tree, reached by ``player`` choosing an action."""

    __slots__ = ("player", "visits", "reward", "avail", "kids")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        # player to act here -> action -> child: in different worlds different seats may
        # be to act after the same actions, and their choices are different nodes.
        self.kids: dict[int, dict[Any, _Node]] = {}


@dataclass(frozen=True)
class SearchInfo:
    """What the last search did: ``iterations``, ``seconds``, per root action (notation,
    most visited first) its ``visits`` and mean reward (``values``), and the ``engine``
    its rollouts ran on (``"python"`` or ``"fast"``)."""

    iterations: int
    seconds: float
    visits: dict[str, int]
    values: dict[str, float]
    engine: str = "python"


#: The values of ``ISMCTSBot(engine=...)``.
ENGINES = ("python", "fast", "auto")


class ISMCTSBot:
    """Information-set MCTS from the bot's own seat (see the module docstring).

    Parameters
    ----------
    iterations:
        Search iterations per decision. With ``seconds`` too, the search stops at
        whichever comes first. With neither, the game's default (``DEFAULTS``).
    seconds:
        Time per decision (wall clock). The number of iterations then depends on the
        machine, so moves are only reproducible with an ``iterations`` budget.
    seed:
        Seeds the search; the same seed and position give the same move. ``None``: a
        fresh seed.
    rollout:
        ``"random"`` (uniform legal moves), ``"greedy"`` (the game's heuristic bot, from
        each seat's view in the world: slower, better informed) or another bot name of
        the game. ``None``: the game's default.
    depth:
        Where rollouts stop: ``None`` at the end of the game; an int after that many
        rollout actions; ``"round"`` at the end of the round in play when the search
        started (a Depot match: the game in play). A rollout stopped early is scored
        with the game's estimate (``ESTIMATES``).
    exploration:
        The UCB1 constant.
    root:
        How the root spends the budget: ``"halving"`` (sequential halving over the root
        actions on shared worlds, see ``_Search.halving``) or ``"ucb"`` (plain IS-MCTS).
    engine:
        Where rollouts run: ``"python"`` (the reference engine; the default, so that a
        table never waits for a compile and seeded moves are the same with or without the
        extra), ``"fast"`` (the compiled fast lane, ``cardwidgets[fast]``; a ``ValueError``
        names what it does not cover: the extra, the game's kernel, the world's options, the
        rollout policy) or ``"auto"`` (the lane where it covers the search, else Python).
        The lane plays the same policy to the same stop with the same reward, from its own
        random numbers, so moves differ from ``"python"``'s for a seed.
    clock:
        The clock ``seconds`` is measured with (tests pass a fake one).
    """

    name = "ismcts"
    needs_view = True
    #: The caller passes ``worlds=`` (see :func:`cardwidgets.bots.ask`).
    needs_worlds = True

    def __init__(self, iterations: int | None = None, seconds: float | None = None, *, seed: int | None = None,
                 rollout: str | None = None, depth: int | str | None = None, exploration: float | None = None,
                 root: str | None = None, engine: str = "python",
                 clock: Callable[[], float] = time.perf_counter) -> None:
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 1):
            raise ValueError(f"iterations must be a positive int or None, got {iterations!r}")
        if seconds is not None and not _finite_positive(seconds):
            # inf (or an int past any float) would be a decision that never ends
            raise ValueError(f"seconds must be a positive finite number or None, got {show(seconds)}")
        if depth is not None and depth != "round" and (isinstance(depth, bool) or not isinstance(depth, int)
                                                        or depth < 0):
            raise ValueError(f"depth must be an int >= 0, 'round' or None, got {depth!r}")
        if exploration is not None and not exploration >= 0:
            raise ValueError(f"exploration must be a number >= 0, got {exploration!r}")
        if rollout is not None and not isinstance(rollout, str):
            raise ValueError(f"rollout must be a bot name ('random', 'greedy' ...) or None, got {rollout!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.seed = random.Random().getrandbits(63) if seed is None else seed
        self.rollout = rollout
        self.depth = depth
        self.exploration = exploration
        if root not in (None, "halving", "ucb"):
            raise ValueError(f"root must be 'halving', 'ucb' or None, got {root!r}")
        self.root = root
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
        self.engine = engine
        self.clock = clock
        #: The last search (``SearchInfo``), ``None`` before the first.
        self.last: SearchInfo | None = None
        #: Totals over every decision: ``decisions``, ``searches`` (decisions with more
        #: than one legal action), ``iterations``, ``seconds``.
        self.totals = {"decisions": 0, "searches": 0, "iterations": 0, "seconds": 0.0}

    def __repr__(self) -> str:
        args = [f"{k}={v!r}" for k, v in (("iterations", self.iterations), ("seconds", self.seconds),
                                         ("rollout", self.rollout), ("depth", self.depth),
                                         ("exploration", self.exploration), ("root", self.root))
                if v is not None]
        if self.engine != "python":
            args.append(f"engine={self.engine!r}")
        return f"ISMCTSBot({', '.join(args + [f'seed={self.seed!r}'])})"

    # ------------------------------------------------------------------ settings
    def settings(self, game: str, mode: str | None = None) -> dict[str, Any]:
        """The settings a search in ``game`` (and ``mode``) uses: the constructor's, else the defaults."""
        out = defaults_for(game, mode)
        for key in ("iterations", "seconds", "rollout", "depth", "exploration", "root"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.seconds is not None and self.iterations is None:
            out["iterations"] = None  # a time budget alone
        out.setdefault("seconds", None)
        if out["depth"] is not None and game not in ESTIMATES:
            raise ValueError(f"depth= needs an estimate of {game} positions; none is known")
        return out

    def _rng(self, view: dict[str, Any], legal: Sequence[Any]) -> random.Random:
        """The decision's RNG: from the seed and what the seat sees, nothing else."""
        try:
            text = json.dumps(view, sort_keys=True, default=str)
        except TypeError:  # keys of mixed types cannot be sorted: the view's own order is fixed
            text = json.dumps(view, default=str)
        h = hashlib.blake2b(f"{self.seed}\n{text}\n{[str(a) for a in legal]}".encode(), digest_size=8)
        return random.Random(int.from_bytes(h.digest(), "big"))

    # ------------------------------------------------------------------ acting
    def act(self, view: dict[str, Any], legal: Sequence[Any],
            worlds: Callable[[random.Random], Any] | None = None) -> Any:
        """The action the search finds best (always one of ``legal``)."""
        self.totals["decisions"] += 1
        if len(legal) == 1:
            return legal[0]
        if worlds is None:
            raise TypeError("ISMCTSBot.act needs worlds=: a search bot samples the positions its seat cannot "
                            "tell apart; ask it through cardwidgets.bots.ask(bot, state)")
        rng = self._rng(view, legal)
        start = self.clock()
        try:
            first = worlds(rng)
        except SamplingLimitError:
            # No world to search in (see SamplingLimitError): the game's greedy bot, which
            # needs none, decides from the view alone.
            self.last = SearchInfo(0, self.clock() - start, {}, {})
            return playing_bot(view["game"], "greedy", seed=rng.getrandbits(63)).act(view, legal)
        cfg = self.settings(first.game, first.mode)
        search = _Search(first, worlds, cfg, self.clock, lane_rollout(self.engine, first, cfg["rollout"]))
        try:
            if cfg["root"] == "halving":
                best = search.halving(first, list(legal), rng, start)
            else:
                best = search.ucb(first, list(legal), rng, start)
        except SamplingLimitError:  # a later world could not be dealt: what was searched decides
            kids = search.root.kids.get(search.seat, {})
            best = max(legal, key=lambda a: kids[a].visits if a in kids else 0)
        seconds = self.clock() - start
        kids = search.root.kids.get(search.seat, {})
        visits = {a: kids[a].visits if a in kids else 0 for a in legal}
        ranked = sorted(legal, key=lambda a: -visits[a])
        values = {str(a): round(kids[a].reward / kids[a].visits, 4) if visits[a] else 0.0 for a in ranked}
        self.last = SearchInfo(search.done, seconds, {str(a): visits[a] for a in ranked}, values,
                               "python" if search.lane is None else "fast")
        self.totals["searches"] += 1
        self.totals["iterations"] += search.done
        self.totals["seconds"] += seconds
        return best


def _finite_positive(x: Any) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        return 0 < float(x) < math.inf
    except OverflowError:  # an int too large for a float
        return False


def lane_rollout(engine: str, world: Any, policy: str) -> Callable[..., list[float]] | None:
    """The fast lane's ``rollout`` for searches in ``world``'s game with this rollout policy, or
    ``None`` for Python rollouts: always under ``engine="python"``; under ``"auto"`` where the lane
    does not cover them; under ``"fast"`` that is a ``ValueError`` naming what is not covered."""
    if engine == "python":
        return None
    # The lane sits above the bots (its kernels score with this module's rewards), so it is
    # found through the registry, as core finds the page writer, rather than imported.
    rollout, why = provider("lane_rollout")(world, policy)
    if rollout is not None:
        return rollout
    if engine == "fast":
        raise ValueError(f"ISMCTSBot(engine='fast'): {why}")
    return None


class _Search:
    """One decision's search: the tree, the settings, and the two ways to spend the budget
    at the root (``ucb``, ``halving``)."""

    def __init__(self, first: Any, worlds: Worlds, cfg: dict[str, Any], clock: Callable[[], float],
                 lane: Callable[..., list[float]] | None = None) -> None:
        self.worlds = worlds
        self.seat = first.current_player
        self.budget = cfg["iterations"]
        self.seconds = cfg["seconds"]
        self.c = cfg["exploration"]
        depth = cfg["depth"]
        self.by_round = depth == "round"
        self.depth = None if self.by_round else depth
        game = first.game
        self.game = game
        self.solo = first.players == 1
        self.estimate = ESTIMATES.get(game)
        self.rollout = cfg["rollout"]
        self.field = ROUND_FIELDS.get(game, "")
        self.round0 = getattr(first, self.field, None)
        self.clock = clock
        #: The lane's ``rollout(world, policy, steps, round0, seed)``, or ``None`` for Python rollouts.
        self.lane = lane
        self.root = _Node(-1)
        self.done = 0
        self._wasteful: dict[Any, bool] = {}

    # ------------------------------------------------------------------ one iteration
    def iterate(self, world: Any, node: _Node, path: list[_Node], rng: random.Random) -> list[float]:
        """From ``node`` (``world`` is at it): select by UCB over the actions legal in this
        world, expand one child, roll out, back the reward up ``path``. Returns the reward."""
        c = self.c
        log, sqrt = math.log, math.sqrt
        while not world.is_terminal:
            p = world.current_player
            kids = node.kids.get(p)
            if kids is None:
                kids = node.kids[p] = {}
            legal = world.legal_actions()
            untried = None
            for a in legal:
                ch = kids.get(a)
                if ch is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                else:
                    ch.avail += 1
            if untried is not None:
                a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                ch = kids[a] = _Node(p)
                ch.avail = 1
                world.apply_unchecked(a)
                path.append(ch)
                break
            best_a, best_v = None, -1.0
            for a in legal:
                ch = kids[a]
                v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if v > best_v:
                    best_a, best_v = a, v
            node = kids[best_a]
            world.apply_unchecked(best_a)
            path.append(node)
        reward = self.play_out(world, rng)
        for ch in path:
            ch.visits += 1
            ch.reward += reward[ch.player]
        self.done += 1
        return reward

    def play_out(self, world: Any, rng: random.Random) -> list[float]:
        """Roll ``world`` on with the rollout policy and score it."""
        if self.lane is not None:  # the same rollout in the lane, seeded from the iteration's rng
            return self.lane(world, self.rollout, self.depth, self.round0 if self.by_round else None,
                             rng.getrandbits(63))
        policy = self.policy(rng)
        if self.by_round:
            field, round0 = self.field, self.round0
            while not world.is_terminal and getattr(world, field, None) == round0:
                world.apply_unchecked(policy(world))
        else:
            depth = self.depth
            steps = 0
            while not world.is_terminal and (depth is None or steps < depth):
                world.apply_unchecked(policy(world))
                steps += 1
        if world.is_terminal:
            return [solo_reward(world.outcome().scores[0])] if self.solo else win_shares(world)
        return self.estimate(world)

    def policy(self, rng: random.Random) -> Callable[[Any], Any]:
        """The rollout's move chooser, ``policy(world) -> action``, drawing on ``rng`` only."""
        if self.rollout == "random" and self.solo:
            return self._solo_random(rng)
        if self.rollout == "random":
            randrange = rng.randrange

            def pick(world: Any) -> Any:
                legal = world.legal_actions()
                return legal[randrange(len(legal))] if len(legal) > 1 else legal[0]

            return pick
        bot = playing_bot(self.game, self.rollout, seed=rng.getrandbits(63))
        if getattr(bot, "needs_worlds", False):
            raise ValueError(f"rollout={self.rollout!r}: a rollout cannot search")
        views = getattr(bot, "needs_view", True)

        def play(world: Any) -> Any:
            legal = world.legal_actions()
            if len(legal) == 1:
                return legal[0]
            return bot.act(world.view(world.current_player) if views else None, legal)

        return play

    def _solo_random(self, rng: random.Random) -> Callable[[Any], Any]:
        """Solo's random rollouts place cards and take bonuses: a give-up (Y14.11) costs
        points and a declined bonus (Y14.10) gives none, so moves picked uniformly would
        mostly measure how often the rollout throws points away. A give-up is played only
        when nothing can be placed."""
        randrange = rng.randrange
        wasteful = self.wasteful

        def pick(world: Any) -> Any:
            legal = world.legal_actions()
            if len(legal) > 1:
                useful = [a for a in legal if not wasteful(a)] or legal
                return useful[randrange(len(useful))] if len(useful) > 1 else useful[0]
            return legal[0]

        return pick

    def wasteful(self, action: Any) -> bool:
        """Whether a solo action is a give-up or a declined bonus (cached: actions are shared values)."""
        w = self._wasteful.get(action)
        if w is None:
            w = self._wasteful[action] = str(action).startswith(("giveup", "decline"))
        return w

    def _out_of_time(self, deadline: float | None) -> bool:
        return deadline is not None and self.clock() >= deadline

    # ------------------------------------------------------------------ the root
    def ucb(self, first: Any, legal: list[Any], rng: random.Random, start: float) -> Any:
        """Plain IS-MCTS: every iteration a new world, UCB from the root; the most visited
        root action."""
        deadline = None if self.seconds is None else start + self.seconds
        world = first
        while True:
            self.iterate(world, self.root, [], rng)
            if self.budget is not None and self.done >= self.budget:
                break
            if self._out_of_time(deadline):
                break
            world = self.worlds(rng)
        kids = self.root.kids.get(self.seat, {})
        return max(legal, key=lambda a: kids[a].visits if a in kids else 0)  # the first of equals

    def halving(self, first: Any, legal: list[Any], rng: random.Random, start: float) -> Any:
        """Sequential halving at the root, IS-MCTS below it, common random numbers.

        The budget is split into rounds (log2 of the number of actions); in each, every
        remaining root action is tried on the same sampled worlds with the same random
        numbers, so that their difference shows the action rather than the luck of the
        deal, and the worse half is dropped. The root needs a good *final* choice rather
        than good play on the way (simple regret), which halving targets and UCB does
        not (Karnin, Koren and Somekh 2013; Pepels et al. 2014). A budget too small to
        try every action twice falls back to ``ucb``."""
        if self.budget is not None and self.budget < 2 * len(legal):
            return self.ucb(first, legal, rng, start)
        kids = self.root.kids.setdefault(self.seat, {})
        for a in legal:
            kids[a] = _Node(self.seat)

        def mean(a: Any) -> float:
            ch = kids[a]
            return ch.reward / ch.visits if ch.visits else -1.0

        alive = list(legal)
        rounds = math.ceil(math.log2(len(alive)))
        world = first
        for r in range(rounds):
            slice_end = None if self.seconds is None else start + self.seconds * (r + 1) / rounds
            if r and self._out_of_time(slice_end):
                break  # the earlier rounds used this one's time too: decide on what they found
            samples = None
            if self.budget is not None:
                samples = max(1, (self.budget - self.done) // ((rounds - r) * len(alive)))
            k = 0
            out = False
            while not out and (samples is None or k < samples):
                if world is None:
                    world = self.worlds(rng)
                seed = rng.getrandbits(64)
                for a in alive:
                    w = world.clone()
                    w.apply_unchecked(a)
                    ch = kids[a]
                    ch.avail += 1
                    self.iterate(w, ch, [ch], random.Random(seed))
                    if self._out_of_time(slice_end):
                        out = True
                        break
                world = None
                k += 1
            alive.sort(key=lambda a: -mean(a))  # a stable sort: the legal order breaks ties
            alive = alive[:(len(alive) + 1) // 2]
        return max(alive, key=mean)


__all__ = ["DEFAULTS", "ENGINES", "ESTIMATES", "ISMCTSBot", "SearchInfo", "defaults_for", "lane_rollout",
           "win_shares"]
