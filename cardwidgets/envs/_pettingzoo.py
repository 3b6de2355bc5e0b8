"""The PettingZoo AEC environment of a game configuration (``pip install "cardwidgets[rl]"``).

>>> from cardwidgets.envs import pettingzoo_env
>>> env = pettingzoo_env("yadokarick", mode="duo")
>>> env.reset(seed=1)
>>> env.agents, env.agent_selection, env.action_space("player_0")
(['player_0', 'player_1'], 'player_0', Discrete(36))
>>> obs, reward, terminated, truncated, info = env.last()
>>> [env.action_names[i] for i in obs["action_mask"].nonzero()[0]][:3]
['play G5', 'play G12', 'play G15']
>>> env.step(env.action_index("play G12"))
>>> env.agent_selection
'player_1'
>>> env.step(env.action_index("play G5"))  # A holds G5
Traceback (most recent call last):
...
cardwidgets.core.errors.IllegalActionError: Illegal: rule Y13.5 — B does not hold G5 (hand: ...)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core import State, Termination
from ..core.errors import show
from ..core.position import from_position
from .adapter import EnvSpec, Table


class CardGameEnv(AECEnv):
    """A card game of cardwidgets as a PettingZoo AEC environment.

    Agents ``"player_0"`` ... ``"player_<n-1>"`` are the seats. The action space is a
    fixed ``Discrete(N)``: every action string the configuration can ever have
    (:attr:`action_names`, :meth:`action_index`). An observation is a dict:
    ``"observation"``, the numbers of the agent's ``view(seat)`` (float32, per-seat
    parts rotated so that the agent comes first), and ``"action_mask"`` (int8), 1 at
    the agent's legal actions when it is to act, else all 0.

    Rewards come at the end: with several players each agent's share of the win (1
    split among the winners; a game stopped by the engine's safety cap, marked as a
    truncation, is a draw: 1/n each), with one player the score. ``infos`` then hold
    the outcome. An index outside the space raises ``InvalidActionError``; an action
    that is not legal now raises the engine's ``IllegalActionError`` (its rule ID and
    reason) and changes nothing.

    ``reset(seed=...)`` seeds the stream of games (the same seed, the same games);
    ``reset(options={"state": s})`` starts from a copy of an engine state or a position
    text (``state.to_position()``) instead. ``render()`` returns the text table of the
    seat to act (``render_mode="human"`` prints it).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "cardwidgets_v0", "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **kwargs: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={show(render_mode)} is not allowed; allowed values: None, "
                             + ", ".join(repr(m) for m in self.metadata["render_modes"]))
        self.env_spec = EnvSpec(game, **kwargs)
        spec = self.env_spec
        self.metadata = {**self.metadata, "name": f"cardwidgets_{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(spec.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        low = np.asarray(spec.layout.low, dtype=np.float32)
        high = np.asarray(spec.layout.high, dtype=np.float32)
        n = spec.num_actions
        # One space object per agent, so that seeding one agent's space leaves the others alone.
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds = random.Random()
        self._table: Table | None = None

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def action_names(self) -> tuple[str, ...]:
        """The notation of every action index (a combinatorial action's items as
        ``"arrange next G25"``)."""
        return self.env_spec.names

    def action_index(self, action: Any) -> int:
        """The index of an action's notation (any form the game parses) or object."""
        return self.env_spec.index(action)

    # ------------------------------------------------------------------ the game
    @property
    def pending(self) -> tuple[str, ...]:
        """The items chosen so far of a combinatorial action (``()`` when none is pending)."""
        return self._live().prefix

    @property
    def game_state(self) -> State:
        """The engine state (read it, do not change it: step the env instead)."""
        return self._live().state

    def _live(self) -> Table:
        if self._table is None:
            raise RuntimeError("call reset() before using the environment")
        return self._table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        start = (options or {}).get("state")
        if start is None:
            self._table = self.env_spec.new_table(seed=self._seeds.getrandbits(63))
        else:
            state = from_position(start) if isinstance(start, str) else start
            if not isinstance(state, State):
                raise TypeError(f"options['state'] must be an engine state or a position text, got {show(start)}")
            if state.is_terminal:
                raise ValueError("options['state'] is a finished game: there is nothing to play")
            self._table = self.env_spec.new_table(state=state.clone())
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._table.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        table = self._live()
        seat = self._seat[agent]
        mask = np.zeros(self.env_spec.num_actions, dtype=np.int8)
        if table.current_player == seat:
            mask[table.legal()] = 1
        return {"observation": np.frombuffer(table.observe(seat), dtype=np.float32), "action_mask": mask}

    def legal_actions(self) -> list[int]:
        """The legal indices of the agent to act (the mask's ones), without an observation."""
        table = self._live()
        return [] if table.is_terminal else table.legal()

    def step(self, action: Any) -> None:
        table = self._live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table.step(action)  # raises, changing nothing, unless legal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if table.is_terminal:
            outcome = table.state.outcome()
            capped = outcome.termination is Termination.ABORTED
            for a, r in zip(self.possible_agents, table.rewards()):
                self.rewards[a] = r
                self.terminations[a] = not capped
                self.truncations[a] = capped
                self.infos[a] = {"outcome": outcome.to_dict()}
        else:
            self.agent_selection = self.possible_agents[table.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The text table of the seat to act (``render_mode="human"``: printed)."""
        text = self._live().describe(self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<CardGameEnv {self.env_spec!r}>"


def pettingzoo_env(game: str, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """A PettingZoo AEC environment of ``game`` (see :class:`CardGameEnv`).

    ``kwargs`` are ``new_game``'s: ``players=``, ``mode=`` and the game's options.
    """
    return CardGameEnv(game, render_mode=render_mode, **kwargs)
