"""Melds: checking a new meld, adding to one on the table, and finding every meld a hand holds.

A run is stored as a suit, a start *position* and its cards in order. Positions count ranks from
the ace: 0 = ace .. 12 = king, and 13 = the ace again above the king (used only without wrapping
runs, where an ace ends a run at either end). With ``wrap_runs`` positions are taken modulo 13.

>>> from hoola.core.cards import parse_cards, format_cards
>>> from hoola.games.hoola.rules import Rules
>>> m = new_meld(parse_cards("Kc Ac 2c"), None, Rules.preset("pagat"), owner=0, meld_id=1)
>>> m.kind.name, format_cards(m.cards)
('RUN', 'Kc Ac 2c')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum
from itertools import combinations
from typing import Final

from hoola.core.cards import JOKER, SEVEN, format_card, format_cards, make_card
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.rules import Rules

__all__ = ["Meld", "MeldKind", "extend_meld", "find_adds", "find_melds", "find_takes", "new_meld"]


class MeldKind(IntEnum):
    """The three kinds of meld on the table."""

    SET = 0
    RUN = 1
    SEVEN = 2


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table.

    ``cards`` are the cards as laid (a run low to high, jokers as ``JOKER``); ``faces`` what each
    stands for (a joker's named card, or -1 for an unnamed joker in a set). ``direction`` is used
    only by Glenn's melds: +1 grows upward only, -1 downward only, 0 either way.
    """

    id: int
    owner: int
    kind: MeldKind
    cards: tuple[int, ...]
    faces: tuple[int, ...]
    rank: int = -1
    suit: int = -1
    start: int = 0
    direction: int = 0

    @property
    def has_joker(self) -> bool:
        """Whether a joker is in this meld."""
        return JOKER in self.cards

    def naturals(self) -> tuple[int, ...]:
        """The natural cards of the meld."""
        return tuple(c for c in self.cards if c != JOKER)

    def __str__(self) -> str:
        return " ".join(_face_name(c, f) for c, f in zip(self.cards, self.faces, strict=True))


def _face_name(card: int, face: int) -> str:
    if card != JOKER:
        return format_card(card)
    return "JK" if face < 0 else f"JK={format_card(face)}"


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


# -- runs ---------------------------------------------------------------------------------------

def _run_start(ranks: set[int], rules: Rules) -> int | None:
    """The start position of a run covering exactly ``ranks`` (one suit), or None."""
    n = len(ranks)
    if n == 0 or n > 13:
        return None
    if rules.wrap_runs:
        if n == 13:
            return 0
        starts = [r for r in ranks if (r - 1) % 13 not in ranks]
        if len(starts) != 1:
            return None
        s = starts[0]
        return s if all((s + i) % 13 in ranks for i in range(n)) else None
    for positions in (sorted(ranks), sorted(13 if r == 0 else r for r in ranks)):
        if positions[-1] - positions[0] == n - 1:
            return positions[0]
    return None


def _position_card(position: int, suit: int) -> int:
    return make_card(position % 13, suit)


def _run_faces_order(faces: Sequence[int], start: int) -> list[int]:
    """Indices of ``faces`` sorted by run position from ``start``."""
    return sorted(range(len(faces)), key=lambda i: (faces[i] % 13 - start) % 13)


def _end_positions(meld: Meld, rules: Rules) -> list[int]:
    """Positions a run may grow to (below its start, above its end)."""
    n = len(meld.cards)
    if rules.wrap_runs:
        if n >= 13:
            return []
        below, above = (meld.start - 1) % 13, (meld.start + n) % 13
        ends = [below] if below == above else [below, above]
    else:
        ends = [p for p in (meld.start - 1, meld.start + n) if 0 <= p <= 13]
    if rules.glenn_melds and meld.direction:
        ends = [p for p in ends if (p == (meld.start + n) % 13 if rules.wrap_runs
                                    else p == meld.start + n) == (meld.direction > 0)]
    return ends


# -- new melds ----------------------------------------------------------------------------------

