"""What a contested window came to, for the person who had a say in it: the words of the
driver's :class:`~hoola.core.driver.Race` news, for every game ("Greedy3 was quicker: Greedy3
warn"), and in Hoola's own words ("Greedy3 was quicker and took Q♦.").

>>> from types import SimpleNamespace
>>> from hoola.core.driver import Race
>>> race = Race(SimpleNamespace(player=1), "B warn", (1, 2), False, "warn", True)
>>> describe_race(race, ["A", "B", "C"], 2)
'B was quicker: B warn.'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hoola.core.cards import format_card
from hoola.core.driver import Race
from hoola.games.hoola.actions import Draw, Take
from hoola.games.hoola.text import players_named

__all__ = ["describe_race", "hoola_race"]


def describe_race(race: Race, names: Sequence[str], me: int) -> str:
    """The race in any game's words: who was quicker, or whose turn came first, and the move that
    stood in the game's notation."""
    seat = race.winner.player
    others = [q for q in race.claimants if q not in (seat, me)]
    if seat == me:
        if not race.by_turn:
            return f"You were quicker than {players_named(names, others, me)}: {race.said}."
        return f"Yours stands ({race.said}): your turn comes before " \
               f"{players_named(names, others, me)}'s."
    who = names[seat]
    if race.by_turn and (me in race.claimants or not race.answered):
        return f"{who}'s move stands ({race.said}): {who}'s turn comes before yours."
    if not race.answered:
        return f"{who} was quicker, before you answered: {race.said}."
    return f"{who} was quicker: {race.said}."


def hoola_race(race: Race, names: Sequence[str], me: int,
               label: Callable[[int], str] = format_card) -> str:
    """A claim on a Hoola discard in the words of Hoola's table: "Greedy3 was quicker and took
    Q♦." ``label`` names a card (``Qd`` by default; the full screen draws ``Q♦``). Other races
    (four sevens shown) are told in any game's words."""
    winner = race.winner
    if not isinstance(winner, Take):
        return describe_race(race, names, me)
    card = label(winner.card)
    others = [q for q in race.claimants if q not in (winner.player, me)]
    if winner.player == me:
        if race.by_turn:
            return f"You took {card}: your turn comes before {players_named(names, others, me)}'s."
        return f"You were quicker than {players_named(names, others, me)} and took {card}."
    who = names[winner.player]
    if isinstance(race.mine, Draw):
        return f"{who} claimed {card} before you drew."
    if race.by_turn and (me in race.claimants or not race.answered):
        return f"{who} took {card}: {who}'s turn comes before yours."
    if race.answered:
        return f"{who} was quicker and took {card}."
    return f"{who} was quicker and took {card} before you answered."
