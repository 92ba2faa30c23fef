"""Kalookie's encoding: a turn as a macro-turn of atomic steps (draw or take, each meld, each
card built on a meld, each joker released, the discard; a warning; a buy-in or retiring).

Action ids, in this order (``docs/rl.md`` has the sizes):

- ``draw``, ``take``, ``warn``, ``buy-in``, ``retire``: 0-4;
- ``discard`` a card: 5 + the card (0-51, a joker 52);
- ``swap-upcard`` (Scarne's dealer): then one id a card;
- ``add`` a card to meld ``m<k>``: card x 64 + k - 1 (melds are numbered as laid in the hand);
- ``swap`` natural cards for the joker(s) of meld ``m<k>``: (k - 1) x 265 + the first card x 5
  + (0 for one card, else 1 + the second card's suit);
- ``meld``: one id for every meld that can be laid, by its cards (as a multiset: the packs hold
  copies) with at most two jokers (in a set unnamed, in a run each naming the card it stands
  for): every set of one rank (each suit up to once a deck), the sets of three and of four
  jokers (Scarne's ``joker_sets``) and every run of three to fourteen cards in a suit, the ace
  low or high;
- the pass (letting a warning or the upcard swap go) last.

Each legal action also comes as a feature vector (:meth:`KalookieEncoding.features`: its kind,
the cards it lays from the hand, the meld it builds on, and what it leaves in the hand: the
card it discards or takes beside the cards of its rank and suit, the points and loose cards
left, what the view tells of that card: :data:`RELATIONS`), so a network can score every legal
lay as DouZero's Q(s, a) does, whatever its id.

>>> from hoola.core.registry import get_game
>>> game = get_game("kalookie")
>>> enc = KalookieEncoding(game, game.rules("british"), 4)
>>> state = game.new_deal(game.rules("british"), ["A", "B", "C", "D"], seed=1)
>>> view = state.view(state.current)
>>> int(enc.mask(view).sum()) == len(view.legal) + view.can_pass
True
>>> enc.features(view).shape == (len(view.legal), enc.feature_size)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations, product
from typing import Any

import numpy as np

from hoola.core.game import Game
from hoola.games.kalookie.actions import (
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
)
from hoola.games.kalookie.cards import JOKER, NAMED
from hoola.games.kalookie.expert_know import Knowledge
from hoola.rl.encoding import Encoding, Floats, Layout

__all__ = ["KalookieEncoding", "meld_keys"]

SIMPLE = {Draw: 0, Take: 1, Warn: 2, BuyIn: 3, Retire: 4}
DISCARD = 5
SWAP_UPCARD = DISCARD + 53
ADD = SWAP_UPCARD + 53
MELD_IDS = 64  # melds a hand may lay, at most
SWAP = ADD + 53 * MELD_IDS
SWAP_SPAN = 53 * 5
MELD = SWAP + SWAP_SPAN * MELD_IDS
JOKERS = 2  # jokers a listed meld holds, at most
PHASES = ("play", "after", "over")
KINDS = ("draw", "take", "warn", "buy-in", "retire", "discard", "swap-upcard", "add", "swap",
         "meld")

MeldKey = tuple[int, ...]


def _sets(decks: int) -> Iterator[MeldKey]:
    for rank in range(13):
        for counts in product(range(decks + 1), repeat=4):
            naturals = [s * 13 + rank for s in range(4) for _ in range(counts[s])]
            for jokers in range(JOKERS + 1):
                if naturals and len(naturals) + jokers >= 3:
                    yield tuple(sorted([*naturals, *[JOKER] * jokers]))
    yield (JOKER,) * 3  # Scarne's sets of jokers alone (joker_sets)
    yield (JOKER,) * 4


def _runs() -> Iterator[MeldKey]:
    for suit in range(4):
        for low in range(14):  # positions: 0 the ace low ... 12 the king, 13 the ace high
            for length in range(3, 15 - low):
                cards = [suit * 13 + (low + i) % 13 for i in range(length)]
                for jokers in range(JOKERS + 1):
                    for places in combinations(range(length), jokers):
                        yield tuple(sorted(NAMED + c if i in places else c
                                           for i, c in enumerate(cards)))


@cache
def meld_keys(decks: int) -> dict[MeldKey, int]:
    """Every meld that can be laid with ``decks`` packs, by its sorted tokens -> its index."""
    keys: dict[MeldKey, int] = {}
    for key in (*_sets(decks), *_runs()):
        keys.setdefault(key, len(keys))
    return keys


class KalookieEncoding(Encoding):
    """Kalookie at one table size and rule set (see the module and ``docs/rl.md``)."""

    def __init__(self, game: Game, rules: Any, players: int) -> None:
        super().__init__(game, rules, players)
        self.melds_of = meld_keys(rules.decks)
        self.pass_id = MELD + len(self.melds_of)
        self.size = self.pass_id + 1
        p = players
        lay = self.layout = Layout()
        self.hand = lay.add("hand (count of each card, then jokers) / packs", 53)
        self.table = lay.add("cards on the table, by the meld's owner, relative seat / packs",
                             53 * p)
        self.named = lay.add("cards the jokers on the table stand for / packs", 52)
        self.discards = lay.add("discard pile (count of each card) / packs", 53)
        self.top = lay.add("top discard", 53)
        self.seats = lay.add("by relative seat: cards in hand / 15, has made the initial meld, "
                             "penalty / 100, buy-ins, still in, barred from calling up", 6 * p)
        self.current = lay.add("seat to move, relative", p)
        self.dealer = lay.add("dealer, relative", p)
        self.warner = lay.add("seat that may warn, relative", p)
        self.phase = lay.add("phase: " + ", ".join(PHASES), len(PHASES))
        self.turn = lay.add("this turn: drawn, first turn, upcard swap open, initial meld value "
                            "/ 100 and needed / 100, melds laid, must open, must lay the card "
                            "taken, jokers to lay, may pass", 10)
        self.counts = lay.add("stock / pack size, reshuffles", 2)
        self.feature_size = len(KINDS) + 53 + MELD_IDS + len(RELATIONS)

    def _slot(self, meld_id: int | None) -> int:
        if meld_id is None or not 1 <= meld_id <= MELD_IDS:
            raise ValueError(f"meld m{meld_id} has no id in this encoding (at most m{MELD_IDS})")
        return meld_id - 1

    def action_id(self, view: Any, action: Any) -> int:
        """The id of one of Kalookie's actions (see the module)."""
        kind = type(action)
        if kind is Discard:
            return int(DISCARD + action.card)
        if kind is Add:
            return int(ADD + action.card * MELD_IDS + self._slot(action.meld_id))
        if kind is NewMeld:
            return MELD + self.melds_of[tuple(sorted(action.cards))]
        if kind is Swap:
            cards = sorted(action.cards)
            second = 0 if len(cards) == 1 else 1 + cards[1] // 13
            return int(SWAP + SWAP_SPAN * self._slot(action.meld_id) + cards[0] * 5 + second)
        if kind is SwapUpcard:
            return int(SWAP_UPCARD + action.card)
        if kind in SIMPLE:
            return SIMPLE[kind]
        raise ValueError(f"not a Kalookie action: {action!r}")

    def features(self, view: Any) -> Floats:
        """Each legal action of ``view`` as a row: its kind (one-hot), the cards it takes from
        the hand (counts, jokers last), the meld it builds on or releases from (one-hot), then
        :data:`RELATIONS`: what it leaves in the hand."""
        return self.features_of(view, view.legal)

    def features_of(self, view: Any, actions: Iterable[Any | None]) -> Floats:
        """:meth:`features` of ``actions`` (legal in ``view``) in their order, the pass (None)
        a row of zeros: the rows of ``legal_ids(view).values()`` are what a network scoring
        actions is given."""
        actions = list(actions)
        rows = np.zeros((len(actions), self.feature_size), dtype=np.float32)
        base = len(KINDS)
        related = base + 53 + MELD_IDS
        hand = [0] * 53
        for card in view.hand:
            hand[min(card, JOKER)] += 1
        top = view.discards[-1] if view.discards else None
        know = Knowledge(view)
        for i, action in enumerate(actions):
            if action is None:
                continue
            rows[i, KINDS.index(action.verb)] = 1.0
            laid = _laid(action)
            for token in laid:
                rows[i, base + (JOKER if token >= JOKER else token)] += 1.0
            meld_id = getattr(action, "meld_id", None)
            if meld_id is not None and 1 <= meld_id <= MELD_IDS:
                rows[i, base + 53 + meld_id - 1] = 1.0
            moved = top if isinstance(action, Take) else laid[0] if isinstance(
                action, Discard) else None
            rows[i, related:] = self._relations(know, hand, laid, moved, isinstance(action, Take))
        return rows

    def _relations(self, know: Knowledge, hand: list[int], laid: tuple[int, ...],
                   moved: int | None, taken: bool) -> list[float]:
        """:data:`RELATIONS` of an action taking ``laid`` from ``hand`` (counts), ``moved`` the
        card it discards or takes (``taken``), ``know`` what the view tells of the cards."""
        after = hand.copy()
        for token in laid:
            after[min(token, JOKER)] -= 1
        if taken and moved is not None:
            after[min(moved, JOKER)] += 1
        rules = self.rules
        points = sum(rules.card_value(c) * n for c, n in enumerate(after) if n)
        loose = sum(n for c, n in enumerate(after[:JOKER]) if n and not _partners(after, c))
        out = [0.0, 0.0, 0.0, 0.0, sum(after) / 15, points / 100, loose / 10, 0.0, 0.0, 0.0,
               0.0, know.threat]
        if moved is not None:
            out[0] = rules.card_value(min(moved, JOKER)) / 10
            if moved < JOKER:
                if taken:  # beside the hand it joins
                    after[moved] -= 1
                rank, suit = moved % 13, moved // 13
                out[1] = sum(after[s * 13 + rank] for s in range(4)) / 2
                out[2] = sum(after[suit * 13 + r] for r in _beside(rank, 1)) / 2
                out[3] = sum(after[suit * 13 + r] for r in _beside(rank, 2)) / 2
                out[7] = know.potential(moved, after) / 4
                out[8] = min(know.danger(moved), 20.0) / 10
                out[9] = float(know.fits_table(moved))
                out[10] = float(know.releases_joker(moved))
        return out

    def fill(self, view: Any, out: Floats) -> None:
        """The view, laid out as :attr:`layout` says."""
        p, me = self.players, view.player
        seat_of = [(q - me) % p for q in range(p)]
        packs = float(self.rules.decks)
        hand = self.hand.start
        for card in view.hand:
            out[hand + min(card, JOKER)] += 1.0 / packs
        named = self.named.start
        for meld in view.melds:
            at = self.table.start + 53 * seat_of[meld.owner]
            for token in meld.tokens:
                if token >= NAMED:
                    out[at + JOKER] += 1.0 / packs
                    out[named + token - NAMED] += 1.0 / packs
                else:
                    out[at + token] += 1.0 / packs
        discards = self.discards.start
        for card in view.discards:
            out[discards + min(card, JOKER)] += 1.0 / packs
        if view.discards:
            out[self.top.start + min(view.discards[-1], JOKER)] = 1.0
        standing = view.standing
        for q in range(p):
            at = self.seats.start + 6 * seat_of[q]
            out[at] = view.hand_sizes[q] / 15
            out[at + 1] = float(view.opened[q])
            out[at + 2] = standing.penalty[q] / 100
            out[at + 3] = float(standing.buy_ins[q])
            out[at + 4] = float(standing.active[q])
            out[at + 5] = float(q in view.barred)
        out[self.current.start + seat_of[view.current]] = 1.0
        out[self.dealer.start + seat_of[view.dealer]] = 1.0
        if view.warner is not None:
            out[self.warner.start + seat_of[view.warner]] = 1.0
        if view.phase in PHASES:
            out[self.phase.start + PHASES.index(view.phase)] = 1.0
        turn, at = view.turn, self.turn.start
        out[at:at + 10] = (float(view.drawn), float(view.first), float(view.swap_window),
                           turn.value / 100, self.rules.initial_meld / 100, len(turn.laid),
                           float(turn.must_open), float(turn.must_lay is not None), turn.loose,
                           float(view.can_pass))
        out[self.counts.start] = view.stock_size / self.rules.pack_size
        out[self.counts.start + 1] = float(view.reshuffles)


