"""REFERENCE ORACLE, frozen: a copy of ``src/hoola/games/kalookie/melds.py`` as it was
before the engine's speed work (melds, building, releasing, find_melds),
unchanged but for its imports and this docstring.

The exactness tests (``test_oracle.py``) compare the engine against it: the same legal set
and the same ``can()``/``verify()`` answers at every position. Never edit it to make a test
pass: it is the reference.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from hoola.core.cards import format_card, make_card
from hoola.core.errors import IllegalActionError
from hoola.games.kalookie.cards import JOKER, NAMED, face_of, format_tokens, named_joker
from hoola.games.kalookie.rules import Rules

__all__ = [
    "JOKER_SET_VALUE",
    "Meld",
    "build",
    "card_at",
    "find_melds",
    "meld_value",
    "new_meld",
    "position_value",
    "positions_of",
    "release",
    "token_value",
]

JOKER_SET_VALUE: Final = 15  # each joker of a set of jokers (Scarne)


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld on the table, numbered ``id`` in the order laid in the hand (``m1``, ``m2``...)."""

    id: int
    owner: int
    kind: str
    tokens: tuple[int, ...]
    rank: int = -1
    suit: int = -1
    low: int = 0
    identical: bool = False

    @property
    def high(self) -> int:
        """A run's highest position."""
        return self.low + len(self.tokens) - 1

    @property
    def jokers(self) -> int:
        """How many jokers the meld holds."""
        return sum(1 for t in self.tokens if t >= JOKER)

    def naturals(self) -> tuple[int, ...]:
        """The natural cards of the meld."""
        return tuple(t for t in self.tokens if t < JOKER)

    def __str__(self) -> str:
        return format_tokens(self.tokens)


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


# -- positions and values -------------------------------------------------------------------------

def positions_of(card: int, rules: Rules) -> tuple[int, ...]:
    """The run positions a natural card may take: an ace 14, and 1 with ``aces = high-or-low``."""
    rank = card % 13
    if rank:
        return (rank + 1,)
    return (14, 1) if rules.aces == "high-or-low" else (14,)


def card_at(suit: int, position: int) -> int:
    """The natural card at ``position`` of a run in ``suit``."""
    return make_card(0 if position in (1, 14) else position - 1, suit)


def position_value(position: int, rules: Rules) -> int:
    """A run position's value in a meld: a low ace 1, a high ace ``ace_penalty``, courts 10."""
    if position == 1:
        return 1
    if position == 14:
        return rules.ace_penalty
    return min(position, 10)


def _rank_value(rank: int, rules: Rules) -> int:
    return rules.ace_penalty if rank == 0 else min(rank + 1, 10)


def meld_value(meld: Meld, rules: Rules) -> int:
    """The meld's points, jokers at the card they stand for (ruling 5)."""
    if meld.kind == "run":
        return sum(position_value(p, rules) for p in range(meld.low, meld.high + 1))
    if meld.rank < 0:
        return JOKER_SET_VALUE * len(meld.tokens)
    return len(meld.tokens) * _rank_value(meld.rank, rules)


def token_value(meld: Meld, position: int, rules: Rules) -> int:
    """The value of one card built on ``meld`` (at ``position`` for a run)."""
    if meld.kind == "run":
        return position_value(position, rules)
    return JOKER_SET_VALUE if meld.rank < 0 else _rank_value(meld.rank, rules)


def _min_position(rules: Rules) -> int:
    return 1 if rules.aces == "high-or-low" else 2


# -- new melds ------------------------------------------------------------------------------------

def new_meld(tokens: Sequence[int], rules: Rules, *, owner: int, meld_id: int) -> Meld:
    """The meld ``tokens`` make, or an IllegalActionError saying which rule they break."""
    text = format_tokens(tokens)
    if len(tokens) < 3:
        raise _illegal(f"{text} is not a meld: a meld has at least three cards (ruling 3)",
                       "meld-too-short")
    named = [t for t in tokens if t >= NAMED]
    unnamed = [t for t in tokens if t == JOKER]
    naturals = [t for t in tokens if t < JOKER]
    if named and unnamed:
        raise _illegal(f"{text} is not a meld: name every joker of a run (JK=Ts) and none of a "
                       "set (ruling 4)", "joker-naming")
    if not naturals:
        if named or not rules.joker_sets or len(tokens) > 4:
            raise _illegal(f"{text} is not a meld: a meld holds at least one natural card "
                           "(ruling 3)", "no-natural")
        return Meld(meld_id, owner, "set", tuple(tokens))
    if named or (not unnamed and len({c % 13 for c in naturals}) > 1):
        return _new_run(tokens, rules, owner, meld_id, text)
    return _new_set(naturals, len(unnamed), rules, owner, meld_id, text)


