"""What the expert reads from a view: live cards, what the others took, how close they are to out.

Only the view is used: the player's own hand, the table, the discard pile and the public history
(cards taken from the pile are public; cards drawn from the stock are not).

>>> from hoola.games.kalookie.rules import Rules
>>> from hoola.games.kalookie.state import DealState
>>> view = DealState.new(Rules.preset("british"), 3, seed=4).view(1)
>>> know = Knowledge(view)
>>> know.next_seat, round(know.threat, 2), sum(know.live) == 104 - 13 - 1
(2, 0.04, True)
"""

from __future__ import annotations

from hoola.core.cards import make_card
from hoola.games.kalookie.actions import Add, Discard, NewMeld, Swap, Take
from hoola.games.kalookie.cards import JOKER, NAMED, counts_of
from hoola.games.kalookie.legal import build_tokens
from hoola.games.kalookie.melds import Meld, card_at, positions_of
from hoola.games.kalookie.views import View

__all__ = ["Knowledge", "out_chance"]

# Chance an opponent goes out on their next turn, by cards in hand once they have melded.
_OUT_CHANCE = {1: 0.6, 2: 0.45, 3: 0.3, 4: 0.2, 5: 0.12, 6: 0.07, 7: 0.04}
_UNOPENED_OUT = 0.02  # a kalookie out of nowhere
_EVERY = [1] * 52


def out_chance(size: int, opened: bool) -> float:
    """The chance a player holding ``size`` cards goes out on their next turn (a rough prior)."""
    if not opened:
        return _UNOPENED_OUT
    return _OUT_CHANCE.get(size, 0.02)


class Knowledge:
    """The cards a view tells about: live copies of each card (not seen anywhere, nor known to be
    in another hand), the cards each opponent is known to hold (taken from the pile and not laid
    since), the ranks each discarded, the next seat, and the threat that someone goes out."""

    __slots__ = ("discarded", "hand", "held", "live", "live_jokers", "me", "next_seat", "rules",
                 "threat", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        self.rules = rules = view.rules
        self.me = view.player
        n = len(view.names)
        self.hand = counts_of(view.hand)
        seen = [0] * (JOKER + 1)
        for c in view.hand:
            seen[c] += 1
        for c in view.discards:
            seen[c] += 1
        for m in view.melds:
            for t in m.tokens:
                seen[JOKER if t >= JOKER else t] += 1
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.discarded: list[set[int]] = [set() for _ in range(n)]
        for a in view.history:
            q = a.player
            if isinstance(a, Take) and a.card is not None and q != self.me:
                self.held[q].append(a.card)
            elif isinstance(a, Discard):
                self.discarded[q].add(a.card % 13 if a.card < JOKER else JOKER)
                _forget(self.held[q], [a.card])
            elif isinstance(a, NewMeld | Swap):
                _forget(self.held[q], [c for c in a.cards if c < JOKER])
            elif isinstance(a, Add):
                _forget(self.held[q], [a.card] if a.card < JOKER else [])
        for cards in self.held:
            for c in cards:
                seen[c] += 1
        self.live = [max(0, rules.decks - seen[c]) for c in range(52)]
        self.live_jokers = max(0, rules.jokers - seen[JOKER] - view.turn.loose)
        self.next_seat = _seat_after(view, self.me, n)
        safe = 1.0
        for q in range(n):
            if q != self.me and view.standing.active[q] and view.hand_sizes[q]:
                safe *= 1.0 - out_chance(view.hand_sizes[q], view.opened[q])
        self.threat = 1.0 - safe

    # -- cards and the table --------------------------------------------------------------------

    def outs(self, melds: list[Meld]) -> float:
        """The share of unseen cards that one more card for ``melds`` would be: a card at a
        run's end, a set's missing suit, or a joker."""
        fits: set[int] = set()
        for meld in melds:
            fits.update(c for c in build_tokens(meld, _EVERY, 0, self.rules) if c < JOKER)
        unseen = sum(self.live) + self.live_jokers
        return (sum(self.live[c] for c in fits) + self.live_jokers) / unseen if unseen else 0.0

    def fits_table(self, card: int) -> bool:
        """Whether ``card`` could be built on a meld on the table (an end, a set's free suit)."""
        counts = [0] * 52
        counts[card] = 1
        return any(card in build_tokens(m, counts, 0, self.rules) for m in self.view.melds)

    def releases_joker(self, card: int) -> bool:
        """Whether ``card`` wins back a joker from a run on the table (the card it stands for)."""
        return any(NAMED + card in m.tokens for m in self.view.melds)

    def potential(self, card: int, hand: list[int]) -> float:
        """Live cards that would make a meld of ``card`` with one more card of ``hand``.

        A pair of suits is completed by either missing suit, two cards of a run by the card at
        either end or in the gap; cards the hand holds already do not count.
        """
        rules = self.rules
        rank, suit = card % 13, card // 13
        outs: set[int] = set()
        for s in range(4):
            if s != suit and hand[make_card(rank, s)]:
                outs.update(make_card(rank, t) for t in range(4) if t not in (s, suit))
        bottom = 1 if rules.aces == "high-or-low" else 2
        for p in positions_of(card, rules):
            for step in (-2, -1, 1, 2):
                q = p + step
                if not bottom <= q <= 14 or not hand[card_at(suit, q)] \
                        or card_at(suit, q) == card:
                    continue
                lo, hi = min(p, q), max(p, q)
                ends = (lo - 1, hi + 1) if hi - lo == 1 else (lo + 1,)
                outs.update(card_at(suit, e) for e in ends if bottom <= e <= 14)
        score = float(sum(self.live[c] for c in outs if not hand[c]))
        if score and hand[JOKER]:
            score += 2.0  # one card and a joker away
        return score

    def danger(self, card: int) -> float:
        """How much discarding ``card`` helps the next player, who alone may take it."""
        view = self.view
        q = self.next_seat
        if card == JOKER:
            return 100.0
        if q is None:
            return 0.0
        size = view.hand_sizes[q]
        close = 1.0 + (3.0 if size <= 3 else 1.5 if size <= 6 else 0.0)
        rank, suit = card % 13, card // 13
        danger = 0.0
        if view.opened[q]:
            if self.fits_table(card):
                danger += 3.0 * close
            if self.releases_joker(card):
                danger += 8.0
            for c in self.held[q]:
                if c % 13 == rank and c != card:
                    danger += 2.5 * close
                elif c // 13 == suit and abs(c % 13 - rank) <= 2:
                    danger += 2.0 * close
        else:
            danger += 0.1 * self.rules.card_value(card)  # it may complete their initial meld
        if rank in self.discarded[q]:
            danger -= 1.0  # they threw this rank away: they are not collecting it
        return danger


def _forget(cards: list[int], gone: list[int]) -> None:
    for c in gone:
        if c in cards:
            cards.remove(c)


def _seat_after(view: View, p: int, n: int) -> int | None:
    for k in range(1, n):
        q = (p + k) % n
        if view.standing.active[q]:
            return q
    return None
