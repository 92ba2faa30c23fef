"""Guessing the hidden cards of a capture-game hand (for search bots).

A seat knows its hand, the hands the rules show it (a partner's in Sedmice once the stock is
gone) and every card played; the other hands, the stock and any cards set aside for the last
trick are the rest of the pack, dealt at random in the sizes the view shows.

With ``infer`` the guess also reads how the others played (:func:`shortages`): a seat that threw
a card onto a trick the other side was winning, when a card of the led rank would have taken it,
very likely held none then (good players take such a trick: measured on the expert's own deals,
a hidden seat held the led rank after such a play 0-12% of the time against some 25% at
random); and, where the trick carried points, it likely held no wild either (15-28% against
40-60%). Such a seat's cards from before the play are dealt from the unseen cards without those
ranks (each guess drops a shortage with about the chance that it is wrong, :data:`DOUBT`); the
cards it drew since are dealt at random. Only the public history is read, and every guess still
deals exactly the unseen cards in the sizes the view shows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from hoola.core.cards import rank_of
from hoola.core.chance import shuffle
from hoola.games.capture.actions import Dark, Play, Stop
from hoola.games.capture.state import DealState
from hoola.games.capture.views import View, played_cards

__all__ = ["DOUBT", "Shortage", "determinize", "shortages", "unseen", "world"]

DOUBT = {"led": 0.1, "wild": 0.5}  # chance a guess ignores a shortage (it was a choice)
RICH: Final = 10  # least card points in a trick whose wilds a seat that let it go likely lacked


class Shortage(NamedTuple):
    """Ranks ``seat`` very likely lacked when it let a trick go (``why``: ``"led"`` for the led
    rank, ``"wild"`` for the wilds), and how many cards it had drawn by then."""

    seat: int
    ranks: frozenset[int]
    why: str
    drawn: int


def unseen(view: View) -> list[int]:
    """The cards this seat has not seen: the pack less its hand, shown hands and cards played."""
    cards = view.rules.pack()
    seen = [*view.hand, *(c for _, h in view.shown for c in h), *played_cards(view)]
    for c in seen:
        cards.remove(c)
    return cards


def shortages(view: View) -> tuple[list[Shortage], list[int]]:
    """What the public history says each seat lacked (see the module), and how many cards each
    seat has drawn from the stock so far (to tell its cards from before a shortage)."""
    rules, n, side_of = view.rules, len(view.names), view.side_of
    wilds = frozenset(rules.wilds)
    hands = [rules.hand_size] * n
    stock = len(rules.pack()) - n * rules.hand_size
    drawn = [0] * n
    sizes = [len(t) for t in view.taken]
    darks = iter(view.darks)
    out: list[Shortage] = []
    trick: list[int] = []
    led = winner = 0
    done = 0  # tricks finished
    for a in view.history:
        if isinstance(a, Stop) or not isinstance(a, Play | Dark):
            continue  # a stop tells nothing: a leader that may fight on holds a taker
        q = a.player
        if isinstance(a, Play):
            card = a.card
            hands[q] -= 1
        else:
            card = next(darks)
            stock -= 1
        rank = rank_of(card)
        if not trick:
            led, winner = rank, q
        elif rank == led or rank in wilds:
            winner = q
        elif isinstance(a, Play) and side_of[winner] != side_of[q]:
            out.append(Shortage(q, frozenset((led,)), "led", drawn[q]))
            if wilds and sum(rules.points_of(c) for c in trick) >= RICH:
                out.append(Shortage(q, wilds, "wild", drawn[q]))
        trick.append(card)
        if done < len(sizes) and len(trick) == sizes[done]:
            done += 1
            trick = []
            stock = _draw(rules.hand_size, hands, drawn, stock)
    return out, drawn


def _draw(size: int, hands: list[int], drawn: list[int], stock: int) -> int:
    """The refill after a trick, in counts (as the engine deals it); the stock left."""
    needs = [max(0, size - h) for h in hands]
    needing = sum(1 for x in needs if x)
    if not stock or not needing:
        return stock
    short = sum(needs) > stock
    if short:
        needs = [min(x, stock // needing) for x in needs]
    for q, x in enumerate(needs):
        hands[q] += x
        drawn[q] += x
        stock -= x
    return 0 if short else stock  # what a short stock leaves goes with the last trick


def determinize(view: View, rng: random.Random, infer: bool = False) -> DealState:
    """A hand consistent with ``view``: the unseen cards dealt at random (with ``infer``, the
    hidden seats' older cards dealt short of the ranks they likely lacked: see the module)."""
    cards = unseen(view)
    shuffle(rng, cards)
    if infer:
        cards = _inferred(view, cards, rng)
    return world(view, cards)


def _inferred(view: View, cards: list[int], rng: random.Random) -> list[int]:
    """The shuffled unseen ``cards`` reordered so that each hidden hand's older cards avoid the
    ranks its shortages name, as far as the unseen cards allow."""
    found, drawn = shortages(view)
    known = {q for q, _ in view.shown} | {view.player}
    # For each hidden hand, the ranks each of its cards avoids, oldest card first.
    avoid: dict[int, list[frozenset[int]]] = {}
    for s in found:
        size = view.hand_sizes[s.seat]
        if s.seat in known or not size or rng.random() < DOUBT[s.why]:
            continue
        old = size - (drawn[s.seat] - s.drawn)  # cards in hand held since the shortage
        slots = avoid.setdefault(s.seat, [frozenset()] * size)
        for j in range(max(0, old)):
            slots[j] = slots[j] | s.ranks
    if not avoid:
        return cards
    pool = list(cards)
    hands: dict[int, list[int]] = {}
    # Constrained cards first, the most constrained hand first; then everything else in order.
    for q in sorted(avoid, key=lambda q: -sum(len(r) for r in avoid[q])):
        hands[q] = []
        for ranks in avoid[q]:
            if not ranks:
                continue
            at = next((i for i, c in enumerate(pool) if c % 13 not in ranks), 0)
            hands[q].append(pool.pop(at))
    out: list[int] = []
    for q, size in enumerate(view.hand_sizes):
        if q in known:
            continue
        mine = hands.get(q, [])
        out.extend(mine)
        for _ in range(size - len(mine)):
            out.append(pool.pop(0))
    out.extend(pool)
    return out


def world(view: View, cards: Sequence[int]) -> DealState:
    """The hand of ``view`` with the unseen ``cards`` dealt in order: the hidden hands in seat
    order, then the stock (top first), then the cards set aside."""
    known = dict(view.shown)
    known[view.player] = view.hand
    hands: list[list[int]] = []
    at = 0
    for q, size in enumerate(view.hand_sizes):
        if q in known:
            hands.append(list(known[q]))
        else:
            hands.append(list(cards[at:at + size]))
            at += size
    stock = list(cards[at:at + view.stock_size])
    leftover = list(cards[at + view.stock_size:at + view.stock_size + view.leftover_size])
    s = object.__new__(DealState)
    s.base = s.rules = view.rules
    s.names, s.n = view.names, len(view.names)
    s.sides, s.side_of = view.sides, view.side_of
    s.teams = view.sides if len(view.sides) < s.n else None
    s.dealer = view.dealer
    s.dealt, s.stock_dealt = tuple(tuple(h) for h in hands), tuple(stock)
    s.hands, s.stock, s.leftover = hands, list(reversed(stock)), leftover
    s.captured, s.tricks = view.captured, view.tricks
    s.history, s.darks = list(view.history), view.darks
    s.signals, s.signaled = list(view.signals), view.signaled
    s.leads, s.trick, s.taken = view.leads, list(view.trick), view.taken
    s.last_winner, s.leader, s.winner, s.led = view.last_winner, view.leader, view.winner, \
        view.led
    s.queue, s.deciding, s.phase1 = list(view.queue), view.deciding, view.phase1
    s.kings_played = view.kings_played
    s.kings = sum(1 for c in view.rules.pack() if c % 13 == 12)
    s.dirty, s.cleaned = view.dirty, view.cleaned
    s.result, s.rng = view.result, None
    s.standing, s.carry = view.standing, view.carry
    s._listed = None
    return s
