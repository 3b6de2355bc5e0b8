"""Every game as an OpenSpiel Python game (``pip install "cardwidgets[openspiel]"``).

``register()`` (``cardwidgets.envs.register_openspiel``) registers
``python_cardwidgets_<game>`` for each game. Parameters: ``players`` (0 = the mode's
usual count where the game has several modes), ``mode``, ``rng_seed`` (-1: fresh
games each run; any other 32-bit int, negative ones too, makes the same games each run) and every option whose default is a plain bool, int or str; an option
whose default is ``None`` and that takes ints is an int parameter with -1 for ``None``.

Chance: the engines shuffle inside ``apply`` with their own seeded RNG, and a deck
order would be a chance outcome among up to 80! orders (each later deal, refill and NPC
deck as well), so the games are ``SAMPLED_STOCHASTIC``: each new initial state draws
its seed from the game's RNG (``rng_seed``) when it is first used, so a program that
makes the same calls gets the same games (OpenSpiel sizes an observation tensor by
observing a new game of its own, which draws a seed too). Observation tensors and strings are the seat's ``view(seat)`` (the encoding
of the PettingZoo environment and the text table); the information state string adds
a digest of every observation the seat has had, so it has perfect recall without
growing with the game. Returns: the share of the win (the sum is 1), or the score
with one player.

Serialization: ``state.serialize()`` is the library's own JSON (the configuration, the
game's seed and the action ids played), never a pickle; ``game.deserialize_state(text)``
checks it and plays the actions again, so a text that is anything else is a ``ValueError``
and nothing in it is run. ``pickle.dumps(state)`` and ``pickle.dumps(game)`` go through the
same text. OpenSpiel's ``serialize_game_and_state`` cannot take these games: it asks a
sampled-stochastic game for its RNG state, which OpenSpiel lets no Python game give; this
module's :func:`serialize_game_and_state` and :func:`deserialize_game_and_state` do the same
job in the same layout (with the game's RNG state, as JSON).

>>> import pyspiel
>>> from cardwidgets.envs import register_openspiel
>>> "python_cardwidgets_depot" in register_openspiel()
True
>>> game = pyspiel.load_game("python_cardwidgets_yadokarick", {"mode": "duo", "rng_seed": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_game_length()
(2, 36, 20)
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import show
from ..core.spec import GameSpec, Option
from ..games import available_games, game_module, game_spec
from .adapter import EnvSpec, Table, adapter

PREFIX = "python_cardwidgets_"
#: The ``"format"`` of a serialized state (``CardState.serialize``).
STATE_FORMAT = "cardwidgets-openspiel-state"
#: The longest serialized state read: far above the longest game, far below a memory problem.
MAX_STATE_TEXT = 1_000_000
#: An int parameter's stand-in for an option's ``None``, or for ``"random"`` (a seat option),
#: where -1 is no value of the option itself.
NONE_INT = -1
RANDOM_INT = -1
#: OpenSpiel's int parameters are C++ ints: a larger Python int cannot even reach the game.
INT_RANGE = (-2 ** 31, 2 ** 31 - 1)
#: The ``rng_seed`` that makes fresh games each run (OpenSpiel's convention); every other one repeats them.
FRESH_SEED = -1


# --------------------------------------------------------------------------- parameters
def _int_ok(opt: Option, value: int) -> bool:
    try:
        opt.validate(value)
    except ValueError:
        return False
    return True


def _params(spec: GameSpec, default_players: int) -> dict[str, Any]:
    """The parameter specification: name -> default (its type is the parameter's)."""
    out: dict[str, Any] = {"players": default_players, "mode": spec.default_mode, "rng_seed": FRESH_SEED}
    for opt in spec.options:
        d = opt.default
        if isinstance(d, (bool, int, str)):
            out[opt.name] = d
        elif d is None and (_int_ok(opt, 0) or _int_ok(opt, 1)):
            # -1 for None where -1 is no value of the option; else the number as text, "" for None
            out[opt.name] = "" if _int_ok(opt, NONE_INT) else NONE_INT
    return out


def _random_seat(opt: Option) -> bool:
    """An int option that also takes ``"random"`` (which seat deals, leads ...): -1 stands for it."""
    return (isinstance(opt.default, int) and not isinstance(opt.default, bool) and _int_ok(opt, "random")
            and not _int_ok(opt, RANDOM_INT))


def _option_value(opt: Option, value: Any) -> Any:
    """An option's value from its OpenSpiel parameter (see ``_params``)."""
    if opt.default is None and value == NONE_INT:
        return None
    if opt.default is None and isinstance(value, str):
        if value.strip() == "":
            return None
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{opt.name}={value!r}: give a whole number as text, or \"\" for None") from None
    if value == RANDOM_INT and _random_seat(opt):
        return "random"
    return value


