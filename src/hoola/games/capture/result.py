"""A finished hand of a capture game, and the name of a side (a team, or a player alone): what the
state settles and the views and the match read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Result", "side_label"]


def side_label(side: Sequence[int], names: Sequence[str]) -> str:
    """A side as records name it: ``"A+C"``, or a player's name when alone."""
    return "+".join(names[q] for q in side)


@dataclass(frozen=True, slots=True)
class Result:
    """A finished hand, by side (a team, or a player alone), in the order of ``sides``.

    ``points`` are card points with the Hola doubling and the last trick; ``game_points`` are
    None where the preset scores card points; ``carried`` is Ristikontra's 60-60 point carried
    on; ``clean`` and ``outcome`` are Ristiklappi's; ``score`` is what the hand adds to the match
    totals (points, game points, or a game won).
    """

    points: tuple[int, ...]
    tricks: tuple[int, ...]
    last: int
    hola: int | None
    game_points: tuple[int, ...] | None
    carried: bool
    clean: tuple[bool, ...] | None
    outcome: str | None
    winners: tuple[int, ...]
    score: tuple[int, ...]
