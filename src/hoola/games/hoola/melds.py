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

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, permutations
from typing import Final, Generic, TypeVar

from hoola.core.cards import JOKER, SEVEN, format_cards, make_card
from hoola.core.errors import IllegalActionError
from hoola.games.hoola.meld import AddOption, Branch, Meld, MeldKind, face_name
from hoola.games.hoola.rules import Rules

__all__ = ["AddOption", "Branch", "Meld", "MeldKind", "extend_meld", "find_adds", "find_melds",
           "find_takes", "new_meld"]


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


def _cannot_add(card: int, joker_as: int | None, meld: Meld, why: str,
                code: str) -> IllegalActionError:
    return _illegal(f"cannot add {face_name(card, joker_as)} on m{meld.id}: {why}", code)


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
    return ends


# -- new melds ----------------------------------------------------------------------------------

def new_meld(cards: Sequence[int], joker_as: int | None, rules: Rules, *, owner: int,
             meld_id: int) -> Meld:
    """Check ``cards`` (jokers as JOKER, the joker standing for ``joker_as``) as a new meld.

    Raises :class:`IllegalActionError` naming the rule when they are not one.
    """
    # The cards' text is made only for an error (this runs for every meld laid).
    naturals = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(naturals)
    if len(set(naturals)) != len(naturals):
        raise _illegal(f"cannot meld {format_cards(cards)}: a card is named twice",
                       "duplicate-card")
    if jokers > 1:
        raise _illegal(f"cannot meld {format_cards(cards)}: at most one joker may be used in a "
                       "meld", "two-jokers-in-meld")
    if len(cards) == 1:
        if jokers:
            raise _illegal("cannot meld JK alone: a joker is never melded as a lone seven",
                           "lone-joker")
        if naturals[0] % 13 != SEVEN:
            raise _illegal(f"cannot meld {format_cards(cards)} alone: only a seven may be melded "
                           "as a single card", "meld-too-short")
        return Meld(meld_id, owner, MeldKind.SEVEN, tuple(cards), tuple(cards),
                    rank=SEVEN, suit=naturals[0] // 13)
    if len(cards) < 3:
        raise _illegal(f"cannot meld {format_cards(cards)}: a new meld is a set or run of three or "
                       "more cards, or a lone seven", "meld-too-short")
    if rules.glenn_melds and len(cards) > 4:
        raise _illegal(f"cannot meld {format_cards(cards)}: with Glenn's melds no meld holds more "
                       "than four cards", "meld-too-long")
    ranks = {c % 13 for c in naturals}
    if len(ranks) == 1:
        return _new_set(cards, naturals, joker_as, rules, owner, meld_id)
    if len({c // 13 for c in naturals}) == 1:
        return _new_run(cards, naturals, ranks, joker_as, rules, owner, meld_id)
    raise _illegal(f"cannot meld {format_cards(cards)}: the cards are neither of one rank nor of "
                   "one suit", "not-a-meld")


# The melds listed moves make, by their cards and the rules new_meld reads: made again with
# their own id and owner (listed_meld).
_LISTED: Final[dict[tuple[tuple[int, ...], int | None, bool, bool, bool], Meld]] = {}


def listed_meld(cards: tuple[int, ...], joker_as: int | None, rules: Rules, *, owner: int,
                meld_id: int) -> Meld:
    """:func:`new_meld` of cards a legal list offered (so known to make a meld), remembered by
    the cards: the checks run once for each meld, not each time it is laid."""
    key = (cards, joker_as, rules.wrap_runs, rules.glenn_melds, rules.seven_set_extend)
    made = _LISTED.get(key)
    if made is None:
        made = _LISTED[key] = new_meld(cards, joker_as, rules, owner=0, meld_id=0)
    return Meld(meld_id, owner, made.kind, made.cards, made.faces, made.rank, made.suit,
                made.start, made.direction)


def _new_set(cards: Sequence[int], naturals: list[int], joker_as: int | None, rules: Rules,
             owner: int, meld_id: int) -> Meld:
    rank = naturals[0] % 13
    if len(cards) > 4:
        raise _illegal(f"cannot meld {format_cards(cards)}: a set has at most four cards",
                       "set-too-long")
    if rank == SEVEN and len(cards) == 4 and not rules.seven_set_extend:
        raise _illegal(f"cannot meld {format_cards(cards)}: a set of sevens takes no fourth "
                       "seven (meld it alone)", "seven-set-closed")
    faces = list(cards)
    if JOKER in cards:
        face = -1
        if joker_as is not None:
            if joker_as % 13 != rank or joker_as in naturals:
                raise _illegal(f"cannot meld {format_cards(cards)}: the joker must stand for a "
                               "missing card of the set's rank", "bad-joker-card")
            face = joker_as
        faces[list(cards).index(JOKER)] = face
    if rules.glenn_melds:  # ruling 21: the set lies as written, its top card the last
        return Meld(meld_id, owner, MeldKind.SET, tuple(cards), tuple(faces), rank=rank)
    ordered = sorted(range(len(cards)), key=lambda i: (cards[i] == JOKER, cards[i]))
    return Meld(meld_id, owner, MeldKind.SET, tuple(cards[i] for i in ordered),
                tuple(faces[i] for i in ordered), rank=rank)


def _new_run(cards: Sequence[int], naturals: list[int], ranks: set[int], joker_as: int | None,
             rules: Rules, owner: int, meld_id: int) -> Meld:
    suit = naturals[0] // 13
    if JOKER in cards:
        if joker_as is None:
            fits = [r for r in range(13) if r not in ranks and _run_start(ranks | {r}, rules)
                    is not None]
            if len(fits) != 1:
                raise _illegal(f"cannot meld {format_cards(cards)}: name the card the joker "
                               "stands for (such as JK=8h)", "joker-unnamed")
            joker_as = make_card(fits[0], suit)
        if joker_as // 13 != suit or joker_as % 13 in ranks:
            raise _illegal(f"cannot meld {format_cards(cards)}: the joker must stand for a "
                           "missing card of the run's suit", "bad-joker-card")
        ranks = ranks | {joker_as % 13}
    start = _run_start(ranks, rules)
    if start is None:
        why = " (runs do not turn the corner here)" if not rules.wrap_runs else ""
        raise _illegal(f"cannot meld {format_cards(cards)}: the cards are not consecutive in "
                       f"their suit{why}", "not-a-run")
    faces = [joker_as if c == JOKER else c for c in cards]
    if rules.glenn_melds:  # ruling 21: the run lies as written, its top card the last
        return Meld(meld_id, owner, MeldKind.RUN, tuple(cards), tuple(faces),  # type: ignore[arg-type]
                    suit=suit, start=start, direction=1)
    order = _run_faces_order([f if f is not None else 0 for f in faces], start)
    return Meld(meld_id, owner, MeldKind.RUN, tuple(cards[i] for i in order),
                tuple(faces[i] for i in order),  # type: ignore[misc]
                suit=suit, start=start)


# -- adding to melds ----------------------------------------------------------------------------

def extend_meld(meld: Meld, card: int, joker_as: int | None, rules: Rules) -> Meld:
    """The meld with ``card`` added (a joker standing for ``joker_as``), or an error.

    With Glenn's building the card is built on the top card (:func:`hoola.games.hoola.glenn.build`):
    the meld returned may hold a part of four cards, which :func:`is_killed` tells.
    """
    if rules.glenn_melds:
        from hoola.games.hoola.glenn import build  # glenn builds on this module's melds

        return build(meld, card, joker_as, rules)
    if card == JOKER and meld.has_joker:
        raise _illegal(f"cannot add JK on m{meld.id}: a meld holds at most one joker",
                       "two-jokers-in-meld")
    if meld.kind == MeldKind.SET:
        if len(meld.cards) >= 4:
            raise _cannot_add(card, joker_as, meld, "the set already has four cards", "meld-full")
        if meld.rank == SEVEN and not rules.seven_set_extend:
            raise _cannot_add(card, joker_as, meld, "a set of sevens takes no fourth seven (meld "
                              "it alone)", "seven-set-closed")
        taken = {f // 13 for f in meld.faces if f >= 0}
        face = card if card != JOKER else (-1 if joker_as is None else joker_as)
        if face >= 0 and (face % 13 != meld.rank or face // 13 in taken):
            raise _cannot_add(card, joker_as, meld, "a set takes only a missing card of its rank"
                              + _building_hint(meld, face), "does-not-fit")
        return _grown(meld, (*meld.cards, card), (*meld.faces, face), meld.start)
    if meld.kind == MeldKind.SEVEN:
        suit = meld.suit
        allowed = {make_card(SEVEN - 1, suit): -1, make_card(SEVEN + 1, suit): 1}
        named = card if card != JOKER else joker_as
        if named is None:
            raise _illegal("cannot add JK on a lone seven without naming it (JK=6x or JK=8x)",
                           "joker-unnamed")
        face = named
        if face not in allowed:
            raise _cannot_add(card, joker_as, meld, "a lone seven takes only the 6 or 8 of its "
                              "suit", "does-not-fit")
        below = allowed[face] < 0
        cards = (card, meld.cards[0]) if below else (meld.cards[0], card)
        faces = (face, meld.faces[0]) if below else (meld.faces[0], face)
        return Meld(meld.id, meld.owner, MeldKind.RUN, cards, faces, suit=suit,
                    start=SEVEN - 1 if below else SEVEN)
    ends = _end_positions(meld, rules)
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
        raise _cannot_add(card, joker_as, meld, "a run takes only the next card of its suit at "
                          "either end" + _building_hint(meld, face), "does-not-fit")
    position = cards_at[face]
    n = len(meld.cards)
    if position == ((meld.start + n) % 13 if rules.wrap_runs else meld.start + n):
        return _grown(meld, (*meld.cards, card), (*meld.faces, face), meld.start)
    start = position if not rules.wrap_runs else position % 13
    return _grown(meld, (card, *meld.cards), (face, *meld.faces), start)


def _grown(meld: Meld, cards: tuple[int, ...], faces: tuple[int, ...], start: int) -> Meld:
    """``meld`` with new cards (``dataclasses.replace`` without its cost: this runs per add)."""
    return Meld(meld.id, meld.owner, meld.kind, cards, faces, meld.rank, meld.suit, start,
                meld.direction)


def _building_hint(meld: Meld, face: int | None) -> str:
    """What a refusal adds when the card could be built on the meld under Glenn's building: a
    run on a set's card (the next card up in its suit; any of them may lie on top), a set on a
    run's top card (its rank in another suit; a run's top card is its highest)."""
    if face is None or face < 0:
        return ""
    if meld.kind == MeldKind.SET and any(f >= 0 and f // 13 == face // 13
                                         and (f + 1) % 13 == face % 13 for f in meld.faces):
        return ("; building a run on a set's top card is Glenn's building (glenn_melds, "
                "ruling 21)")
    if meld.kind == MeldKind.RUN and meld.faces[-1] % 13 == face % 13:
        return ("; building a set on a run's top card is Glenn's building (glenn_melds, "
                "ruling 21)")
    return ""


def is_killed(meld: Meld, rules: Rules) -> bool:
    """Glenn's melds: whether the meld's open part (the whole meld, or the branch started last
    on it) has reached four cards, so that it is killed (:func:`hoola.games.hoola.glenn.kill`)."""
    if not rules.glenn_melds:
        return False
    return len(meld.cards) - (meld.branches[-1].at if meld.branches else 0) >= 4


# -- finding ------------------------------------------------------------------------------------

MeldOption = tuple[tuple[int, ...], int | None]


def _column(mask: int, rank: int) -> int:
    """The four suits' bits of one rank in a mask, as a 4-bit number."""
    return ((mask >> rank) & 1) | ((mask >> (rank + 12)) & 2) | ((mask >> (rank + 24)) & 4) \
        | ((mask >> (rank + 36)) & 8)


MeldKey = tuple[bool, int, bool, int]
T = TypeVar("T")

# A hand's new melds come from slots: a suit's 13-bit pattern (its runs and lone sevens) at
# ``suit << 13 | pattern`` (as core.cards.BySuit), and a rank's held suits (its sets) at
# ``rank << 4 | column``. What a slot holds depends on it and the rules' meld key alone, so it is
# worked out once and looked up by index after.
RUN_SLOTS: Final = 4 << 13
SET_SLOTS: Final = 13 << 4


def meld_key(rules: Rules, jokers: int) -> MeldKey:
    """What new melds depend on besides the hand: wrapping runs, the longest meld, sevens'
    sets of four, and whether a joker is held."""
    return (rules.wrap_runs, 4 if rules.glenn_melds else 13, rules.seven_set_extend,
            1 if jokers else 0)


class MeldTable(Generic[T]):
    """The new melds of every slot, each made into what the caller lists (``make``), filled in as
    hands ask for them; and after each suit's runs, what ``per_suit`` makes of the suit's
    pattern, if given (a caller listing more per suit looks each suit up once). With ``orders``
    (Glenn's building, where a meld lies as written) a meld of three comes in every order."""

    __slots__ = ("key", "make", "orders", "per_suit", "runs", "sets")

    def __init__(self, key: MeldKey, make: Callable[[MeldOption], T],
                 per_suit: Callable[[int, int], tuple[T, ...]] | None = None,
                 orders: bool = False) -> None:
        self.key = key
        self.make = make
        self.per_suit = per_suit
        self.orders = orders
        self.runs: list[tuple[T, ...] | None] = [None] * RUN_SLOTS
        self.sets: list[tuple[T, ...] | None] = [None] * SET_SLOTS

    def _runs(self, suit: int, pattern: int) -> tuple[T, ...]:
        options = _suit_melds(suit, pattern, self.key)
        if self.orders:
            options = written_orders(options)
        runs = tuple(self.make(o) for o in options)
        return runs if self.per_suit is None else runs + self.per_suit(suit, pattern)

    def add(self, mask: int, found: list[T]) -> None:
        """Append every new meld a hand (``mask`` of naturals, with jokers if the key says so)
        holds to ``found``: each suit's runs (and ``per_suit``'s), then the sets."""
        s0, s1, s2, s3 = mask & 0x1FFF, (mask >> 13) & 0x1FFF, (mask >> 26) & 0x1FFF, mask >> 39
        runs = self.runs
        for slot in (s0, 0x2000 | s1, 0x4000 | s2, 0x6000 | s3):
            if slot & 0x1FFF:
                got = runs[slot]
                if got is None:
                    got = runs[slot] = self._runs(slot >> 13, slot & 0x1FFF)
                found.extend(got)
        if self.key[3]:
            ranks = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
        else:
            ranks = (s0 & s1 & (s2 | s3)) | ((s0 | s1) & s2 & s3)
        sets = self.sets
        while ranks:
            low = ranks & -ranks
            rank = low.bit_length() - 1
            ranks ^= low
            slot = (rank << 4) | _column(mask, rank)
            got = sets[slot]
            if got is None:
                options = _rank_sets(rank, slot & 15, self.key)
                if self.orders:
                    options = written_orders(options)
                got = sets[slot] = tuple(self.make(o) for o in options)
            found.extend(got)


# What _suit_melds and _rank_sets found, for every seat's table to share.
_SUIT_MELDS: Final[dict[tuple[int, int, MeldKey], tuple[MeldOption, ...]]] = {}
_RANK_SETS: Final[dict[tuple[int, int, MeldKey], tuple[MeldOption, ...]]] = {}


def _suit_melds(suit: int, pattern: int, key: MeldKey) -> tuple[MeldOption, ...]:
    """Lone sevens and runs within one suit's 13-bit pattern."""
    found = _SUIT_MELDS.get((suit, pattern, key))
    if found is None:
        found = _SUIT_MELDS[(suit, pattern, key)] = tuple(_find_suit_melds(suit, pattern, key))
    return found


def _rank_sets(rank: int, column: int, key: MeldKey) -> tuple[MeldOption, ...]:
    """The sets one rank's held suits (``column``, a bit per suit) make."""
    found = _RANK_SETS.get((rank, column, key))
    if found is None:
        found = _RANK_SETS[(rank, column, key)] = tuple(_find_rank_sets(rank, column, key))
    return found


def _find_suit_melds(suit: int, pattern: int, key: MeldKey) -> list[MeldOption]:
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
    return found


def _find_rank_sets(rank: int, column: int, key: MeldKey) -> list[MeldOption]:
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
    return found


def written_orders(options: Sequence[MeldOption]) -> tuple[MeldOption, ...]:
    """Melds of three in every order (Glenn's building: the last card written is the top card);
    a meld of four is killed as it is laid, and a lone seven has one card, so their order does
    not matter."""
    found: list[MeldOption] = []
    for cards, joker_as in options:
        if len(cards) == 3:
            found.extend((order, joker_as) for order in permutations(cards))
        else:
            found.append((cards, joker_as))
    return tuple(found)


def _same(option: MeldOption) -> MeldOption:
    return option


_OPTION_TABLES: Final[dict[MeldKey, MeldTable[MeldOption]]] = {}


def find_melds(mask: int, jokers: int, rules: Rules) -> list[MeldOption]:
    """Every new meld the hand (``mask`` of naturals, ``jokers`` count) can lay down.

    Each is ``(cards, joker_as)`` with cards in meld order; sets with a joker leave it unnamed.
    """
    key = meld_key(rules, jokers)
    table = _OPTION_TABLES.get(key)
    if table is None:
        table = _OPTION_TABLES[key] = MeldTable(key, _same)
    found: list[MeldOption] = []
    table.add(mask, found)
    return found


TakeOption = tuple[tuple[int, ...], int | None]
TakeKey = tuple[int, int, int, int, bool]
_TAKES: Final[dict[TakeKey, tuple[TakeOption, ...]]] = {}


def find_takes(mask: int, jokers: int, card: int, rules: Rules) -> list[TakeOption]:
    """The ways to take ``card`` into a new three-card meld with two cards from the hand."""
    return list(_find_takes(mask, jokers, card, rules))


def _take_masks(card: int, wrap: bool) -> tuple[int, int, int, bytes, bytes]:
    """What a hand needs to take ``card``: two of the rank's other suits (``same``), or both
    cards of a pair beside it in its suit (K A 2 only where runs wrap), or with a joker one of
    the other suits or one card of such a pair. The pairs are read from the five ranks around
    the card in its suit (a window, the card in the middle, looked up by its 5 bits): ``runs``
    says whether a window holds a pair, ``near`` whether it holds a card of one. Returned with
    the shifts that take the suit's pattern out of a mask and the window out of the pattern."""
    rank, suit = card % 13, card // 13
    same = sum(1 << (s * 13 + rank) for s in range(4) if s != suit)
    pairs = []
    for low in (-2, -1, 1):  # the pair's ranks: (-2, -1), (-1, +1), (+1, +2) from the card
        ranks = (low, low + 1) if low != -1 else (-1, 1)
        if not wrap and {(rank + d) % 13 for d in (0, *ranks)} == {12, 0, 1}:
            continue
        pairs.append(sum(1 << (2 + d) for d in ranks))  # bits of the window
    runs = bytes(any(w & pair == pair for pair in pairs) for w in range(32))
    near = bytes(any(w & pair for pair in pairs) for w in range(32))
    return same, suit * 13, (rank - 2) % 13, runs, near


# _take_masks of every card, without wrapping runs and with.
_TAKE_MASKS: Final = tuple(tuple(_take_masks(card, wrap) for wrap in (False, True))
                           for card in range(JOKER))


def may_take(mask: int, jokers: int, card: int, rules: Rules) -> bool:
    """Whether the hand can take ``card`` into a new meld at all (a claim window's question,
    asked of every seat after every discard: answered by masks, ``bool(find_takes(...))``)."""
    if card == JOKER:
        return False
    same, suit_shift, window_shift, runs, near = _TAKE_MASKS[card][1 if rules.wrap_runs else 0]
    held = (mask & same).bit_count()
    if held >= 2 or (held and jokers):
        return True
    pattern = (mask >> suit_shift) & 0x1FFF  # the card's suit, then the ranks around it
    window = ((pattern | (pattern << 13)) >> window_shift) & 0x1F  # (cyclically)
    return bool(runs[window] or (jokers and near[window]))


def _take_key(mask: int, jokers: int, card: int, wrap: bool) -> TakeKey:
    """What the ways to take natural ``card`` depend on: the card, the two ranks either side of
    it in its suit (cyclically), its rank's other suits held, a joker held or not, wrapping."""
    rank, suit = card % 13, card // 13
    pattern = (mask >> (suit * 13)) & 0x1FFF
    window = ((pattern | (pattern << 13)) >> ((rank - 2) % 13)) & 0x1F
    return card, window, _column(mask, rank), 1 if jokers else 0, wrap


def _find_takes(mask: int, jokers: int, card: int, rules: Rules) -> tuple[TakeOption, ...]:
    if card == JOKER:
        return ()
    key = _take_key(mask, jokers, card, rules.wrap_runs)
    cached = _TAKES.get(key)
    if cached is None:
        cached = _TAKES[key] = tuple(_takes(mask & ~(1 << card), key[3], card, key[4]))
    return cached


class TakeTable(Generic[T]):
    """The ways to take a card (:func:`find_takes`), each made into what the caller lists
    (``make(card, option)``), by what they depend on, filled in as hands ask for them. With
    ``orders`` (Glenn's building) the two cards from hand come in both orders."""

    __slots__ = ("made", "make", "orders")

    def __init__(self, make: Callable[[int, TakeOption], T], orders: bool = False) -> None:
        self.make = make
        self.orders = orders
        self.made: dict[TakeKey, tuple[T, ...]] = {}

    def add(self, mask: int, jokers: int, card: int, rules: Rules, found: list[T]) -> None:
        """Append the ways the hand can take ``card`` to ``found``."""
        if card == JOKER:
            return
        key = _take_key(mask, jokers, card, rules.wrap_runs)
        got = self.made.get(key)
        if got is None:
            make = self.make
            options = _find_takes(mask, jokers, card, rules)
            if self.orders:
                options = _take_orders(card, options)
            got = self.made[key] = tuple(make(card, o) for o in options)
        found.extend(got)


def _take_orders(card: int, options: Sequence[TakeOption]) -> tuple[TakeOption, ...]:
    """The ways to take ``card`` with two cards from hand in both orders (Glenn's building: the
    last card written is the meld's top card)."""
    found: list[TakeOption] = []
    for pair, joker_as in options:
        found.append((pair, joker_as))
        if pair[0] != pair[1]:
            found.append(((pair[1], pair[0]), joker_as))
    return tuple(found)


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


AddTargets = tuple[tuple[AddOption, ...], int]


# What each meld of a table takes (meld_targets), by id(meld) with the meld itself, so that a
# caller keeping them sees a meld object it has met before and works out only the new ones.
KnownTargets = dict[int, tuple[Meld, tuple[AddOption, ...]]]


def add_targets(table: Sequence[Meld], rules: Rules,
                known: KnownTargets | None = None) -> AddTargets:
    """What any hand could add to the table's melds: every ``(card, meld_id, joker_as)`` in the
    order :func:`find_adds` lists them (a joker as ``JOKER``), and the mask of the natural cards
    among them. It depends on the table alone, so a caller may keep it while the table stands,
    and pass ``known`` (filled in here) to reuse what melds it has seen before take."""
    options: list[AddOption] = []
    for meld in table:
        if known is None:
            options.extend(meld_targets(meld, rules))
            continue
        seen = known.get(id(meld))
        if seen is None or seen[0] is not meld:
            seen = known[id(meld)] = (meld, meld_targets(meld, rules))
        options.extend(seen[1])
    mask = 0
    for c, _, _ in options:
        if c != JOKER:
            mask |= 1 << c
    return tuple(options), mask


def meld_targets(meld: Meld, rules: Rules) -> tuple[AddOption, ...]:
    """What one meld takes, in :func:`add_targets`' order."""
    if rules.glenn_melds:
        from hoola.games.hoola.glenn import targets as top_targets  # glenn builds on melds

        return top_targets(meld, rules)
    if meld.kind == MeldKind.SET:
        if len(meld.cards) >= 4 or (meld.rank == SEVEN and not rules.seven_set_extend):
            return ()
        taken = {f // 13 for f in meld.faces if f >= 0}
        options: list[AddOption] = [(s * 13 + meld.rank, meld.id, None) for s in range(4)
                                    if s not in taken]
        if not meld.has_joker:
            options.append((JOKER, meld.id, None))
        return tuple(options)
    if meld.kind == MeldKind.SEVEN:
        targets = [make_card(SEVEN - 1, meld.suit), make_card(SEVEN + 1, meld.suit)]
    else:
        targets = sorted({_position_card(p, meld.suit) for p in _end_positions(meld, rules)})
    options = []
    for c in targets:
        options.append((c, meld.id, None))
        if not meld.has_joker:
            options.append((JOKER, meld.id, c))
    return tuple(options)


def adds_from(targets: AddTargets, mask: int, jokers: int) -> list[AddOption]:
    """The options of :func:`add_targets` a hand (``mask`` of naturals, ``jokers``) can play."""
    options, natural = targets
    if jokers:
        return [o for o in options if o[0] == JOKER or (mask >> o[0]) & 1]
    if not mask & natural:
        return []
    return [o for o in options if o[0] != JOKER and (mask >> o[0]) & 1]


def find_adds(mask: int, jokers: int, table: Sequence[Meld], rules: Rules) -> list[AddOption]:
    """Every ``(card, meld_id, joker_as)`` the hand can add to the table's melds."""
    return adds_from(add_targets(table, rules), mask, jokers)


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
