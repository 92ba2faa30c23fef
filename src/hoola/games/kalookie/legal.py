"""The lays a player might make now, listed for bots and interfaces before the state checks each.

New melds come from :func:`~hoola.games.kalookie.melds.find_melds` with at most two jokers (13- to
15-card hands with three or four jokers hold hundreds of melds); builds are every card of the hand
that fits an end of a run or a set's missing suit, and a joker at each place it fits; releases are
the natural cards that win a joker back. The state keeps only those it accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from hoola.core.cards import make_card
from hoola.games.kalookie.actions import Action, Add, NewMeld, Swap
from hoola.games.kalookie.cards import JOKER, NAMED, named_joker
from hoola.games.kalookie.melds import Meld, card_at, find_melds, run_end
from hoola.games.kalookie.rules import Rules

__all__ = ["MAX_LISTED_JOKERS", "build_places", "build_tokens", "lay_options", "swap_cards"]

MAX_LISTED_JOKERS: Final = 2


def lay_options(counts: Sequence[int], loose: int, melds: Sequence[Meld], rules: Rules, p: int,
                *, builds: bool, swaps: bool) -> list[Action]:
    """Candidate new melds, builds and joker releases for seat ``p`` holding ``counts``."""
    jokers = counts[JOKER] + loose
    acts: list[Action] = [NewMeld(p, tokens)
                          for tokens in find_melds(counts, jokers, rules, MAX_LISTED_JOKERS)]
    if builds:
        for meld in melds:
            acts.extend(Add(p, token, meld.id) for token in build_tokens(meld, counts, jokers,
                                                                         rules))
    if swaps:
        for meld in melds:
            if meld.jokers:
                acts.extend(Swap(p, cards, meld.id) for cards in swap_cards(meld, counts, rules))
    return acts


def build_tokens(meld: Meld, counts: Sequence[int], jokers: int, rules: Rules) -> list[int]:
    """The cards of a hand (and jokers) that could be built on ``meld``."""
    out: list[int] = []
    for card, joker, _ in build_places(meld, rules):
        if card >= 0 and counts[card] and card not in out:
            out.append(card)
        if joker >= 0 and jokers:
            out.append(joker)
    return out


def build_places(meld: Meld, rules: Rules) -> tuple[tuple[int, int, str], ...]:
    """Where ``meld`` may grow: ``(card, joker, end)`` for each card that fits (-1 if none) and
    the joker token that may stand there (-1 if none), and the end (``"low"``, ``"high"``, or
    ``"set"``) it goes to, in the order :func:`build_tokens` lists them."""
    if meld.kind == "set":
        if meld.identical or len(meld.tokens) >= 4:
            return ()
        suits = {c // 13 for c in meld.naturals()}
        out = [] if meld.rank < 0 else [
            (make_card(meld.rank, s), -1, "set") for s in range(4) if s not in suits]
        return (*out, (-1, JOKER, "set"))
    places = []
    low_end = 1 if rules.aces == "high-or-low" else 2
    for position in (meld.low - 1, meld.high + 1):
        if position < low_end or position > 14 or (meld.low == 1 and position == 14) \
                or (meld.high == 14 and position == 1):
            continue
        card = card_at(meld.suit, position)
        places.append((card, named_joker(card), run_end(meld, card, rules)))
    return tuple(places)


def swap_cards(meld: Meld, counts: Sequence[int], rules: Rules) -> list[tuple[int, ...]]:
    """The natural cards of a hand that could release a joker from ``meld`` (ruling 7)."""
    if meld.kind == "run":
        faces = {t - NAMED for t in meld.tokens if t >= NAMED}
        return [(c,) for c in sorted(faces) if counts[c]]
    if meld.rank < 0:
        return []
    if meld.identical:
        card = meld.naturals()[0]
        return [(card,)] if rules.joker_release == "one-card" and counts[card] else []
    if len(meld.tokens) >= 4:
        return []  # a closed four-card set never gives up a joker, under any release rule
    missing = [make_card(meld.rank, s) for s in range(4)
               if counts[make_card(meld.rank, s)] and all(c // 13 != s for c in meld.naturals())]
    if rules.joker_release == "one-card":
        return [(c,) for c in missing]
    return list(combinations(missing, 2))
