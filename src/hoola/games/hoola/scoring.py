"""Hand points, blasts, and the settlement of a deal (rulings 13-15, docs/rulings.md).

Everything is exact: amounts are ``Fraction``s, so shared wins and quarter stakes add up to zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from hoola.core.cards import SEVEN, bits
from hoola.games.hoola.missions import Mission, mission_line
from hoola.games.hoola.rules import Rules

__all__ = [
    "LoserLine",
    "SeatShowdown",
    "Settlement",
    "blast_kind",
    "blast_points",
    "hand_points",
    "points_table",
    "settle",
    "table_points",
]

END_KINDS: Final = ("sopang", "daepang", "knock", "out", "hoola", "sevens", "stock")
SEVEN_BITS: Final = sum(1 << (s * 13 + SEVEN) for s in range(4))


QUADS: Final = tuple(sum(1 << (s * 13 + rank) for s in range(4)) for rank in range(13))
_TABLES: Final[dict[tuple[int, str], tuple[int, ...]]] = {}


def points_table(seven: int, rules: Rules) -> tuple[int, ...]:
    """The points of every 13-bit suit pattern, sevens counting ``seven`` (built once)."""
    table = _TABLES.get((seven, rules.face_values))
    if table is None:
        values = [seven if r == SEVEN else rules.rank_value(r) for r in range(13)]
        built = [0] * 8192
        for pattern in range(1, 8192):
            low = (pattern & -pattern).bit_length() - 1
            built[pattern] = built[pattern & (pattern - 1)] + values[low]
        table = _TABLES[(seven, rules.face_values)] = tuple(built)
    return table


def table_points(table: tuple[int, ...], mask: int) -> int:
    """Sum of card points in a mask, by a :func:`points_table` (the hot path)."""
    return table[mask & 0x1FFF] + table[(mask >> 13) & 0x1FFF] + table[(mask >> 26) & 0x1FFF] \
        + table[(mask >> 39) & 0x1FFF]


def _points(mask: int, seven: int, rules: Rules) -> int:
    return table_points(points_table(seven, rules), mask)


def _applies(setting: str, had_turn: bool) -> bool:
    return setting == "always" or (setting == "after-turn" and had_turn)


def hand_points(mask: int, jokers: int, rules: Rules, had_turn: bool = True) -> int:
    """Points of a hand at the end of play (sevens ``seven_value_end``, jokers per ``joker_value``).

    >>> from hoola.core.cards import card_mask, parse_cards
    >>> hand_points(card_mask(parse_cards("7s Kd As")), 0, Rules.preset("pagat"))
    28
    """
    counted = mask
    if rules.quad_in_hand_free:
        for rank in range(13):
            quad = QUADS[rank]
            if mask & quad == quad:
                counted &= ~quad
    total = _points(counted, rules.seven_value_end, rules)
    if not jokers:
        return total
    multiply = rules.joker_multiplier == "always" or had_turn
    kind = rules.joker_value
    if kind == "double":
        return total * (2 ** jokers if multiply else 1)
    if kind == "quintuple":
        return total * (5 ** jokers if multiply else 1)
    if kind == "fourteen-triple":
        return total * (3 ** jokers if multiply else 1) + 14 * jokers
    if kind == "twenty":
        return total + 20 * jokers
    if kind == "thirty":
        return total + 30 * jokers
    return total


def blast_points(mask: int, rules: Rules) -> int:
    """Points of a hand for a blast: sevens ``seven_value_blast``, jokers 0."""
    return _points(mask, rules.seven_value_blast, rules)


def blast_kind(mask: int, jokers: int, rules: Rules) -> str | None:
    """``"sopang"``, ``"daepang"`` or None for a seven-card hand."""
    points = blast_points(mask, rules)
    if points <= rules.blast_low:
        return "sopang"
    if rules.face_values == "ten":
        if jokers == 0 and all(c % 13 >= 10 for c in bits(mask)):
            return "daepang"
        return None
    if points >= rules.blast_high:
        return "daepang"
    return None


@dataclass(frozen=True, slots=True)
class SeatShowdown:
    """What scoring needs to know of one player in the deal at the end of play."""

    points: int
    sevens: int
    melded: bool
    had_turn: bool


@dataclass(frozen=True, slots=True)
class LoserLine:
    """How one loser's amount was reached: base stakes times the named multipliers."""

    seat: int
    base: Fraction
    multipliers: tuple[tuple[str, Fraction | int], ...]
    amount: Fraction
    last: str | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of a deal's play: who won and who pays what (net, winners positive)."""

    end: str
    winners: tuple[int, ...]
    points: Mapping[int, int]
    payments: Mapping[int, Fraction]
    losers: tuple[LoserLine, ...] = ()
    payer: int | None = None
    pay_all_factor: int = 1
    notes: tuple[str, ...] = field(default=())
    mission: Mission | None = None
    mission_achieved: bool = False


