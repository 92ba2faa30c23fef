"""A Kalookie record told move by move: the deal, every action, the melds, each hand's score.

``hoola replay FILE`` prints this for a record whose ``game`` is ``kalookie``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hoola.core.errors import HoolaError, RecordError
from hoola.core.records import printable
from hoola.games.kalookie.cards import format_tokens
from hoola.games.kalookie.match import Match
from hoola.games.kalookie.records import check, start_deal

__all__ = ["tell"]


def tell(data: dict[str, Any]) -> Iterator[str]:
    """The lines of the story; raises RecordError after the line of a refused action (unless
    the record says that action must be refused)."""
    rules, players = check(data)
    match = Match(rules, players)
    yield f"Kalookie, rules: {rules.preset_name}; players: {', '.join(players)}"
    for i, d in enumerate(data.get("deal", []), 1):
        try:
            state = start_deal(match, d, players)
        except HoolaError as exc:
            raise RecordError(f"deal {i}: {exc.message}", exc.code) from exc
        yield ""
        yield f"Deal {i}: {players[state.dealer]} deals"
        for q in range(len(players)):
            zone = state.view(q).table().zone(f"hand-{q}")
            if zone.cards is not None and zone.note != "out":
                yield f"  {players[q]}: {' '.join(zone.cards)}"
        table = state.view(0).table()
        top = table.zone("discard").cards or ()
        yield f"  upcard {top[-1] if top else '-'}, stock {table.zone('stock').count} cards"
        illegal = d.get("result", {}).get("illegal")
        for k, text in enumerate(d.get("actions", []), 1):
            try:
                record = state.apply(state.parse(text))
            except HoolaError as exc:
                yield f"{k:3}. {printable(text)}  -- refused: {exc.message}"
                if illegal == k:
                    return
                raise RecordError(f"deal {i}, action {k} is refused: {exc.message}",
                                  exc.code) from exc
            drawn = getattr(record, "card", None)
            shown = printable(text)
            if drawn is not None and text.split()[1:2] in (["draw"], ["take"]):
                shown += f" ({format_tokens([drawn])})"
            yield f"{k:3}. {shown}"
        melds = [z for z in state.view(0).table().zones if z.kind == "meld"]
        if melds:
            yield "  Melds: " + "; ".join(f"{z.label} {' '.join(z.cards or ())}" for z in melds)
        if state.result is not None:
            r = state.result
            if r.winner is None:
                yield "  The hand is void: no payment, no penalty."
            else:
                yield f"  {players[r.winner]} won by a {r.end}."
                yield "  Penalty: " + ", ".join(f"{players[q]} {v}"
                                                for q, v in sorted(r.penalty.items()))
                yield "  Payments: " + ", ".join(f"{players[q]} {v}"
                                                 for q, v in sorted(r.payments.items()))
        if state.is_over:
            match.finish_deal()
    board = match.scoreboard()
    yield ""
    for score in board.scores:
        yield f"{score.label}: " + ", ".join(f"{n} {v}" for n, v in zip(players, score.values,
                                                                         strict=False))
    yield board.moment.prompt
