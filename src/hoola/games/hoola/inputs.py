"""Checks of what callers hand the engine: seats, cards, names, counts and the shape of actions.

The rules checks in :mod:`hoola.games.hoola.state` assume well-formed values. These checks come
first and turn
anything else (None, bools, strings, numbers out of range, tuples of the wrong kind) into a
specific :class:`~hoola.core.errors.HoolaError` with a stable code, before any state is touched.

>>> check_seat(True, 4, "view")
Traceback (most recent call last):
...
hoola.core.errors.IllegalActionError: cannot view: True is not a seat (seats are 0 to 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Final

from hoola.core.cards import JOKER
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.actions import (
    NAME_RE,
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

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "check_action",
    "check_card",
    "check_names",
    "check_player_count",
    "check_rng",
    "check_seat",
    "check_seed",
    "check_stake",
    "is_card",
    "is_whole",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 7


def is_whole(value: object) -> bool:
    """Whether ``value`` is an int proper (``True`` and ``False`` are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_card(value: object, *, joker: bool = True) -> bool:
    """Whether ``value`` is a card number (0-51, or ``JOKER`` when ``joker``)."""
    return isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value <= (JOKER if joker else JOKER - 1)


def check_seat(player: object, n: int, what: str) -> int:
    """``player`` as a seat of an ``n``-seat table, or an ``unknown-player`` error."""
    if isinstance(player, int) and not isinstance(player, bool) and 0 <= player < n:
        return player
    raise IllegalActionError(f"cannot {what}: {player!r} is not a seat (seats are 0 to {n - 1})",
                             "unknown-player")


def check_card(value: object, what: str, *, joker: bool = True) -> int:
    """``value`` as a card, or a ``bad-card`` error naming it."""
    if isinstance(value, int) and is_card(value, joker=joker):
        return value
    kind = "card" if joker else "natural card"
    raise IllegalActionError(f"cannot {what}: {value!r} is not a {kind}", "bad-card")


def check_player_count(players: object) -> int:
    """A count of players at one table (2 to 7), or a ``bad-player-count`` error."""
    if isinstance(players, int) and is_whole(players) and MIN_PLAYERS <= players <= MAX_PLAYERS:
        return players
    raise IllegalActionError(f"Hoola is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not "
                             f"{players!r}", "bad-player-count")


def check_names(names: object) -> tuple[str, ...]:
    """Players' names in play order: 2 to 7 distinct names of letters, digits, ``_`` and ``-``."""
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise IllegalActionError(f"the players must be a list of names, not {names!r}",
                                 "bad-names")
    check_player_count(len(names))
    for name in names:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            raise IllegalActionError(f"player name {name!r} must be letters, digits, _ and - only",
                                     "bad-names")
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise IllegalActionError(f"two players are named {twice!r}", "bad-names")
    return tuple(names)


def check_seed(seed: object) -> int | None:
    """A shuffle's seed: a whole number or None."""
    if seed is None or (isinstance(seed, int) and is_whole(seed)):
        return seed
    raise IllegalActionError(f"the seed must be a whole number, not {seed!r}", "bad-seed")


def check_rng(rng: object) -> random.Random | None:
    """A random source: a :class:`random.Random` or None."""
    if rng is not None and not isinstance(rng, random.Random):
        raise IllegalActionError(f"the random source must be a random.Random, not {rng!r}",
                                 "bad-seed")
    return rng


_ONE: Final = Fraction(1)


def check_stake(stake: object) -> Fraction:
    """A deal's stake multiplier: a whole number or fraction above zero."""
    if type(stake) is int and stake == 1:  # the common stake, made once
        return _ONE
    if isinstance(stake, int | Fraction) and not isinstance(stake, bool) and stake > 0:
        return Fraction(stake)
    shown = str(stake) if isinstance(stake, Fraction) else repr(stake)
    raise IllegalActionError(f"the stake must be a whole number or fraction above zero, not "
                             f"{shown}", "bad-stake")


def _cards_tuple(value: object, verb: str, field: str) -> tuple[int, ...]:
    if type(value) is not tuple:
        raise IllegalActionError(f"cannot {verb}: {field} must be a tuple of cards, not "
                                 f"{value!r}", "bad-card")
    for c in value:
        if type(c) is not int or not 0 <= c <= JOKER:
            check_card(c, verb)
    return value


def _check_joker_as(joker_as: object, jokers: int, verb: str) -> None:
    if joker_as is None:
        return
    check_card(joker_as, verb, joker=False)
    if not jokers:
        raise IllegalActionError(f"cannot {verb}: a joker is named ({joker_as!r}) but no joker "
                                 "is played", "bad-action")


# The shape of each action class; the common cases return after a type test or two, since every
# action a bot or a user plays passes here (legal_actions lists only well-formed ones).

def _no_fields(a: Any) -> None:
    return


def _draw(a: Draw) -> None:
    if a.card is not None:
        raise IllegalActionError("cannot draw: the card drawn comes from the stock and is not "
                                 "named", "bad-action")


def _discard(a: Discard) -> None:
    c = a.card
    if type(c) is not int or not 0 <= c <= JOKER:
        check_card(c, "discard")


def _take(a: Take) -> None:
    c = a.card
    if type(c) is not int or not 0 <= c <= JOKER:
        check_card(c, "take")
    with_cards = _cards_tuple(a.with_cards, "take", "with_cards")
    if a.purpose is not None:
        if a.purpose not in ("blast", "sevens"):
            raise IllegalActionError(f"cannot take: a take is for blast or sevens, not "
                                     f"{a.purpose!r}", "bad-action")
        if with_cards or a.joker_as is not None:
            raise IllegalActionError(f"cannot take for {a.purpose}: no cards are named with it",
                                     "bad-action")
    if a.joker_as is not None:
        _check_joker_as(a.joker_as, with_cards.count(JOKER), "take")


def _meld(a: NewMeld) -> None:
    cards = _cards_tuple(a.cards, "meld", "cards")
    if a.joker_as is not None:
        _check_joker_as(a.joker_as, cards.count(JOKER), "meld")


def _add(a: Add) -> None:
    check_card(a.card, "add")
    if a.on is not None:
        check_card(a.on, "add", joker=False)
    if a.meld_id is not None and (not is_whole(a.meld_id) or a.meld_id < 1):
        raise IllegalActionError(f"cannot add: {a.meld_id!r} is not a meld number (m1, m2, ...)",
                                 "bad-action")
    if a.on is None and a.meld_id is None:
        raise IllegalActionError("cannot add: name the meld, by a card in it or as m<number>",
                                 "bad-action")
    _check_joker_as(a.joker_as, int(a.card == JOKER), "add")


_SHAPES: dict[type[Any], Callable[[Any], None]] = {
    Draw: _draw, Take: _take, NewMeld: _meld, Add: _add, Discard: _discard, Knock: _no_fields,
    Blast: _no_fields, Sevens: _no_fields, Play: _no_fields, Drop: _no_fields,
}


def check_action(a: object, n: int) -> Action:
    """Refuse anything that is not a well-formed Hoola action for an ``n``-seat table.

    Only the shape is checked (the kinds and ranges of the fields); whether the action is allowed
    now is the state's business.
    """
    shape = _SHAPES.get(type(a))
    if shape is None:
        raise IllegalActionError(f"{a!r} is not a Hoola action (draw, take, meld, add, discard, "
                                 "knock, blast, sevens, play, drop)", "bad-action")
    assert isinstance(a, Action)
    p = a.player
    if type(p) is not int or not 0 <= p < n:
        check_seat(p, n, a.verb)
    shape(a)
    return a
