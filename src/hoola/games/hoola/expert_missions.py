"""How the expert goes for the deal's mission (ruling 20), from its view alone.

A mission multiplies every payment to a single winner who performed its feat, so the expert
chases the feats a club player chases cheaply, and only when the odds favour it:

- ``quad``, ``long-run``, ``corner``, ``two-sevens``: among its melds it lays the one that
  performs the feat (four of a rank kept together, a run of five, K-A-2, a second seven of its
  own) when that sheds nearly as many points as its usual choice, and adds the card that
  performs it to a meld of its own first.
- ``knock-low``: a knock at 3 points or fewer performs the feat and pays the multiplier more,
  so it accepts an undercut risk that much larger in the odds.
- ``hoola``: with nothing melded and a hand a card or two from going out all at once, it holds
  its melds, discards the card that leaves the most live cards to go out with, and lets the
  discards go that would not let it go out at once; it goes out at once when it can.
- ``blast``: with nothing melded, it keeps the seven cards that blast at its next turn.

``thank-you`` (the expert claims every discard it can meld anyway), ``no-take`` (declining a
discard that melds costs more than the mission is worth) and ``quick`` are not chased; nor does
a feat already performed make it knock more readily (measured against greedy, knocking into a
larger undercut risk for them lost stakes: the risk is reckoned from unseen cards, and greedy
keeps low ones). Nothing here reads the state: the mission, the table and the history are the
view's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from hoola.core.cards import JOKER, SEVEN
from hoola.games.hoola.actions import Add, Discard, Knock, NewMeld, Take
from hoola.games.hoola.deal import HAND_SIZE
from hoola.games.hoola.melds import Meld, MeldKind, find_melds
from hoola.games.hoola.missions import Mission, feat_achieved
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import blast_kind, blast_points, hand_points
from hoola.games.hoola.views import View

__all__ = ["FEAT_SLACK", "HOOLA_OUTS", "Chase", "hoola_outs", "knock_limit", "most_melded"]

FEAT_SLACK = 6.0   # points of shedding a feat meld may give up, per unit of multiplier above 1
HOOLA_OUTS = 4     # fewest live cards that would let a held hand go out at once worth waiting for
HOOLA_STOCK = 8    # fewest stock cards left to hold a hand back for a Hoola
HOOLA_SAFE_HAND = 4  # fewest cards every opponent holds while the expert holds back
TABLE_FEATS = frozenset({"quad", "long-run", "corner", "two-sevens"})


def knock_limit(risk: float, multiplier: int) -> float:
    """The undercut risk worth taking when a win pays ``multiplier`` times as much: the odds
    ``risk : 1 - risk`` multiplied by it.

    >>> round(knock_limit(0.1, 3), 3)
    0.25
    """
    odds = risk / (1.0 - risk) * multiplier
    return odds / (1.0 + odds)


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        if c != JOKER:
            m |= 1 << c
    return m


@lru_cache(maxsize=65536)
def most_melded(mask: int, jokers: int, rules: Rules) -> int:
    """The most cards of a hand that disjoint new melds can hold (sevens alone included)."""
    options = find_melds(mask, jokers, rules)
    if not options:
        return 0
    # Every cover either melds the lowest meldable card or leaves it: branch on that card only.
    first = min(min(c for c in cards if c != JOKER) for cards, _ in options)
    best = most_melded(mask & ~(1 << first), jokers, rules)
    for cards, _ in options:
        if first in cards:
            rest = most_melded(mask & ~_mask(cards), jokers - cards.count(JOKER), rules)
            best = max(best, len(cards) + rest)
    return best


def _cover(mask: int, jokers: int, rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Melds holding :func:`most_melded` cards of the hand, in the order found."""
    want = most_melded(mask, jokers, rules)
    melds: list[tuple[int, ...]] = []
    while want:
        for cards, _ in find_melds(mask, jokers, rules):
            used, spent = _mask(cards), cards.count(JOKER)
            if len(cards) + most_melded(mask & ~used, jokers - spent, rules) == want:
                melds.append(cards)
                mask, jokers, want = mask & ~used, jokers - spent, want - len(cards)
                break
        else:
            break
    return tuple(melds)


def _near(mask: int, live: int) -> list[int]:
    """Live cards that could join a meld with a card of ``mask``: its rank, two ranks either
    side in its suit (round the corner: an ace is high too), and every seven (a seven melds
    alone). Only a narrowing: :func:`most_melded` judges each."""
    near = 0
    for c in range(52):
        if not (mask >> c) & 1:
            continue
        rank, suit = c % 13, c // 13
        for s in range(4):
            near |= 1 << (s * 13 + rank)
        for step in (-2, -1, 1, 2):
            near |= 1 << (suit * 13 + (rank + step) % 13)
    for s in range(4):
        near |= 1 << (s * 13 + SEVEN)
    near &= live
    return [c for c in range(52) if (near >> c) & 1]


