"""Check, ask and do for each action by name: ``verify_take``, ``can_take``, ``take`` and so on.

Each trio builds the action value and goes through the state's one checker, so the three always
agree (``can_x`` is true exactly when ``verify_x`` raises nothing, and ``x`` applies only then).
The fields are typed ``Any``: the checker refuses a value of the wrong kind with the engine's own
error (compiled, a parameter typed ``int`` would raise TypeError first, or take True for 1).
"""

from __future__ import annotations

from typing import Any, ClassVar

from hoola.core.cards import as_card_tuple
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Drop,
    Knock,
    NewMeld,
    Play,
    Sevens,
    Take,
)

__all__ = ["Verbs"]



class Verbs:
    """Named check/ask/do methods; mixed into :class:`hoola.games.hoola.state.DealState`."""

    __slots__: ClassVar[tuple[str, ...]] = ()  # ClassVar: see DealState

    def verify(self, action: object) -> None:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def can(self, action: object) -> bool:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    def apply(self, action: object) -> Action:  # pragma: no cover - provided by DealState
        raise NotImplementedError

    # draw
    def verify_draw(self, player: Any) -> None:
        """Raise unless ``player`` may draw from the stock now."""
        self.verify(Draw(player))

    def can_draw(self, player: Any) -> bool:
        """Whether ``player`` may draw from the stock now."""
        return self.can(Draw(player))

    def draw(self, player: Any) -> Draw:
        """Draw from the stock; the returned record holds the card drawn."""
        record = self.apply(Draw(player))
        assert isinstance(record, Draw)
        return record

    # take
    def verify_take(self, player: Any, card: Any, with_cards: Any = (),
                    joker_as: Any = None, purpose: Any = None) -> None:
        """Raise unless ``player`` may take ``card`` into a meld with ``with_cards`` now."""
        self.verify(Take(player, card, as_card_tuple(with_cards), joker_as, purpose))

    def can_take(self, player: Any, card: Any, with_cards: Any = (),
                 joker_as: Any = None, purpose: Any = None) -> bool:
        """Whether ``player`` may take ``card`` (in turn, or as a battle claim) now."""
        return self.can(Take(player, card, as_card_tuple(with_cards), joker_as, purpose))

    def take(self, player: Any, card: Any, with_cards: Any = (),
             joker_as: Any = None, purpose: Any = None) -> Action:
        """Take the discard and meld it at once (or, online, for a blast or four sevens)."""
        return self.apply(Take(player, card, as_card_tuple(with_cards), joker_as, purpose))

    # meld
    def verify_meld(self, player: Any, cards: Any, joker_as: Any = None) -> None:
        """Raise unless ``player`` may lay down ``cards`` as a new meld now."""
        self.verify(NewMeld(player, as_card_tuple(cards), joker_as))

    def can_meld(self, player: Any, cards: Any, joker_as: Any = None) -> bool:
        """Whether ``player`` may lay down ``cards`` as a new meld now."""
        return self.can(NewMeld(player, as_card_tuple(cards), joker_as))

    def meld(self, player: Any, cards: Any, joker_as: Any = None) -> Action:
        """Lay down a new meld from hand."""
        return self.apply(NewMeld(player, as_card_tuple(cards), joker_as))

    # add
    def verify_add(self, player: Any, card: Any, on: Any = None,
                   meld_id: Any = None, joker_as: Any = None) -> None:
        """Raise unless ``player`` may add ``card`` to the meld holding ``on`` (or ``meld_id``)."""
        self.verify(Add(player, card, on, meld_id, joker_as))

    def can_add(self, player: Any, card: Any, on: Any = None,
                meld_id: Any = None, joker_as: Any = None) -> bool:
        """Whether ``player`` may add ``card`` to that meld now."""
        return self.can(Add(player, card, on, meld_id, joker_as))

    def add(self, player: Any, card: Any, on: Any = None, meld_id: Any = None,
            joker_as: Any = None) -> Action:
        """Add a card from hand to a meld on the table."""
        return self.apply(Add(player, card, on, meld_id, joker_as))

    # discard
    def verify_discard(self, player: Any, card: Any) -> None:
        """Raise unless ``player`` may discard ``card`` now."""
        self.verify(Discard(player, card))

    def can_discard(self, player: Any, card: Any) -> bool:
        """Whether ``player`` may discard ``card`` now."""
        return self.can(Discard(player, card))

    def discard(self, player: Any, card: Any) -> Action:
        """Discard, ending the turn (or going out with the last card)."""
        return self.apply(Discard(player, card))

    # declarations and choices without arguments
    def verify_knock(self, player: Any) -> None:
        """Raise unless ``player`` may knock now."""
        self.verify(Knock(player))

    def can_knock(self, player: Any) -> bool:
        """Whether ``player`` may knock now."""
        return self.can(Knock(player))

    def knock(self, player: Any) -> Action:
        """End play by a knock."""
        return self.apply(Knock(player))

    def verify_blast(self, player: Any) -> None:
        """Raise unless ``player`` may declare a blast now."""
        self.verify(Blast(player))

    def can_blast(self, player: Any) -> bool:
        """Whether ``player`` may declare a blast now."""
        return self.can(Blast(player))

    def blast(self, player: Any) -> Action:
        """End play by a blast."""
        return self.apply(Blast(player))

    def verify_sevens(self, player: Any) -> None:
        """Raise unless ``player`` may show four sevens now."""
        self.verify(Sevens(player))

    def can_sevens(self, player: Any) -> bool:
        """Whether ``player`` may show four sevens now."""
        return self.can(Sevens(player))

    def sevens(self, player: Any) -> Action:
        """End play by showing four sevens."""
        return self.apply(Sevens(player))

    def verify_play(self, player: Any) -> None:
        """Raise unless ``player`` may choose to play this deal now (six or seven players)."""
        self.verify(Play(player))

    def can_play(self, player: Any) -> bool:
        """Whether ``player`` may choose to play this deal now."""
        return self.can(Play(player))

    def play(self, player: Any) -> Action:
        """Choose to play this deal."""
        return self.apply(Play(player))

    def verify_drop(self, player: Any) -> None:
        """Raise unless ``player`` may drop out of this deal now."""
        self.verify(Drop(player))

    def can_drop(self, player: Any) -> bool:
        """Whether ``player`` may drop out of this deal now."""
        return self.can(Drop(player))

    def drop(self, player: Any) -> Action:
        """Drop out of this deal."""
        return self.apply(Drop(player))
