"""Hoola's encoding: a turn as a macro-turn of atomic steps (draw or take, each meld, each
addition, the discard; knock, blast, four sevens; a claim or a pass in a window).

Action ids, in this order (``docs/rl.md`` has the sizes):

- ``draw``, ``knock``, ``blast``, ``sevens``, ``play``, ``drop``: 0-5;
- ``discard`` a card: 6 + the card (0-51, the joker 52);
- ``take`` the discard: one id for every three-card meld it can make (the card taken is the
  discard, so the meld says which two cards go with it and what a joker stands for), then the
  online claims that end play (for a blast, for four sevens);
- ``meld``: one id for every meld that can be laid (a set, a run, a lone seven; with a joker
  naming a card), the order of the cards as laid not counting (with Glenn's building, where
  the order is the stack's, one id for each order);
- ``add`` a natural card next to a card on the table: card x 53 + that card; ``add`` a joker
  next to a card: the card it lies on x 53 + the card it names (52: a joker added to a set
  naming none);
- with Glenn's building, ``add`` onto a meld named by its number (a joker on top): card x 64 +
  the number - 1;
- the pass (letting a discard go) last.

>>> from hoola.core.registry import get_game
>>> game = get_game("hoola")
>>> enc = HoolaEncoding(game, game.rules("pagat"), 4)
>>> state = game.new_deal(game.rules("pagat"), ["A", "B", "C", "D"], seed=1)
>>> view = state.view(0)
>>> enc.size, int(enc.mask(view).sum()) == len(view.legal)
(11061, True)
>>> enc.action(view, DRAW)
Draw(player=0, card=None)
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations
from typing import Any

from hoola.core.cards import JOKER
from hoola.core.game import Game
from hoola.games.hoola.actions import (
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
from hoola.games.hoola.missions import FEATS
from hoola.rl.encoding import Encoding, Floats, Layout, cards_into, one_hot

__all__ = ["DRAW", "HoolaEncoding", "meld_keys", "take_keys"]

DRAW, KNOCK, BLAST, SEVENS, PLAY, DROP = range(6)
DISCARD = 6
TAKE = DISCARD + 53
SEVEN_RANK = 6
MELD_IDS = 64  # melds a deal may lay, at most, for additions that name the meld
PHASES = ("play", "choose", "over")
MeldKey = tuple[tuple[int, ...], int | None]


def _sets() -> Iterator[MeldKey]:
    for rank in range(13):
        suits = range(4)
        cards = [s * 13 + rank for s in suits]
        for size in (3, 4):
            yield from ((c, None) for c in combinations(cards, size))
        for size in (2, 3):
            for naturals in combinations(cards, size):
                yield (*naturals, JOKER), None  # a joker in a set need not name its suit
                for named in cards:
                    if named not in naturals:
                        yield (*naturals, JOKER), named


def _runs(lengths: range) -> Iterator[MeldKey]:
    for suit in range(4):
        for start in range(13):
            for length in lengths:
                cards = tuple(suit * 13 + (start + i) % 13 for i in range(length))
                yield cards, None
                for i, named in enumerate(cards):
                    yield (*cards[:i], *cards[i + 1:], JOKER), named


def _key(cards: tuple[int, ...], joker_as: int | None) -> MeldKey:
    return tuple(sorted(cards)), joker_as


def _order(cards: tuple[int, ...]) -> int:
    """The rank of the order ``cards`` are written in among the orders of the same cards
    (0: ascending), counting each card's place among those not yet written (a Lehmer code)."""
    rest = sorted(cards)
    rank = 0
    for card in cards:
        i = rest.index(card)
        rank = rank * len(rest) + i
        rest.pop(i)
    return rank


@cache
def meld_keys(longest: int = 13) -> dict[MeldKey, int]:
    """Every meld that may be laid, by its cards (sorted) and the card a joker names -> its
    index: sets of three or four (a joker for one card), runs of three to ``longest`` in a suit
    (wrapping past the king; a joker for any one card), lone sevens (a joker as a seven)."""
    keys: dict[MeldKey, int] = {}
    lone = [((s * 13 + SEVEN_RANK,), None) for s in range(4)] + \
        [((JOKER,), s * 13 + SEVEN_RANK) for s in range(4)]
    for cards, named in [*_sets(), *_runs(range(3, longest + 1)), *lone]:
        keys.setdefault(_key(cards, named), len(keys))
    return keys


@cache
def take_keys() -> dict[MeldKey, int]:
    """Every three-card meld a discard can be taken into -> its index."""
    keys: dict[MeldKey, int] = {}
    for cards, named in [*_sets(), *_runs(range(3, 4))]:
        if len(cards) == 3:
            keys.setdefault(_key(cards, named), len(keys))
    return keys