def new_meld(cards: Sequence[int], joker_as: int | None, rules: Rules, *, owner: int,
             meld_id: int) -> Meld:
    """Check ``cards`` (jokers as JOKER, the joker standing for ``joker_as``) as a new meld.

    Raises :class:`IllegalActionError` naming the rule when they are not one.
    """
    text = format_cards(cards)
    jokers = sum(1 for c in cards if c == JOKER)
    naturals = [c for c in cards if c != JOKER]
    if len(set(naturals)) != len(naturals):
        raise _illegal(f"cannot meld {text}: a card is named twice", "duplicate-card")
    if jokers > 1:
        raise _illegal(f"cannot meld {text}: at most one joker may be used in a meld",
                       "two-jokers-in-meld")
    if len(cards) == 1:
        if jokers:
            raise _illegal("cannot meld JK alone: a joker is never melded as a lone seven",
                           "lone-joker")
        if naturals[0] % 13 != SEVEN:
            raise _illegal(f"cannot meld {text} alone: only a seven may be melded as a single card",
                           "meld-too-short")
        return Meld(meld_id, owner, MeldKind.SEVEN, tuple(cards), tuple(cards),
                    rank=SEVEN, suit=naturals[0] // 13)
    if len(cards) < 3:
        raise _illegal(f"cannot meld {text}: a new meld is a set or run of three or more cards, or "
                       "a lone seven", "meld-too-short")
    if rules.glenn_melds and len(cards) > 4:
        raise _illegal(f"cannot meld {text}: with Glenn's melds no meld holds more than four cards",
                       "meld-too-long")
    ranks = {c % 13 for c in naturals}
    suits = {c // 13 for c in naturals}
    if len(ranks) == 1:
        return _new_set(cards, naturals, joker_as, rules, owner, meld_id, text)
    if len(suits) == 1:
        return _new_run(cards, naturals, joker_as, rules, owner, meld_id, text)
    raise _illegal(f"cannot meld {text}: the cards are neither of one rank nor of one suit",
                   "not-a-meld")


def _new_set(cards: Sequence[int], naturals: list[int], joker_as: int | None, rules: Rules,
             owner: int, meld_id: int, text: str) -> Meld:
    rank = naturals[0] % 13
    if len(cards) > 4:
        raise _illegal(f"cannot meld {text}: a set has at most four cards", "set-too-long")
    if rank == SEVEN and len(cards) == 4 and not rules.seven_set_extend:
        raise _illegal(f"cannot meld {text}: a set of sevens takes no fourth seven (meld it alone)",
                       "seven-set-closed")
    faces = list(cards)
    if JOKER in cards:
        face = -1
        if joker_as is not None:
            if joker_as % 13 != rank or joker_as in naturals:
                raise _illegal(f"cannot meld {text}: the joker must stand for a missing card of "
                               "the set's rank", "bad-joker-card")
            face = joker_as
        faces[list(cards).index(JOKER)] = face
    ordered = sorted(range(len(cards)), key=lambda i: (cards[i] == JOKER, cards[i]))
    return Meld(meld_id, owner, MeldKind.SET, tuple(cards[i] for i in ordered),
                tuple(faces[i] for i in ordered), rank=rank)


def _new_run(cards: Sequence[int], naturals: list[int], joker_as: int | None, rules: Rules,
             owner: int, meld_id: int, text: str) -> Meld:
    suit = naturals[0] // 13
    ranks = {c % 13 for c in naturals}
    if JOKER in cards:
        if joker_as is None:
            fits = [r for r in range(13) if r not in ranks and _run_start(ranks | {r}, rules)
                    is not None]
            if len(fits) != 1:
                raise _illegal(f"cannot meld {text}: name the card the joker stands for "
                               "(such as JK=8h)", "joker-unnamed")
            joker_as = make_card(fits[0], suit)
        if joker_as // 13 != suit or joker_as % 13 in ranks:
            raise _illegal(f"cannot meld {text}: the joker must stand for a missing card of the "
                           "run's suit", "bad-joker-card")
        ranks = ranks | {joker_as % 13}
    start = _run_start(ranks, rules)
    if start is None:
        why = " (runs do not turn the corner here)" if not rules.wrap_runs else ""
        raise _illegal(f"cannot meld {text}: the cards are not consecutive in their suit{why}",
                       "not-a-run")
    faces = [joker_as if c == JOKER else c for c in cards]
    order = _run_faces_order([f if f is not None else 0 for f in faces], start)
    return Meld(meld_id, owner, MeldKind.RUN, tuple(cards[i] for i in order),
                tuple(faces[i] for i in order),  # type: ignore[misc]
                suit=suit, start=start, direction=1 if rules.glenn_melds else 0)


# -- adding to melds ----------------------------------------------------------------------------

def extend_meld(meld: Meld, card: int, joker_as: int | None, rules: Rules) -> Meld:
    """The meld with ``card`` added (a joker standing for ``joker_as``), or an error."""
    name = _face_name(card, -1 if joker_as is None else joker_as)
    if card == JOKER and meld.has_joker:
        raise _illegal(f"cannot add JK on m{meld.id}: a meld holds at most one joker",
                       "two-jokers-in-meld")
    if meld.kind == MeldKind.SET:
        if len(meld.cards) >= 4 or (rules.glenn_melds and len(meld.cards) >= 4):
            raise _illegal(f"cannot add {name} on m{meld.id}: the set already has four cards",
                           "meld-full")
        if meld.rank == SEVEN and not rules.seven_set_extend:
            raise _illegal(f"cannot add {name} on m{meld.id}: a set of sevens takes no fourth "
                           "seven (meld it alone)", "seven-set-closed")
        taken = {f // 13 for f in meld.faces if f >= 0}
        face = card if card != JOKER else (-1 if joker_as is None else joker_as)
        if face >= 0 and (face % 13 != meld.rank or face // 13 in taken):
            raise _illegal(f"cannot add {name} on m{meld.id}: a set takes only a missing card of "
                           "its rank", "does-not-fit")
        return replace(meld, cards=(*meld.cards, card), faces=(*meld.faces, face))
    if meld.kind == MeldKind.SEVEN:
        suit = meld.suit
        allowed = {make_card(SEVEN - 1, suit): -1, make_card(SEVEN + 1, suit): 1}
        named = card if card != JOKER else joker_as
        if named is None:
            raise _illegal("cannot add JK on a lone seven without naming it (JK=6x or JK=8x)",
                           "joker-unnamed")
        face = named
        if face not in allowed:
            raise _illegal(f"cannot add {name} on m{meld.id}: a lone seven takes only the 6 or 8 "
                           "of its suit", "does-not-fit")
        below = allowed[face] < 0
        cards = (card, meld.cards[0]) if below else (meld.cards[0], card)
        faces = (face, meld.faces[0]) if below else (meld.faces[0], face)
        direction = allowed[face] if rules.glenn_melds else 0
        return Meld(meld.id, meld.owner, MeldKind.RUN, cards, faces, suit=suit,
                    start=SEVEN - 1 if below else SEVEN, direction=direction)
    ends = _end_positions(meld, rules)
    if rules.glenn_melds and len(meld.cards) >= 4:
        ends = []
    cards_at = {_position_card(p, meld.suit): p for p in ends}
    if card == JOKER:
        if joker_as is None:
            if len(cards_at) != 1:
                raise _illegal(f"cannot add JK on m{meld.id}: name the card the joker stands for "
                               "(such as JK=8h)", "joker-unnamed")
            joker_as = next(iter(cards_at))
        face = joker_as
    else:
        face = card
    if face not in cards_at:
        raise _illegal(f"cannot add {name} on m{meld.id}: a run takes only the next card of its "
                       "suit at either end", "does-not-fit")
    position = cards_at[face]
    n = len(meld.cards)
    if position == ((meld.start + n) % 13 if rules.wrap_runs else meld.start + n):
        return replace(meld, cards=(*meld.cards, card), faces=(*meld.faces, face))
    start = position if not rules.wrap_runs else position % 13
    return replace(meld, cards=(card, *meld.cards), faces=(face, *meld.faces), start=start)


def is_killed(meld: Meld, rules: Rules) -> bool:
    """Glenn's melds: a set or run of four cards is killed."""
    return rules.glenn_melds and meld.kind != MeldKind.SEVEN and len(meld.cards) >= 4


# -- finding ------------------------------------------------------------------------------------

MeldOption = tuple[tuple[int, ...], int | None]


def _column(mask: int, rank: int) -> int:
    """The four suits' bits of one rank in a mask, as a 4-bit number."""
    return ((mask >> rank) & 1) | ((mask >> (rank + 12)) & 2) | ((mask >> (rank + 24)) & 4) \
        | ((mask >> (rank + 36)) & 8)


_MeldKey = tuple[bool, int, bool, int]
_SUIT_MELDS: Final[dict[tuple[int, int, _MeldKey], tuple[MeldOption, ...]]] = {}
_RANK_SETS: Final[dict[tuple[int, int, _MeldKey], tuple[MeldOption, ...]]] = {}


def _suit_melds(suit: int, pattern: int, key: _MeldKey) -> tuple[MeldOption, ...]:
    """Lone sevens and runs within one suit's 13-bit pattern (memoised: hands repeat patterns)."""
    cached = _SUIT_MELDS.get((suit, pattern, key))
    if cached is not None:
        return cached
    wrap, limit, _, jokers = key
    base = suit * 13
    found: list[MeldOption] = []
    if (pattern >> SEVEN) & 1:
        found.append(((base + SEVEN,), None))
    if pattern.bit_count() + jokers >= 3:
        span = 13 if wrap else 14
        have = [(pattern >> (p % 13)) & 1 for p in range(span)]
        for start in range(13 if wrap else 14):
            missing = -1
            for length in range(1, min(13, limit) + 1):
                p = start + length - 1
                if not wrap and p > 13:
                    break
                if not have[p % span if wrap else p]:
                    if missing >= 0 or not jokers:
                        break
                    missing = p
                if length < 3:
                    continue
                if wrap and length == 13 and start != 0:
                    break
                positions = range(start, start + length)
                if missing < 0:
                    found.append((tuple(base + q % 13 for q in positions), None))
                # The joker may stand for the missing card, or for any card the hand holds.
                for joker_at in ([missing] if missing >= 0 else positions if jokers else ()):
                    found.append((tuple(JOKER if q == joker_at else base + q % 13
                                        for q in positions), base + joker_at % 13))
    result = _SUIT_MELDS[(suit, pattern, key)] = tuple(found)
    return result


def _rank_sets(rank: int, column: int, key: _MeldKey) -> tuple[MeldOption, ...]:
    """The sets one rank's held suits make (memoised)."""
    cached = _RANK_SETS.get((rank, column, key))
    if cached is not None:
        return cached
    _, _, seven_set_extend, jokers = key
    held = [s * 13 + rank for s in range(4) if (column >> s) & 1]
    k = len(held)
    found: list[MeldOption] = []
    top = 3 if rank == SEVEN and not seven_set_extend else 4
    for size in range(3, min(k, top) + 1):
        found.extend((combo, None) for combo in combinations(held, size))
    if jokers:
        for size in range(2, min(k, top - 1) + 1):
            found.extend(((*combo, JOKER), None) for combo in combinations(held, size))
    result = _RANK_SETS[(rank, column, key)] = tuple(found)
    return result


def find_melds(mask: int, jokers: int, rules: Rules) -> list[MeldOption]:
    """Every new meld the hand (``mask`` of naturals, ``jokers`` count) can lay down.

    Each is ``(cards, joker_as)`` with cards in meld order; sets with a joker leave it unnamed.
    """
    key = (rules.wrap_runs, 4 if rules.glenn_melds else 13, rules.seven_set_extend,
           1 if jokers else 0)
    found: list[MeldOption] = []
    for suit in range(4):
        pattern = (mask >> (suit * 13)) & 0x1FFF
        if pattern:
            found.extend(_suit_melds(suit, pattern, key))
    s0, s1, s2, s3 = mask & 0x1FFF, (mask >> 13) & 0x1FFF, (mask >> 26) & 0x1FFF, mask >> 39
    if jokers:
        ranks = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    else:
        ranks = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
    while ranks:
        low = ranks & -ranks
        rank = low.bit_length() - 1
        ranks ^= low
        found.extend(_rank_sets(rank, _column(mask, rank), key))
    return found


TakeOption = tuple[tuple[int, ...], int | None]
_TAKES: Final[dict[tuple[int, int, int, int, bool], tuple[TakeOption, ...]]] = {}


def find_takes(mask: int, jokers: int, card: int, rules: Rules) -> list[TakeOption]:
    """The ways to take ``card`` into a new three-card meld with two cards from the hand."""
    return list(_find_takes(mask, jokers, card, rules))


def may_take(mask: int, jokers: int, card: int, rules: Rules) -> bool:
    """Whether the hand can take ``card`` into a new meld at all (a claim window's question)."""
    return bool(_find_takes(mask, jokers, card, rules))


def _find_takes(mask: int, jokers: int, card: int, rules: Rules) -> tuple[TakeOption, ...]:
    if card == JOKER:
        return ()
    rank, suit = card % 13, card // 13
    j = 1 if jokers else 0
    pattern = (mask >> (suit * 13)) & 0x1FFF
    # Only the two ranks either side of the card matter for its runs (cyclically).
    window = ((pattern | (pattern << 13)) >> ((rank - 2) % 13)) & 0x1F
    key = (card, window, _column(mask, rank), j, rules.wrap_runs)
    cached = _TAKES.get(key)
    if cached is None:
        cached = _TAKES[key] = tuple(_takes(mask & ~(1 << card), j, card, rules.wrap_runs))
    return cached


def _takes(mask: int, jokers: int, card: int, wrap: bool) -> list[TakeOption]:
    rank, suit = card % 13, card // 13
    options: list[TakeOption] = []
    held = [s * 13 + rank for s in range(4) if s != suit and (mask >> (s * 13 + rank)) & 1]
    for pair in combinations(held, 2):
        options.append((pair, None))
    if jokers:
        for c in held:
            options.append(((c, JOKER), None))
    positions = [rank] if wrap or rank != 0 else [0, 13]
    seen: set[tuple[int, ...]] = set()
    for p in positions:
        for lo in (p - 2, p - 1, p):
            window = [lo, lo + 1, lo + 2]
            if not wrap and (lo < 0 or lo + 2 > 13):
                continue
            others = [make_card(q % 13, suit) for q in window if q != p]
            key = tuple(sorted(others))
            if key in seen:
                continue
            seen.add(key)
            have = [(mask >> c) & 1 for c in others]
            if all(have):
                options.append(((others[0], others[1]), None))
                if jokers:  # the joker may stand for a card the hand holds
                    options.append(((others[0], JOKER), others[1]))
                    options.append(((others[1], JOKER), others[0]))
            elif jokers and any(have):
                natural = others[0] if have[0] else others[1]
                missing = others[1] if have[0] else others[0]
                options.append(((natural, JOKER), missing))
    return options


AddOption = tuple[int, int, int | None]


def find_adds(mask: int, jokers: int, table: Sequence[Meld], rules: Rules) -> list[AddOption]:
    """Every ``(card, meld_id, joker_as)`` the hand can add to the table's melds."""
    options: list[AddOption] = []
    for meld in table:
        if meld.kind == MeldKind.SET:
            if len(meld.cards) >= 4 or (meld.rank == SEVEN and not rules.seven_set_extend):
                continue
            taken = {f // 13 for f in meld.faces if f >= 0}
            for s in range(4):
                c = s * 13 + meld.rank
                if s not in taken and (mask >> c) & 1:
                    options.append((c, meld.id, None))
            if jokers and not meld.has_joker:
                options.append((JOKER, meld.id, None))
            continue
        if meld.kind == MeldKind.SEVEN:
            targets = [make_card(SEVEN - 1, meld.suit), make_card(SEVEN + 1, meld.suit)]
        else:
            if rules.glenn_melds and len(meld.cards) >= 4:
                continue
            targets = sorted({_position_card(p, meld.suit) for p in _end_positions(meld, rules)})
        for c in targets:
            if (mask >> c) & 1:
                options.append((c, meld.id, None))
            if jokers and not meld.has_joker:
                options.append((JOKER, meld.id, c))
    return options


def iter_units(mask: int, rules: Rules) -> Iterator[tuple[int, ...]]:
    """Three-card sets and runs (no sevens) within ``mask``: the drop-out compensation units."""
    for rank in range(13):
        if rank == SEVEN:
            continue
        held = [s * 13 + rank for s in range(4) if (mask >> (s * 13 + rank)) & 1]
        yield from combinations(held, 3)
    for suit in range(4):
        for start in range(13 if rules.wrap_runs else 12):
            cards = tuple(make_card((start + i) % 13, suit) for i in range(3))
            if all((mask >> c) & 1 for c in cards) and not any(c % 13 == SEVEN for c in cards):
                yield cards


def count_units(mask: int, rules: Rules) -> int:
    """Most disjoint units in a hand: each natural seven, plus three-card sets and runs."""
    sevens = sum(1 for s in range(4) if (mask >> (s * 13 + SEVEN)) & 1)
    rest = mask & ~sum(1 << (s * 13 + SEVEN) for s in range(4))
    units = list(iter_units(rest, rules))

    def best(available: int, i: int) -> int:
        top = 0
        for j in range(i, len(units)):
            m = sum(1 << c for c in units[j])
            if available & m == m:
                top = max(top, 1 + best(available & ~m, j + 1))
        return top

    return sevens + best(rest, 0)
