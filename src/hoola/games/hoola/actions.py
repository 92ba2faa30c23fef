"""Actions as small frozen values, and their notation (``"B take 9d with 9s 9h"``).

An action names its player by seat (0 = first seat in play order). Applying one returns the
frozen record the state's history holds: the action itself, completed with what the engine
decided (for a draw, the card drawn, which views of other players never show).

>>> a = parse_action("B take 9d with 9s 9h", ["A", "B"])
>>> a
Take(player=1, card=34, with_cards=(8, 21), joker_as=None, purpose=None)
>>> format_action(a, ["A", "B"])
'B take 9d with 9s 9h'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.core.cards import JOKER, format_card, parse_card
from hoola.core.errors import NotationError

__all__ = [
    "Action",
    "Add",
    "Blast",
    "Discard",
    "Draw",
    "Drop",
    "Knock",
    "NewMeld",
    "Play",
    "Sevens",
    "Take",
    "format_action",
    "parse_action",
]

# Anchored with \A and \Z ('$' also matches before a final newline): a full match whichever
# method is called. The length bound keeps names, and the messages that quote them, short.
NAME_RE = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
MELD_ID_RE = re.compile(r"[mM]([0-9]{1,3})")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action: who acts."""

    player: int

    @property
    def verb(self) -> str:
        """The notation's verb for this action."""
        return _VERBS[type(self)]


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top card of the stock. In the history, ``card`` is the card drawn."""

    card: int | None = None


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take the top discard (or the upcard) and meld it at once with two cards from hand.

    ``purpose`` is ``"blast"`` or ``"sevens"`` for the online claim that ends play instead.
    """

    card: int
    with_cards: tuple[int, ...] = ()
    joker_as: int | None = None
    purpose: str | None = None


@dataclass(frozen=True, slots=True)
class NewMeld(Action):
    """Lay down a new meld from hand (a lone seven is a one-card meld)."""

    cards: tuple[int, ...]
    joker_as: int | None = None


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Add a card from hand to a meld on the table: the meld holding ``on`` or meld ``meld_id``."""

    card: int
    on: int | None = None
    meld_id: int | None = None
    joker_as: int | None = None


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a card, ending the turn."""

    card: int


@dataclass(frozen=True, slots=True)
class Knock(Action):
    """End play by knocking (few points in hand, at the start of one's turn)."""


@dataclass(frozen=True, slots=True)
class Blast(Action):
    """End play by a blast (sopang or daepang, at the start of one's turn)."""


