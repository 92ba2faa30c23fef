"""``hoola replay``: a recorded game told move by move."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from hoola.core.cards import format_cards
from hoola.core.errors import HoolaError, RecordError
from hoola.games.hoola.actions import Draw, parse_action
from hoola.games.hoola.records import Record, deal_state_of, next_dealer, next_stake, printable
from hoola.games.hoola.text import agree, describe_settlement, describe_table

__all__ = ["tell"]


def tell(record: Record) -> Iterator[str]:
    """The lines of a replay: each deal's hands, every action with the table, the settlement.

    An action the engine refuses, unless the record's ``illegal`` names it, ends the replay with a
    :class:`RecordError` once its line is told (``hoola replay`` then exits 1).
    """
    rules = record.make_rules()
    names = record.players
    dealer, stake = 0, Fraction(1)
    changes = rules.overrides()
    yield f"Rules: {rules.preset_name}" + (f" with {changes}" if changes else "")
    for i, d in enumerate(record.deals, 1):
        try:
            state = deal_state_of(record, d, rules, dealer, stake)
        except HoolaError as exc:
            raise RecordError(f"deal {i}: {exc.message}", exc.code) from exc
        yield ""
        yield f"Deal {i}: {agree(names[state.dealer], 'deal')}, stake {state.stake}"
        for q, name in enumerate(names):
            yield f"  {name}: {format_cards(state.hand(q))}"
        yield f"  upcard {format_cards([state.discards[-1]])}, stock {len(state.stock)} cards"
        for k, text in enumerate(d.actions, 1):
            pile = len(state.discards)
            try:
                record_ = state.apply(parse_action(text, names))
            except HoolaError as exc:
                yield f"{k:3}. {printable(text)}  -- refused: {exc.message}"
                if d.result.get("illegal") != k:
                    raise RecordError(f"deal {i}, action {k} is refused: {exc.message}",
                                      exc.code) from exc
                break
            shown = state.format(record_)
            drawn = f" ({format_cards([record_.card])})" \
                if isinstance(record_, Draw) and record_.card is not None else ""
            yield f"{k:3}. {shown}{drawn}"
            if record_.verb in ("meld", "add", "take"):
                # Glenn's building (ruling 21): a killed meld or branch went under the pile.
                killed = len(state.discards) - pile + (record_.verb == "take")
                if killed > 0:
                    yield (f"       killed: {format_cards(state.discards[:killed])} (to the "
                           "bottom of the discard pile)")
                yield from ("       " + line.strip() for line in describe_table(
                    state.table, names, stacks=rules.glenn_melds))
        if state.result is not None:
            yield from describe_settlement(state.result, names,
                                           [state.hand(q) for q in range(state.n)])
        dealer, stake = next_dealer(state), next_stake(state)