_SMALL: Final = tuple(Fraction(i) for i in range(-64, 65))


def _exact(x: int | Fraction) -> Fraction:
    """``x`` as a Fraction: settlement counts in whole numbers where it can (Fraction arithmetic
    runs as Python even compiled), and small ones come from a table."""
    if type(x) is int and -64 <= x <= 64:
        return _SMALL[x + 64]
    return Fraction(x)


def settle(rules: Rules, end: str, seats: Mapping[int, SeatShowdown], winners: Sequence[int], *,
           stake: Fraction | int = 1, undercut_knocker: int | None = None,
           claimed_from: int | None = None, mission: Mission | None = None,
           mission_achieved: bool = False) -> Settlement:
    """Settle a deal.

    ``seats`` holds every player in the deal (dropped-out players are not in it). ``claimed_from``
    is the discarder whose discard the winner took on the winning turn (for a going out, or the
    online claim for a blast or four sevens); ``undercut_knocker`` the knocker who was undercut.
    ``mission`` is the deal's mission (ruling 20) and ``mission_achieved`` whether the single
    winner performed its feat: then every payment to that winner is multiplied by it.
    """
    stake = Fraction(stake)
    # The stake as a whole number when it is one: the amounts below stay ints until the end.
    unit: int | Fraction = stake.numerator if stake.denominator == 1 else stake
    winner_set = set(winners)
    losers = [s for s in seats if s not in winner_set]
    points = {s: seat.points for s, seat in seats.items()}
    notes: list[str] = []
    achieved = mission is not None and mission_achieved and len(winners) == 1
    # The mission's factor on every payment to the winner (1: it changes nothing).
    boost = mission.multiplier if mission is not None and achieved else 1
    if mission is not None:
        notes.append(mission_line(mission, achieved, len(winners) == 1))
    boosted: tuple[tuple[str, Fraction | int], ...] = \
        ((f"mission {mission.feat}", boost),) if mission is not None and boost != 1 else ()

    def last_reason(s: int) -> str | None:
        seat = seats[s]
        if s == undercut_knocker:
            return "undercut knocker"
        if s == claimed_from and end in ("out", "hoola"):
            # Ruling 13: last is the discarder of a card taken by the player who went out; a
            # card claimed for a blast or four sevens makes its discarder pay all (online), but
            # blasting and declaring sevens are not going out, so it is ranked by its points.
            return "discard claimed by the winner"
        if not seat.melded and _applies(rules.no_meld_last, seat.had_turn):
            return "melded nothing"
        if rules.seven_in_hand_last and seat.sevens:
            return "seven in hand"
        return None

    if undercut_knocker is not None and rules.undercut == "fixed":
        penalty = Fraction(rules.undercut_penalty) * stake
        # Each other player receives the penalty, the winner times the mission's factor.
        received = {s: penalty * (boost if s in winner_set else 1) for s in seats}
        paid_out = sum((v for s, v in received.items() if s != undercut_knocker), Fraction(0))
        fixed = {s: (received[s] if s != undercut_knocker else -paid_out) for s in seats}
        notes.insert(0, f"undercut: the knocker pays {penalty} to each other player")
        return Settlement(end, tuple(winners), points, fixed, (), undercut_knocker, 1,
                          tuple(notes), mission, achieved)

    lasts = {s: last_reason(s) for s in losers}
    ranked = [s for s in losers if lasts[s] is None]
    lines: list[LoserLine] = []
    amounts: list[int | Fraction] = []
    for s in losers:
        seat = seats[s]
        base: int
        if rules.payments == "hertzog":
            melded_losers = [t for t in losers if seats[t].melded]
            if not seat.melded:
                fixed_amount = Fraction(rules.hertzog_no_meld_stake) * stake
                lines.append(LoserLine(s, fixed_amount, boosted, fixed_amount * boost,
                                       lasts[s]))
                fixed_amount *= boost
                amounts.append(fixed_amount)
                continue
            worse = [t for t in melded_losers if _worse(t, s, lasts, points)]
            base = (3, 2)[len(worse)] if len(worse) < 2 else 1
        elif lasts[s] is not None:
            base = len(winners) + len(losers) - 1
        else:
            level = sum(1 for t in ranked if points[t] <= points[s])
            base = len(winners) + level - 1
        factors: list[tuple[str, Fraction | int]] = []
        if seat.sevens and _applies(rules.seven_double, seat.had_turn):
            factors.append((f"{seat.sevens} seven{'s' if seat.sevens > 1 else ''} in hand",
                            2 ** seat.sevens))
        if not seat.melded and _applies(rules.no_meld_double, seat.had_turn):
            factors.append(("melded nothing", 2))
        if end == "hoola" and rules.hoola_multiplier != 1:
            factors.append(("Hoola", rules.hoola_multiplier))
        if end in ("sopang", "daepang") and rules.blast_multiplier != 1:
            factors.append(("blast", rules.blast_multiplier))
        if end == "sevens" and rules.sevens_multiplier != 1:
            factors.append(("four sevens", rules.sevens_multiplier))
        factors.extend(boosted)
        amount: int | Fraction = base
        for _, f in factors:
            amount *= f
        if unit != 1:
            factors.append(("stake", stake))
            amount *= unit
        lines.append(LoserLine(s, _exact(base), tuple(factors), _exact(amount), lasts[s]))
        amounts.append(amount)

    payer: int | None = None
    if undercut_knocker is not None:
        payer = undercut_knocker
    elif claimed_from is not None and claimed_from in seats and (
            end in ("sopang", "daepang", "sevens") or rules.discarder_pays_all == "any-out"
            or (rules.discarder_pays_all == "hoola-only" and end == "hoola")):
        payer = claimed_from
    paid: dict[int, int | Fraction] = {s: 0 for s in seats}
    total: int | Fraction = sum(amounts)
    factor = 1
    if payer is not None and payer not in winner_set:
        if len(seats) == 2 or rules.pay_all_doubles:
            factor = 2
        total *= factor
        paid[payer] -= total
    else:
        payer = None
        for line, amount in zip(lines, amounts, strict=True):
            paid[line.seat] -= amount
    if winners:
        share = total // len(winners) if type(total) is int and total % len(winners) == 0 \
            else Fraction(total) / len(winners)
        for w in winners:
            paid[w] += share
    payments = {s: _exact(x) for s, x in paid.items()}
    return Settlement(end, tuple(winners), points, payments, tuple(lines), payer, factor,
                      tuple(notes), mission, achieved)


def _worse(t: int, s: int, lasts: Mapping[int, str | None], points: Mapping[int, int]) -> bool:
    """Whether loser ``t`` ranks strictly below loser ``s`` (more points, or last automatically)."""
    if lasts[t] is not None:
        return lasts[s] is None
    if lasts[s] is not None:
        return False
    return points[t] > points[s]
