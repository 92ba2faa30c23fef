"""What a learner sees and does: each game family's encoding of a seat's view as fixed-size
arrays, and of its actions as stable ids in a fixed discrete space.

An :class:`Encoding` is built from a seat's ``View`` only, never from the state, so nothing the
seat may not see can reach an observation: hidden cards are not there to leak. Every family
encodes the same way around it: ``observe`` gives a float32 vector of ``obs_size``, ``mask`` a
0/1 vector of ``size`` equal to the view's legal actions (plus :attr:`Encoding.pass_id` where the
moment lets the seat pass), ``action`` turns a legal id back into the engine's action, and
``text`` is the same view for humans. Seats are relative: slot 0 is the observing seat, then the
others in play order. The layouts are documented in ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hoola.core.game import Game

__all__ = ["Encoding", "Floats", "Layout", "Mask", "cards_into", "one_hot"]

Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Layout:
    """The named slices of an observation vector, in order, so its layout can be documented and
    checked: ``add(name, size)`` reserves the next ``size`` floats."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, int, int]] = []
        self.size = 0

    def add(self, name: str, size: int) -> slice:
        """Reserve ``size`` floats named ``name``; their slice."""
        start = self.size
        self.parts.append((name, start, size))
        self.size += size
        return slice(start, start + size)

    def describe(self) -> list[str]:
        """One line a part: its name, its slice and its size."""
        return [f"{name}: [{start}:{start + size}] ({size})" for name, start, size in self.parts]


class Encoding:
    """A family's encoding at one table size and rule set (see the module).

    Subclasses set :attr:`size` (action ids, the pass included), :attr:`layout`, and implement
    :meth:`action_id` and :meth:`fill`.
    """

    size: int
    pass_id: int
    layout: Layout

    def __init__(self, game: Game, rules: Any, players: int) -> None:
        self.game = game
        self.rules = rules
        self.players = players

    @property
    def obs_size(self) -> int:
        """Floats in an observation."""
        return self.layout.size

    def action_id(self, view: Any, action: Any) -> int:
        """The stable id of ``action`` (one of ``view``'s legal actions)."""
        raise NotImplementedError

    def fill(self, view: Any, out: Floats) -> None:
        """Write ``view`` into ``out`` (zeros of :attr:`obs_size`)."""
        raise NotImplementedError

    def observe(self, view: Any) -> Floats:
        """``view`` as a float32 vector of :attr:`obs_size`."""
        out = np.zeros(self.obs_size, dtype=np.float32)
        self.fill(view, out)
        return out

    def legal_ids(self, view: Any) -> dict[int, Any]:
        """Every legal id of ``view`` -> its action (None for the pass)."""
        ids: dict[int, Any] = {}
        for action in view.legal:
            i = self.action_id(view, action)
            if i in ids and ids[i] != action:
                raise AssertionError(f"two legal actions share id {i}: {ids[i]!r}, {action!r}")
            ids[i] = action
        if view.can_pass:
            ids[self.pass_id] = None
        return ids

    def mask(self, view: Any) -> Mask:
        """1 for every legal id of ``view``, 0 elsewhere."""
        out = np.zeros(self.size, dtype=np.int8)
        for i in self.legal_ids(view):
            out[i] = 1
        return out

    def action(self, view: Any, action_id: int) -> Any:
        """The action of a legal id (None: the pass); ValueError for an id that is not legal."""
        ids = self.legal_ids(view)
        if action_id not in ids:
            raise ValueError(f"action {action_id} is not legal now (legal: "
                             f"{sorted(ids)[:12]}{'...' if len(ids) > 12 else ''})")
        return ids[action_id]

    def text(self, view: Any) -> str:
        """The view for humans: the table as the terminal prints it."""
        from hoola.terminal.tabletext import table_lines

        return "\n".join(table_lines(view.table(), view.player))

    def relative(self, view: Any, seat: int) -> int:
        """``seat`` as the observer sees it: 0 itself, then the others in play order."""
        me: int = view.player
        return (seat - me) % self.players


def cards_into(out: Floats, at: slice, cards: Sequence[int], scale: float = 1.0) -> None:
    """Count each card of ``cards`` (0-51; a joker, 52, in the slot after the pack when the
    slice has one) into ``out[at]``, times ``scale``."""
    base = at.start
    width = at.stop - at.start
    for card in cards:
        if 0 <= card < width:
            out[base + card] += scale


def one_hot(out: Floats, at: slice, index: int | None) -> None:
    """Set ``out[at][index]`` (nothing for None)."""
    if index is not None and 0 <= index < at.stop - at.start:
        out[at.start + index] = 1.0
