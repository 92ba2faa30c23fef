"""Plain-text pictures of a deal for people: hands, the table, a settlement explained."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hoola.cards import format_cards
from hoola.melds import Meld
from hoola.records import format_number
from hoola.scoring import Settlement

__all__ = ["describe_settlement", "describe_table", "stakes"]

END_NAMES = {
    "sopang": "a minor blast (sopang)",
    "daepang": "a major blast (daepang)",
    "knock": "a knock",
    "out": "going out",
    "hoola": "a Hoola (all cards melded in one turn)",
    "sevens": "four sevens",
    "stock": "the end of the stock",
}


def stakes(value: Fraction | int) -> str:
    """A stake amount for people: ``+2.5``, ``-3``, ``+1/3``."""
    text = format_number(value).strip('"')
    return text if text.startswith("-") or value == 0 else "+" + text


def describe_table(table: Sequence[Meld], names: Sequence[str]) -> list[str]:
    """One line a meld, grouped by owner."""
    lines = []
    for owner, name in enumerate(names):
        mine = [m for m in table if m.owner == owner]
        if mine:
            lines.append(f"  {name}: " + "   ".join(f"[m{m.id} {m}]" for m in mine))
    return lines or ["  (no melds yet)"]


def describe_settlement(result: Settlement, names: Sequence[str],
                        hands: Sequence[Sequence[int]] | None = None,
                        me: int | None = None) -> list[str]:
    """The settlement explained line by line: who won how, who pays what and why.

    With ``me``, that player's lines speak to them ("You owe 3").
    """
    winners = ", ".join(names[w] for w in result.winners)
    lines = [f"Play ended by {END_NAMES.get(result.end, result.end)}. Winner"
             f"{'s' if len(result.winners) > 1 else ''}: {winners}."]
    for seat in sorted(result.points):
        hand = f"  [{format_cards(hands[seat])}]" if hands is not None else ""
        lines.append(f"  {names[seat]}: {result.points[seat]} points in hand{hand}")
    for line in result.losers:
        why = [f"rank pays {format_number(line.base).strip(chr(34))}"]
        if line.last:
            why.append(f"last place ({line.last})")
        why.extend(f"x{format_number(f).strip(chr(34))} {label}" for label, f in line.multipliers)
        who = "You owe" if line.seat == me else f"{names[line.seat]} owes"
        lines.append(f"  {who} {format_number(line.amount).strip(chr(34))}: " + ", ".join(why))
    if result.payer is not None and result.losers:
        who = "You pay" if result.payer == me else f"{names[result.payer]} pays"
        lines.append(f"  One pays all: {who} every loser's amount"
                     + (", doubled" if result.pay_all_factor == 2 else "")
                     + " and the others pay nothing")
    lines.extend(f"  {note}" for note in result.notes)
    lines.append("Payments: " + ", ".join(f"{names[q]} {stakes(v)}"
                                          for q, v in sorted(result.payments.items())))
    return lines
