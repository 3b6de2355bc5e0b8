"""The fast lane: compiled batch simulation that the reference engines replay exactly.

An optional extra (``pip install 'cardwidgets[fast]'``: numba and numpy). numba compiles
the kernels on first use (and caches them on disk), so the package stays pure Python.
Nothing requires the extra: without it :func:`cardwidgets.sim.simulate` plays on the
reference engines, as ``engine="python"`` always does.

The reference engines (``cardwidgets.games``) stay the source of truth. A lane game is
recorded as its chance decisions (every shuffle and random choice, in the order the
reference engine makes them) and its actions, so :meth:`Batch.replay` is a
:class:`~cardwidgets.core.replay.Replay` with ``chance`` that the reference engine plays
to the same winners, scores and length, and any simulated game opens on a table.

>>> from cardwidgets import fast
>>> fast.not_covered("cirno_neu", players=4, bots="random") in (None, fast.unavailable())
True

What a game kernel provides
---------------------------
A game is in the lane when ``cardwidgets/fast/<game>.py`` exists (``<game>`` is the
registry name). It may import numba and numpy at the top: this package imports it only
after :func:`unavailable` says the extra is there. It provides:

``COVERAGE``
    A :class:`Coverage`: the modes and player counts, the options (with the values)
    and the bot names the kernel plays. Whatever it does not list falls back to the
    reference engine under ``engine="auto"`` and is a ``ValueError`` under ``"fast"``.

``play(seeds, players, mode, options, bots, legal=False) -> Batch``
    Plays one game per seed. ``seeds`` is an int64 array (the games' own seeds, as
    ``cardwidgets.sim.game_seed`` makes them); ``options`` holds every option of the
    game, resolved (defaults filled in, as ``GameSpec.resolve`` gives them); ``bots``
    one *kind* per seat (the values of ``COVERAGE.bots``: ``"random"``, ``"greedy"``).
    Everything random in a game (deals, shuffles, bots) derives from its seed alone, so
    a game played again from its seed, alone or in any batch, on any worker, is the
    same game. The RNG is the kernel's own (see :mod:`cardwidgets.fast._rng`), not the
    reference engine's; the bots' choices may use another stream than the reference
    bots' (the same heuristics and the same distribution of tie-breaks).

``check(players, mode, options) -> str | None`` (optional)
    A reason the kernel cannot play these options beyond what ``COVERAGE`` lists
    (e.g. a combination of values); ``None`` if it can.

Kernels are ``@njit(cache=True)``; a kernel module compiles nothing on import.

Rollouts (the search bot's)
---------------------------
A kernel that plays the rollouts of :class:`~cardwidgets.bots.ismcts.ISMCTSBot` (its
``engine="fast"``) also provides:

``rollout_problem(world, policy) -> str | None``
    Why this world (its mode, players, options) or this policy cannot roll out in the lane;
    ``None`` if it can. Policies: ``"random"`` (uniform over the legal actions; in solo
    Yadokarick a give-up or decline only when nothing else is legal) and ``"greedy"`` (the
    lane's greedy bot).

``rollout(world, policy, steps, round0, seed) -> list[float]``
    Plays the position of ``world`` (a reference-engine state, typically a sampled world after
    the tree descent) on in the lane and returns the reward the search's Python rollout would
    compute for the same moves: it stops when the game is over, after ``steps`` actions (unless
    ``None``) or, checked before each action, once the round field
    (``ismcts.ROUND_FIELDS``) is no longer ``round0`` (unless ``None``); the reward is
    ``win_shares`` (solo: ``[solo_reward(score)]``) of a finished game, else the game's
    ``ismcts.ESTIMATES`` computed on the lane's arrays. It never modifies ``world`` and
    depends on ``seed`` alone for its randomness.

``rollout_trace(world, policy, steps, round0, seed) -> (reward, actions, chance)``
    The same rollout with its actions (reference notation) and chance decisions (the
    ``Recorded`` form, numbered from the world's decision counter), for the tests: the
    reference engine plays them on a clone of the world to the same end and reward.

How a game records its chance
-----------------------------
Every chance decision of the reference engine is decision ``k`` of its state
(:mod:`cardwidgets.core.rng`): a shuffle of a list of items, or a random choice
``randrange(n)``. The kernel keeps each zone in the reference engine's order, builds
the list the engine would shuffle in the engine's order, draws a permutation ``p``
(Fisher-Yates on the kernel's RNG) and applies ``new[i] = old[p[i]]``, as
:class:`~cardwidgets.core.rng.Recorded` does. It appends each decision to the game's
chance stream: ``k, p[0], ..., p[k-1]`` for a shuffle of ``k`` items, ``-1, v`` for a
random choice (``-1`` is never a shuffle's size). :meth:`Batch.chance_of` turns the
stream into the ``Recorded`` list that :class:`Replay` saves as ``"chance"``.

Actions are small int codes per game; ``Batch.decode[code]`` is the reference
notation (``str(action)``), so the reference engine parses every recorded action.

The tests (``tests/test_fast_*.py``) replay lane games through the reference engine
action by action, compare the legal lists at every position and the outcome at the
end, and check that a mutant rule in a kernel is caught.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

#: Games whose kernel module may exist (``cardwidgets/fast/<game>.py``).
GAMES = ("depot", "cirno_neu", "crypto_trick", "yadokarick")

_UNAVAILABLE: list[str | None] = []


def unavailable() -> str | None:
    """Why the lane cannot run here (numba or numpy missing), or ``None`` if it can."""
    if not _UNAVAILABLE:
        try:
            import numba  # noqa: F401
            import numpy  # noqa: F401
        except ImportError as e:
            _UNAVAILABLE.append(f"the fast lane needs numba and numpy ({e}): pip install 'cardwidgets[fast]'")
        else:
            _UNAVAILABLE.append(None)
    return _UNAVAILABLE[0]


@dataclass(frozen=True)
class Coverage:
    """What a kernel plays.

    Attributes
    ----------
    modes:
        Mode name -> the player counts the kernel plays in it.
    options:
        Option name -> the values the kernel plays (``None``: every allowed value).
        An option not listed is played at its default only.
    bots:
        Bot name -> the kind the kernel plays (``{"greedy": "greedy", "survivor": "greedy"}``:
        aliases of the reference bots map to one kind).
    """

    modes: Mapping[str, Sequence[int]]
    options: Mapping[str, Sequence[Any] | None] = field(default_factory=dict)
    bots: Mapping[str, str] = field(default_factory=lambda: {"random": "random"})

    def problem(self, game: str, players: int, mode: str, options: Mapping[str, Any],
                bots: Sequence[Any]) -> str | None:
        """What of this configuration the kernel does not play, in words, or ``None``."""
        from ..games import game_spec

        if mode not in self.modes:
            return f"mode {mode!r} of {game}"
        if players not in self.modes[mode]:
            return f"{players} players in {game}'s mode {mode!r}"
        spec = game_spec(game)
        for name, value in spec.non_defaults(options).items():
            if name not in self.options:
                return f"option {name}={value!r} of {game}"
            allowed = self.options[name]
            if allowed is not None and not any(_same(value, a) for a in allowed):
                return f"option {name}={value!r} of {game}"
        for s, b in enumerate(bots):
            if not isinstance(b, str) or b not in self.bots:
                what = b if isinstance(b, str) else (b.get("name") if isinstance(b, Mapping) else type(b).__name__)
                return f"bot {what!r} (seat {s}) in {game}; the lane plays {', '.join(sorted(self.bots))}"
        return None


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def kernel(game: str) -> Any:
    """The kernel module of ``game``, or ``None`` if the lane has none (imports numba)."""
    if game not in GAMES:
        return None
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.{game}":
            raise
        return None


def lane_rollout(world: Any, policy: str) -> tuple[Any, str | None]:
    """The kernel's ``rollout`` for IS-MCTS searches in ``world``'s game with this rollout
    policy, and ``None``; or ``None`` and why the lane cannot play them (what
    :class:`~cardwidgets.bots.ismcts.ISMCTSBot` ``engine=`` asks, through the registry)."""
    why = unavailable()
    if why is not None:
        return None, why
    mod = kernel(world.game)
    if mod is None or not hasattr(mod, "rollout"):
        return None, f"the fast lane has no rollouts for {world.game} yet"
    problem = mod.rollout_problem(world, policy)
    if problem is not None:
        return None, f"the fast lane does not cover {problem}"
    return mod.rollout, None


def resolve(game: str, players: Any = None, mode: str | None = None,
            options: Mapping[str, Any] | None = None) -> tuple[str, int, dict[str, Any]]:
    """``(mode, players, options)`` of a game, validated and with every default filled in."""
    import inspect

    from ..games import game_module, game_spec

    given = dict(options or {})
    if players is None:
        players = given.pop("players", None)
    if players is None:  # new_game's own default
        players = inspect.signature(game_module(game).new_game).parameters["players"].default
        if type(players) is not int:  # a default that depends on the mode (Yadokarick): a probe game knows it
            players = game_module(game).new_game(seed=0, **({} if mode is None else {"mode": mode}), **given).players
    return game_spec(game).resolve(players, mode, given)


def not_covered(game: str, *, bots: Any, players: Any = None, mode: str | None = None,
                **options: Any) -> str | None:
    """What keeps the lane from playing this configuration, in words, or ``None`` if it plays it.

    ``bots`` is one bot for every seat, a list with one per seat or a mapping seat -> bot; ``players``, ``mode`` and
    ``options`` as ``new_game`` takes them.
    """
    why = unavailable()
    if why is not None:
        return why
    mod = kernel(game)
    if mod is None:
        return f"the fast lane has no kernel for {game} yet"
    mode_name, n, opts = resolve(game, players, mode, options)
    specs = _specs(bots, n)
    problem = mod.COVERAGE.problem(game, n, mode_name, opts, specs)
    if problem is None and hasattr(mod, "check"):
        problem = mod.check(n, mode_name, opts)
    return None if problem is None else f"the fast lane does not cover {problem}"


def play(game: str, seeds: Sequence[int] | Any, *, bots: Any, players: Any = None, mode: str | None = None,
         **options: Any) -> "Batch":
    """Play one lane game per seed; ``ValueError`` naming what the lane does not cover."""
    import numpy as np

    problem = not_covered(game, bots=bots, players=players, mode=mode, **options)
    if problem is not None:
        raise ValueError(problem)
    mode_name, n, opts = resolve(game, players, mode, options)
    mod = kernel(game)
    specs = _specs(bots, n)
    kinds = tuple(mod.COVERAGE.bots[b] for b in specs)
    batch = mod.play(np.asarray(seeds, dtype=np.int64), n, mode_name, opts, kinds)
    batch.bots = tuple(specs)
    return batch


def _specs(bots: Any, players: int) -> list[Any]:
    """One bot per seat from a name (or anything else) for every seat, a list or a mapping
    seat -> bot (seats it leaves out play ``"random"``), as ``cardwidgets.sim.simulate`` takes them."""
    if isinstance(bots, Mapping) and "name" not in bots:
        return [bots.get(s, "random") for s in range(players)]
    if isinstance(bots, (list, tuple)):
        if len(bots) != players:
            raise ValueError(f"bots: expected {players} entries (one per seat), got {len(bots)}")
        return list(bots)
    return [bots] * players


@dataclass
class Batch:
    """Games played by a kernel, as numpy arrays (``n`` games, ``players`` seats).

    Attributes
    ----------
    game, players, mode, options:
        The configuration (``options``: every option, resolved).
    bots:
        The bot name of each seat.
    seeds:
        int64 ``(n,)``: each game's seed.
    starter:
        int64 ``(n,)``: the seat that acted first (``-1``: nobody acted).
    winners:
        bool ``(n, players)``: the seats among the winners.
    scores:
        ``(n, players)``: the scores of ``outcome().scores``.
    length:
        int64 ``(n,)``: actions played.
    aborted:
        bool ``(n,)``: the game reached the engine's action bound (rule G4).
    reasons:
        ``outcome().reason`` per game, as the reference engine words it.
    actions, action_start:
        Action codes of every game, one after the other (int32), and where game ``i``'s
        start (int64 ``(n + 1,)``): game ``i`` is ``actions[action_start[i]:action_start[i + 1]]``.
    chance, chance_start:
        The chance streams (see the module's docstring), laid out the same way.
    decode:
        Action code -> the action's reference notation.
    """

    game: str
    players: int
    mode: str
    options: dict[str, Any]
    bots: tuple[Any, ...]
    seeds: Any
    starter: Any
    winners: Any
    scores: Any
    length: Any
    aborted: Any
    reasons: list[str]
    actions: Any
    action_start: Any
    chance: Any
    chance_start: Any
    decode: tuple[str, ...]
    #: With ``legal=True``: every position's legal codes, laid out as ``actions`` (position ``j``
    #: of the whole batch, ``action_start[i] + k`` for game ``i``, has
    #: ``legal[legal_start[j]:legal_start[j + 1]]``).
    legal: Any = None
    legal_start: Any = None

    def __len__(self) -> int:
        return len(self.seeds)

    def actions_of(self, i: int) -> list[str]:
        """The actions of game ``i`` in reference notation."""
        d = self.decode
        return [d[c] for c in self.actions[self.action_start[i]:self.action_start[i + 1]].tolist()]

    def chance_of(self, i: int) -> list[Any]:
        """The chance decisions of game ``i`` in the form of :class:`~cardwidgets.core.rng.Recorded`."""
        return decisions(self.chance[self.chance_start[i]:self.chance_start[i + 1]].tolist())

    def winners_of(self, i: int) -> tuple[int, ...]:
        return tuple(int(s) for s in self.winners[i].nonzero()[0])

    def rows(self, numbers: Sequence[int] | None = None) -> list[tuple]:
        """Rows of ``cardwidgets.sim``'s games table (its ``ROW`` order), one per game, with
        ``numbers[i]`` as game ``i``'s index in its run (default: ``i``)."""
        import numpy as np

        if numbers is None:
            numbers = range(len(self))
        starter = [None if s < 0 else s for s in self.starter.tolist()]
        # Winners as tuples, one per distinct set of seats (few): no Python loop over seats per game.
        masks = (self.winners.astype(np.int64) << np.arange(self.players)).sum(axis=1).tolist()
        seen: dict[int, tuple[int, ...]] = {}
        for m in set(masks):
            seen[m] = tuple(s for s in range(self.players) if m >> s & 1)
        term = ["aborted" if a else "normal" for a in self.aborted.tolist()]
        return list(zip(numbers, self.seeds.tolist(), starter, map(seen.__getitem__, masks),
                        map(tuple, self.scores.tolist()), self.length.tolist(), term, self.reasons))

    def replay(self, i: int) -> Any:
        """Game ``i`` as a :class:`~cardwidgets.core.replay.Replay` with its recorded chance:
        the reference engine plays it to the same end (open it on a table)."""
        from ..core.replay import Replay
        from ..core.spec import json_safe
        from ..games import game_spec

        spec = game_spec(self.game)
        options: dict[str, Any] = {"players": self.players}
        if len(spec.modes) > 1:
            options["mode"] = self.mode
        options.update(json_safe(spec.non_defaults(self.options)))
        return Replay(self.game, options, int(self.seeds[i]), self.actions_of(i), chance=self.chance_of(i))





def decisions(stream: Sequence[int]) -> list[Any]:
    """A chance stream (see the module's docstring) as the decisions of
    :class:`~cardwidgets.core.rng.Recorded`: a permutation per shuffle, an int per random choice."""
    out: list[Any] = []
    k = 0
    while k < len(stream):
        size = stream[k]
        if size < 0:
            out.append(stream[k + 1])
            k += 2
        else:
            out.append(list(stream[k + 1:k + 1 + size]))
            k += 1 + size
    return out


class Mismatch(AssertionError):
    """A lane game that the reference engine plays differently (a bug of the lane)."""


def verify(batch: Batch, i: int) -> None:
    """Replay game ``i`` of ``batch`` through the reference engine, action by action.

    Compares the legal lists at every position (when the batch recorded them: ``play(...,
    legal=True)`` of a kernel) and the starter, winners, scores, length, termination and
    reason at the end. Raises :class:`Mismatch` at the first difference.
    """
    from ..core.replay import ReplayError

    rep = batch.replay(i)
    try:
        st = rep.new_state()
    except ReplayError as e:
        raise Mismatch(f"game {i}: the reference engine cannot set it up: {e}") from None
    starter = int(batch.starter[i])
    if (st.current_player if st.current_player is not None else -1) != starter:
        raise Mismatch(f"game {i}: the lane's starter is {starter}, the reference's {st.current_player}")
    legal = getattr(batch, "legal", None)
    base = int(batch.action_start[i])
    d = batch.decode
    for j, text in enumerate(rep.actions):
        if st.is_terminal:
            raise Mismatch(f"game {i}: the reference game is over after {j} actions, the lane's goes on")
        if legal is not None:
            mine = [d[c] for c in legal[batch.legal_start[base + j]:batch.legal_start[base + j + 1]].tolist()]
            theirs = [str(a) for a in st.legal_actions()]
            if mine != theirs:
                raise Mismatch(f"game {i}, action {j}: legal lists differ\n  lane:      {mine}\n"
                               f"  reference: {theirs}\n  position: {st.to_position()}")
        try:
            st.apply(text)
        except ValueError as e:
            raise Mismatch(f"game {i}, action {j}: the reference engine refuses {text!r}: {e}") from None
    out = st.outcome()
    if out is None:
        raise Mismatch(f"game {i}: the lane's game ended after {len(rep.actions)} actions, the reference's "
                       f"goes on")
    want = (batch.winners_of(i), tuple(batch.scores[i].tolist()), int(batch.length[i]),
            "aborted" if batch.aborted[i] else "normal", batch.reasons[i])
    got = (tuple(out.winners), tuple(out.scores), st.move_count, out.termination.value, out.reason)
    if want != got:
        raise Mismatch(f"game {i}: outcomes differ\n  lane:      {want}\n  reference: {got}")

__all__ = ["Batch", "Coverage", "GAMES", "Mismatch", "decisions", "kernel", "not_covered", "play", "resolve", "unavailable",
           "verify"]
