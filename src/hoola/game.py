"""The small game interface every front end speaks (bots, terminal, server, RL adapters).

It is the OpenSpiel shape with Hoola's one difference made explicit: several players may act at
once (a discard opens a claim window), so ``actors()`` is a set. :class:`~hoola.state.DealState`
satisfies :class:`GameState`; sibling games (Kalookie, Hola) will too, so front ends written
against this protocol carry over.

>>> from hoola import DealState, Rules
>>> isinstance(DealState.new(Rules.preset("pagat"), 3, seed=1), GameState)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from hoola.actions import Action

__all__ = ["GameState"]


@runtime_checkable
class GameState(Protocol):
    """What a front end may ask of a game in progress, and nothing else."""

    names: tuple[str, ...]
    history: list[Action]

    @property
    def is_over(self) -> bool:
        """Whether play has ended."""
        ...

    def actors(self) -> frozenset[int]:
        """The seats that may act now."""
        ...

    def legal_actions(self, player: int) -> list[Action]:
        """Every action ``player`` may take now."""
        ...

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        ...

    def verify(self, action: Action) -> None:
        """Raise a specific error unless ``action`` is legal now."""
        ...

    def apply(self, action: Action) -> Action:
        """Check and apply ``action``; return the record appended to the history."""
        ...

    def view(self, player: int) -> Any:
        """What ``player`` may know now."""
        ...

    def returns(self) -> Sequence[Fraction]:
        """Each seat's net stakes once play has ended (zeros before)."""
        ...

    def copy(self) -> GameState:
        """An independent copy."""
        ...
