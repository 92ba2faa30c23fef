"""The expert's turn planner: the best set of lays a hand can make now, from one player's view.

:func:`plan_lays` splits a hand into new melds, builds on the table's melds and cards kept, the
way that sheds the most (natural cards at their penalty value and a bonus a card, a small cost
for every joker spent, so jokers are held unless they let natural cards go down). A plan that
calls up (every card laid but one, jokers placed on the table's free ends) beats any other. It
tracks the initial meld (ruling 5): a plan that lays anything before the player has melded must
reach the points still missing (with ``kalookie_without_initial``, unless it melds out). The
search takes the lowest card left and tries every meld and build holding it, or keeps it;
positions reached again are remembered.

It never plans a joker where the hand holds the natural card and lays at most two jokers in a
new meld, as the engine lists them (``legal.py``); places a loose joker anywhere a free end or a
three-card set can take it. The bot checks every step against ``view.legal``, so a step the
engine would refuse is simply not taken.

>>> from hoola.games.kalookie.cards import counts_of, format_tokens, parse_tokens
>>> from hoola.games.kalookie.rules import Rules
>>> hand = counts_of(parse_tokens("Ks Kh Kd 9c Tc Jc 2d 7h"))
>>> plan = plan_lays(tuple(hand[:52]), 0, 0, (), Rules.preset("british"), opened=False, need=40)
>>> [format_tokens(lay.tokens) for lay in plan.lays], plan.value, format_tokens(plan.left)
(['Ks Kh Kd', '9c Tc Jc'], 40, '7h 2d')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from hoola.core.cards import make_card
from hoola.games.kalookie.cards import JOKER, named_joker
from hoola.games.kalookie.melds import card_at, position_value, positions_of
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.solver import Slot

__all__ = ["CARD_BONUS", "GO_OUT", "JOKER_COST", "Lay", "Plan", "joker_room", "plan_lays"]

CARD_BONUS = 4.0   # a card laid is worth its points and this much more (fewer cards, nearer out)
JOKER_COST = 9.0   # a joker spent in a meld: held, it completes a later meld or an end
GO_OUT = 1000.0    # calling up this turn beats every other plan
MAX_JOKERS = 2     # jokers in one new meld, as the engine lists them
_NEG = float("-inf")


@dataclass(frozen=True, slots=True)
class Lay:
    """One planned lay: a new meld (``meld_id`` -1, tokens as the engine lists them) or a build
    of ``tokens`` on the table's meld ``meld_id``, nearest to the meld first."""

    tokens: tuple[int, ...]
    meld_id: int = -1

    @property
    def is_meld(self) -> bool:
        """Whether this is a new meld (not a build)."""
        return self.meld_id < 0


@dataclass(frozen=True, slots=True)
class Plan:
    """The lays chosen, the natural cards kept (``left``), the jokers still held (``jokers``),
    the points the new melds count toward the initial meld (``value``, capped at the need), the
    plan's score, and whether it calls up."""

    lays: tuple[Lay, ...]
    left: tuple[int, ...]
    jokers: int
    value: int
    score: float
    goes_out: bool

    @property
    def cards_left(self) -> int:
        """Cards in hand after every lay (jokers held included, before any joker is placed)."""
        return len(self.left) + self.jokers


_Item = tuple[tuple[int, ...], int, int, int, float, Lay]  # naturals, jokers, value, bit, score


def joker_room(slot: Slot, rules: Rules) -> tuple[int, int]:
    """How many jokers ``slot`` could take at its low and its high end (a set: all in ``low``)."""
    meld = slot.meld
    if meld.kind == "set":
        if meld.identical:
            return 0, 0
        return max(0, min(4 - len(meld.tokens), slot.total_cap)), 0
    bottom = 1 if rules.aces == "high-or-low" else 2
    low = min(slot.low_cap, slot.total_cap, meld.low - bottom)
    high = min(slot.high_cap, slot.total_cap, 14 - meld.high)
    if meld.low == 1:
        high = min(high, 13 - meld.high)
    if meld.high == 14:
        low = min(low, meld.low - 2)
    return max(0, low), max(0, high)


