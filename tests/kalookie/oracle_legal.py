"""REFERENCE ORACLE, frozen: a copy of ``src/hoola/games/kalookie/legal.py`` as it was
before the engine's speed work (the candidate lays of the listing),
unchanged but for its imports and this docstring.

The exactness tests (``test_oracle.py``) compare the engine against it: the same legal set
and the same ``can()``/``verify()`` answers at every position. Never edit it to make a test
pass: it is the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final

from hoola.core.cards import make_card
from hoola.games.kalookie.actions import Action, Add, NewMeld, Swap
from hoola.games.kalookie.cards import JOKER, NAMED, named_joker
from hoola.games.kalookie.rules import Rules

from .oracle_melds import Meld, card_at, find_melds

__all__ = ["build_tokens", "lay_options", "swap_cards"]

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
    if meld.kind == "set":
        if meld.identical or len(meld.tokens) >= 4:
            return []
        out = [] if meld.rank < 0 else [
            make_card(meld.rank, s) for s in range(4)
            if counts[make_card(meld.rank, s)] and all(c // 13 != s for c in meld.naturals())]
        return out + ([JOKER] if jokers else [])
    out = []
    low_end = 1 if rules.aces == "high-or-low" else 2
    for position in (meld.low - 1, meld.high + 1):
        if position < low_end or position > 14 or (meld.low == 1 and position == 14) \
                or (meld.high == 14 and position == 1):
            continue
        card = card_at(meld.suit, position)
        if counts[card] and card not in out:
            out.append(card)
        if jokers:
            out.append(named_joker(card))
    return out


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
    missing = [make_card(meld.rank, s) for s in range(4)
               if counts[make_card(meld.rank, s)] and all(c // 13 != s for c in meld.naturals())]
    if rules.joker_release == "one-card":
        return [(c,) for c in missing]
    if len(meld.tokens) != 3:
        return []
    return list(combinations(missing, 2))
