"""The games as reinforcement-learning environments (the ``rl`` extra: NumPy, PettingZoo,
Gymnasium; OpenSpiel for :mod:`hoola.rl.spiel`).

- :func:`env` and :func:`parallel_env`: PettingZoo's AEC and Parallel environments, every seat
  an agent (``player_0`` ...), the legal ids as ``action_mask`` in each observation;
- :func:`gym_env`: Gymnasium, one seat against the project's bots, ``action_masks()`` as
  sb3-contrib's MaskablePPO expects;
- :func:`encoding_for`: each family's encoding of views and actions (:mod:`hoola.rl.encoding`),
  documented in ``docs/rl.md``.

Every environment is built on :class:`~hoola.rl.episode.Episode`, and writes the game it played
as a record (``record_text()``) that ``hoola verify`` accepts.

>>> e = env("sedma", players=2)
>>> e.reset(seed=1)
>>> e.agent_selection in e.agents, e.observation_space("player_0")["action_mask"].shape
(True, (58,))
"""

from __future__ import annotations

from typing import Any

from hoola.core.game import Game
from hoola.rl.families import ENCODINGS, encoding_for, resolve_game

__all__ = ["ENCODINGS", "encoding_for", "env", "gym_env", "parallel_env", "resolve_game"]

def env(game: str | Game, *, rules: str | Any | None = None, players: int | None = None,
        options: dict[str, Any] | None = None, deals: int = 1,
        render_mode: str | None = None) -> Any:
    """PettingZoo's AEC environment of ``game`` (see :class:`hoola.rl.zoo.HoolaAEC`)."""
    from hoola.rl.zoo import HoolaAEC

    g, r = resolve_game(game, rules, options)
    return HoolaAEC(g, r, players or _default_players(g), deals=deals, render_mode=render_mode)


def parallel_env(game: str | Game, *, rules: str | Any | None = None,
                 players: int | None = None, options: dict[str, Any] | None = None,
                 deals: int = 1, render_mode: str | None = None) -> Any:
    """PettingZoo's Parallel environment of ``game`` (see
    :class:`hoola.rl.zoo.HoolaParallel`)."""
    from hoola.rl.zoo import HoolaParallel

    g, r = resolve_game(game, rules, options)
    return HoolaParallel(g, r, players or _default_players(g), deals=deals,
                         render_mode=render_mode)


def gym_env(game: str | Game, *, rules: str | Any | None = None, players: int | None = None,
            options: dict[str, Any] | None = None, seat: int = 0,
            opponents: str | list[str] = "random", deals: int = 1,
            render_mode: str | None = None) -> Any:
    """Gymnasium's environment of one seat of ``game`` against the project's bots (see
    :class:`hoola.rl.gym.HoolaGym`)."""
    from hoola.rl.gym import HoolaGym

    g, r = resolve_game(game, rules, options)
    n = players or _default_players(g)
    kinds = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
    return HoolaGym(g, r, n, seat=seat, opponents=kinds, deals=deals, render_mode=render_mode)


def _default_players(game: Game) -> int:
    return max(game.min_players, min(4, game.max_players))
