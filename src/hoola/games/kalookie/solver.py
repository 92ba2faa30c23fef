"""Can the turn still end legally? The search behind rulings 5, 7, 8 and 9.

A move that leaves the player with an obligation (an initial meld to complete, a released joker
to lay, a taken discard to lay, a kalookie to finish) is allowed only when some way to meet it
remains. :func:`can_finish` searches the hand for one: new melds from hand and builds on the
table, each card of the hand used once, jokers anywhere they fit, one card (two when the player
may not call up) kept for the discard. The search takes the lowest card left and tries every meld
and build holding it, or keeps it; positions reached again are remembered.

It does not consider releasing further jokers (a release only adds a joker to lay), and it never
puts a joker where the hand holds the natural card: exchanging the two gives the same melds, unless
that card was the only natural card of its other meld (a rare loss, accepted for speed).

>>> from hoola.games.kalookie.cards import counts_of, parse_tokens
>>> from hoola.games.kalookie.rules import Rules
>>> hand = counts_of(parse_tokens("Ks Kh Kd 9c Tc Jc 2d"))
>>> can_finish(Goal(need=40), hand[:52], 0, (), Rules.preset("british"))
True
>>> can_finish(Goal(need=70), hand[:52], 0, (), Rules.preset("british"))
False
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from hoola.core.cards import JOKER, make_card
from hoola.core.errors import IllegalActionError
from hoola.games.kalookie.cards import hand_code
from hoola.games.kalookie.melds import (
    JOKER_SET_VALUE,
    Meld,
    card_at,
    meld_value,
    new_meld,
    position_value,
    positions_of,
)
from hoola.games.kalookie.rules import Rules

__all__ = ["UNLIMITED", "Goal", "Slot", "can_finish", "can_lay", "code_bound", "is_plain",
           "lay_of", "meld_bound", "table_bound", "takes_jokers"]

UNLIMITED: Final = 99


@dataclass(frozen=True, slots=True)
class Goal:
    """What the rest of the turn must achieve.

    ``need``: points still missing from the initial meld (0 once made); ``builds_count``: builds
    count toward it; ``need_meld``: a new meld must still be laid (``made``: one already is);
    ``must_lay``: a card one copy of which must be laid; ``loose``: released jokers to lay;
    ``min_left``/``exact_left``: cards left in hand for the discard; ``builds``: whether building
    is possible at all in the rest of the turn.
    """

    need: int = 0
    builds_count: bool = False
    made: bool = False
    need_meld: bool = False
    must_lay: int | None = None
    loose: int = 0
    min_left: int = 1
    exact_left: int | None = None
    builds: bool = True


@dataclass(frozen=True, slots=True)
class Slot:
    """A meld on the table as a place to build: how many cards each end (and in all) may take."""

    meld: Meld
    low_cap: int = UNLIMITED
    high_cap: int = UNLIMITED
    total_cap: int = UNLIMITED


_Item = tuple[tuple[int, ...], int, int, int]  # naturals, jokers, value, slot index (-1: new)


def can_finish(goal: Goal, counts: Sequence[int], jokers: int, slots: Sequence[Slot],
               rules: Rules) -> bool:
    """Whether ``goal`` can be met from a hand of ``counts`` and ``jokers`` (loose included)."""
    if is_plain(goal):
        return can_lay(goal.need, goal.min_left, hand_code(counts), jokers, rules)
    must = goal.must_lay
    if must is not None and must < JOKER and counts[must] \
            and _cannot_lay(must, hand_code(counts), jokers, slots if goal.builds else (), rules):
        return False  # the taken card has nowhere to go
    if goal.need > 0 and goal.builds:
        code = hand_code(counts)
        if not goal.loose and goal.must_lay is None and goal.exact_left is None \
                and can_lay(goal.need, goal.min_left, code, jokers, rules):
            return True  # new melds alone make the points (and a new meld is made)
        if _lay_bound(code, jokers, slots, rules) < goal.need:
            return False
    if not goal.need and not goal.need_meld and goal.must_lay is None \
            and goal.exact_left is None:
        # Nothing owed but jokers to lay: keeping every card is one way the search ends (its
        # last), and usually a way that works (a released joker goes on the table's melds).
        # Tried before the search is set up (which looks up what it learnt on this table).
        kept = min(sum(counts[c] for c in range(52)), 3)
        if goal.loose and kept + jokers - goal.loose >= goal.min_left and goal.builds \
                and any(takes_jokers(slot, goal.loose, rules) for slot in slots):
            return True  # the loose jokers on one meld: a leaf the search would accept
        search = _Search(goal, jokers, slots, rules)
        if search.finish(jokers, kept):
            return True
        return search.run(counts)
    return _Search(goal, jokers, slots, rules).run(counts)


def table_bound(counts: Sequence[int], jokers: int, melds: Sequence[Meld], rules: Rules) -> int:
    """At least the points new melds from a hand and builds on the table's ``melds`` could make
    (build limits aside): :func:`meld_bound`, and each card fitting no new meld at its highest
    worth if some meld of the table could take it."""
    return _lay_bound(hand_code(counts), jokers, [Slot(m) for m in melds], rules)


def _lay_bound(code: int, jokers: int, slots: Sequence[Slot], rules: Rules) -> int:
    """At least the points a hand could lay in new melds and builds on ``slots``: the new
    melds' bound (:func:`meld_bound`), and each other card at its highest worth if some meld of
    the table could take it (:func:`_buildable`)."""
    openings = _openings(rules)
    bound, fitting = openings.summary(code, jokers)
    rest = code - fitting
    if not rest or not slots:
        return bound
    buildable = _buildable(code, jokers, slots, openings)
    worth = openings.card_max
    for card, n in enumerate(rest.to_bytes(52, "little")):
        if n and buildable >> card & 1:
            bound += n * worth[card]
    return bound


def _buildable(code: int, jokers: int, slots: Sequence[Slot], openings: _Openings) -> int:
    """The cards, as bits, that some meld of the table could take from the hand: a set lacking
    their suit, or a run of their suit reaching them through cards of the hand and the jokers
    (build limits aside)."""
    held = code.to_bytes(52, "little")
    out = 0
    at = openings.at
    for slot in slots:
        meld = slot.meld
        if meld.kind == "run":
            cards = at[meld.suit]
            gaps = 0
            for q in range(meld.high + 1, 14 if meld.low == 1 else 15):
                out |= 1 << cards[q]
                if not held[cards[q]]:
                    gaps += 1
                    if gaps > jokers:  # no joker left to pass this place
                        break
            gaps = 0
            for q in range(meld.low - 1, max(openings.low_end, 2 if meld.high == 14 else 1) - 1,
                           -1):
                out |= 1 << cards[q]
                if not held[cards[q]]:
                    gaps += 1
                    if gaps > jokers:
                        break
        elif meld.rank >= 0 and not meld.identical and len(meld.tokens) < 4:
            taken = {c // 13 for c in meld.tokens if c < JOKER}
            for suit in range(4):
                if suit not in taken:
                    out |= 1 << make_card(meld.rank, suit)
    return out


def _cannot_lay(card: int, code: int, jokers: int, slots: Sequence[Slot], rules: Rules) -> bool:
    """Whether the natural ``card`` of a hand surely cannot be laid this turn: it fits in no
    new meld of the hand (:func:`meld_bound`'s fit) and no meld of ``slots`` could take it."""
    openings = _openings(rules)
    if openings.summary(code, jokers)[1] >> (8 * card) & 0xFF:
        return False
    return not (slots and _buildable(code, jokers, slots, openings) >> card & 1)


def can_lay(need: int, min_left: int, code: int, jokers: int, rules: Rules) -> bool:
    """:func:`can_finish` of a plain goal (:func:`is_plain`): whether new melds from a hand (its
    :func:`~hoola.games.kalookie.cards.hand_code` and jokers) can make ``need`` points keeping
    ``min_left`` cards."""
    openings = _openings(rules)
    bound, fitting = openings.summary(code, jokers)
    if bound < need:
        return False
    # The cards that fit in no meld can only be kept: they count toward the cards left. (A
    # byte holds a card's copies, three at most: its low bit counts one, the next two.)
    size = (fitting & _LOW).bit_count() + 2 * ((fitting >> 1) & _LOW).bit_count()
    others = (code & _LOW).bit_count() + 2 * ((code >> 1) & _LOW).bit_count() - size
    return openings.most(fitting, size, jokers, max(min_left - others, 0)) >= need


def lay_of(tokens: tuple[int, ...], rules: Rules) -> tuple[int, int, int] | None:
    """A new meld's value, its natural cards as a hand code, and its jokers (None when
    ``tokens`` make no meld), remembered per rules."""
    return _openings(rules).lay(tokens)


def takes_jokers(slot: Slot, k: int, rules: Rules) -> bool:
    """Whether ``k`` jokers can be built on ``slot`` (a set's free suits, a run's ends within
    the build limit), as the search places the jokers it has left."""
    meld = slot.meld
    if meld.kind == "set":
        return not meld.identical and k <= min(4 - len(meld.tokens), slot.total_cap)
    if k > slot.total_cap:
        return False
    low_end = 1 if rules.aces == "high-or-low" else 2
    for low in range(k + 1):
        high = k - low
        lo, hi = meld.low - low, meld.high + high
        if low <= slot.low_cap and high <= slot.high_cap and lo >= low_end and hi <= 14 \
                and not (lo == 1 and hi == 14):
            return True
    return False


def is_plain(goal: Goal) -> bool:
    """Whether ``goal`` asks nothing but points from new melds and cards kept: no loose joker or
    taken card to lay, no build counted, no new meld owed for itself, no exact count of cards.
    The table plays no part in such a goal (:func:`can_finish` ignores its slots)."""
    return goal.loose == 0 and goal.must_lay is None and not goal.builds_count \
        and not goal.need_meld and goal.exact_left is None and goal.min_left <= 3


def meld_bound(counts: Sequence[int], jokers: int, rules: Rules) -> int:
    """At least the points any new melds laid from the hand could make (a quick upper bound).

    Every joker counts its highest worth, and every natural card its highest where it fits in
    some meld with the hand's cards and jokers: a set of its rank (three suits held, or two and
    a joker; three copies under ``identical_sets``) or a run through three consecutive places of
    its suit, gaps filled by the jokers. With two jokers every card fits (a set of it and them).
    """
    return _openings(rules).bound(hand_code(counts), jokers)


def code_bound(code: int, jokers: int, rules: Rules) -> int:
    """:func:`meld_bound` of a hand given by its code (:func:`~.cards.hand_code`)."""
    return _openings(rules).summary(code, jokers)[0]


_MEMO_LIMIT: Final = 1 << 16
_DEAD_LIMIT: Final = 1 << 14  # positions remembered per goal and table
_SUIT: Final = (1 << 104) - 1  # a suit's 13 bytes of a hand's code
_ONES: Final = sum(1 << (8 * rank) for rank in range(13))  # a suit's code, one of each rank
_LOW: Final = sum(1 << (8 * card) for card in range(52))  # a hand's code, one of each card
# The bytes of a suit's code that a mask of its ranks selects, by the mask.
_BYTES: Final = [sum(0xFF << (8 * rank) for rank in range(13) if mask >> rank & 1)
                 for mask in range(1 << 13)]


_LAST: Final[list[tuple[Rules | None, _Openings | None]]] = [(None, None)]


def _openings(rules: Rules) -> _Openings:
    last = _LAST[0]  # one read: another thread may replace it, never half of it
    if last[0] is rules and last[1] is not None:
        return last[1]
    openings = _openings_of(rules)
    _LAST[0] = (rules, openings)
    return openings


@lru_cache(maxsize=64)
def _openings_of(rules: Rules) -> _Openings:
    return _Openings(rules)


class _Openings:
    """The most a hand can lay in new melds, for goals that ask nothing but points and cards kept.

    Such a goal (an initial meld to complete, a card to keep for the discard) gains nothing from
    a build: a build counts no points and spends a card that could as well be kept. So the search
    reduces to new melds and kept cards, and its answer to one number, the most points the hand
    can lay keeping ``r`` cards (jokers included), which depends on the hand alone. That number is
    remembered for every sub-hand met, across the candidates of one listing and across turns: a
    listing asks it for the hand less each candidate meld, and many sub-hands recur. The melds
    tried are the search's own (:class:`_Search`), so the answers are the same.
    """

    def __init__(self, rules: Rules) -> None:
        card_max, joker_max, low_end, values, at = _tables(rules)
        self.rules = rules
        self.lays: dict[tuple[int, ...], tuple[int, int, int] | None] = {}
        self.memo: dict[int, int] = {}
        self.dead: dict[tuple[object, ...], set[tuple[int, ...]]] = {}  # :class:`_Search`'s
        # By jokers (none, one): a suit's code (or the ranks it holds) -> :meth:`_suit`.
        self.suits: tuple[dict[int, tuple[int, int]], ...] = ({}, {})
        self.values_of: dict[int, int] = {}
        self.places: dict[int, int] = {}  # a suit's code -> the run places it holds, as bits
        self.runs: dict[int, tuple[int, ...]] = {}  # a suit's ranks held and reach -> _spans
        self.worth = [rules.card_value(c) for c in range(52)]
        self.positions = [positions_of(c, rules) for c in range(52)]
        self.values = values
        self.at = at
        self.low_end = low_end
        self.identical = rules.identical_sets
        self.joker_sets = rules.joker_sets
        self.card_max = card_max
        self.joker_max = joker_max
        # A rank's places in a run (an ace both ends when aces are high or low), as bits; the
        # three-place windows a run may cover; the cards held in a window, by its 3 bits.
        self.place = [(1 << 14) | ((1 << 1) if low_end == 1 else 0) if rank == 0
                      else 1 << (rank + 1) for rank in range(13)]
        self.windows = list(range(low_end, 13))
        self.popcount = [bin(w).count("1") for w in range(8)]

    def lay(self, tokens: tuple[int, ...]) -> tuple[int, int, int] | None:
        """:func:`lay_of`."""
        lays = self.lays
        known = lays.get(tokens)  # (one look-up, a tuple's hash, for a meld met before)
        if known is not None or tokens in lays:
            return known
        try:
            meld = new_meld(tokens, self.rules, owner=0, meld_id=1)
        except IllegalActionError:
            got = None
        else:
            code = 0
            for t in tokens:
                if t < JOKER:
                    code += 1 << (8 * t)
            got = (meld_value(meld, self.rules), code, sum(1 for t in tokens if t >= JOKER))
        if len(lays) >= _MEMO_LIMIT:
            lays.clear()
        lays[tokens] = got
        return got

    # -- the bound ------------------------------------------------------------------------------

    def bound(self, code: int, jk: int) -> int:
        """:func:`meld_bound` of a hand's code."""
        return self.summary(code, jk)[0]

    def summary(self, code: int, jk: int) -> tuple[int, int]:
        """:func:`meld_bound` of a hand's code, and the code of the cards that fit in a meld.

        A card that fits in no meld is in no meld the search tries, and its presence changes no
        other meld: a run's range holding it would have it as a natural card, so it would fit.
        """
        total = jk * self.joker_max
        # Unrolled by suit: this runs for every hand a listing or a check looks at.
        c0, c1, c2, c3 = code & _SUIT, (code >> 104) & _SUIT, (code >> 208) & _SUIT, code >> 312
        # (Methods and dict look-ups called through self, not bound to locals: compiled by mypyc,
        # a bound method is called as a Python object.)
        if jk >= 2:
            return total + self._value(c0) + self._value(c1) + self._value(c2) \
                + self._value(c3), code
        suits = self.suits[jk]
        a, own_a = suits.get(c0) or self._suit_info(c0, jk)
        b, own_b = suits.get(c1) or self._suit_info(c1, jk)
        c, own_c = suits.get(c2) or self._suit_info(c2, jk)
        d, own_d = suits.get(c3) or self._suit_info(c3, jk)
        if jk:  # a set with a joker needs two suits of the rank, without one three
            sets = a & b | a & c | a & d | b & c | b & d | c & d
        else:
            sets = a & b & c | a & b & d | a & c & d | b & c & d
        known = self.values_of  # (then :meth:`_value`, which remembers it)
        fitting = 0
        fits = a & (sets | own_a)
        if fits:
            fitting = c0 if fits == a else c0 & _BYTES[fits]
            total += known.get(fitting) or self._value(fitting)
        fits = b & (sets | own_b)
        if fits:
            part = c1 if fits == b else c1 & _BYTES[fits]
            total += known.get(part) or self._value(part)
            fitting |= part << 104
        fits = c & (sets | own_c)
        if fits:
            part = c2 if fits == c else c2 & _BYTES[fits]
            total += known.get(part) or self._value(part)
            fitting |= part << 208
        fits = d & (sets | own_d)
        if fits:
            part = c3 if fits == d else c3 & _BYTES[fits]
            total += known.get(part) or self._value(part)
            fitting |= part << 312
        return total, fitting

    def _suit_info(self, chunk: int, jk: int) -> tuple[int, int]:
        """:meth:`_suit`, remembered by the suit's code, and (but for identical sets) by the
        ranks it holds, on which it hangs alone: a byte a rank, 1 if held (a card's copies are
        at most three, two bits). Most suits hold one copy of each rank, where the two are one."""
        suits = self.suits[jk]
        if len(suits) >= _MEMO_LIMIT:
            suits.clear()
        if self.identical:
            info = self._suit(chunk, jk)
        else:
            ranks = (chunk | chunk >> 1) & _ONES
            info = suits.get(ranks) or self._suit(ranks, jk)
            suits[ranks] = info
        suits[chunk] = info
        return info

    def _suit(self, chunk: int, jk: int) -> tuple[int, int]:
        """The ranks a suit's cards are held in, and those that fit in a run of the suit (or an
        identical set) with ``jk`` jokers, as bits."""
        need = 3 - jk
        place = self.place
        ranks = 0
        places = 0
        same = 0
        # (The suit's 13 bytes read once: a shift of the 104-bit code makes a new number.)
        for rank, n in enumerate(chunk.to_bytes(13, "little")):
            if n:
                ranks |= 1 << rank
                places |= place[rank]
                if self.identical and n + jk >= 3:
                    same |= 1 << rank
        covered = 0
        for w in self.windows:
            window = places & (7 << w)
            if window and self.popcount[window >> w] >= need:
                covered |= window
        fits = same
        for rank in range(13):
            if covered & place[rank]:
                fits |= 1 << rank
        return ranks, fits & ranks

    def _value(self, chunk: int) -> int:
        """The highest worth in a meld of a suit's cards (its code)."""
        got = self.values_of.get(chunk)
        if got is None:
            got = 0
            for rank, n in enumerate(chunk.to_bytes(13, "little")):
                got += n * self.card_max[rank]
            if len(self.values_of) >= _MEMO_LIMIT:
                self.values_of.clear()
            self.values_of[chunk] = got
        return got

    # -- the most a hand can lay ----------------------------------------------------------------

    def most(self, code: int, size: int, jk: int, r: int) -> int:
        """:meth:`best`, from the hand's groups when it has several.

        No meld the search tries joins cards of two groups (:meth:`_groups`): the most a hand
        can lay is the most its groups can lay, the jokers and the cards to keep shared out
        among them in the best way. The groups of one hand recur in the next, where the whole
        hand does not: they are remembered where the hand would not be. ``size``: the cards of
        ``code``; a group holds three cards at least without a joker, two with one.
        """
        if jk > 2 or size < 6 - 2 * jk:
            return self.best(code, jk, r)
        groups = self._groups(code, jk + 1)
        if len(groups) == 1:
            return self.best(code, jk, r)
        if not r:
            if not jk:
                return sum([self.best(group, 0, 0) for group in groups])
            if jk == 1:
                total = 0
                gain = 0
                for group in groups:
                    plain = self.best(group, 0, 0)
                    total += plain
                    gain = max(gain, self.best(group, 1, 0) - plain)
                return total + gain
        # The most with j jokers given out and q cards to keep asked of the groups so far, at
        # j * (r + 1) + q (-1: not possible); every joker is given to some group, and a group
        # keeps the jokers it does not lay.
        width = r + 1
        most = [-1] * ((jk + 1) * width)
        most[0] = 0
        for group in groups:
            values = [self.best(group, a, t) for a in range(jk + 1) for t in range(width)]
            grown = [-1] * len(most)
            for at, so_far in enumerate(most):
                if so_far < 0:
                    continue
                j, q = divmod(at, width)
                for a in range(jk - j + 1):
                    for t in range(r - q + 1):
                        value = values[a * width + t]
                        if value >= 0 and so_far + value > grown[at + a * width + t]:
                            grown[at + a * width + t] = so_far + value
            most = grown
        return most[-1]

    def _groups(self, code: int, reach: int) -> list[int]:
        """The cards of a hand's code in groups that no meld of the search joins, each as a code:
        cards of a suit whose places are ``reach`` apart or less (a run's gaps are filled by
        jokers, ``reach - 1`` at most; the ace is next to the two and to the king), and cards of
        a rank held in enough suits for a set (three, two with a joker)."""
        runs = self.runs
        chunks = []
        held = []  # the ranks held, as bits, by suit
        for suit in range(4):
            chunk = (code >> (104 * suit)) & _SUIT
            key = (((chunk | chunk >> 1) & _ONES) << 2) | reach
            spans = runs.get(key)
            if spans is None:
                if len(runs) >= _MEMO_LIMIT:
                    runs.clear()
                spans = runs[key] = _spans(chunk, reach) if chunk else ()
            chunks.append((chunk, suit, spans))
            held.append(sum(spans))
        a, b, c, d = held
        if reach > 2:
            sets = a | b | c | d
        elif reach > 1:
            sets = a & b | a & c | a & d | b & c | b & d | c & d
        else:
            sets = a & b & c | a & b & d | a & c & d | b & c & d
        parts: list[tuple[int, int]] = []  # (the ranks that make sets, as bits; the cards)
        for chunk, suit, spans in chunks:
            for ranks in spans:
                part = (chunk & _BYTES[ranks]) << (104 * suit)
                ranks &= sets
                # The parts so far share no rank of a set: those sharing one with this span
                # join it.
                kept = []
                for linked, other in parts:
                    if linked & ranks:
                        ranks |= linked
                        part |= other
                    else:
                        kept.append((linked, other))
                kept.append((ranks, part))
                parts = kept
        return [part for _, part in parts]

    def best(self, code: int, jk: int, r: int) -> int:
        """The most points new melds can take from ``code`` (:func:`hand_code`) and ``jk`` jokers
        leaving ``r`` cards or jokers in hand; -1 when not even ``r`` can be left."""
        key = (code << 7) | (jk << 2) | r
        memo = self.memo
        got = memo.get(key)
        if got is not None:
            return got
        if code == 0:
            out = 0 if jk >= r else -1
            if self.joker_sets:
                for k in range(3, jk - r + 1):
                    out = max(out, k * JOKER_SET_VALUE)
        else:
            out = self._branch(code, jk, r)
        if len(memo) >= _MEMO_LIMIT:  # bounded: a long simulation meets many hands
            memo.clear()
        memo[key] = out
        return out

    def _branch(self, code: int, jk: int, r: int) -> int:
        """The lowest card is kept, or laid in a set or a run, as the search lays it."""
        card = ((code & -code).bit_length() - 1) >> 3
        bit = 1 << (8 * card)
        out = self.best(code - bit, jk, r - 1 if r else 0)
        rank = card % 13
        suit = card // 13
        worth = self.worth[card]
        others = [c for c in range(rank + 13 * (suit + 1), 52, 13) if (code >> (8 * c)) & 0xFF]
        for mask in range(1 << len(others)):
            left = code - bit
            size = 1
            for i, c in enumerate(others):
                if mask >> i & 1:
                    left -= 1 << (8 * c)
                    size += 1
            for j in range(max(0, 3 - size), min(jk, 4 - size) + 1):
                got = self.best(left, jk - j, r)
                if got >= 0 and got + (size + j) * worth > out:
                    out = got + (size + j) * worth
        if self.identical:
            have = (code >> (8 * card)) & 0xFF
            if have >= 3:
                got = self.best(code - 3 * bit, jk, r)
                if got >= 0 and got + 3 * worth > out:
                    out = got + 3 * worth
            if have >= 2 and jk:
                got = self.best(code - 2 * bit, jk - 1, r)
                if got >= 0 and got + 3 * worth > out:
                    out = got + 3 * worth
        cards = self.at[suit]
        values = self.values
        chunk = (code >> (104 * suit)) & _SUIT
        have_at = self.places.get(chunk)
        if have_at is None:
            if len(self.places) >= _MEMO_LIMIT:
                self.places.clear()
            have_at = self.places[chunk] = sum(self.place[rank] for rank in range(13)
                                               if (chunk >> (8 * rank)) & 0xFF)
        for p in self.positions[card]:
            # Runs [lo, hi] through p, each held card in them laid, each gap a joker.
            below = 0
            gaps_below = 0
            value_below = 0
            lo = p
            while True:
                above = below
                gaps = gaps_below
                value = value_below + values[p]
                hi = p
                while True:
                    if hi - lo >= 2:
                        got = self.best(code - bit - above, jk - gaps, r)
                        if got >= 0 and got + value > out:
                            out = got + value
                    hi += 1
                    if hi > 14 or (lo == 1 and hi == 14):
                        break
                    value += values[hi]
                    if have_at >> hi & 1:
                        above += 1 << (8 * cards[hi])
                    else:
                        gaps += 1
                        if gaps > jk:
                            break
                lo -= 1
                if lo < self.low_end:
                    break
                value_below += values[lo]
                if have_at >> lo & 1:
                    below += 1 << (8 * cards[lo])
                else:
                    gaps_below += 1
                    if gaps_below > jk:
                        break
        return out


def _spans(chunk: int, reach: int) -> tuple[int, ...]:
    """The ranks a suit's code holds (as bits) in spans whose neighbours are ``reach`` places
    apart or less, the ace next to the two and to the king."""
    spans = []
    span = 0
    last = -reach - 1
    for rank in range(13):
        if (chunk >> (8 * rank)) & 0xFF:
            if rank - last > reach:
                if span:
                    spans.append(span)
                span = 0
            span |= 1 << rank
            last = rank
    spans.append(span)
    if len(spans) > 1 and spans[0] & 1 and spans[-1] >> (13 - reach):
        spans[0] |= spans.pop()  # the ace high, next to the king
    return tuple(spans)


_Tables = tuple[list[int], int, int, list[int], list[list[int]]]


@lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    """What the search reads of the rules, worked out once per rules (a search is run for every
    lay a player might make, so this was a tenth of random play)."""
    card_max = [max(rules.ace_penalty, 1) if c % 13 == 0 else min(c % 13 + 1, 10)
                for c in range(52)]
    joker_max = max(rules.ace_penalty, 10, JOKER_SET_VALUE if rules.joker_sets else 0)
    low_end = 1 if rules.aces == "high-or-low" else 2
    values = [position_value(q, rules) if 1 <= q <= 14 else 0 for q in range(16)]
    at = [[card_at(suit, q) if 1 <= q <= 14 else 0 for q in range(16)] for suit in range(4)]
    return card_max, joker_max, low_end, values, at


# The run positions of a suit that the hand holds, by the suit's 26 bits of the search's code.
_HAVE: Final[dict[tuple[int, int], list[bool]]] = {}


class _Search:
    def __init__(self, goal: Goal, jokers: int, slots: Sequence[Slot], rules: Rules) -> None:
        self.goal = goal
        self.rules = rules
        self.slots = tuple(slots) if goal.builds else ()
        self.hand_jokers = jokers - goal.loose
        self.jokers = jokers
        # The positions from which the goal cannot be met, shared by every search of the same
        # goal (but for its points) on the same table: the candidates of one listing, and turns
        # while the table stays the same. A position counts the points still missing, so a hand
        # reached by laying two melds in either order is searched once.
        openings = _openings(rules)
        context = (goal.builds_count, goal.need_meld, goal.must_lay, goal.loose, goal.min_left,
                   goal.exact_left, goal.builds, self.hand_jokers, self.slots)
        seen = openings.dead.get(context)
        if seen is None or len(seen) >= _DEAD_LIMIT:
            if len(openings.dead) >= 16:  # bounded: a few tables and goals at a time
                openings.dead.clear()
            seen = openings.dead[context] = set()
        self.seen: set[tuple[int, ...]] = seen
        self.near: list[list[tuple[int, Slot]] | None] = [None] * 52
        self.worth = openings.worth
        self.card_max, self.joker_max, self.low_end, self.values, self.at = _tables(rules)

    def finish(self, jk: int, kept: int) -> bool:
        """Whether the goal is met keeping every card (``kept`` of them, at most 3) and
        ``jk`` jokers, with nothing laid."""
        return self._finish(jk, 0, 0, self.goal.made, self.goal.must_lay is None, kept)

    def takes(self, slot: Slot, k: int) -> bool:
        """Whether ``slot`` takes ``k`` jokers (one of :meth:`_joker_values`' options)."""
        return takes_jokers(slot, k, self.rules)

    def run(self, counts: Sequence[int]) -> bool:
        code = 0
        rest = 0
        for c in range(52):
            if counts[c]:
                code |= counts[c] << (2 * c)
                rest += counts[c] * self.card_max[c]
        return self._search(code, self.jokers, 0, 0, self.goal.made, self.goal.must_lay is None,
                            0, rest)

    # The state: cards left (2 bits a card), jokers left, slots used, value (capped at need),
    # whether a new meld is made, whether must_lay is laid, cards kept, and an upper bound.
    def _search(self, code: int, jk: int, used: int, value: int, made: bool, laid: bool,
                kept: int, rest: int) -> bool:
        goal = self.goal
        if goal.exact_left is not None and kept > goal.exact_left:
            return False
        if value + rest + jk * self.joker_max < goal.need:
            return False
        key = (code, jk, used, goal.need - value, made, laid, kept)
        if key in self.seen:
            return False
        if code == 0:
            ok = self._finish(jk, used, value, made, laid, kept)
        else:
            ok = self._branch(code, jk, used, value, made, laid, kept, rest)
        if not ok:
            self.seen.add(key)
        return ok

    def _branch(self, code: int, jk: int, used: int, value: int, made: bool, laid: bool,
                kept: int, rest: int) -> bool:
        goal = self.goal
        low = code & -code
        card = (low.bit_length() - 1) >> 1
        for naturals, jokers, gain, slot in self._items(card, code, jk, used):
            left = code
            lost = 0
            for c in naturals:
                left -= 1 << (2 * c)
                lost += self.card_max[c]
            counts = slot < 0 or goal.builds_count
            if self._search(left, jk - jokers, used | (1 << slot) if slot >= 0 else used,
                            min(goal.need, value + gain) if counts else value,
                            made or slot < 0, laid or goal.must_lay in naturals
                            or (goal.must_lay == JOKER and jokers > 0),
                            kept, rest - lost):
                return True
        return self._search(code - (1 << (2 * card)), jk, used, value, made, laid,
                            min(kept + 1, 3), rest - self.card_max[card])

    def _finish(self, jk: int, used: int, value: int, made: bool, laid: bool, kept: int) -> bool:
        goal = self.goal
        for placed, gain, joker_set in self._joker_placements(jk, used):
            if not (laid or (goal.must_lay == JOKER and placed)):
                continue
            total = min(goal.need, value + gain)
            left = kept + jk - placed
            if jk - placed > self.hand_jokers or left < goal.min_left:
                continue
            if goal.exact_left is not None and left != goal.exact_left:
                continue
            if total < goal.need:
                continue
            if goal.need_meld and not (made or joker_set):
                continue
            return True
        return False

    # -- what may be laid ---------------------------------------------------------------------

    def _count(self, code: int, card: int) -> int:
        return (code >> (2 * card)) & 3

    def _items(self, card: int, code: int, jk: int, used: int) -> Iterator[_Item]:
        yield from self._sets(card, code, jk)
        yield from self._runs(card, code, jk)
        near = self.near[card]
        if near is None:
            # The table's melds a card could go on: a set of its rank, a run of its suit.
            near = self.near[card] = [
                (i, slot) for i, slot in enumerate(self.slots)
                if (slot.meld.suit == card // 13 if slot.meld.kind == "run"
                    else slot.meld.rank == card % 13 and not slot.meld.identical)]
        for i, slot in near:
            if not used >> i & 1:
                yield from self._builds(i, slot, card, code, jk)

    def _sets(self, card: int, code: int, jk: int) -> Iterator[_Item]:
        rules = self.rules
        worth = self.worth[card]
        others = [c for c in range(card % 13, 52, 13) if c != card and (code >> (2 * c)) & 3]
        for k in range(len(others) + 1):
            for chosen in combinations(others, k):
                size = k + 1
                for j in range(max(0, 3 - size), min(jk, 4 - size) + 1):
                    yield (card, *chosen), j, (size + j) * worth, -1
        if rules.identical_sets:
            have = self._count(code, card)
            if have >= 3:
                yield (card, card, card), 0, 3 * worth, -1
            if have >= 2 and jk:
                yield (card, card), 1, 3 * worth, -1

    def _runs(self, card: int, code: int, jk: int) -> Iterator[_Item]:
        """Runs through ``card``, grown a card at a time each way while the jokers last."""
        suit = card // 13
        cards = self.at[suit]
        values = self.values
        key = (suit, (code >> (26 * suit)) & 0x3FFFFFF)
        have = _HAVE.get(key)
        if have is None:
            if len(_HAVE) >= 1 << 16:  # bounded: a long simulation meets many suits
                _HAVE.clear()
            have = _HAVE[key] = [q != 0 and q != 15 and bool((code >> (2 * cards[q])) & 3)
                                 for q in range(16)]
        for p in positions_of(card, self.rules):
            below: list[int] = []
            gaps_below = 0
            value_below = 0
            lo = p
            while True:
                above: list[int] = []
                gaps = gaps_below
                value = value_below + values[p]
                hi = p
                while True:
                    if hi - lo >= 2:
                        yield (card, *below, *above), gaps, value, -1
                    hi += 1
                    if hi > 14 or (lo == 1 and hi == 14):
                        break
                    value += values[hi]
                    if have[hi]:
                        above.append(cards[hi])
                    else:
                        gaps += 1
                        if gaps > jk:
                            break
                lo -= 1
                if lo < self.low_end:
                    break
                value_below += values[lo]
                if have[lo]:
                    below.append(cards[lo])
                else:
                    gaps_below += 1
                    if gaps_below > jk:
                        break

    def _builds(self, i: int, slot: Slot, card: int, code: int, jk: int) -> Iterator[_Item]:
        meld = slot.meld
        rules = self.rules
        if meld.kind == "set":
            if meld.rank != card % 13 or meld.identical:
                return
            room = min(4 - len(meld.tokens), slot.total_cap)
            taken = {c // 13 for c in meld.naturals()}
            if room <= 0 or card // 13 in taken:
                return
            others = [make_card(meld.rank, s) for s in range(4) if s not in taken
                      and s != card // 13 and self._count(code, make_card(meld.rank, s))]
            worth = rules.card_value(card)
            for k in range(min(len(others), room - 1) + 1):
                for chosen in combinations(others, k):
                    for j in range(min(jk, room - 1 - k) + 1):
                        yield (card, *chosen), j, (1 + k + j) * worth, i
            return
        if meld.suit != card // 13:
            return
        for p in positions_of(card, rules):
            if p < meld.low:  # grow the low end down to p or below, the high end as it may
                for lo in range(p, self.low_end - 1, -1):
                    low = range(lo, meld.low)
                    if len(low) > min(slot.low_cap, slot.total_cap):
                        break
                    for extra in range(self._room(slot, "high", len(low)) + 1):
                        yield from self._chain(i, slot, card, p, code, jk, low,
                                               range(meld.high + 1, meld.high + 1 + extra))
            elif p > meld.high:
                for hi in range(p, 15):
                    high = range(meld.high + 1, hi + 1)
                    if len(high) > min(slot.high_cap, slot.total_cap):
                        break
                    for extra in range(self._room(slot, "low", len(high)) + 1):
                        yield from self._chain(i, slot, card, p, code, jk,
                                               range(meld.low - extra, meld.low), high)

    def _room(self, slot: Slot, end: str, other: int) -> int:
        """How many cards the run may still take at ``end`` beside ``other`` at the other end."""
        meld = slot.meld
        cap = min(slot.high_cap if end == "high" else slot.low_cap, slot.total_cap - other)
        reach = 14 - meld.high if end == "high" else meld.low - (
            1 if self.rules.aces == "high-or-low" else 2)
        return max(0, min(cap, reach))

    def _chain(self, i: int, slot: Slot, card: int, p: int, code: int, jk: int, low: range,
               high: range) -> Iterator[_Item]:
        meld = slot.meld
        lo = low.start if len(low) else meld.low
        hi = high.stop - 1 if len(high) else meld.high
        if lo == 1 and hi == 14:
            return
        if len(low) > slot.low_cap or len(high) > slot.high_cap \
                or len(low) + len(high) > slot.total_cap:
            return
        naturals = [card]
        jokers = 0
        value = 0
        left = code - (1 << (2 * card))
        values = self.values
        at = self.at[meld.suit]
        for q in (*low, *high):
            value += values[q]
            if q == p:
                continue
            c = at[q]
            if (left >> (2 * c)) & 3:
                naturals.append(c)
                left -= 1 << (2 * c)
            else:
                jokers += 1
        if jokers <= jk:
            yield tuple(naturals), jokers, value, i

    # -- jokers left at the end -----------------------------------------------------------------

    def _joker_placements(self, jk: int, used: int) -> Iterator[tuple[int, int, bool]]:
        """(jokers placed, value counted, whether a set of jokers was laid), best value first."""
        best: dict[tuple[int, bool], int] = {(0, False): 0}
        for i, slot in enumerate(self.slots):
            if used >> i & 1:
                continue
            options = self._joker_values(slot, jk)
            grown = dict(best)
            for (placed, joker_set), value in best.items():
                for k, gain in options:
                    if placed + k <= jk:
                        key = (placed + k, joker_set)
                        grown[key] = max(grown.get(key, -1), value + gain)
            best = grown
        if self.rules.joker_sets:
            grown = dict(best)
            for (placed, _), value in best.items():
                for k in range(3, jk - placed + 1):
                    key = (placed + k, True)
                    grown[key] = max(grown.get(key, -1), value + k * JOKER_SET_VALUE)
            best = grown
        for (placed, joker_set), value in sorted(best.items(), key=lambda kv: -kv[1]):
            yield placed, value, joker_set

    def _joker_values(self, slot: Slot, jk: int) -> list[tuple[int, int]]:
        meld = slot.meld
        rules = self.rules
        counted = self.goal.builds_count
        if meld.kind == "set":
            if meld.identical:
                return []
            room = min(4 - len(meld.tokens), slot.total_cap, jk)
            worth = JOKER_SET_VALUE if meld.rank < 0 else rules.card_value(make_card(meld.rank, 0))
            return [(k, k * worth if counted else 0) for k in range(1, room + 1)]
        out: list[tuple[int, int]] = []
        for k in range(1, jk + 1):
            best = -1
            for low in range(k + 1):
                high = k - low
                lo, hi = meld.low - low, meld.high + high
                if low > slot.low_cap or high > slot.high_cap or k > slot.total_cap:
                    continue
                if lo < (1 if rules.aces == "high-or-low" else 2) or hi > 14 or (lo == 1 and
                                                                                 hi == 14):
                    continue
                value = sum(position_value(q, rules) for q in (*range(lo, meld.low),
                                                                *range(meld.high + 1, hi + 1)))
                best = max(best, value if counted else 0)
            if best >= 0:
                out.append((k, best))
        return out