RELATIONS = ("the card discarded or taken: its points / 10",
             "cards of its rank left in the hand / 2",
             "cards of its suit one rank away / 2", "cards of its suit two ranks away / 2",
             "cards left in the hand / 15", "their points / 100",
             "loose cards left (no card of the rank, none of the suit within two) / 10",
             "live cards that would make a meld of it with the hand / 4",
             "how much it helps the next seat (the expert's danger, at most 20) / 10",
             "it could be built on the table", "it wins back a joker on the table",
             "the threat that another seat goes out next turn")
"""The last floats of an action's features: the card it discards or takes, the hand it leaves,
and what the view tells of them as the expert reads it (:class:`Knowledge`: live cards, the
cards the next seat took from the pile, who is near out)."""


@cache
def _beside(rank: int, distance: int) -> tuple[int, ...]:
    """The ranks ``distance`` from ``rank`` in a suit, the ace low or high."""
    places = (rank, 13) if rank == 0 else (rank,)
    return tuple(sorted({q % 13 for p in places for q in (p - distance, p + distance)
                         if 0 <= q <= 13 and q % 13 != rank}))


def _partners(counts: list[int], card: int) -> bool:
    """Whether ``card`` has a partner in ``counts``: another of its rank, or of its suit within
    two ranks."""
    rank, suit = card % 13, card // 13
    if counts[card] > 1 or any(counts[s * 13 + rank] for s in range(4) if s != suit):
        return True
    return any(counts[suit * 13 + r] for d in (1, 2) for r in _beside(rank, d))


def _laid(action: Any) -> tuple[int, ...]:
    """The cards an action takes from the hand (named jokers as jokers)."""
    if isinstance(action, NewMeld | Swap):
        return tuple(action.cards)
    if isinstance(action, Add | Discard | SwapUpcard):
        return (action.card,)
    return ()