def check_params(game: str, params: dict[str, Any]) -> None:
    """``ValueError`` for an int parameter OpenSpiel cannot hold (a 64-bit ``rng_seed`` ...).

    ``pyspiel.load_game`` turns a parameter dict into C++ values before any game code runs, and
    an int past 32 bits is a bare ``RuntimeError`` there ("Unable to cast Python instance").
    """
    spec = _TYPES[game].parameter_specification if game in _TYPES else _params(game_spec(game),
                                                                                _default_players(game))
    low, high = INT_RANGE
    for name, value in params.items():
        if isinstance(spec.get(name), int) and not isinstance(spec.get(name), bool) \
                and isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
            hint = (": give a seed in that range, -1 for fresh games each run (each game draws its own "
                    "63-bit seed from it)"
                    if name == "rng_seed" else "")
            raise ValueError(f"{name}={show(value)}: OpenSpiel's int parameters are 32-bit, from {low} "
                             f"to {high}{hint}")


def _default_players(game: str) -> int:
    """``new_game``'s default player count, or 0 where it depends on the mode."""
    d = inspect.signature(game_module(game).new_game).parameters["players"].default
    return d if isinstance(d, int) and not isinstance(d, bool) else 0


def _kwargs(game: str, params: dict[str, Any]) -> dict[str, Any]:
    """``new_game``'s keyword arguments from OpenSpiel parameters (every one filled in)."""
    spec = game_spec(game)
    mode = spec.mode(params["mode"]).name
    kw: dict[str, Any] = {}
    if len(spec.modes) > 1:
        kw["mode"] = mode
    if params["players"] != 0:
        kw["players"] = params["players"]
    applies = {o.name for o in spec.options_for(mode)}
    for opt in spec.options:
        if opt.name not in params:
            continue
        value = _option_value(opt, params[opt.name])
        if opt.name in applies:
            kw[opt.name] = value
        elif value != opt.default:
            raise ValueError(f"{opt.name} does not apply to mode {mode!r}")
    return kw