@dataclass(frozen=True, slots=True)
class Sevens(Action):
    """End play by showing four sevens in hand."""


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Six or seven players: choose to play this deal."""


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """Six or seven players: drop out of this deal."""


_VERBS: dict[type[Action], str] = {
    Draw: "draw", Take: "take", NewMeld: "meld", Add: "add", Discard: "discard", Knock: "knock",
    Blast: "blast", Sevens: "sevens", Play: "play", Drop: "drop",
}
_SIMPLE: dict[str, type[Action]] = {"draw": Draw, "knock": Knock, "blast": Blast,
                                     "sevens": Sevens, "play": Play, "drop": Drop}


def _card_text(card: int, joker_as: int | None) -> str:
    if card == JOKER and joker_as is not None:
        return f"JK={format_card(joker_as)}"
    return format_card(card)


def _cards_text(cards: Sequence[int], joker_as: int | None) -> str:
    return " ".join(_card_text(c, joker_as) for c in cards)


def format_action(action: Action, names: Sequence[str]) -> str:
    """The notation of ``action`` with seat numbers replaced by ``names``."""
    who = names[action.player]
    match action:
        case Take(card=card, with_cards=with_cards, joker_as=joker_as, purpose=purpose):
            if purpose:
                return f"{who} take {format_card(card)} for {purpose}"
            return f"{who} take {format_card(card)} with {_cards_text(with_cards, joker_as)}"
        case NewMeld(cards=cards, joker_as=joker_as):
            return f"{who} meld {_cards_text(cards, joker_as)}"
        case Add(card=card, on=on, meld_id=meld_id, joker_as=joker_as):
            target = format_card(on) if on is not None else f"m{meld_id}"
            return f"{who} add {_card_text(card, joker_as)} on {target}"
        case Discard(card=card):
            return f"{who} discard {format_card(card)}"
    return f"{who} {action.verb}"


def _read_cards(words: Sequence[str], text: str) -> tuple[tuple[int, ...], int | None]:
    cards: list[int] = []
    joker_as: int | None = None
    for w in words:
        if "=" in w:
            head, _, face = w.partition("=")
            if parse_card(head) != JOKER:
                raise NotationError(f"cannot read {text!r}: only a joker may be written with "
                                    f"'=' (JK=7h), not {w!r}", "bad-action")
            if joker_as is not None:
                raise NotationError(f"cannot read {text!r}: two jokers named in one meld",
                                    "bad-action")
            joker_as = parse_card(face)
            if joker_as == JOKER:
                raise NotationError(f"cannot read {text!r}: a joker stands for a natural card",
                                    "bad-action")
            cards.append(JOKER)
        else:
            cards.append(parse_card(w))
    return tuple(cards), joker_as


def parse_action(text: str, names: Sequence[str]) -> Action:
    """Read one action string such as ``"A meld 3c 4c 5c"`` (names give the seats)."""
    words = text.split("#", 1)[0].split()
    if len(words) < 2:
        raise NotationError(f"cannot read action {text!r}: write a player's name and a verb",
                            "bad-action")
    name, verb, args = words[0], words[1].lower(), words[2:]
    if name not in names:
        raise NotationError(f"cannot read action {text!r}: no player is named {name!r}",
                            "unknown-player")
    seat = list(names).index(name)
    try:
        if verb in _SIMPLE:
            if args:
                raise NotationError(f"cannot read action {text!r}: {verb} takes no arguments",
                                    "bad-action")
            return _SIMPLE[verb](seat)
        if verb == "discard" and len(args) == 1:
            return Discard(seat, parse_card(args[0]))
        if verb == "meld" and args:
            cards, joker_as = _read_cards(args, text)
            return NewMeld(seat, cards, joker_as)
        if verb == "add" and len(args) == 3 and args[1].lower() == "on":
            (card,), joker_as = _read_cards(args[:1], text)
            target = args[2]
            meld_id = MELD_ID_RE.fullmatch(target)
            if meld_id:
                return Add(seat, card, meld_id=int(meld_id[1]), joker_as=joker_as)
            if re.fullmatch(r"[mM]\d+", target):
                # No deal has a thousand melds; int() of thousands of digits would raise.
                shown = target if len(target) <= 8 else target[:8] + "..."
                raise NotationError(f"cannot read action {text!r}: {shown!r} is not a meld "
                                    "number (m1 to m999)", "bad-action")
            on = parse_card(target)
            if on == JOKER:
                raise NotationError(f"cannot read {text!r}: name the meld by a natural card or "
                                    "as m<number>", "bad-action")
            return Add(seat, card, on=on, joker_as=joker_as)
        if verb == "take" and len(args) == 3 and args[1].lower() == "for" \
                and args[2].lower() in ("blast", "sevens"):
            return Take(seat, parse_card(args[0]), purpose=args[2].lower())
        if verb == "take" and len(args) == 4 and args[1].lower() == "with":
            card = parse_card(args[0])
            with_cards, joker_as = _read_cards(args[2:], text)
            return Take(seat, card, with_cards, joker_as)
    except NotationError as exc:
        if exc.code == "bad-card":
            raise NotationError(f"cannot read action {text!r}: {exc.message}", "bad-card") from exc
        raise
    raise NotationError(f"cannot read action {text!r}: expected one of draw, take C with C C, "
                        "take C for blast|sevens, meld C.., add C on C|mN, discard C, knock, "
                        "blast, sevens, play, drop", "bad-action")
