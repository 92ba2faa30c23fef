"""Plain-text pictures of a deal for people: hands, the table, a settlement explained."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from hoola.core.cards import format_cards
from hoola.core.records import format_number
from hoola.games.hoola.actions import Action, Knock
from hoola.games.hoola.glenn import parts_text, top_text
from hoola.games.hoola.melds import Meld
from hoola.games.hoola.scoring import Settlement

__all__ = ["agree", "describe_end", "describe_settlement", "describe_table", "knocker_of",
           "players_named", "stakes"]

# Verbs whose third person is not simply the verb with an "s".
_THIRD_PERSON: Final = {"go": "goes", "have": "has", "do": "does", "be": "is"}

END_NAMES: Final = {
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


def agree(name: str, verb: str) -> str:
    """``verb`` as ``name`` says it: "You deal", but "Ann deals" (a player may be named You).

    >>> agree("You", "owe"), agree("Greedy1", "owe"), agree("Ann", "go")
    ('You owe', 'Greedy1 owes', 'Ann goes')
    """
    if name.lower() == "you":
        return f"{name} {'are' if verb == 'be' else verb}"
    if verb in _THIRD_PERSON:
        return f"{name} {_THIRD_PERSON[verb]}"
    return f"{name} {verb}{'es' if verb.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def players_named(names: Sequence[str], seats: Sequence[int], me: int | None) -> str:
    """The players named for a sentence, "you" for ``me``: "Greedy1 and you"."""
    said = ["you" if q == me else names[q] for q in seats]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _win(names: Sequence[str], seats: Sequence[int], me: int | None) -> str:
    who = players_named(names, seats, me)
    return f"{who} {'win' if len(seats) > 1 else agree(who, 'win').split()[-1]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def knocker_of(history: Sequence[Action]) -> int | None:
    """Who knocked in a deal's history (None if nobody did)."""
    return next((a.player for a in reversed(history) if isinstance(a, Knock)), None)


def _points(n: int) -> str:
    """``n`` points, the word agreeing: "1 point", "9 points"."""
    return f"{n} point{'' if n == 1 else 's'}"


def describe_end(result: Settlement, names: Sequence[str], knocker: int | None = None,
                 me: int | None = None) -> str:
    """How play ended and who won, in one sentence: "Greedy1 knocked with 9 points but was
    undercut: Greedy3 wins with 6." With ``me``, that player is "you"."""
    winners = list(result.winners)
    low = min((result.points[w] for w in winners if w in result.points), default=None)
    with_low = f" with {low}" if low is not None else ""
    if result.end == "knock" and knocker is not None:
        who = "You" if knocker == me else names[knocker]
        points = result.points.get(knocker)
        head = f"{who} knocked" + (f" with {_points(points)}" if points is not None else "")
        if knocker in winners:
            return f"{head} and won."
        how = "was undercut" if low is not None and points is not None and low < points \
            else "was tied"
        return f"{head} but {how}: {_win(names, winners, me)}{with_low}."
    if result.end == "stock":
        return f"The stock ran out: {_win(names, winners, me)}, holding fewest points" \
               f"{f' ({low})' if low is not None else ''}."
    deeds = {"out": "went out", "hoola": "made a Hoola (all cards melded in one turn)",
             "sopang": "blasted: a minor blast (sopang)",
             "daepang": "blasted: a major blast (daepang)", "sevens": "showed four sevens"}
    if result.end in deeds:
        return f"{_capital(players_named(names, winners, me))} {deeds[result.end]}."
    # A knock whose knocker is not known: do not name a winner as the knocker.
    return f"Play ended by {END_NAMES.get(result.end, result.end)}: " \
           f"{_win(names, winners, me)}{with_low}."


def describe_table(table: Sequence[Meld], names: Sequence[str],
                   stacks: bool = False) -> list[str]:
    """One line a meld, grouped by owner; with ``stacks`` (Glenn's building, ruling 21) each
    meld's top card, and its parts once a branch stands on it."""
    lines = []
    for owner, name in enumerate(names):
        mine = [m for m in table if m.owner == owner]
        if mine:
            lines.append(f"  {name}: " + "   ".join(f"[m{m.id} {m}{_stack(m) if stacks else ''}]"
                                                  for m in mine))
    return lines or ["  (no melds yet)"]


def _stack(m: Meld) -> str:
    """``, top Ts: set 9d 9h 9s, run 9s Ts``: the top card, the parts once there are several."""
    return f", top {top_text(m)}" + (f": {parts_text(m)}" if m.branches else "")


def describe_settlement(result: Settlement, names: Sequence[str],
                        hands: Sequence[Sequence[int]] | None = None,
                        me: int | None = None, knocker: int | None = None) -> list[str]:
    """The settlement explained line by line: how play ended, who pays what and why.

    With ``me``, that player's lines speak to them ("You owe 3"); ``knocker`` names who knocked
    (:func:`knocker_of`), so that an undercut knock is told as one.
    """
    lines = [describe_end(result, names, knocker, me)]
    for seat in sorted(result.points):
        hand = f"  [{format_cards(hands[seat])}]" if hands is not None else ""
        lines.append(f"  {names[seat]}: {_points(result.points[seat])} in hand{hand}")
    for line in result.losers:
        why = [f"rank pays {format_number(line.base).strip(chr(34))}"]
        if line.last:
            why.append(f"last place ({line.last})")
        why.extend(f"x{format_number(f).strip(chr(34))} {label}" for label, f in line.multipliers)
        who = "You owe" if line.seat == me else agree(names[line.seat], "owe")
        lines.append(f"  {who} {format_number(line.amount).strip(chr(34))}: " + ", ".join(why))
    if result.payer is not None and result.losers:
        who = "You pay" if result.payer == me else agree(names[result.payer], "pay")
        lines.append(f"  One pays all: {who} every loser's amount"
                     + (", doubled" if result.pay_all_factor == 2 else "")
                     + " and the others pay nothing")
    lines.extend(f"  {note}" for note in result.notes)
    lines.append("Payments: " + ", ".join(f"{names[q]} {stakes(v)}"
                                          for q, v in sorted(result.payments.items())))
    return lines
