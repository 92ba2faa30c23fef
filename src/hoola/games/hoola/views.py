"""What one player may know: the view that bots, interfaces and observations receive."""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from hoola.games.hoola.actions import Action
from hoola.games.hoola.melds import Meld
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import Settlement

__all__ = ["View"]


class View(NamedTuple):
    """A player's knowledge of a deal at one moment.

    ``hand`` is the player's own hand; other hands appear in ``hands`` only after play has ended.
    ``history`` is the public history (cards drawn from the stock are not shown). ``legal`` lists
    what the player may do; ``can_pass`` says whether doing nothing is allowed (a claimant in a
    claim window may let the discard go). ``claimable`` is the card this player may take now;
    ``claim_open`` says whether the top discard may still be taken by anyone. The fields after
    ``hands`` are the rest of the public state, enough to rebuild a deal from a view and a guess
    at the hidden cards (:mod:`hoola.games.hoola.determinize`).
    """

    player: int
    names: tuple[str, ...]
    rules: Rules
    dealer: int
    stake: Fraction
    phase: str
    current: int
    drawn: bool
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    in_deal: tuple[bool, ...]
    melded: tuple[bool, ...]
    own_meld: tuple[bool, ...]
    had_turn: tuple[bool, ...]
    table: tuple[Meld, ...]
    discards: tuple[int, ...]
    claimable: int | None
    discarder: int | None
    stock_size: int
    history: tuple[Action, ...]
    legal: tuple[Action, ...]
    can_pass: bool
    result: Settlement | None
    hands: tuple[tuple[int, ...], ...] | None = None
    claim_open: bool = False
    upcard_live: bool = False
    hoola_turn: bool = False
    took_from: int | None = None
    last_draw: bool = False
    sevens_laid: tuple[int, ...] = ()
    next_meld_id: int = 1
    chose: tuple[bool | None, ...] = ()
    compensation: tuple[tuple[int, Fraction], ...] = ()

    @property
    def is_my_turn(self) -> bool:
        """Whether it is this player's turn (not merely a chance to claim)."""
        return self.phase != "over" and self.current == self.player

    @property
    def players(self) -> int:
        """Number of seats at the table."""
        return len(self.names)
