"""Kalookie's actions as small frozen values, and their notation (``"B swap 4s for JK on m3"``).

An action names its player by seat (0 = the first seat in play order). Applying one returns the
frozen record the history holds: the action completed with what the engine decided (the card
drawn or taken, the meld a card went on).

>>> names = ["A", "B"]
>>> a = parse_action("B add JK=Ts on m2", names)
>>> a
Add(player=1, card=73, meld_id=2, on=None)
>>> format_action(a, names), format_action(parse_action("B swap Th Tc for JK on 9s", names), names)
('B add JK=Ts on m2', 'B swap Th Tc for JK on 9s')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hoola.core.cards import format_card
from hoola.core.errors import IllegalActionError, NotationError
from hoola.games.kalookie.cards import JOKER, NAMED, format_token, format_tokens, parse_token

__all__ = [
    "NAME_RE",
    "Action",
    "Add",
    "BuyIn",
    "Discard",
    "Draw",
    "NewMeld",
    "Retire",
    "Swap",
    "SwapUpcard",
    "Take",
    "Warn",
    "check_fields",
    "format_action",
    "parse_action",
]

NAME_RE = re.compile(r"[A-Za-z0-9_-]+")
_MELD_ID = re.compile(r"[mM]([1-9][0-9]{0,5})")


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
    """Draw the top card of the stock; in the history ``card`` is the card drawn (hidden)."""

    card: int | None = None


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take the top discard (on the first turn, the upcard); the history holds the card."""

    card: int | None = None


@dataclass(frozen=True, slots=True)
class NewMeld(Action):
    """Lay down a new meld from hand: natural cards, ``JK`` in a set, ``JK=4s`` in a run."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Build one card on a meld: meld number ``meld_id``, or the meld holding card ``on``."""

    card: int
    meld_id: int | None = None
    on: int | None = None


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Release a joker from a meld with natural cards from hand (ruling 7)."""

    cards: tuple[int, ...]
    meld_id: int | None = None
    on: int | None = None


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard a card, ending the turn (the last card: calling up)."""

    card: int


@dataclass(frozen=True, slots=True)
class Warn(Action):
    """Announce one, two or three cards left (``warnings = "manual"``)."""


@dataclass(frozen=True, slots=True)
class BuyIn(Action):
    """Over the target after a hand: pay into the pool and stay in."""


@dataclass(frozen=True, slots=True)
class Retire(Action):
    """Over the target after a hand: leave the game."""


@dataclass(frozen=True, slots=True)
class SwapUpcard(Action):
    """Scarne: the dealer takes the upcard before play and discards ``card`` in its place."""

    card: int


_VERBS: dict[type[Action], str] = {
    Draw: "draw", Take: "take", NewMeld: "meld", Add: "add", Swap: "swap", Discard: "discard",
    Warn: "warn", BuyIn: "buy-in", Retire: "retire", SwapUpcard: "swap-upcard",
}
_SIMPLE: dict[str, type[Action]] = {"draw": Draw, "take": Take, "warn": Warn, "buy-in": BuyIn,
                                     "retire": Retire}
_FORMS = ("draw, take, meld C C C.., add C on mN|C, swap C [C] for JK on mN|C, discard C, warn, "
          "buy-in, retire, swap-upcard C")