class HoolaEncoding(Encoding):
    """Hoola at one table size (see the module and ``docs/rl.md``)."""

    def __init__(self, game: Game, rules: Any, players: int) -> None:
        super().__init__(game, rules, players)
        # With Glenn's building the order the cards are written in is the stack's (ruling 21:
        # the last is its top card, the one beneath it is uncovered by a kill), so the same
        # cards in another order are another action; no meld holds more than four cards.
        self.orders = 24 if rules.glenn_melds else 1
        self.melds_of = meld_keys(4 if rules.glenn_melds else 13)
        self.take_for = TAKE + len(take_keys()) * self.orders  # blast, then sevens
        self.meld = self.take_for + 2
        self.add = self.meld + len(self.melds_of) * self.orders
        self.add_joker = self.add + 53 * 53
        # With Glenn's building an addition onto a joker on top names the meld (``add X on m2``).
        self.add_meld = self.add_joker + 53 * 53
        self.pass_id = self.add_meld + (53 * MELD_IDS if rules.glenn_melds else 0)
        self.size = self.pass_id + 1
        p = players
        lay = self.layout = Layout()
        self.hand = lay.add("hand (each card, then jokers)", 53)
        self.melds = lay.add("cards on the table, by the meld's owner, relative seat", 53 * p)
        self.faces = lay.add("cards the jokers on the table stand for", 52)
        self.discards = lay.add("discard pile (each card)", 53)
        self.top = lay.add("top discard", 53)
        self.claimable = lay.add("the card this seat may take now", 53)
        self.seats = lay.add("by relative seat: cards in hand / 10, in the deal, has melded, "
                             "has a meld of its own, has had a turn", 5 * p)
        self.current = lay.add("seat to move, relative", p)
        self.discarder = lay.add("seat that discarded the claimable card, relative", p)
        self.dealer = lay.add("dealer, relative", p)
        self.phase = lay.add("phase: " + ", ".join(PHASES), len(PHASES))
        self.flags = lay.add("drawn, claim open, upcard live, Hoola turn, last draw, may pass", 6)
        self.counts = lay.add("stock / 52, stake / 8", 2)
        self.mission = lay.add("mission: its feat, then its multiplier / 4", len(FEATS) + 1)

    def action_id(self, view: Any, action: Any) -> int:
        """The id of one of Hoola's actions (see the module)."""
        kind = type(action)
        if kind is Discard:
            return int(DISCARD + action.card)
        if kind is Draw:
            return DRAW
        if kind is Add:
            if action.on is None:
                if action.meld_id is None or not 1 <= action.meld_id <= MELD_IDS \
                        or self.pass_id == self.add_meld:
                    raise ValueError(f"an addition this encoding has no id for: {action!r}")
                return int(self.add_meld + action.card * MELD_IDS + action.meld_id - 1)
            if action.card == JOKER:
                named = JOKER if action.joker_as is None else action.joker_as
                return int(self.add_joker + action.on * 53 + named)
            return int(self.add + action.card * 53 + action.on)
        if kind is NewMeld:
            return self.meld + self._index(self.melds_of, action.cards, action.joker_as)
        if kind is Take:
            if action.purpose:
                return self.take_for + ("blast", "sevens").index(action.purpose)
            return TAKE + self._index(take_keys(), (action.card, *action.with_cards),
                                      action.joker_as)
        simple = {Knock: KNOCK, Blast: BLAST, Sevens: SEVENS, Play: PLAY, Drop: DROP}
        if kind in simple:
            return simple[kind]
        raise ValueError(f"not a Hoola action: {action!r}")

    def _index(self, keys: dict[MeldKey, int], cards: tuple[int, ...],
               joker_as: int | None) -> int:
        key = _key(cards, joker_as)
        if self.orders == 1:
            return keys[key]
        return keys[key] * self.orders + _order(cards)

    def fill(self, view: Any, out: Floats) -> None:
        """The view, laid out as :attr:`layout` says."""
        p, rel = self.players, self.relative
        cards_into(out, self.hand, view.hand)
        for meld in view.melds:
            at = self.melds.start + 53 * rel(view, meld.owner)
            cards_into(out, slice(at, at + 53), meld.cards)
            cards_into(out, self.faces, [f for c, f in zip(meld.cards, meld.faces, strict=False)
                                         if c == JOKER and f >= 0])
        cards_into(out, self.discards, view.discards)
        if view.discards:
            one_hot(out, self.top, view.discards[-1])
        one_hot(out, self.claimable, view.claimable)
        for seat in range(p):
            at = self.seats.start + 5 * rel(view, seat)
            out[at:at + 5] = (view.hand_sizes[seat] / 10, float(view.in_deal[seat]),
                              float(view.melded[seat]), float(view.own_meld[seat]),
                              float(view.had_turn[seat]))
        one_hot(out, self.current, rel(view, view.current))
        if view.discarder is not None:
            one_hot(out, self.discarder, rel(view, view.discarder))
        one_hot(out, self.dealer, rel(view, view.dealer))
        one_hot(out, self.phase, PHASES.index(view.phase) if view.phase in PHASES else None)
        out[self.flags.start:self.flags.stop] = (
            float(view.drawn), float(view.claim_open), float(view.upcard_live),
            float(view.hoola_turn), float(view.last_draw), float(view.can_pass))
        out[self.counts.start] = view.stock_size / 52
        out[self.counts.start + 1] = float(view.stake) / 8
        if view.mission is not None:
            one_hot(out, self.mission, list(FEATS).index(view.mission.feat))
            out[self.mission.stop - 1] = view.mission.multiplier / 4
