"""A settled Hoola deal as data for a table: how play ended, and who pays whom how much and why.

Every amount is the engine's (:func:`hoola.games.hoola.scoring.settle`): a loser's line is the
base its rank pays times each multiplier, shared among the winners; when one pays for all, that
seat pays every loser's amount (doubled where the rules say). The lines of each seat add up to
its payment in the settlement, which a test checks deal by deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hoola.core.records import format_number
from hoola.core.table import Payment
from hoola.core.words import Said, phrases, say
from hoola.games.hoola.scoring import LoserLine, Settlement

__all__ = ["outcome", "payments"]

_LAST = {"undercut knocker": "undercut", "discard claimed by the winner": "claimed",
         "melded nothing": "no-meld", "seven in hand": "seven"}
_TIMES = {"melded nothing": "no-meld", "Hoola": "hoola", "blast": "blast",
          "four sevens": "four-sevens", "stake": "stake"}

phrases({
    "hoola.why.rank": "rank pays {n}",
    "hoola.why.last.undercut": "last place (the undercut knocker) pays {n}",
    "hoola.why.last.claimed": "last place (the winner took their discard) pays {n}",
    "hoola.why.last.no-meld": "last place (melded nothing) pays {n}",
    "hoola.why.last.seven": "last place (a seven in hand) pays {n}",
    "hoola.why.no-meld-stake": "melded nothing: pays {n}",
    "hoola.why.x.sevens": "×{factor}: {count} seven(s) in hand",
    "hoola.why.x.no-meld": "×{factor}: melded nothing",
    "hoola.why.x.hoola": "×{factor}: Hoola",
    "hoola.why.x.blast": "×{factor}: blast",
    "hoola.why.x.four-sevens": "×{factor}: four sevens",
    "hoola.why.x.stake": "×{factor}: the stake",
    "hoola.why.x.mission": "×{factor}: mission achieved",
    "hoola.why.shared": "shared by {n} winners",
    "hoola.why.pays-for": "pays for {who}",
    "hoola.why.x.pays-all": "×{factor}: one pays for all",
    "hoola.why.undercut-fixed": "the undercut knocker pays each other player {n}",
    "hoola.end.knock-won": "{who} knocked with {points} points and won",
    "hoola.end.knock-undercut": "{who} knocked with {points} points but was undercut: {winners} "
                                "won with {low}",
    "hoola.end.knock-tied": "{who} knocked with {points} points but was tied: {winners} won "
                            "with {low}",
    "hoola.end.stock": "The stock ran out: {winners} won, holding fewest points",
    "hoola.end.out": "{winners} went out",
    "hoola.end.hoola": "{winners} made a Hoola (all cards melded in one turn)",
    "hoola.end.sopang": "{winners} blasted: a minor blast (sopang)",
    "hoola.end.daepang": "{winners} blasted: a major blast (daepang)",
    "hoola.end.sevens": "{winners} showed four sevens",
    "hoola.end.knock": "Play ended by a knock: {winners} won",
    "hoola.end.nobody": "Nobody won",
})


def _n(value: Fraction | int) -> str:
    return format_number(Fraction(value)).strip('"')


def _why(line: LoserLine, hertzog_unmelded: bool) -> list[Said]:
    """Why a loser owes what it owes: its base, then each multiplier."""
    if hertzog_unmelded:
        out = [say("hoola.why.no-meld-stake", n=_n(line.base))]
    elif line.last is not None and line.last in _LAST:
        out = [say(f"hoola.why.last.{_LAST[line.last]}", n=_n(line.base))]
    else:
        out = [say("hoola.why.rank", n=_n(line.base))]
    for label, factor in line.multipliers:
        if label in _TIMES:
            out.append(say(f"hoola.why.x.{_TIMES[label]}", factor=_n(factor)))
        elif label.startswith("mission "):
            out.append(say("hoola.why.x.mission", factor=_n(factor)))
        elif label.endswith(" in hand"):
            out.append(say("hoola.why.x.sevens", factor=_n(factor), count=label.split()[0]))
    return out


def payments(result: Settlement, names: Sequence[str], hertzog: bool = False,
             melded: Sequence[bool] = ()) -> tuple[Payment, ...]:
    """Who pays whom how much and why, one line a payment (see the module)."""
    winners = list(result.winners)
    if not result.losers:
        # The fixed undercut penalty: the knocker pays every other player.
        knocker = result.payer
        return tuple(Payment(knocker, q, _n(v), (say("hoola.why.undercut-fixed", n=_n(v)),))
                     for q, v in sorted(result.payments.items()) if q != knocker and v > 0)
    if not winners:
        return ()
    out: list[Payment] = []
    share = len(winners)
    for line in result.losers:
        unmelded = hertzog and line.seat < len(melded) and not melded[line.seat]
        why = _why(line, unmelded)
        amount = Fraction(line.amount)
        payer = line.seat
        if result.payer is not None:
            payer = result.payer
            why = [say("hoola.why.pays-for", who=names[line.seat]), *why]
            if result.pay_all_factor != 1:
                why.append(say("hoola.why.x.pays-all", factor=result.pay_all_factor))
                amount *= result.pay_all_factor
        if share > 1:
            why.append(say("hoola.why.shared", n=share))
        for w in winners:
            out.append(Payment(payer, w, _n(amount / share), tuple(why)))
    return tuple(out)


def outcome(result: Settlement, names: Sequence[str], knocker: int | None) -> Said:
    """How play ended and who won, as one sentence."""
    winners = " and ".join(names[w] for w in result.winners)
    if not result.winners:
        return say("hoola.end.nobody")
    low = min((result.points[w] for w in result.winners if w in result.points), default=None)
    if result.end == "knock" and knocker is not None:
        points = result.points.get(knocker, "")
        if knocker in result.winners:
            return say("hoola.end.knock-won", who=names[knocker], points=points)
        how = "undercut" if low is not None and isinstance(points, int) and low < points \
            else "tied"
        return say(f"hoola.end.knock-{how}", who=names[knocker], points=points,
                   winners=winners, low="" if low is None else low)
    if result.end in ("stock", "out", "hoola", "sopang", "daepang", "sevens", "knock"):
        return say(f"hoola.end.{result.end}", winners=winners)
    return say("hoola.end.knock", winners=winners)