def _quote(text: str) -> str:
    """``text`` quoted for a message, cut short when it is long."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _target(meld_id: int | None, on: int | None) -> str:
    return f"m{meld_id}" if meld_id is not None else format_card(on if on is not None else 0)


def format_action(action: Action, names: Sequence[str]) -> str:
    """The notation of ``action`` with seat numbers replaced by ``names``."""
    who = names[action.player]
    match action:
        case NewMeld(cards=cards):
            return f"{who} meld {format_tokens(cards)}"
        case Add(card=card, meld_id=meld_id, on=on):
            return f"{who} add {format_token(card)} on {_target(meld_id, on)}"
        case Swap(cards=cards, meld_id=meld_id, on=on):
            return f"{who} swap {format_tokens(cards)} for JK on {_target(meld_id, on)}"
        case Discard(card=card) | SwapUpcard(card=card):
            return f"{who} {action.verb} {format_card(card)}"
    return f"{who} {action.verb}"


def _read_target(word: str, text: str) -> tuple[int | None, int | None]:
    found = _MELD_ID.fullmatch(word)
    if found:
        return int(found.group(1)), None
    try:
        card = parse_token(word)
    except NotationError:
        raise NotationError(f"cannot read action {_quote(text)}: name the meld as m<number> "
                            "(m1 to m999999) or by a card it holds", "bad-action") from None
    if card >= JOKER:
        raise NotationError(f"cannot read action {_quote(text)}: name the meld by a natural card "
                            "it holds or as m<number>", "bad-action")
    return None, card


def parse_action(text: str, names: Sequence[str]) -> Action:
    """Read one action string such as ``"A meld 3c 4c 5c"`` (``names`` give the seats)."""
    if not isinstance(text, str):
        raise NotationError(f"an action is a string such as 'B draw', not {text!r}", "bad-action")
    words = text.split("#", 1)[0].split()
    if len(words) < 2:
        raise NotationError(f"cannot read action {_quote(text)}: write a player's name and a verb",
                            "bad-action")
    name, verb, args = words[0], words[1].lower(), words[2:]
    if name not in names:
        raise NotationError(f"cannot read action {_quote(text)}: no player is named {name!r}",
                            "unknown-player")
    seat = list(names).index(name)
    try:
        action = _read(seat, verb, args, text)
    except NotationError as exc:
        if exc.code == "bad-card":
            raise NotationError(f"cannot read action {_quote(text)}: {exc.message}",
                                "bad-card") from exc
        raise
    if action is None:
        raise NotationError(f"cannot read action {_quote(text)}: expected one of {_FORMS}",
                            "bad-action")
    return action


def _read(seat: int, verb: str, args: list[str], text: str) -> Action | None:
    if verb == "take" and len(args) == 1:
        return Take(seat, parse_token(args[0]))  # "take Kd" names the card it expects
    if verb in _SIMPLE:
        if args:
            raise NotationError(f"cannot read action {_quote(text)}: {verb} takes no arguments",
                                "bad-action")
        return _SIMPLE[verb](seat)
    if verb in ("discard", "swap-upcard") and len(args) == 1:
        card = parse_token(args[0])
        return Discard(seat, card) if verb == "discard" else SwapUpcard(seat, card)
    if verb == "meld" and args:
        return NewMeld(seat, tuple(parse_token(w) for w in args))
    if verb == "add" and len(args) == 3 and args[1].lower() == "on":
        meld_id, on = _read_target(args[2], text)
        return Add(seat, parse_token(args[0]), meld_id, on)
    if verb == "swap" and len(args) >= 5 and [w.lower() for w in args[-4:-1]] == \
            ["for", "jk", "on"]:
        meld_id, on = _read_target(args[-1], text)
        return Swap(seat, tuple(parse_token(w) for w in args[:-4]), meld_id, on)
    return None


_ACTIONS = (Draw, Take, NewMeld, Add, Swap, Discard, Warn, BuyIn, Retire, SwapUpcard)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_token(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) \
        and (0 <= value <= JOKER or NAMED <= value < NAMED + 52)


def check_fields(a: object, names: Sequence[str]) -> Action:
    """``a`` if it is a well-formed Kalookie action for a table of ``names``, else a specific
    IllegalActionError: the kinds and ranges of its fields (whether it is allowed now is the
    state's business). This module stays Python in the compiled build, so the fields are read as
    they are (compiled code would take True for seat 1)."""
    if type(a) not in _ACTIONS:
        raise IllegalActionError(f"{a!r} is not a Kalookie action", "unknown-action")
    assert isinstance(a, Action)
    p = a.player
    if not _is_int(p) or not 0 <= p < len(names):
        raise IllegalActionError(f"cannot {a.verb}: there is no seat {p!r}", "unknown-player")
    bad = False
    if isinstance(a, Draw):
        bad = a.card is not None
    elif isinstance(a, Take):
        bad = a.card is not None and not (_is_int(a.card) and 0 <= a.card <= JOKER)
    elif isinstance(a, Discard | SwapUpcard):
        bad = not (_is_int(a.card) and 0 <= a.card <= JOKER)
    elif isinstance(a, NewMeld):
        bad = not isinstance(a.cards, tuple) or not all(_is_token(t) for t in a.cards)
        if not bad and len(a.cards) > 14:
            raise IllegalActionError(f"{names[p]} cannot meld {len(a.cards)} cards: a meld has "
                                     "at most fourteen (ruling 3)", "meld-too-long")
    elif isinstance(a, Add | Swap):
        cards = (a.card,) if isinstance(a, Add) else a.cards
        bad = not isinstance(cards, tuple) or not 1 <= len(cards) <= 4 or \
            not all(_is_token(t) for t in cards) or \
            (a.meld_id is None) == (a.on is None) or \
            (a.meld_id is not None and not (_is_int(a.meld_id) and 1 <= a.meld_id < 10**6)) \
            or (a.on is not None and not (_is_int(a.on) and 0 <= a.on < JOKER))
    if bad:
        shown = repr(a)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise IllegalActionError(f"{names[p]} cannot {a.verb}: the action's cards or meld are "
                                 f"not well formed ({shown})", "bad-action")
    return a
