"""Playing a tournament between bots in the lab: every table's deals through the one driver
(:func:`hoola.core.driver.play_deal`), the events they make applied to the tournament.

The tables playing at once take turns a hand each, in the order they were formed, as tables in a
room would, so a Blackpool buy-in table forms while the others play on. A bot that leaves a
Blackpool table buys in whenever it may, unless ``decide`` says otherwise.

>>> from hoola.tournament.state import Tournament
>>> t = Tournament.open("knockout", "hoola", settings={"table_size": 2, "deals": 1})
>>> lineup = entrant_names(["random"], 3)
>>> lineup
{'random-1': 'random', 'random-2': 'random', 'random-3': 'random'}
>>> played = play(t, lineup, seed=5)
>>> t.is_over, sorted(played)
(True, [1, 2])
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hoola.core.driver import play_deal
from hoola.core.errors import HoolaError
from hoola.core.game import Game, Player
from hoola.core.registry import get_game
from hoola.tournament import outcome
from hoola.tournament.events import (
    BuyIn,
    Enter,
    Event,
    Leave,
    Result,
    Retire,
    Start,
    TournamentError,
)
from hoola.tournament.state import Table, Tournament

__all__ = ["bot_for", "entrant_names", "new_table_match", "play", "table_result"]

Listener = Callable[[Event], None]


def entrant_names(bots: Sequence[str], entrants: int) -> dict[str, str]:
    """Names for ``entrants`` bots, the kinds ``bots`` taken in turn: ``expert-1``,
    ``greedy-2``...; each name with its bot spec."""
    out: dict[str, str] = {}
    for i in range(entrants):
        spec = bots[i % len(bots)]
        kind = re.sub(r"[^A-Za-z0-9_-]", "-", spec.split(":")[0])
        out[f"{kind}-{i + 1}"] = spec
    return out


def bot_for(game: Game, spec: str, seed: int, rules: Any = None) -> tuple[Player, str | None]:
    """The bot ``spec`` names for a seat at ``game``, and a sentence when another plays in its
    place: a kind the game lacks (Kalookie has no ``greedy``) is played as its strength level
    is (``greedy`` is ``easy``: the next stronger kind the game has)."""
    from hoola.bots import LEVELS, kinds_of, make_bot
    from hoola.sim.simulation import make_player, parse_spec

    name, options = parse_spec(spec)
    kinds = kinds_of(game)
    if name in kinds or name in LEVELS:
        return make_player(spec, seed, game=game, rules=rules), None
    level = next((lv for lv, (kind, _, _) in LEVELS.items() if kind == name), None)
    if level is None:
        raise ValueError(f"unknown bot {name!r}; bots are {', '.join([*kinds, *LEVELS])}")
    bot = make_bot(level, seed, game=game, **options)
    return bot, (f"{game.title} has no {name} bot: the {getattr(bot, 'name', 'next')} bot "
                 f"plays its seats, as the level {level} does.")


def new_table_match(t: Tournament, table: Table) -> Any:
    """The game table ``table`` plays: a match of the tournament's rules from the table's seed
    (a Blackpool semi-final is played until two are left)."""
    return get_game(t.game).new_match(t.rules, table.players, seed=t.table_seed(table.id),
                                      until=table.until)


def table_result(t: Tournament, table: Table, match: Any) -> Result:
    """The result of a table whose game ``match`` has ended."""
    places = outcome.places(match)
    totals = outcome.totals(match)
    return Result(table.id, {p: places[q] for q, p in enumerate(table.players)},
                  {p: totals[q] for q, p in enumerate(table.players)})


@dataclass
class _Live:
    table: Table
    match: Any
    players: list[Player]


def play(t: Tournament, lineup: Mapping[str, str], *, seed: int | None = None,
         on_event: Listener | None = None, on_hand: Callable[[int], None] | None = None,
         decide: Callable[[str], bool] | None = None,
         games: Mapping[int, Any] | None = None) -> dict[int, Any]:
    """Play tournament ``t`` between the bots of ``lineup`` (entrant name -> bot spec) to its
    end; returns each table's finished game by table id.

    A tournament not yet started is entered by the lineup and started with ``seed``; one
    started already (replayed from its events) is played on, a table in play going on from its
    game in ``games`` (by table id; a table without one starts its game afresh). ``on_event``
    hears every event applied, ``on_hand`` every hand played (by table id).
    """
    game = get_game(t.game)
    listen = on_event or (lambda event: None)

    def step(event: Event) -> None:
        for e in t.step(event):
            listen(e)

    if not t.started:
        for name in lineup:
            step(Enter(name))
        step(Start(seed if seed is not None else random.SystemRandom().randrange(2**62)))
    else:
        for e in t.advance():
            listen(e)
    live: dict[int, _Live] = {}
    played: dict[int, Any] = {}
    while not t.is_over:
        for table in t.playing():
            if table.id not in live:
                base = t.table_seed(table.id)
                players = [bot_for(game, lineup[p], (base + 7919 * s) % 2**62, t.rules)[0]
                           for s, p in enumerate(table.players)]
                going = (games or {}).get(table.id)
                if going is None and table.left:
                    raise TournamentError(f"table {table.id} is in play ({table.left[0]} has "
                                          "left it): its game is needed to go on", "no-game")
                live[table.id] = _Live(table, going if going is not None
                                       else new_table_match(t, table), players)
        if not live:
            raise TournamentError("the tournament waits for events no table will make",
                                  "stuck")
        for table_id in sorted(live):
            _play_hand(t, live[table_id], step, decide)
            if on_hand is not None:
                on_hand(table_id)
            lt = live[table_id]
            if outcome.ended(lt.match, until=lt.table.until, deals=t.settings.deals):
                if t.format == "blackpool" and len(outcome.still_in(lt.match)) > \
                        lt.table.until:
                    raise TournamentError(f"table {table_id} did not end within "
                                          f"{t.settings.deals:,} deals", "too-long")
                step(table_result(t, lt.table, lt.match))
                played[table_id] = lt.match
                del live[table_id]
    return played


def _play_hand(t: Tournament, lt: _Live, step: Listener,
               decide: Callable[[str], bool] | None) -> None:
    match = lt.match
    state = match.new_deal()
    rng = random.Random(f"{t.seed}/table {lt.table.id}/deal {len(match.deals)}")
    try:
        play_deal(state, lt.players, rng=rng)
    except HoolaError as exc:
        raise TournamentError(f"table {lt.table.id}: {exc.message}", exc.code) from exc
    match.finish_deal()
    if t.format != "blackpool":
        return
    for q in outcome.put_out(state):
        name = lt.table.players[q]
        step(Leave(lt.table.id, name))
        if name in t.deciding:
            buy = not t.closed and (decide is None or decide(name))
            step(BuyIn(name) if buy else Retire(name))
