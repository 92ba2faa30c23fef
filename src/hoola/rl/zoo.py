"""PettingZoo's environments of every game: AEC (one seat at a time) and Parallel.

Agents are ``player_0`` ... ``player_{n-1}`` (seats in the record's order). An observation is
``{"observation": float32 vector, "action_mask": int8 vector}`` (:mod:`hoola.rl.encoding`); a seat
with nothing to decide now has an all-zero mask. In the AEC environment a window (a claim on a
Hoola discard) is polled seat by seat, in the order drawn from the seed, each decision hidden
from the others until the window closes; in the Parallel one the window's seats decide in the
same step, their decisions taken in that order, and the other seats' actions are ignored.
``infos[agent]["arrivals"]`` is the order of the last moment's decisions. Rewards are each seat's
own deal results (a partnership's seats each get their side's), paid at the end of each deal.

An id the deciding agent's mask does not allow ends the game, as PettingZoo's classic games do:
that agent is paid ``illegal_reward`` (-1 by default), the others nothing, and every agent's
info says ``illegal`` (the agent); nothing is played. (:class:`~hoola.rl.episode.Episode` itself
refuses such an id with a ValueError.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from hoola.core.game import Game
from hoola.rl.episode import Episode

__all__ = ["HoolaAEC", "HoolaParallel"]


def _agent(seat: int) -> str:
    return f"player_{seat}"


class _Spaces:
    """The agents and their spaces, shared by both environments."""

    metadata: dict[str, Any]

    def _setup(self, game: Game, rules: Any, players: int, deals: int,
               render_mode: str | None, illegal_reward: float) -> None:
        self.episode = Episode(game, rules, players, deals=deals, seed=0)
        self.illegal_reward = illegal_reward
        self.illegal: str | None = None
        enc = self.episode.encoding
        self.possible_agents = [_agent(q) for q in range(players)]
        self.render_mode = render_mode
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (enc.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (enc.size,), np.int8),
        })
        self._action_space = spaces.Discrete(enc.size)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's: the observation vector and the action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's: the game's ids."""
        return self._action_space

    def _observation(self, seat: int) -> dict[str, Any]:
        if self.illegal is not None:
            return {"observation": self.episode.observe(seat),
                    "action_mask": np.zeros(self._action_space.n, dtype=np.int8)}
        return {"observation": self.episode.observe(seat), "action_mask": self.episode.mask(seat)}

    def _decide(self, seat: int, action: int) -> bool:
        """``seat`` decides ``action``; False (the game ended) when the id is not legal."""
        if action not in self.episode.legal_ids(seat):
            self.illegal = _agent(seat)
            return False
        self.episode.step(seat, action)
        return True

    def _rewards(self) -> list[float]:
        """This step's rewards by seat."""
        if self.illegal is not None:
            return [self.illegal_reward if _agent(q) == self.illegal else 0.0
                    for q in range(len(self.possible_agents))]
        return list(self.episode.rewards)

    @property
    def over(self) -> bool:
        """Whether the game ended (played out, or by an illegal id)."""
        return self.episode.done or self.illegal is not None

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"arrivals": list(self.episode.arrivals)}
        if self.illegal is not None:
            info["illegal"] = self.illegal
        return info

    def record_text(self) -> str:
        """The game played so far as a record (``hoola verify`` accepts it)."""
        return self.episode.record_text()

    def _render(self) -> str | None:
        seat = self.episode.seat
        text = self.episode.text(seat if seat is not None else 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class HoolaAEC(_Spaces, AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game, one seat deciding at a time (see the module)."""

    metadata = {"name": "hoola_aec_v0", "render_modes": ["human", "ansi"],  # noqa: RUF012
                "is_parallelizable": True}

    def __init__(self, game: Game, rules: Any, players: int, *, deals: int = 1,
                 render_mode: str | None = None, illegal_reward: float = -1.0) -> None:
        super().__init__()
        self._setup(game, rules, players, deals, render_mode, illegal_reward)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game (shuffled from ``seed``)."""
        self.episode.reset(seed)
        self.illegal = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.episode.seat
        if seat is not None:
            self.agent_selection = _agent(seat)

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation and mask."""
        return self._observation(self.possible_agents.index(agent))

    def step(self, action: int | None) -> None:
        """The selected agent decides ``action`` (an id its mask allows)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must decide: an id its action_mask allows")
        self._decide(self.possible_agents.index(agent), int(action))
        self._cumulative_rewards[agent] = 0.0
        rewards = self._rewards()
        self.rewards = {a: rewards[q] for q, a in enumerate(self.possible_agents)}
        for a in self.agents:
            self.infos[a] = self._info()
        if self.over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The selected seat's view as text (printed in ``human`` mode)."""
        return self._render()

    def close(self) -> None:
        """Nothing to release."""


class HoolaParallel(_Spaces, ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game, the seats of a moment deciding in the same step (see the module)."""

    metadata = {"name": "hoola_parallel_v0", "render_modes": ["human", "ansi"]}  # noqa: RUF012

    def __init__(self, game: Game, rules: Any, players: int, *, deals: int = 1,
                 render_mode: str | None = None, illegal_reward: float = -1.0) -> None:
        self._setup(game, rules, players, deals, render_mode, illegal_reward)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game (shuffled from ``seed``): every agent's observation and info."""
        self.episode.reset(seed)
        self.illegal = None
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        return {a: self._observation(q) for q, a in enumerate(self.possible_agents)
                if a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[dict[str, Any], dict[str, float],
                                                     dict[str, bool], dict[str, bool],
                                                     dict[str, Any]]:
        """The seats of the moment decide (their ids in ``actions``; others' are ignored)."""
        episode = self.episode
        rewards = [0.0] * len(self.possible_agents)
        for seat in list(episode.waiting):
            agent = _agent(seat)
            if agent not in actions:
                raise ValueError(f"{agent} decides now: its action is missing")
            legal = self._decide(seat, int(actions[agent]))
            rewards = [r + g for r, g in zip(rewards, self._rewards(), strict=True)]
            if not legal:
                break
        observations = self._observations()
        done = self.over
        agents = list(self.agents)
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, False)
        infos = {a: self._info() for a in agents}
        reward = {a: rewards[q] for q, a in enumerate(self.possible_agents) if a in agents}
        if done:
            self.agents = []
        return observations, reward, terminations, truncations, infos

    def render(self) -> str | None:
        """The seat to decide's view as text (printed in ``human`` mode)."""
        return self._render()

    def close(self) -> None:
        """Nothing to release."""
