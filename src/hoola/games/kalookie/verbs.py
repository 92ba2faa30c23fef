"""Check, ask and do for each action by name: ``verify_draw``, ``can_draw``, ``draw`` and so on.

Each trio builds the action value and goes through the state's one checker, so the three always
agree: ``can_x`` is true exactly when ``verify_x`` raises nothing, and ``x`` applies only then.
Cards are the core's integers; a joker named in a run is :func:`~.cards.named_joker`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hoola.games.kalookie.actions import (
    Action,
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
)

__all__ = ["Verbs"]


class Verbs:
    """Named check/ask/do methods; mixed into :class:`~.state.DealState`."""

    __slots__: ClassVar[tuple[str, ...]] = ()  # ClassVar: see DealState

    def verify(self, action: Action) -> None:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def can(self, action: Action) -> bool:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def apply(self, action: Action) -> Action:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def verify_draw(self, player: int) -> None:
        """Raise unless ``player`` may draw from the stock now."""
        self.verify(Draw(player))

    def can_draw(self, player: int) -> bool:
        """Whether ``player`` may draw from the stock now."""
        return self.can(Draw(player))

    def draw(self, player: int) -> Action:
        """Draw the top of the stock; the record returned holds the card."""
        return self.apply(Draw(player))

    def verify_take(self, player: int) -> None:
        """Raise unless ``player`` may take the top discard now (ruling 8)."""
        self.verify(Take(player))

    def can_take(self, player: int) -> bool:
        """Whether ``player`` may take the top discard now."""
        return self.can(Take(player))

    def take(self, player: int) -> Action:
        """Take the top discard (on the first turn, the upcard)."""
        return self.apply(Take(player))

    def verify_meld(self, player: int, cards: Sequence[int]) -> None:
        """Raise unless ``player`` may lay ``cards`` as a new meld now."""
        self.verify(NewMeld(player, tuple(cards)))

    def can_meld(self, player: int, cards: Sequence[int]) -> bool:
        """Whether ``player`` may lay ``cards`` as a new meld now."""
        return self.can(NewMeld(player, tuple(cards)))

    def meld(self, player: int, cards: Sequence[int]) -> Action:
        """Lay a new meld from hand."""
        return self.apply(NewMeld(player, tuple(cards)))

    def verify_add(self, player: int, card: int, meld_id: int) -> None:
        """Raise unless ``player`` may build ``card`` on meld ``meld_id`` now (ruling 6)."""
        self.verify(Add(player, card, meld_id))

    def can_add(self, player: int, card: int, meld_id: int) -> bool:
        """Whether ``player`` may build ``card`` on meld ``meld_id`` now."""
        return self.can(Add(player, card, meld_id))

    def add(self, player: int, card: int, meld_id: int) -> Action:
        """Build one card on a meld."""
        return self.apply(Add(player, card, meld_id))

    def verify_swap(self, player: int, cards: Sequence[int], meld_id: int) -> None:
        """Raise unless ``cards`` may release a joker from meld ``meld_id`` now (ruling 7)."""
        self.verify(Swap(player, tuple(cards), meld_id))

    def can_swap(self, player: int, cards: Sequence[int], meld_id: int) -> bool:
        """Whether ``cards`` may release a joker from meld ``meld_id`` now."""
        return self.can(Swap(player, tuple(cards), meld_id))

    def swap(self, player: int, cards: Sequence[int], meld_id: int) -> Action:
        """Release a joker; it must be laid again before the turn ends."""
        return self.apply(Swap(player, tuple(cards), meld_id))

    def verify_discard(self, player: int, card: int) -> None:
        """Raise unless ``player`` may end the turn discarding ``card``."""
        self.verify(Discard(player, card))

    def can_discard(self, player: int, card: int) -> bool:
        """Whether ``player`` may end the turn discarding ``card``."""
        return self.can(Discard(player, card))

    def discard(self, player: int, card: int) -> Action:
        """Discard, ending the turn (the last card: calling up)."""
        return self.apply(Discard(player, card))

    def verify_warn(self, player: int) -> None:
        """Raise unless ``player`` may warn now (``warnings = "manual"``, ruling 10)."""
        self.verify(Warn(player))

    def can_warn(self, player: int) -> bool:
        """Whether ``player`` may warn now."""
        return self.can(Warn(player))

    def warn(self, player: int) -> Action:
        """Announce one, two or three cards left."""
        return self.apply(Warn(player))

    def verify_swap_upcard(self, player: int, card: int) -> None:
        """Raise unless the dealer ``player`` may take the upcard for ``card`` now (Scarne)."""
        self.verify(SwapUpcard(player, card))

    def can_swap_upcard(self, player: int, card: int) -> bool:
        """Whether the dealer ``player`` may take the upcard for ``card`` now."""
        return self.can(SwapUpcard(player, card))

    def swap_upcard(self, player: int, card: int) -> Action:
        """Take the upcard before play and discard ``card`` in its place."""
        return self.apply(SwapUpcard(player, card))

    def verify_buy_in(self, player: int) -> None:
        """Raise unless ``player`` may buy in now (ruling 13)."""
        self.verify(BuyIn(player))

    def can_buy_in(self, player: int) -> bool:
        """Whether ``player`` may buy in now."""
        return self.can(BuyIn(player))

    def buy_in(self, player: int) -> Action:
        """Pay into the pool and stay in the game."""
        return self.apply(BuyIn(player))

    def verify_retire(self, player: int) -> None:
        """Raise unless ``player`` may retire now (ruling 13)."""
        self.verify(Retire(player))

    def can_retire(self, player: int) -> bool:
        """Whether ``player`` may retire now."""
        return self.can(Retire(player))

    def retire(self, player: int) -> Action:
        """Leave the game."""
        return self.apply(Retire(player))
