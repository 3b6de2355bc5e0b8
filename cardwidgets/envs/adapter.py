"""What the RL adapters share: a game configuration as a fixed action space and a fixed
observation layout, and one playthrough driven by action indices. Standard library only.

:class:`EnvSpec` is one configuration of a game (``new_game``'s keyword arguments): the
list of every action string the game can ever have in it (index <-> notation), the
observation layout with the bounds of every number, the rewards of an outcome and
the bound on a game's length. :class:`Table` is one playthrough: the engine state plus,
where the game has an action whose legal list is combinatorial (Yadokarick's
``arrange`` of captured cards, ``placement_order="choose"``), the part of it chosen so
far. Such an action is offered one item at a time (``"arrange next G25"``), the way
OpenSpiel's Hearts passes three cards one at a time, so the space stays small.

Everything a seat's observation holds is read from ``view(seat)`` (plus the items the
seat itself has chosen of a pending combinatorial action): two positions the seat
cannot tell apart give it the same observation.

>>> spec = EnvSpec("depot", players=3)
>>> spec.num_actions, spec.names[:3], spec.index("pass take 5 give 2") > 0
(181, ('play 1', 'play 2', 'play 3'), True)
>>> table = spec.new_table(seed=1)
>>> [spec.names[i] for i in table.legal()][:3]
['play 2', 'play 4', 'play 5']
>>> table.step(spec.index("play 2"))
>>> table.current_player, table.state.history
(1, (Play(cards=(2,)),))
"""

from __future__ import annotations

import importlib
from array import array
from typing import Any

from ..core import IllegalActionError, InvalidActionError, State, Termination
from ..core.errors import show
from ..games import available_games, game_module, game_spec
# Layout, Encoder and the writers are re-exported: this module was their home, and saved
# objects (pickles) and imports name them here.
from .base import Config, Encoder, GameAdapter, Layout, count, hot, per_seat, rel  # noqa: F401


def _game_adapter(game: str) -> GameAdapter | None:
    """``ADAPTER`` of the module ``cardwidgets.envs._<game>``, if there is one."""
    name = f"{__package__}._{game}"
    try:
        return importlib.import_module(name).ADAPTER
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def adapter(game: str) -> GameAdapter:
    """The adapter of a registered game (``ValueError`` for an unknown game or one the
    adapters do not cover yet).

    The games come from the game registry, as everywhere else: a game's adapter is the
    ``ADAPTER`` of its module ``cardwidgets.envs._<game>``, imported when first asked for.
    """
    game_spec(game)  # an unknown game: the registry's ValueError
    found = _game_adapter(game)
    if found is None:
        covered = [g for g in available_games() if _game_adapter(g) is not None]
        raise ValueError(f"the RL adapters do not cover {game!r} yet; they cover: {', '.join(covered)}")
    return found