def hoola_outs(mask: int, jokers: int, live: int, rules: Rules) -> int:
    """How many live cards would let a hand of seven (``mask`` and ``jokers``) go out at once:
    with the card, every card but one melded."""
    size = mask.bit_count() + jokers + 1
    return sum(1 for c in _near(mask, live)
               if most_melded(mask | (1 << c), jokers, rules) >= size - 1)


@dataclasses.dataclass(frozen=True, slots=True)
class Chase:
    """The deal's mission as the expert sees it from one view: what to chase and how."""

    view: View
    mission: Mission

    @classmethod
    def of(cls, view: View) -> Chase | None:
        """The chase for a view whose deal has a mission; None without one."""
        return None if view.mission is None else cls(view, view.mission)

    @property
    def feat(self) -> str:
        """The feat's id."""
        return self.mission.feat

    @property
    def me(self) -> int:
        """The viewer's seat."""
        return self.view.player

    def _own(self, table: Sequence[Meld]) -> bool:
        """Whether the viewer's own melds on ``table`` perform a table feat."""
        v = self.view
        return feat_achieved(self.feat, end="out", winner=self.me, table=table,
                             history=v.history, dealer=v.dealer, in_deal=v.in_deal,
                             winner_points=0)

    def knock_performs(self) -> bool:
        """Whether the viewer, knocking now and winning, performs the ``knock-low`` feat (3 points
        or fewer). The one feat a knock is chased for: knocking into a larger risk for the other
        feats a win would perform lost stakes against greedy when measured."""
        v = self.view
        if self.feat != "knock-low":
            return False
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        points = hand_points(mask, jokers, v.rules)
        return feat_achieved(self.feat, end="knock", winner=self.me, table=v.melds,
                             history=[*v.history, Knock(self.me)], dealer=v.dealer,
                             in_deal=v.in_deal, winner_points=points)

    # -- melds and additions --------------------------------------------------------------------

    def feat_meld(self, melds: Sequence[NewMeld], shed: int,
                  shed_after: Callable[[NewMeld], int]) -> NewMeld | None:
        """A legal new meld that performs a table feat on the viewer's own melds and sheds at
        least ``shed`` less the slack the multiplier allows; ``shed_after(cards)`` gives the
        points the hand sheds with that meld first."""
        if self.feat not in TABLE_FEATS or self._own(self.view.melds):
            return None
        slack = FEAT_SLACK * (self.mission.multiplier - 1)
        best: tuple[float, NewMeld] | None = None
        for a in melds:
            if not self._performs(a.cards, a.joker_as):
                continue
            points = shed_after(a)
            if points >= shed - slack and (best is None or points > best[0]):
                best = (points, a)
        return None if best is None else best[1]

    def _performs(self, cards: tuple[int, ...], joker_as: int | None) -> bool:
        v = self.view
        kind = MeldKind.SEVEN if len(cards) == 1 else \
            MeldKind.SET if len({c % 13 for c in cards if c != JOKER}) == 1 else MeldKind.RUN
        faces = tuple(c if c != JOKER else -1 if joker_as is None else joker_as for c in cards)
        laid = Meld(0, self.me, kind, cards, faces)
        return self._own((*v.melds, laid))

    def feat_add(self, adds: Sequence[Add], shed: int,
                 shed_after: Callable[[Add], int]) -> Add | None:
        """A legal addition to a meld of the viewer's own that performs a table feat and sheds
        at least ``shed`` less the slack the multiplier allows (``shed_after`` as for
        :meth:`feat_meld`)."""
        v = self.view
        if self.feat not in TABLE_FEATS or self._own(v.melds):
            return None
        slack = FEAT_SLACK * (self.mission.multiplier - 1)
        for a in adds:
            meld = self._target(a)
            if meld is None or meld.owner != self.me:
                continue
            face = a.card if a.card != JOKER else -1 if a.joker_as is None else a.joker_as
            grown = dataclasses.replace(meld, cards=(*meld.cards, a.card),
                                        faces=(*meld.faces, face))
            if self._own(tuple(grown if m.id == meld.id else m for m in v.melds)) \
                    and shed_after(a) >= shed - slack:
                return a
        return None

    def _target(self, a: Add) -> Meld | None:
        for m in self.view.melds:
            if m.id == a.meld_id or (a.meld_id is None and a.on in m.cards):
                return m
        return None

    # -- holding back: a blast or a Hoola ------------------------------------------------------

    def blast_discard(self, discards: Sequence[Discard]) -> Discard | None:
        """With the blast feat and nothing melded, the discard after which the seven cards
        left blast at the viewer's next turn (the lowest sopang, the highest daepang)."""
        v = self.view
        if self.feat != "blast" or not v.rules.blasts or v.melded[self.me]:
            return None
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        if mask.bit_count() + jokers != HAND_SIZE + 1:
            return None
        best: tuple[int, Discard] | None = None
        for a in discards:
            if a.card == JOKER:
                continue
            rest = mask & ~(1 << a.card)
            kind = blast_kind(rest, jokers, v.rules)
            if kind is None:
                continue
            points = blast_points(rest, v.rules)
            key = -points if kind == "sopang" else points
            if best is None or key > best[0]:
                best = (key, a)
        return None if best is None else best[1]

    def blast_ready(self) -> bool:
        """Whether the viewer's seven cards blast at the start of their turn (with the blast
        feat, nothing melded): a discard taken now would spoil it."""
        v = self.view
        if self.feat != "blast" or not v.rules.blasts or v.melded[self.me]:
            return False
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        return mask.bit_count() + jokers == HAND_SIZE and \
            blast_kind(mask, jokers, v.rules) is not None

    def _may_hold(self) -> bool:
        """Whether holding back for a Hoola is safe enough: the Hoola feat, nothing melded, a
        stock that lasts, and no opponent near going out."""
        v = self.view
        if self.feat != "hoola" or v.melded[self.me] or v.stock_size < HOOLA_STOCK:
            return False
        return all(size >= HOOLA_SAFE_HAND for q, size in enumerate(v.hand_sizes)
                   if q != self.me and v.in_deal[q])

    def hoola_plan(self) -> tuple[tuple[int, ...], ...] | None:
        """In a turn begun with nothing melded, melds that leave at most one card (a Hoola
        now): the covering melds, or None when the hand cannot go out at once."""
        v = self.view
        if self.feat != "hoola" or not v.hoola_turn or not v.is_my_turn:
            return None
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        size = mask.bit_count() + jokers
        if most_melded(mask, jokers, v.rules) < size - 1:
            return None
        return _cover(mask, jokers, v.rules)

    def hoola_discard(self, discards: Sequence[Discard], live: int) -> tuple[Discard, int] | None:
        """With nothing melded and the hand close to going out at once, the discard that leaves
        the most live cards to go out with next time (and their number), if they are enough."""
        v = self.view
        if not self._may_hold() or len(discards) < 2:
            return None
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        size = mask.bit_count() + jokers
        if most_melded(mask, jokers, v.rules) < size - 3:
            return None
        best: tuple[tuple[int, int], Discard] | None = None
        for a in discards:
            if a.card == JOKER:
                continue
            outs = hoola_outs(mask & ~(1 << a.card), jokers, live, v.rules)
            key = (outs, _value(a.card, v.rules))
            if best is None or key > best[0]:
                best = (key, a)
        if best is None or best[0][0] < HOOLA_OUTS:
            return None
        return best[1], best[0][0]

    def hoola_take(self, takes: Sequence[Take]) -> Take | None:
        """With the Hoola feat and nothing melded, a take after which every card but one of the
        hand melds at once (a Hoola now), if there is one."""
        v = self.view
        if self.feat != "hoola" or v.melded[self.me]:
            return None
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        for a in takes:
            rest = mask & ~_mask(a.with_cards)
            left = jokers - a.with_cards.count(JOKER)
            if most_melded(rest, left, v.rules) >= rest.bit_count() + left - 1:
                return a
        return None

    def hoola_waits(self, card: int, live: int) -> bool:
        """Whether to let ``card`` go while holding back for a Hoola: the hand is close (enough
        live cards would let it go out at once) and ``card`` does not let it go out now."""
        v = self.view
        if not self._may_hold():
            return False
        mask, jokers = _mask(v.hand), v.hand.count(JOKER)
        size = mask.bit_count() + jokers
        if card != JOKER and most_melded(mask | (1 << card), jokers, v.rules) >= size:
            return False  # with it, every card but one melds: a Hoola now
        return hoola_outs(mask, jokers, live, v.rules) >= HOOLA_OUTS


def _value(card: int, rules: Rules) -> int:
    return rules.seven_value_end if card % 13 == SEVEN else rules.rank_value(card % 13)
