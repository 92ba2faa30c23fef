"""Check, ask and do for each action by name: ``verify_draw``, ``can_draw``, ``draw`` and so on.

Each trio builds the action value and goes through the state's one checker, so the three always
agree: ``can_x`` is true exactly when ``verify_x`` raises nothing, and ``x`` applies only then.
Cards are the core's integers; a joker named in a run is :func:`~.cards.named_joker`.
The fields are typed ``Any``: the checker refuses a value of the wrong kind with the engine's own
error (compiled, a parameter typed ``int`` would raise TypeError first, or take True for 1).
"""

from __future__ import annotations

from typing import Any, ClassVar

from hoola.core.cards import as_card_tuple
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

    def verify(self, action: object) -> None:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def can(self, action: object) -> bool:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def apply(self, action: object) -> Action:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def verify_draw(self, player: Any) -> None:
        """Raise unless ``player`` may draw from the stock now."""
        self.verify(Draw(player))

    def can_draw(self, player: Any) -> bool:
        """Whether ``player`` may draw from the stock now."""
        return self.can(Draw(player))

    def draw(self, player: Any) -> Action:
        """Draw the top of the stock; the record returned holds the card."""
        return self.apply(Draw(player))

    def verify_take(self, player: Any) -> None:
        """Raise unless ``player`` may take the top discard now (ruling 8)."""
        self.verify(Take(player))

    def can_take(self, player: Any) -> bool:
        """Whether ``player`` may take the top discard now."""
        return self.can(Take(player))

    def take(self, player: Any) -> Action:
        """Take the top discard (on the first turn, the upcard)."""
        return self.apply(Take(player))

    def verify_meld(self, player: Any, cards: Any) -> None:
        """Raise unless ``player`` may lay ``cards`` as a new meld now."""
        self.verify(NewMeld(player, as_card_tuple(cards)))

    def can_meld(self, player: Any, cards: Any) -> bool:
        """Whether ``player`` may lay ``cards`` as a new meld now."""
        return self.can(NewMeld(player, as_card_tuple(cards)))

    def meld(self, player: Any, cards: Any) -> Action:
        """Lay a new meld from hand."""
        return self.apply(NewMeld(player, as_card_tuple(cards)))

    def verify_add(self, player: Any, card: Any, meld_id: Any) -> None:
        """Raise unless ``player`` may build ``card`` on meld ``meld_id`` now (ruling 6)."""
        self.verify(Add(player, card, meld_id))

    def can_add(self, player: Any, card: Any, meld_id: Any) -> bool:
        """Whether ``player`` may build ``card`` on meld ``meld_id`` now."""
        return self.can(Add(player, card, meld_id))

    def add(self, player: Any, card: Any, meld_id: Any) -> Action:
        """Build one card on a meld."""
        return self.apply(Add(player, card, meld_id))

    def verify_swap(self, player: Any, cards: Any, meld_id: Any) -> None:
        """Raise unless ``cards`` may release a joker from meld ``meld_id`` now (ruling 7)."""
        self.verify(Swap(player, as_card_tuple(cards), meld_id))

    def can_swap(self, player: Any, cards: Any, meld_id: Any) -> bool:
        """Whether ``cards`` may release a joker from meld ``meld_id`` now."""
        return self.can(Swap(player, as_card_tuple(cards), meld_id))

    def swap(self, player: Any, cards: Any, meld_id: Any) -> Action:
        """Release a joker; it must be laid again before the turn ends."""
        return self.apply(Swap(player, as_card_tuple(cards), meld_id))

    def verify_discard(self, player: Any, card: Any) -> None:
        """Raise unless ``player`` may end the turn discarding ``card``."""
        self.verify(Discard(player, card))

    def can_discard(self, player: Any, card: Any) -> bool:
        """Whether ``player`` may end the turn discarding ``card``."""
        return self.can(Discard(player, card))

    def discard(self, player: Any, card: Any) -> Action:
        """Discard, ending the turn (the last card: calling up)."""
        return self.apply(Discard(player, card))

    def verify_warn(self, player: Any) -> None:
        """Raise unless ``player`` may warn now (``warnings = "manual"``, ruling 10)."""
        self.verify(Warn(player))

    def can_warn(self, player: Any) -> bool:
        """Whether ``player`` may warn now."""
        return self.can(Warn(player))

    def warn(self, player: Any) -> Action:
        """Announce one, two or three cards left."""
        return self.apply(Warn(player))

    def verify_swap_upcard(self, player: Any, card: Any) -> None:
        """Raise unless the dealer ``player`` may take the upcard for ``card`` now (Scarne)."""
        self.verify(SwapUpcard(player, card))

    def can_swap_upcard(self, player: Any, card: Any) -> bool:
        """Whether the dealer ``player`` may take the upcard for ``card`` now."""
        return self.can(SwapUpcard(player, card))

    def swap_upcard(self, player: Any, card: Any) -> Action:
        """Take the upcard before play and discard ``card`` in its place."""
        return self.apply(SwapUpcard(player, card))

    def verify_buy_in(self, player: Any) -> None:
        """Raise unless ``player`` may buy in now (ruling 13)."""
        self.verify(BuyIn(player))

    def can_buy_in(self, player: Any) -> bool:
        """Whether ``player`` may buy in now."""
        return self.can(BuyIn(player))

    def buy_in(self, player: Any) -> Action:
        """Pay into the pool and stay in the game."""
        return self.apply(BuyIn(player))

    def verify_retire(self, player: Any) -> None:
        """Raise unless ``player`` may retire now (ruling 13)."""
        self.verify(Retire(player))

    def can_retire(self, player: Any) -> bool:
        """Whether ``player`` may retire now."""
        return self.can(Retire(player))

    def retire(self, player: Any) -> Action:
        """Leave the game."""
        return self.apply(Retire(player))