# --------------------------------------------------------------------------- a configuration
class EnvSpec:
    """One configuration of a game as a fixed action space and observation layout.

    Parameters
    ----------
    game:
        A registered game name (``"depot"`` ...).
    **kwargs:
        ``new_game``'s keyword arguments (``players=``, ``mode=``, the game's options,
        ``deck=``) except ``seed``: each new table takes its own. Checked at once (the
        engine's ``TypeError`` / ``ValueError``).

    Notes
    -----
    Rewards (:meth:`rewards`): with several players, each player's share of the win
    (1 split equally among ``outcome().winners``, 0 for the others; a game stopped by
    the engine's safety cap is a draw, 1/n each), so the sum is always 1. With one
    player (Yadokarick solo) there is nobody to beat: the reward is the score.
    """

    def __init__(self, game: str, **kwargs: Any) -> None:
        if "seed" in kwargs:
            raise TypeError("seed is not a setting of the configuration: each new game takes its own "
                            "(reset(seed=...) in PettingZoo, rng_seed in OpenSpiel)")
        if "chance" in kwargs:
            raise TypeError("chance is not a setting of the configuration")
        self.game = game
        self.adapter = adapter(game)
        self.module = game_module(game)
        spec = self.module.SPEC
        kwargs = dict(kwargs)
        if "mode" in kwargs and len(spec.modes) == 1:
            # A single-mode game's new_game has no mode keyword: check the name, then drop it.
            spec.mode(kwargs.pop("mode"))
        self.kwargs = kwargs
        probe = self.module.new_game(seed=0, **kwargs)
        self.players: int = probe.players
        self.mode: str = probe.mode
        self.options: dict[str, Any] = dict(probe.options)
        cfg = Config(game, self.mode, self.players, self.options, probe.view(0),
                     spec.max_actions(self.players, self.options) if spec.max_actions else 100_000)
        self.config = cfg
        self.names: tuple[str, ...] = tuple(self.adapter.actions(cfg))
        self._index = {name: i for i, name in enumerate(self.names)}
        if len(self._index) != len(self.names):
            raise AssertionError(f"{game}: an action string is listed twice")
        self.encoder = self.adapter.encoder(cfg)
        self.layout = self.encoder.layout
        #: A bound on the steps of one game (engine actions plus the items of combinatorial ones).
        self.max_steps = cfg.max_actions + self.adapter.extra_steps(cfg)
        if self.players == 1:
            self.reward_bounds = tuple(float(b) for b in self.adapter.score_bounds(cfg))
        else:
            self.reward_bounds = (0.0, 1.0)
        # Legal action objects -> indices, shared by every table of this configuration
        # (the engines intern their actions, so this is one dict lookup per action).
        self._memo: dict[Any, int] = {}

    @property
    def num_actions(self) -> int:
        return len(self.names)

    def index(self, action: Any) -> int:
        """The index of an action string (any notation the game parses) or object.

        >>> EnvSpec("crypto_trick", players=2).index("r y3") == EnvSpec("crypto_trick", players=2).index("reveal Y3")
        True
        """
        if isinstance(action, str) and action in self._index:
            return self._index[action]
        text = str(self.module.parse_action(action) if isinstance(action, str) else action)
        try:
            return self._index[text]
        except KeyError:
            raise InvalidActionError(f"{show(action)} is not in the action space of this {self.game} "
                                     f"configuration") from None

    def _index_of(self, action: Any) -> int:
        i = self._memo.get(action)
        if i is None:
            i = self._index.get(str(action))
            if i is None:
                raise AssertionError(f"{self.game}: the legal action {str(action)!r} is not in the action space")
            if len(self._memo) < 100_000:
                self._memo[action] = i
        return i

    def new_state(self, seed: int | None) -> State:
        """A new engine state of this configuration."""
        return self.module.new_game(seed=seed, **self.kwargs)

    def new_table(self, seed: int | None = None, state: State | None = None) -> "Table":
        """A playthrough: a new game with ``seed``, or ``state`` (kept, not copied)."""
        if state is None:
            state = self.new_state(seed)
        elif not isinstance(state, State) or state.game != self.game or state.players != self.players \
                or state.mode != self.mode or state.options != self.options:
            raise ValueError(f"not a state of this configuration ({self!r}): {show(state)}")
        return Table(self, state)

    def rewards(self, state: State) -> list[float]:
        """Each seat's reward at the end of ``state`` (zeros while it runs)."""
        out = state.outcome()
        n = self.players
        if out is None:
            return [0.0] * n
        if n == 1:
            return [float(out.scores[0])]
        if out.termination is Termination.ABORTED or not out.winners:
            return [1.0 / n] * n
        share = 1.0 / len(out.winners)
        return [share if s in out.winners else 0.0 for s in range(n)]

    def __reduce__(self) -> tuple:
        # Pickled as its arguments (an OpenSpiel state is serialized with pickle).
        return (_rebuild, (self.game, self.kwargs))

    def __repr__(self) -> str:
        kw = "".join(f", {k}={v!r}" for k, v in self.kwargs.items())
        return f"EnvSpec({self.game!r}{kw})"


def _rebuild(game: str, kwargs: dict[str, Any]) -> EnvSpec:
    return EnvSpec(game, **kwargs)


# --------------------------------------------------------------------------- a playthrough
def _action_index(value: Any, n: int) -> int:
    """An action index from an int or an integer scalar (NumPy's too, a 0-d array included).

    An array of one or more items is not read as its item: a batch of actions given to one
    environment is a mistake to report, not to guess at.
    """
    def refused() -> InvalidActionError:
        shape = getattr(value, "shape", None)
        what = f"an array of shape {tuple(shape)}" if shape else show(value)
        return InvalidActionError(f"an action is one index 0..{n - 1} (an int, or a NumPy integer scalar), "
                                  f"got {what}")

    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise refused()
    try:
        i = value.__index__()
    except (TypeError, ValueError, OverflowError):  # NumPy: an array with a shape, a bool scalar ...
        raise refused() from None
    if type(i) is not int:  # a hostile __index__
        raise refused()
    return i