# --------------------------------------------------------------------------- game types
def _game_type(game: str) -> pyspiel.GameType:
    spec = game_spec(game)
    counts = spec.player_counts
    # One seat alone (Yadokarick solo) is rewarded with its score: not constant-sum.
    utility = (pyspiel.GameType.Utility.GENERAL_SUM if min(counts) == 1
               else pyspiel.GameType.Utility.CONSTANT_SUM)
    return pyspiel.GameType(
        short_name=PREFIX + game,
        long_name=f"cardwidgets {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(spec, _default_players(game)),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class CardGame(pyspiel.Game):
    """One configuration of a cardwidgets game for OpenSpiel (a subclass per game sets
    ``GAME``)."""

    GAME: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.GAME
        check_params(game, params or {})
        game_type = _TYPES[game]
        full = dict(game_type.parameter_specification)
        full.update(params or {})
        self.env_spec = EnvSpec(game, **_kwargs(game, full))
        es = self.env_spec
        lo, hi = es.reward_bounds
        info = pyspiel.GameInfo(
            num_distinct_actions=es.num_actions,
            max_chance_outcomes=0,
            num_players=es.players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=1.0 if game_type.utility == pyspiel.GameType.Utility.CONSTANT_SUM else None,
            max_game_length=es.max_steps,
        )
        super().__init__(game_type, info, params or {})
        seed = full["rng_seed"]
        # Modulo 2**32: random.Random(-5) is random.Random(5), and -5 must be a seed of its own.
        self._seeds = random.Random(None if seed == FRESH_SEED else seed % 2 ** 32)

    def new_initial_state(self) -> "CardState":
        return CardState(self)

    def deserialize_state(self, text: str) -> "CardState":
        """The state that ``state.serialize()`` wrote, played again from its seed and action ids.

        Reads only the library's own JSON (never a pickle): anything else, a text of another
        configuration or an action that is not legal where it is played is a ``ValueError``.
        """
        seed, actions = _read_state(self, text)
        state = CardState(self, seed=seed)
        for k, action in enumerate(actions):
            if state.is_terminal() or action not in state.legal_actions():
                raise ValueError(f"not a state of {self.get_type().short_name}: action {k + 1} ({action}) is not "
                                 "legal there")
            state.apply_action(action)
        return state

    def config(self) -> dict[str, Any]:
        """The parameters a state's text must share with the game that reads it (all but ``rng_seed``)."""
        return {k: v for k, v in self.get_parameters().items() if k != "rng_seed"}

    def __reduce__(self) -> tuple:
        # OpenSpiel pickles a game through its RNG state, which a Python game cannot give:
        # a game is pickled as its parameters (a new game's seeds start again from rng_seed).
        return (pyspiel.load_game, (self.get_type().short_name, self.get_parameters()))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
        if params:
            raise ValueError(f"observer parameters are not supported: {params!r}")
        if iig_obs_type is None:
            return Observer(self.env_spec, recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("only a seat's own observation (public and private information) is provided")
        return Observer(self.env_spec, recall=iig_obs_type.perfect_recall)

    def next_seed(self) -> int:
        return self._seeds.getrandbits(63)


def _digest(previous: bytes, view: dict[str, Any], prefix: tuple[str, ...]) -> bytes:
    text = json.dumps(view, sort_keys=True, separators=(",", ":")) + "|" + ",".join(prefix)
    return hashlib.blake2b(previous + text.encode(), digest_size=16).digest()


class _Play:
    """The playthrough behind an OpenSpiel state, set up on first use.

    OpenSpiel clones a Python state by making a new initial state and deep-copying the
    old one's attributes, and sizes an observation tensor by observing a new initial
    state; setting the game up lazily keeps clones from dealing a game that is thrown
    away at once. The recall digests are brought up to date before each action and
    when an information state is asked for, so a position nobody acts from or asks
    about costs no digest.
    """

    __slots__ = ("game", "seed", "table", "recall", "upto")

    def __init__(self, game: CardGame | None, seed: int | None = None) -> None:
        self.game = game
        #: The game's seed if it is given (a deserialized state); else drawn from the game on first use.
        self.seed = seed
        self.table: Table | None = None
        #: Per seat: a digest of every observation the seat has had (perfect recall).
        self.recall: list[bytes] = []
        #: The position (move count, pending items) the digests were last brought to.
        self.upto: Any = None

    def get(self) -> Table:
        if self.table is None:
            assert self.game is not None
            seed = self.game.next_seed() if self.seed is None else self.seed
            self.table = self.game.env_spec.new_table(seed=seed)
            self.game = None
        return self.table

    def remember(self) -> list[bytes]:
        """The recall digests, brought up to this position."""
        t = self.get()
        here = (t.state.move_count, t.prefix)
        if here != self.upto:
            old = self.recall or [b""] * t.spec.players
            actor = t.current_player
            self.recall = [_digest(old[s], t.state.view(s), t.prefix if s == actor else ())
                           for s in range(t.spec.players)]
            self.upto = here
        return self.recall

    def __deepcopy__(self, memo: dict) -> "_Play":
        new = _Play(None)
        new.table = self.get().clone()
        new.recall, new.upto = self.recall, self.upto
        return new

    def __getstate__(self) -> tuple:
        return (self.get(), self.recall, self.upto)

    def __setstate__(self, data: tuple) -> None:
        self.game, self.seed = None, None
        self.table, self.recall, self.upto = data


class CardState(pyspiel.State):
    """One playthrough of a cardwidgets game for OpenSpiel."""

    def __init__(self, game: CardGame, seed: int | None = None) -> None:
        super().__init__(game)
        self._play = _Play(game, seed)

    @property
    def table(self) -> Table:
        """The playthrough (``table.state`` is the engine state)."""
        return self._play.get()

    def current_player(self) -> int:
        t = self.table
        return pyspiel.PlayerId.TERMINAL if t.is_terminal else t.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal()

    def _apply_action(self, action: int) -> None:
        self._play.remember()  # this position's observations, before it changes
        self.table.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        names = self.table.spec.names
        if not 0 <= action < len(names):  # a negative index would name another action
            raise ValueError(f"action {action} is not an action id of {self.get_game().get_type().short_name}: "
                             f"the ids run from 0 to {len(names) - 1}")
        return names[action]

    def is_terminal(self) -> bool:
        return self.table.is_terminal

    def returns(self) -> list[float]:
        return self.table.rewards()

    def info_string(self, player: int) -> str:
        return f"{self.table.describe(player)}\nrecall {self._play.remember()[player].hex()}"

    def __str__(self) -> str:
        return self.table.state.describe(None)

    def serialize(self) -> str:
        """The library's own JSON: the configuration, the game's seed and the action ids played
        (``game.deserialize_state`` reads it back; no pickle)."""
        game = self.get_game()
        return json.dumps({"format": STATE_FORMAT, "version": 1, "game": game.get_type().short_name,
                           "config": game.config(), "seed": self.table.state.seed, "actions": self.history()},
                          sort_keys=True, separators=(",", ":"))

    def __reduce__(self) -> tuple:
        # OpenSpiel pickles a state through serialize_game_and_state, which these games cannot
        # use (see the module's notes): a state is pickled as its game and its own text.
        return (_load_state, (self.get_game(), self.serialize()))


_HEADER = "# Automatically generated by cardwidgets (the layout of OpenSpiel's SerializeGameAndState)"


def serialize_game_and_state(game: CardGame, state: CardState) -> str:
    """The game (its parameters and the RNG its new games draw seeds from) and the state, as text.

    OpenSpiel's layout (``[Meta]``, ``[Game]``, ``[GameRNGState]``, ``[State]``), holding JSON
    and the game string only: :func:`deserialize_game_and_state` reads it back.
    """
    if not isinstance(game, CardGame) or not isinstance(state, CardState):
        raise TypeError("serialize_game_and_state takes a cardwidgets OpenSpiel game and one of its states")
    rng = json.dumps(game._seeds.getstate(), separators=(",", ":"))
    return (f"{_HEADER}\n[Meta]\nVersion: 1\n\n[Game]\n{game}\n[GameRNGState]\n{rng}\n"
            f"[State]\n{state.serialize()}\n")


def deserialize_game_and_state(text: str) -> tuple[CardGame, CardState]:
    """The game and state :func:`serialize_game_and_state` wrote; ``ValueError`` for anything else.

    Only ``python_cardwidgets_*`` games are loaded, and nothing is unpickled.
    """
    if not isinstance(text, str) or len(text) > MAX_STATE_TEXT:
        raise ValueError(f"a serialized game and state is text of at most {MAX_STATE_TEXT:,} characters")
    sections: dict[str, list[str]] = {}
    current = None
    for line in text.split("\n"):
        if not line or line.startswith("#"):
            continue
        if line in ("[Meta]", "[Game]", "[GameRNGState]", "[State]"):
            current = line
            if current in sections:
                raise ValueError(f"not a serialized game and state: {line} appears twice")
            sections[current] = []
        elif current is None:
            raise ValueError("not a serialized game and state: it starts with [Meta], [Game] ...")
        else:
            sections[current].append(line)
    if set(sections) != {"[Meta]", "[Game]", "[GameRNGState]", "[State]"} or sections["[Meta]"] != ["Version: 1"] \
            or any(len(sections[k]) != 1 for k in ("[Game]", "[GameRNGState]", "[State]")):
        raise ValueError("not a serialized game and state of cardwidgets: expected the sections [Meta] "
                         "(Version: 1), [Game], [GameRNGState] and [State], one line each")
    name = sections["[Game]"][0]
    if not name.startswith(PREFIX) or "(" not in name or not name.endswith(")"):
        raise ValueError(f"not a cardwidgets game: {show(name)} (a game string such as "
                         f"{PREFIX}depot(players=3,rng_seed=7))")
    register()
    try:
        game = pyspiel.load_game(name)
    except pyspiel.SpielError as e:
        raise ValueError(f"the game {show(name)} does not load: {e}") from None
    if not isinstance(game, CardGame):
        raise ValueError(f"not a cardwidgets game: {show(name)}")
    try:
        version, internal, gauss = json.loads(sections["[GameRNGState]"][0])
        game._seeds.setstate((version, tuple(internal), gauss))
    except (ValueError, TypeError, RecursionError):
        raise ValueError("the game's RNG state is not the JSON serialize_game_and_state writes") from None
    return game, game.deserialize_state(sections["[State]"][0])


def _load_state(game: CardGame, text: str) -> CardState:
    return game.deserialize_state(text)


def _read_state(game: CardGame, text: Any) -> tuple[int, list[int]]:
    """The seed and action ids of a serialized state, checked; ``ValueError`` for anything else."""
    name = game.get_type().short_name
    if not isinstance(text, str):
        raise ValueError(f"a serialized {name} state is text, got {type(text).__name__}")
    if len(text) > MAX_STATE_TEXT:
        raise ValueError(f"a serialized {name} state is at most {MAX_STATE_TEXT:,} characters; got {len(text):,}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested thousands deep
        data = None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        # OpenSpiel's default text for a Python state is a pickle, which runs whatever it says: never read.
        raise ValueError(f"not a serialized {name} state: state.serialize() writes JSON with "
                         f"\"format\": \"{STATE_FORMAT}\" (a pickled state is never read)")
    keys = {"format", "version", "game", "config", "seed", "actions"}
    if set(data) != keys:
        raise ValueError(f"a serialized {name} state has the keys {', '.join(sorted(keys))}; "
                         f"got {', '.join(sorted(map(str, data)))}")
    if data["version"] != 1:
        raise ValueError(f"a serialized {name} state of version {data['version']!r} is not read here (version 1)")
    if data["game"] != name or data["config"] != game.config():
        raise ValueError(f"the state is of another game or configuration ({data['game']!r}), not of {game}")
    seed, actions = data["seed"], data["actions"]
    if type(seed) is not int or not 0 <= seed < 2 ** 63:
        raise ValueError(f"a serialized {name} state's seed is a whole number from 0 to 2**63 - 1")
    if not isinstance(actions, list) or not all(type(a) is int for a in actions) \
            or len(actions) > game.max_game_length():
        raise ValueError(f"a serialized {name} state's actions are at most {game.max_game_length()} action ids")
    return seed, actions


class Observer:
    """The PyObserver of a configuration: a seat's view as the PettingZoo encoding and
    text table, or (``recall=True``) the information state string."""

    def __init__(self, spec: EnvSpec, recall: bool) -> None:
        self.recall = recall
        if recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(spec.layout.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: CardState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = np.frombuffer(state.table.observe(player), dtype=np.float32)

    def string_from(self, state: CardState, player: int) -> str:
        return state.info_string(player) if self.recall else state.table.describe(player)


# --------------------------------------------------------------------------- registration
_TYPES: dict[str, pyspiel.GameType] = {}
_CLASSES: dict[str, type] = {}


def _game_class(game: str) -> type:
    # OpenSpiel's registry keeps the constructor until after the interpreter has shut
    # down and then lets go of it without the GIL. A class, like OpenSpiel's own Python
    # games register, is never freed by that (its method resolution order refers to it);
    # a function would be, and that aborts the process at exit.
    cls = type(f"CardGame_{game}", (CardGame,), {"GAME": game, "__module__": __name__})
    _CLASSES[game] = cls
    return cls


def load(game: str, **params: Any) -> CardGame:
    """``pyspiel.load_game("python_cardwidgets_<game>", params)``, with the parameters checked first."""
    register()
    game_module(game)  # an unknown game is a ValueError naming the games
    check_params(game, params)
    return pyspiel.load_game(PREFIX + game, params)


def register() -> list[str]:
    """Register ``python_cardwidgets_<game>`` for every game the adapters cover (once)."""
    known = set(pyspiel.registered_names())
    names = []
    for game in available_games():
        try:
            adapter(game)
        except ValueError:
            continue
        name = PREFIX + game
        if name not in known:
            _TYPES[game] = _game_type(game)
            pyspiel.register_game(_TYPES[game], _game_class(game))
        names.append(name)
    return names


__all__ = ["CardGame", "CardState", "Observer", "deserialize_game_and_state", "load", "register",
           "serialize_game_and_state"]