def _new_set(naturals: list[int], jokers: int, rules: Rules, owner: int, meld_id: int,
             text: str) -> Meld:
    rank = naturals[0] % 13
    if any(c % 13 != rank for c in naturals):
        raise _illegal(f"{text} is not a meld: a set's cards are all of one rank, and a joker in "
                       "a run must be named (JK=Ts) (ruling 4)", "not-a-set")
    size = len(naturals) + jokers
    cards = tuple(sorted(naturals))
    if rules.identical_sets and len(naturals) >= 2 and len(set(naturals)) == 1:
        if size != 3:
            raise _illegal(f"{text} is not a meld: a set of identical cards has exactly three "
                           "cards (identical_sets)", "not-a-set")
        return Meld(meld_id, owner, "set", cards + (JOKER,) * jokers, rank=rank, identical=True)
    if len({c // 13 for c in naturals}) != len(naturals):
        twice = next(c for c in naturals if sum(1 for d in naturals if d // 13 == c // 13) > 1)
        also = ", or three identical cards (identical_sets)" if rules.identical_sets else ""
        suit = ("spades", "hearts", "diamonds", "clubs")[twice // 13]
        raise _illegal(f"{text} is not a meld: a set's cards are all of different suits{also}, "
                       f"and two here are {suit} (ruling 3)", "not-a-set")
    if size > 4:
        raise _illegal(f"{text} is not a meld: a set has three or four cards (ruling 3)",
                       "not-a-set")
    return Meld(meld_id, owner, "set", cards + (JOKER,) * jokers, rank=rank)


def _run_slots(faces: list[int], rules: Rules) -> list[int] | None:
    """Positions for the cards ``faces`` stand for, in order, or None when no run fits."""
    aces = sum(1 for c in faces if c % 13 == 0)
    if aces > 1:
        return None
    choices = (14, 1) if rules.aces == "high-or-low" else (14,)
    for ace_position in choices if aces else (0,):
        slots = [ace_position if c % 13 == 0 else c % 13 + 1 for c in faces]
        ordered = sorted(slots)
        if len(set(slots)) == len(slots) and ordered[-1] - ordered[0] == len(slots) - 1 \
                and ordered[0] >= _min_position(rules):
            return slots
    return None


def _new_run(tokens: Sequence[int], rules: Rules, owner: int, meld_id: int, text: str) -> Meld:
    faces = [face_of(t) for t in tokens]
    if any(f is None for f in faces):
        raise _illegal(f"{text} is not a meld: a joker in a run must be named (JK=Ts) (ruling 4)",
                       "joker-naming")
    cards = [f for f in faces if f is not None]
    suit = cards[0] // 13
    if any(c // 13 != suit for c in cards):
        raise _illegal(f"{text} is not a meld: a run's cards are all of one suit (ruling 3)",
                       "not-a-run")
    slots = _run_slots(cards, rules)
    if slots is None:
        ranks = {c % 13 for c in cards}
        if {0, 1, 12} <= ranks:
            why = "a run never turns the corner (K-A-2)"
        elif {0, 1} <= ranks and rules.aces == "high":
            why = "aces are high only, so A-2-3 is no run"
        else:
            why = "a run's cards are consecutive, each rank once"
        raise _illegal(f"{text} is not a meld: {why} (ruling 3)", "not-a-run")
    order = sorted(range(len(tokens)), key=lambda i: slots[i])
    return Meld(meld_id, owner, "run", tuple(tokens[i] for i in order), suit=suit,
                low=min(slots))


# -- building -------------------------------------------------------------------------------------

def build(meld: Meld, token: int, rules: Rules) -> tuple[Meld, str, int]:
    """``meld`` with ``token`` added (ruling 6), the end it went to and its position.

    The end is ``"low"`` or ``"high"`` for a run, ``"set"`` for a set. A natural ace that fits both
    ends of a run (two to king) goes high.
    """
    where = f"m{meld.id}"
    name = format_tokens([token])
    if meld.kind == "run":
        return _build_run(meld, token, rules, where, name)
    if meld.identical:
        raise _illegal(f"cannot add {name} on {where}: a set of identical cards is closed at "
                       "three (identical_sets)", "meld-closed")
    if len(meld.tokens) >= 4:
        raise _illegal(f"cannot add {name} on {where}: a set has at most four cards (ruling 3)",
                       "meld-closed")
    if token >= NAMED:
        raise _illegal(f"cannot add {name} on {where}: a joker in a set is written JK, standing "
                       "for the set's rank (ruling 4)", "joker-naming")
    if meld.rank < 0:
        if token != JOKER:
            raise _illegal(f"cannot add {name} on {where}: only jokers join a set of jokers",
                           "does-not-fit")
        return Meld(meld.id, meld.owner, "set", (*meld.tokens, JOKER)), "set", 0
    if token == JOKER:
        return Meld(meld.id, meld.owner, "set", (*meld.tokens, JOKER), rank=meld.rank), "set", 0
    if token % 13 != meld.rank:
        raise _illegal(f"cannot add {name} on {where}: the set is of {format_card(meld.rank)[0]}s "
                       "(ruling 6)", "does-not-fit")
    if any(c // 13 == token // 13 for c in meld.naturals()):
        raise _illegal(f"cannot add {name} on {where}: the set already holds that suit "
                       "(ruling 3)", "does-not-fit")
    naturals = tuple(sorted((*meld.naturals(), token)))
    return Meld(meld.id, meld.owner, "set", naturals + (JOKER,) * meld.jokers,
                rank=meld.rank), "set", 0


def _build_run(meld: Meld, token: int, rules: Rules, where: str,
               name: str) -> tuple[Meld, str, int]:
    face = face_of(token)
    if face is None:
        raise _illegal(f"cannot add {name} on {where}: a joker in a run must be named, such as "
                       f"JK={format_card(card_at(meld.suit, min(meld.high + 1, 14)))} "
                       "(ruling 4)", "joker-naming")
    if face // 13 != meld.suit:
        raise _illegal(f"cannot add {name} on {where}: the run is in {'shdc'[meld.suit]} "
                       "(ruling 6)", "does-not-fit")
    if token < JOKER and named_joker(token) in meld.tokens:
        raise _illegal(f"cannot add {name} on {where}: the run's joker stands for {name}; release "
                       f"it with 'swap {name} for JK on {where}' (ruling 7)", "use-swap")
    spans_both = meld.low == 1 or meld.high == 14
    for position in positions_of(face, rules):
        if position == meld.high + 1 and not (position == 14 and meld.low == 1):
            return Meld(meld.id, meld.owner, "run", (*meld.tokens, token), suit=meld.suit,
                        low=meld.low), "high", position
        if position == meld.low - 1 and position >= _min_position(rules) \
                and not (position == 1 and meld.high == 14):
            return Meld(meld.id, meld.owner, "run", (token, *meld.tokens), suit=meld.suit,
                        low=position), "low", position
    why = "a run never goes beyond the ace" if spans_both or face % 13 == 0 else \
        "it is not next to either end of the run"
    raise _illegal(f"cannot add {name} on {where}: {why} (ruling 6)", "does-not-fit")


# -- releasing a joker ----------------------------------------------------------------------------

def release(meld: Meld, cards: Sequence[int], rules: Rules) -> Meld:
    """``meld`` after ``cards`` from hand win one joker back (ruling 7), or why they cannot."""
    where = f"m{meld.id}"
    what = f"swap {format_tokens(cards)} for JK on {where}"
    if not cards or any(c >= JOKER for c in cards):
        raise _illegal(f"cannot {what}: a joker is released by natural cards from hand (ruling 7)",
                       "bad-swap")
    if not meld.jokers:
        raise _illegal(f"cannot {what}: {where} holds no joker", "no-joker")
    if meld.kind == "run":
        return _release_run(meld, cards, rules, what)
    if meld.rank < 0:
        raise _illegal(f"cannot {what}: a set of jokers gives up no joker", "no-release")
    if any(c % 13 != meld.rank for c in cards):
        raise _illegal(f"cannot {what}: the set is of {format_card(meld.rank)[0]}s (ruling 7)",
                       "bad-swap")
    naturals = list(meld.naturals())
    if rules.joker_release == "interior":
        raise _illegal(f"cannot {what}: a joker is released only from a run's interior, never "
                       "from a set (joker_release = interior)", "no-release")
    if len(meld.tokens) >= 4:
        raise _illegal(f"cannot {what}: a closed four-card set never gives up a joker (ruling 7)",
                       "no-release")
    if rules.joker_release == "one-card":
        if len(cards) != 1:
            raise _illegal(f"cannot {what}: one natural card releases a joker "
                           "(joker_release = one-card)", "bad-swap")
        card = cards[0]
        fits = card == naturals[0] if meld.identical else \
            all(c // 13 != card // 13 for c in naturals)
        if not fits:
            raise _illegal(f"cannot {what}: the set already holds that suit", "bad-swap")
        return _set_of(meld, [*naturals, card], meld.jokers - 1)
    if meld.identical:
        raise _illegal(f"cannot {what}: a set of identical cards gives up no joker (ruling 7)",
                       "no-release")
    suits = {c // 13 for c in cards}
    if len(cards) != 2 or len(suits) != 2 or suits & {c // 13 for c in naturals}:
        missing = 4 - len(naturals)
        need = "both missing suits" if missing == 2 else "two of the three missing suits"
        raise _illegal(f"cannot {what}: a joker leaves a three-card set for {need} from hand "
                       "(ruling 7)", "bad-swap")
    return _set_of(meld, [*naturals, *cards], meld.jokers - 1)


def _set_of(meld: Meld, naturals: list[int], jokers: int) -> Meld:
    return Meld(meld.id, meld.owner, "set", tuple(sorted(naturals)) + (JOKER,) * jokers,
                rank=meld.rank, identical=meld.identical)


def _release_run(meld: Meld, cards: Sequence[int], rules: Rules, what: str) -> Meld:
    if len(cards) != 1:
        raise _illegal(f"cannot {what}: a run's joker is released by the one card it stands for "
                       "(ruling 7)", "bad-swap")
    token = named_joker(cards[0])
    if token not in meld.tokens:
        raise _illegal(f"cannot {what}: no joker of the run stands for {format_card(cards[0])} "
                       "(ruling 7)", "bad-swap")
    index = meld.tokens.index(token)
    if rules.joker_release == "interior" and index in (0, len(meld.tokens) - 1):
        raise _illegal(f"cannot {what}: a joker is released only from a run's interior "
                       "(joker_release = interior)", "no-release")
    tokens = list(meld.tokens)
    tokens[index] = cards[0]
    return Meld(meld.id, meld.owner, "run", tuple(tokens), suit=meld.suit, low=meld.low)


# -- finding melds in a hand ----------------------------------------------------------------------

def find_melds(counts: Sequence[int], jokers: int, rules: Rules,
               max_jokers: int = 2) -> Iterator[tuple[int, ...]]:
    """Every new meld the hand holds with at most ``max_jokers`` jokers (and sets of jokers).

    ``counts`` are the hand's natural cards (52 counts); jokers are counted apart.
    """
    cap = min(jokers, max_jokers)
    for rank in range(13):
        held = [make_card(rank, s) for s in range(4) if counts[make_card(rank, s)]]
        for size in range(1, len(held) + 1):
            for chosen in combinations(held, size):
                for j in range(max(0, 3 - size), min(cap, 4 - size) + 1):
                    yield (*chosen, *(JOKER,) * j)
        if rules.identical_sets:
            for card in held:
                if counts[card] >= 3:
                    yield (card, card, card)
                if counts[card] >= 2 and cap >= 1:
                    yield (card, card, JOKER)
    for suit in range(4):
        yield from _find_runs(counts, suit, cap, rules)
    if rules.joker_sets:
        for size in (3, 4):
            if jokers >= size:
                yield (JOKER,) * size


def _find_runs(counts: Sequence[int], suit: int, cap: int,
               rules: Rules) -> Iterator[tuple[int, ...]]:
    low_end = _min_position(rules)
    held = [False] + [bool(counts[card_at(suit, p)]) for p in range(1, 15)]
    for lo in range(low_end, 13):
        missing = 0
        naturals = 0
        for hi in range(lo, 15):
            if lo == 1 and hi == 14:
                break
            if held[hi]:
                naturals += 1
            else:
                missing += 1
                if missing > cap:
                    break
            if hi - lo >= 2 and naturals:
                yield tuple(card_at(suit, p) if held[p] else named_joker(card_at(suit, p))
                            for p in range(lo, hi + 1))