def plan_lays(counts: tuple[int, ...], jokers: int, loose: int, slots: tuple[Slot, ...],
              rules: Rules, *, opened: bool, need: int = 0, made: bool = False,
              builds: bool = True, require: bool = False, structure: bool = False,
              min_left: int = 1) -> Plan | None:
    """The best plan for a hand of natural ``counts`` (52) and ``jokers`` (``loose`` of them
    released this turn and still to lay); None when no plan meets the turn's obligations.

    ``need``: points still missing from the initial meld (0 once made); ``made``: a new meld is
    laid this turn already; ``builds``: building is possible this turn; ``require``: an initial
    meld under way must be completed; ``structure``: ignore the initial meld (the melds the hand
    holds, for choosing what to keep); ``min_left``: cards that must stay for the discard.
    """
    return _plan(counts, jokers, loose, slots if builds else (), rules, opened, need, made,
                 require, structure, min_left)


@lru_cache(maxsize=4096)
def _plan(counts: tuple[int, ...], jokers: int, loose: int, slots: tuple[Slot, ...],
          rules: Rules, opened: bool, need: int, made: bool, require: bool, structure: bool,
          min_left: int) -> Plan | None:
    search = _Search(counts, jokers, loose, slots, rules, opened=opened, need=need,
                     require=require, structure=structure, min_left=min_left)
    code = 0
    for c in range(52):
        if counts[c]:
            code |= counts[c] << (2 * c)
    return search.plan(code, made)


