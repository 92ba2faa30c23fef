"""Gymnasium's environment: one seat of a game against the project's bots.

The learner's seat (``seat``) sees its observation vector; its legal ids come with every step
(``info["action_mask"]``) and from :meth:`HoolaGym.action_masks`, as sb3-contrib's MaskablePPO
asks. The other seats are bots of any kind or strength (``random``, ``expert``, ``ismcts``, the
levels), each deciding from its own view; they play until the learner must decide again. The
reward is the learner's deal result (its side's, in a partnership), at the end of each deal.
An id the mask does not allow ends the game with ``illegal_reward`` (-1 by default) and
``info["illegal"]``, nothing played (as PettingZoo's classic games do; the mask is there so a
learner never needs it).

>>> from hoola.rl import gym_env
>>> env = gym_env("sedma", players=2, opponents="random")
>>> obs, info = env.reset(seed=4)
>>> obs.shape == env.observation_space.shape, bool(info["action_mask"].any())
(True, True)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from hoola.bots import seat_bot
from hoola.core.game import Game, Player
from hoola.rl.episode import Episode

__all__ = ["HoolaGym"]


class HoolaGym(gymnasium.Env[npt.NDArray[np.float32], int]):
    """One seat against bots (see the module)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(self, game: Game, rules: Any, players: int, *, seat: int = 0,
                 opponents: list[str], deals: int = 1, render_mode: str | None = None,
                 illegal_reward: float = -1.0) -> None:
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at a table of {players}")
        if len(opponents) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, not {len(opponents)}")
        self.episode = Episode(game, rules, players, deals=deals, seed=0)
        self.seat = seat
        self.kinds = opponents
        self.render_mode = render_mode
        enc = self.episode.encoding
        self.observation_space = spaces.Box(-np.inf, np.inf, (enc.obs_size,), np.float32)
        self.action_space: spaces.Space[Any] = spaces.Discrete(enc.size)
        self.bots: dict[int, Player] = {}
        self.illegal_reward = illegal_reward
        self.illegal = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new game (shuffled from ``seed``), played by the bots up to the learner's first
        decision."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**31))
        self.episode.reset(seed)
        self.illegal = False
        others = [q for q in range(self.episode.players) if q != self.seat]
        self.bots = {q: seat_bot(self.episode.game, kind, seed * 31 + q)[0]
                     for q, kind in zip(others, self.kinds, strict=True)}
        self._bots_play()  # Gymnasium's reset pays nothing: a deal bots end first is lost
        return self._observation(), self._info()

    def _bots_play(self) -> float:
        """Let the bots decide until the learner must (or the game ends); the learner's reward
        meanwhile."""
        episode, reward = self.episode, 0.0
        while not episode.done and episode.seat != self.seat:
            seat = episode.seat
            assert seat is not None
            episode.act(seat, self.bots[seat].act(episode.view(seat)))
            reward += episode.rewards[self.seat]
        return reward

    def _observation(self) -> npt.NDArray[np.float32]:
        return self.episode.observe(self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8)}
        if self.illegal:
            info["illegal"] = True
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal ids now."""
        if self.illegal:
            return np.zeros(self.episode.encoding.size, dtype=bool)
        return self.episode.mask(self.seat).astype(bool)

    def step(self, action: int) -> tuple[npt.NDArray[np.float32], float, bool, bool,
                                         dict[str, Any]]:
        """The learner decides ``action``; the bots play on to its next decision."""
        episode = self.episode
        if self.illegal or episode.done:
            raise ValueError("the game is over: reset the environment")
        if int(action) not in episode.legal_ids(self.seat):
            self.illegal = True
            return self._observation(), self.illegal_reward, True, False, self._info()
        episode.step(self.seat, int(action))
        reward = episode.rewards[self.seat] + self._bots_play()
        return self._observation(), reward, episode.done, False, self._info()

    def record_text(self) -> str:
        """The game played so far as a record (``hoola verify`` accepts it)."""
        return self.episode.record_text()

    def render(self) -> str | None:
        """The learner's view as text (printed in ``human`` mode)."""
        text = self.episode.text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