class Table:
    """One game driven by action indices; see the module docstring."""

    __slots__ = ("spec", "state", "prefix", "_key", "_legal", "_actions")

    def __init__(self, spec: EnvSpec, state: State) -> None:
        self.spec = spec
        self.state = state
        #: The items chosen so far of a pending combinatorial action.
        self.prefix: tuple[str, ...] = ()
        self._key: Any = None
        self._legal: list[int] = []
        self._actions: dict[int, Any] = {}

    @property
    def current_player(self) -> int | None:
        return self.state.current_player

    @property
    def is_terminal(self) -> bool:
        return self.state.is_terminal

    def clone(self) -> "Table":
        t = Table(self.spec, self.state.clone())
        t.prefix = self.prefix
        return t

    def _refresh(self) -> None:
        key = (self.state.move_count, self.prefix)
        if key == self._key:
            return
        spec = self.spec
        legal = self.state.legal_actions()
        actions: dict[int, Any] = {}
        index_of = spec._index_of
        if spec.adapter.combinatorial:
            k = len(self.prefix)
            for a in legal:
                items = spec.adapter.items(a)
                if items is None:
                    if not k:
                        actions[index_of(a)] = a
                elif items[:k] == self.prefix and len(items) > k:
                    # None marks an item: the action it belongs to is not complete yet.
                    actions.setdefault(spec._index[spec.adapter.item_name(items[k])], None)
        else:
            for a in legal:
                actions[index_of(a)] = a
        self._legal = sorted(actions)
        self._actions = actions
        self._key = key

    def legal(self) -> list[int]:
        """The legal action indices of the seat to act, ascending (a new list)."""
        self._refresh()
        return list(self._legal)

    def mask(self) -> list[int]:
        """1 at every legal index, 0 elsewhere."""
        self._refresh()
        m = [0] * len(self.spec.names)
        for i in self._legal:
            m[i] = 1
        return m

    def step(self, index: Any) -> None:
        """Play the action at ``index``.

        An index outside the space is an ``InvalidActionError``; an action that is not
        legal now raises the engine's ``IllegalActionError`` (with its rule ID) and
        changes nothing.
        """
        spec = self.spec
        i = _action_index(index, len(spec.names))
        if not 0 <= i < len(spec.names):
            raise InvalidActionError(f"action index {i} is outside 0..{len(spec.names) - 1}")
        if self.state.is_terminal:
            raise IllegalActionError("G1", "the game is over")
        self._refresh()
        if i not in self._actions:
            self._refuse(i)
        action = self._actions[i]
        if action is None:  # the next item of a combinatorial action
            self._item(i)
        else:
            # Taken from this very state's legal list: the engine's fast path applies it.
            self.state.apply_unchecked(action)

    def _item(self, i: int) -> None:
        spec = self.spec
        chosen = self.prefix + (self._item_of(i),)
        k = len(chosen)
        done = [a for a in self.state.legal_actions() if (spec.adapter.items(a) or ())[:k] == chosen]
        if len(done) == 1:  # nothing left to choose: the action is complete
            self.prefix = ()
            self.state.apply_unchecked(done[0])
        else:
            self.prefix = chosen

    def _item_of(self, i: int) -> str:
        return self.spec.adapter.item_of(self.spec.names[i])  # type: ignore[return-value]

    def _refuse(self, i: int) -> None:
        """Raise the engine's own refusal of an index that is not legal now."""
        spec = self.spec
        text = spec.names[i]
        item = spec.adapter.item_of(text)
        if item is not None:
            # The combinatorial action as far as it would go: the engine says what is wrong. An item
            # chosen already is no new notation (the parser would refuse a card named twice): the
            # engine's refusal of the choice so far says each item is taken once.
            items = self.prefix if item in self.prefix else self.prefix + (item,)
            text = spec.adapter.sequence_text(items)
        self.state.check(text)
        raise AssertionError(f"{spec.game}: the engine accepts {text!r}, which is not in the legal list")

    def rewards(self) -> list[float]:
        return self.spec.rewards(self.state)

    def observe(self, seat: int) -> array:
        """The observation numbers of ``seat``: its view, and its own pending items."""
        prefix = self.prefix if seat == self.state.current_player else ()
        return self.spec.encoder.encode(self.state.view(seat), prefix)

    def describe(self, seat: int) -> str:
        """The text table of ``seat`` (and the items it has chosen so far)."""
        text = self.state.describe(seat)
        if self.prefix and seat == self.state.current_player:
            text += "\nChosen so far: " + self.spec.adapter.sequence_text(self.prefix)
        return text