class _Search:
    def __init__(self, counts: Sequence[int], jokers: int, loose: int, slots: tuple[Slot, ...],
                 rules: Rules, *, opened: bool, need: int, require: bool, structure: bool,
                 min_left: int) -> None:
        self.full = counts
        self.rules = rules
        self.slots = slots
        self.hand_jokers = jokers - loose
        self.jokers = jokers
        self.opened = opened
        self.need = 0 if opened else need
        self.require = require and not opened
        self.structure = structure
        self.min_left = min_left
        self.kept_cap = min_left + 1
        self.need_meld = rules.initial_counts_builds and not opened
        self.short_kalookie = rules.kalookie_without_initial and not opened and min_left == 1
        self.count_builds = rules.initial_counts_builds and not opened
        self.bottom = 1 if rules.aces == "high-or-low" else 2
        self.values = [position_value(q, rules) if 1 <= q <= 14 else 0 for q in range(16)]
        self.points = [rules.card_value(c) for c in range(52)]
        self.room = [joker_room(s, rules) for s in slots]
        # The slots a card might build on: runs of its suit, sets of its rank.
        self.by_card: list[list[tuple[int, Slot]]] = [[] for _ in range(52)]
        for i, slot in enumerate(slots):
            meld = slot.meld
            for c in range(52):
                if (meld.kind == "run" and c // 13 == meld.suit) or \
                        (meld.kind == "set" and c % 13 == meld.rank and not meld.identical):
                    self.by_card[c].append((i, slot))
        self.memo: dict[tuple[int, int, int, int, bool, int], tuple[float, _Item | None]] = {}

    # -- the search -----------------------------------------------------------------------------

    def plan(self, code: int, made: bool) -> Plan | None:
        best = self._best(code, self.jokers, 0, 0, made, 0)
        if best == _NEG:
            return None
        lays: list[Lay] = []
        left: list[int] = []
        jk, used, value, kept = self.jokers, 0, 0, 0
        while code:
            item = self.memo[(code, jk, used, value, made, kept)][1]
            card = ((code & -code).bit_length() - 1) >> 1
            if item is None:
                left.append(card)
                code -= 1 << (2 * card)
                kept = min(kept + 1, self.kept_cap)
                continue
            naturals, jokers, gain, bit, _, lay = item
            for c in naturals:
                code -= 1 << (2 * c)
            jk -= jokers
            used |= bit
            value = min(self.need, value + gain)
            made = made or bit == 0
            lays.append(lay)
        goes_out = best >= GO_OUT / 2
        return Plan(tuple(lays), tuple(left), jk, value, best, goes_out)

    def _best(self, code: int, jk: int, used: int, value: int, made: bool, kept: int) -> float:
        key = (code, jk, used, value, made, kept)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if code == 0:
            self.memo[key] = (self._end(jk, used, value, made, kept), None)
            return self.memo[key][0]
        card = ((code & -code).bit_length() - 1) >> 1
        best = self._best(code - (1 << (2 * card)), jk, used, value, made,
                          min(kept + 1, self.kept_cap))
        choice: _Item | None = None
        for item in self._items(card, code, jk, used):
            naturals, jokers, gain, bit, score, _ = item
            left = code
            for c in naturals:
                left -= 1 << (2 * c)
            rest = self._best(left, jk - jokers, used | bit, min(self.need, value + gain),
                              made or bit == 0, kept)
            if rest + score > best:
                best, choice = rest + score, item
        self.memo[key] = (best, choice)
        return best

    def _end(self, jk: int, used: int, value: int, made: bool, kept: int) -> float:
        """The score of what is left: a call-up, nothing, or no plan at all (-inf)."""
        laid = made or used != 0
        opens = self.opened or (value >= self.need and (made or not self.need_meld))
        if self.short_kalookie and not opens and made and not used and (
                (kept == 1 and jk == 0) or (kept == 0 and jk == 1)):
            return GO_OUT  # kalookie_without_initial: new melds only, all cards but one
        if not self.structure and (self.require or laid) and not opens:
            return _NEG
        room = 0
        if opens or self.structure:
            for i, (low, high) in enumerate(self.room):
                if not used >> (2 * i) & 1:
                    room += low
                if not used >> (2 * i + 1) & 1:
                    room += high
            room += 2 if made else 0
        loose = max(0, jk - self.hand_jokers)
        if loose > room and not self.structure:
            return _NEG
        if self.min_left == 1 and (opens or self.structure) and laid and (
                (kept == 1 and jk <= room)
                or (kept == 0 and min(jk, self.hand_jokers) >= 1 and jk <= room + 1)):
            return GO_OUT
        held = kept + min(jk, self.hand_jokers)
        if held < self.min_left and not self.structure:
            return _NEG
        return 0.0

    # -- what may be laid -----------------------------------------------------------------------

    def _count(self, code: int, card: int) -> int:
        return (code >> (2 * card)) & 3

    def _score(self, naturals: Sequence[int], jokers: int) -> float:
        return sum(self.points[c] for c in naturals) + CARD_BONUS * len(naturals) \
            - JOKER_COST * jokers

    def _items(self, card: int, code: int, jk: int, used: int) -> Iterator[_Item]:
        yield from self._sets(card, code, jk)
        yield from self._runs(card, code, jk)
        for i, slot in self.by_card[card]:
            yield from self._builds(i, slot, card, code, jk, used)

    def _sets(self, card: int, code: int, jk: int) -> Iterator[_Item]:
        rules = self.rules
        rank = card % 13
        worth = rules.card_value(card)
        others = [make_card(rank, s) for s in range(4)
                  if s != card // 13 and self._count(code, make_card(rank, s))]
        cap = min(jk, MAX_JOKERS)
        for k in range(len(others) + 1):
            for chosen in combinations(others, k):
                naturals = tuple(sorted((card, *chosen)))
                for j in range(max(0, 3 - len(naturals)), min(cap, 4 - len(naturals)) + 1):
                    yield (naturals, j, (len(naturals) + j) * worth, 0, self._score(naturals, j),
                           Lay(naturals + (JOKER,) * j))
        if rules.identical_sets:
            have = self._count(code, card)
            if have >= 3:
                trio = (card, card, card)
                yield trio, 0, 3 * worth, 0, self._score(trio, 0), Lay(trio)
            if have >= 2 and jk:
                pair = (card, card)
                yield pair, 1, 3 * worth, 0, self._score(pair, 1), Lay((*pair, JOKER))

    def _runs(self, card: int, code: int, jk: int) -> Iterator[_Item]:
        """Runs through ``card``, grown a card at a time each way: the hand's cards where it
        still has them, jokers where it holds none (never where the natural card is held)."""
        suit = card // 13
        cap = min(jk, MAX_JOKERS)
        full, values = self.full, self.values
        for p in positions_of(card, self.rules):
            below: list[int] = []  # tokens under p, low to high
            low_naturals: list[int] = []
            low_gaps = 0
            lo = p
            while True:
                tokens = [*below, card]
                naturals = [*low_naturals, card]
                gaps = low_gaps
                value = sum(values[q] for q in range(lo, p + 1))
                hi = p
                while True:
                    if hi - lo >= 2:
                        yield (tuple(naturals), gaps, value, 0, self._score(naturals, gaps),
                               Lay(tuple(tokens)))
                    hi += 1
                    if hi > 14 or (lo == 1 and hi == 14):
                        break
                    c = card_at(suit, hi)
                    value += values[hi]
                    if self._count(code, c) > naturals.count(c):
                        naturals.append(c)
                        tokens.append(c)
                    elif full[c] or gaps >= cap:
                        break
                    else:
                        gaps += 1
                        tokens.append(named_joker(c))
                lo -= 1
                if lo < self.bottom or (lo == 1 and p == 14):
                    break
                c = card_at(suit, lo)
                if self._count(code, c) > low_naturals.count(c) + (c == card):
                    low_naturals.insert(0, c)
                    below.insert(0, c)
                elif full[c] or low_gaps >= cap:
                    break
                else:
                    low_gaps += 1
                    below.insert(0, named_joker(c))

    def _builds(self, i: int, slot: Slot, card: int, code: int, jk: int,
                used: int) -> Iterator[_Item]:
        meld = slot.meld
        if meld.kind == "set":
            if used >> (2 * i) & 1 or meld.rank != card % 13 or meld.identical:
                return
            taken = {c // 13 for c in meld.naturals()}
            room = min(4 - len(meld.tokens), slot.total_cap)
            if room <= 0 or card // 13 in taken:
                return
            others = [make_card(meld.rank, s) for s in range(4) if s not in taken
                      and s != card // 13 and self._count(code, make_card(meld.rank, s))]
            worth = self.rules.card_value(card) if self.count_builds else 0
            for k in range(min(len(others), room - 1) + 1):
                for chosen in combinations(others, k):
                    naturals = (card, *chosen)
                    yield (naturals, 0, worth * len(naturals), 1 << (2 * i),
                           self._score(naturals, 0), Lay(naturals, meld.id))
            return
        if meld.suit != card // 13:
            return
        for p in positions_of(card, self.rules):
            if p < meld.low and not used >> (2 * i) & 1 and p >= self.bottom \
                    and not (p == 1 and meld.high == 14):
                chain = list(range(meld.low - 1, p - 1, -1))  # nearest the meld first
                item = self._chain(i, slot, card, code, jk, chain, min(slot.low_cap,
                                                                        slot.total_cap), 0)
                if item is not None:
                    yield item
            elif p > meld.high and not used >> (2 * i + 1) & 1 \
                    and not (p == 14 and meld.low == 1):
                cap = min(slot.high_cap, slot.total_cap)
                for hi in range(p, 15):
                    if (hi > p and not self._count(code, card_at(meld.suit, hi))) \
                            or (hi == 14 and meld.low == 1):
                        break
                    item = self._chain(i, slot, card, code, jk, list(range(meld.high + 1, hi + 1)),
                                       cap, 1)
                    if item is None:
                        break
                    yield item

    def _chain(self, i: int, slot: Slot, card: int, code: int, jk: int, chain: list[int],
               cap: int, end: int) -> _Item | None:
        if len(chain) > cap:
            return None
        suit = slot.meld.suit
        naturals: list[int] = []
        tokens: list[int] = []
        jokers = 0
        value = 0
        left = code
        for q in chain:
            c = card_at(suit, q)
            value += self.values[q]
            if c == card or self._count(left, c):
                naturals.append(c)
                tokens.append(c)
                left -= 1 << (2 * c)
            else:
                jokers += 1
                tokens.append(named_joker(c))
        if jokers > jk or card not in naturals:
            return None
        return (tuple(naturals), jokers, value if self.count_builds else 0, 1 << (2 * i + end),
                self._score(naturals, jokers), Lay(tuple(tokens), slot.meld.id))
