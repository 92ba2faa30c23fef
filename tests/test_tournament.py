"""Tournaments: pairing, Blackpool's tables, queue, closing, semi-finals and final, records that
``hoola verify`` checks, and random tournaments whose points and pot add up."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from hoola.cli import cli
from hoola.core.errors import RulesError
from hoola.core.records import verify_text
from hoola.core.registry import get_game
from hoola.games.kalookie.match import Match
from hoola.games.kalookie.rules import Rules
from hoola.sim.ratings import START, Skill, places_of, rate_places
from hoola.tournament import (
    BuyIn,
    Bye,
    Close,
    Enter,
    Finish,
    Leave,
    Refund,
    Result,
    Retire,
    Seat,
    Start,
    Tournament,
    TournamentError,
    dumps,
    entrant_names,
    loads,
    outcome,
    play,
)
from hoola.tournament.pairing import blackpool_sizes, pair_key, repeats, swiss_tables

FAST = max(10, settings().max_examples // 12)  # examples of the tests that play real games


# -- helpers -----------------------------------------------------------------------------------

def started(format: str, game: str, players: int, seed: int = 1, **kw: object) -> Tournament:
    """A tournament of ``players`` entrants P1, P2, ... started with ``seed``."""
    t = Tournament.open(format, game, **kw)  # type: ignore[arg-type]
    for i in range(players):
        t.apply(Enter(f"P{i + 1}"))
    t.step(Start(seed))
    return t


def ranking_result(table: Seat, order: list[str], totals: dict[str, int] | None = None
                   ) -> Result:
    """A result placing ``order`` 1, 2, ... with the totals given (zeros by default)."""
    return Result(table.table, {p: order.index(p) + 1 for p in table.players},
                  {p: Fraction((totals or {}).get(p, 0)) for p in table.players})


def finish_in_seat_order(t: Tournament) -> None:
    """End every table playing, its players placed in seat order (at Blackpool, the last seat
    leaving first)."""
    for table in list(t.playing()):
        seat = Seat(table.id, table.stage, table.round, table.players)
        if t.format == "blackpool":
            for p in reversed(table.players[table.until:]):
                t.step(Leave(table.id, p))
                if p in t.deciding:
                    t.step(Retire(p))
        t.step(ranking_result(seat, list(table.players)))


def blackpool_leave(t: Tournament, table: int, player: str, buy: bool | None) -> None:
    t.step(Leave(table, player))
    if buy is not None:
        t.step(BuyIn(player) if buy else Retire(player))


def seats(t: Tournament, stage: str | None = None) -> list[Seat]:
    return [e for e in t.events if isinstance(e, Seat) and stage in (None, e.stage)]


# -- pairing -----------------------------------------------------------------------------------

@pytest.mark.parametrize("entrants", range(8, 33))
def test_blackpool_seats_tables_of_four_with_the_fewest_tables_of_three(entrants: int) -> None:
    t = started("blackpool", "kalookie", entrants)
    sizes = sorted(len(s.players) for s in seats(t))
    assert sum(sizes) == entrants and set(sizes) <= {3, 4}
    assert sizes.count(3) == (4 - entrants % 4) % 4 == len(blackpool_sizes(entrants)) - \
        blackpool_sizes(entrants).count(4)
    assert sorted(p for s in seats(t) for p in s.players) == sorted(t.entrants)


def test_swiss_never_repeats_a_meeting_that_can_be_avoided() -> None:
    t = started("swiss", "hoola", 16, settings={"rounds": 2})
    first = seats(t)
    met = {pair_key(a, b) for s in first for a, b in combinations(s.players, 2)}
    finish_in_seat_order(t)
    second = [s for s in seats(t) if s.round == 2]
    assert len(second) == 4
    assert not [pair for s in second for pair in combinations(s.players, 2)
                if pair_key(*pair) in met]


def test_swiss_at_tables_of_two_plays_a_round_robin_of_new_opponents() -> None:
    t = started("swiss", "hoola", 8, settings={"table_size": 2, "rounds": 5})
    while not t.is_over:
        finish_in_seat_order(t)
    pairs = Counter(pair_key(*s.players) for s in seats(t))
    assert len(seats(t)) == 20 and max(pairs.values()) == 1


def test_swiss_repeats_no_more_than_it_must() -> None:
    # Eight players at two tables of four meet again in round 2 whatever the draw: each new
    # table holds two from each old one, two pairs that met.
    t = started("swiss", "hoola", 8, settings={"rounds": 2})
    finish_in_seat_order(t)
    met = Counter(pair_key(a, b) for s in seats(t) if s.round == 1
                  for a, b in combinations(s.players, 2))
    assert sum(repeats(s.players, met) for s in seats(t) if s.round == 2) == 4


def test_swiss_pairs_players_of_equal_score_together() -> None:
    order = [f"P{i}" for i in range(8)]
    assert swiss_tables(order, 4, {}) == [order[:4], order[4:]]


def test_swiss_byes_go_to_the_lowest_and_to_nobody_twice() -> None:
    t = started("swiss", "hoola", 10, settings={"rounds": 3})
    for round in (2, 3):
        for table in list(t.playing()):  # the round ends; the next is not drawn yet
            t.apply(ranking_result(Seat(table.id, table.stage, table.round, table.players),
                                   list(table.players)))
        had = {e.player for e in t.events if isinstance(e, Bye)}
        lowest = [p for p in reversed(t.standings()) if p not in had][:2]
        t.advance()
        drawn = [e.player for e in t.events if isinstance(e, Bye) and e.round == round]
        assert sorted(drawn) == sorted(lowest)
    finish_in_seat_order(t)
    byes = [e for e in t.events if isinstance(e, Bye)]
    assert len(byes) == 6 and max(Counter(b.player for b in byes).values()) == 1
    assert all(t.points[b.player] >= t.settings.bye == Fraction(3, 2) for b in byes)


def test_swiss_points_by_place_are_configurable_and_ties_share() -> None:
    t = started("swiss", "hoola", 4, settings={"rounds": 1, "points": [5, 3, 1, 0]})
    (table,) = seats(t)
    a, b, c, d = table.players
    t.step(Result(table.table, {a: 1, b: 2, c: 2, d: 4}, dict.fromkeys(table.players,
                                                                     Fraction(0))))
    assert [t.points[p] for p in (a, b, c, d)] == [5, 2, 2, 0]
    assert t.is_over and t.winner == a


def test_knockout_sends_the_top_places_on_to_a_final() -> None:
    t = started("knockout", "hoola", 16, settings={"advance": 2})
    first = seats(t)
    assert [s.stage for s in first] == ["knockout"] * 4
    finish_in_seat_order(t)
    going = {s.players[0] for s in first} | {s.players[1] for s in first}
    second = [s for s in seats(t) if s.round == 2]
    assert {p for s in second for p in s.players} == going
    finish_in_seat_order(t)
    (final,) = [s for s in seats(t) if s.round == 3]
    assert final.stage == "final" and len(final.players) == 4
    finish_in_seat_order(t)
    assert t.winner == final.players[0] and t.standings()[0] == t.winner


def test_a_knockout_at_tables_of_two_gives_the_odd_player_a_bye() -> None:
    t = started("knockout", "hoola", 5, settings={"table_size": 2})
    assert [type(e).__name__ for e in t.events[-3:]] == ["Seat", "Seat", "Bye"]
    while not t.is_over:
        finish_in_seat_order(t)
    assert isinstance(t.events[-1], Finish)


# -- Blackpool: the queue, closing, refunds, semi-finals and the final ------------------------

def test_four_players_in_the_queue_form_a_new_table() -> None:
    t = started("blackpool", "kalookie", 8)
    one, two = seats(t)
    for p in one.players[:3]:
        blackpool_leave(t, 1, p, buy=True)
    assert t.queue == list(one.players[:3]) and len(t.tables) == 2
    blackpool_leave(t, 2, two.players[0], buy=True)
    new = seats(t)[-1]
    assert new.stage == "buy-in" and new.table == 3
    assert sorted(new.players) == sorted([*one.players[:3], two.players[0]])
    assert t.queue == [] and t.pot == 8 * 5 + 4 * 5
    assert all(t.money[p] == -10 for p in new.players)


def test_buy_ins_close_when_the_tournament_has_had_its_tables() -> None:
    t = started("blackpool", "kalookie", 8, settings={"tables": 3})
    one, two = seats(t)
    for p in one.players[:3]:
        blackpool_leave(t, 1, p, buy=True)
    blackpool_leave(t, 2, two.players[0], buy=True)
    assert isinstance(t.events[-1], Close) and t.closed
    t.step(Leave(2, two.players[1]))
    assert two.players[1] in t.out and not t.deciding  # no decision: buy-ins are closed
    with pytest.raises(TournamentError, match="has not left a table"):
        t.apply(BuyIn(two.players[1]))


def test_a_buy_in_after_closing_is_refused_in_one_line() -> None:
    t = started("blackpool", "kalookie", 8, settings={"tables": 3})
    one, two = seats(t)
    for p in one.players[:3]:
        blackpool_leave(t, 1, p, buy=True)
    t.step(Leave(2, two.players[0]))  # deciding while the third table forms from elsewhere
    blackpool_leave(t, 2, two.players[1], buy=True)
    assert t.closed and two.players[0] in t.out
    with pytest.raises(TournamentError) as error:
        t.apply(BuyIn(two.players[0]))
    assert "\n" not in error.value.message


def test_closing_with_one_or_two_in_the_queue_refunds_them() -> None:
    t = started("blackpool", "kalookie", 8)
    one, two = seats(t)
    for p in one.players[:3]:
        blackpool_leave(t, 1, p, buy=p != one.players[2])
    t.step(ranking_result(one, [one.players[3], *reversed(one.players[:3])]))
    assert not t.closed  # table 2 still plays: a fourth may join the queue
    for p in two.players[:3]:
        blackpool_leave(t, 2, p, buy=False)
    events = t.step(ranking_result(two, [two.players[3], *reversed(two.players[:3])]))
    kinds = [type(e) for e in events]
    assert kinds[:4] == [Result, Close, Refund, Refund]
    refunded = [e.player for e in events if isinstance(e, Refund)]
    assert refunded == list(one.players[:2])
    assert t.pot == 8 * 5 and all(t.money[p] == -5 for p in refunded)  # the entry fee stays
    assert set(refunded) <= set(t.out)
    # Two table winners: no semi-final to play, both go to the final.
    assert [type(e) for e in events[4:]] == [Bye, Bye, Seat]
    assert events[-1].stage == "final"  # type: ignore[union-attr]


def test_closing_with_three_in_the_queue_forms_a_last_table_of_three() -> None:
    t = started("blackpool", "kalookie", 8)
    one, two = seats(t)
    for p in one.players[:3]:
        blackpool_leave(t, 1, p, buy=True)
    t.step(ranking_result(one, [one.players[3], *reversed(one.players[:3])]))
    for p in two.players[:3]:
        blackpool_leave(t, 2, p, buy=False)
    events = t.step(ranking_result(two, [two.players[3], *reversed(two.players[:3])]))
    last = events[-1]
    assert isinstance(last, Seat) and last.stage == "buy-in" and len(last.players) == 3
    assert t.closed and t.queue == []


def test_semi_finals_play_until_two_are_left_and_the_final_to_one() -> None:
    t = started("blackpool", "kalookie", 32)  # eight tables at once: buy-ins closed at once
    assert t.closed
    finish_in_seat_order(t)
    semis = seats(t, "semi-final")
    assert [len(s.players) for s in semis] == [4, 4]
    semi = semis[0]
    a, b, c, d = semi.players
    with pytest.raises(TournamentError, match="not over"):
        t.apply(ranking_result(semi, [a, b, c, d]))
    t.step(Leave(semi.table, d))
    t.step(Leave(semi.table, c))
    with pytest.raises(TournamentError, match="players left at table"):
        t.apply(Result(semi.table, {a: 1, b: 3, c: 2, d: 4},
                       dict.fromkeys(semi.players, Fraction(0))))
    t.step(ranking_result(semi, [a, b, c, d]))
    other = semis[1]
    e, f, g, h = other.players
    for p in (h, g, f):  # one hand may leave only one: the best of those out goes on
        t.step(Leave(other.table, p))
    t.step(ranking_result(other, [e, f, g, h]))
    (final,) = seats(t, "final")
    assert sorted(final.players) == sorted([a, b, e, f])
    assert {c, d, g, h} <= set(t.out)
    for p in final.players[1:]:
        t.step(Leave(final.table, p))
    winner = final.players[0]
    events = t.step(ranking_result(final, [winner, *final.players[1:]]))
    assert events[-1] == Finish(winner)
    assert t.money[winner] == 32 * 5 - 5 and sum(t.money.values()) == 0
    assert t.standings()[:4] == [winner, *final.players[1:]]


def test_a_table_result_must_agree_with_who_is_left() -> None:
    t = started("blackpool", "kalookie", 8)
    one, _ = seats(t)
    a, b, c, d = one.players
    for p in (b, c, d):
        blackpool_leave(t, 1, p, buy=False)
    with pytest.raises(TournamentError, match="players left at table 1"):
        t.apply(ranking_result(one, [b, a, c, d]))
    with pytest.raises(TournamentError, match="add up to zero"):
        t.apply(ranking_result(one, [a, d, c, b], {a: 5}))
    with pytest.raises(TournamentError, match="is the last player"):
        t.apply(Leave(1, a))


def test_derived_events_must_be_the_ones_the_draw_gives() -> None:
    t = Tournament.open("blackpool", "kalookie")
    for i in range(8):
        t.apply(Enter(f"P{i + 1}"))
    t.apply(Start(5))
    due = t.next_due()
    assert isinstance(due, Seat)
    forged = Seat(due.table, due.stage, due.round, tuple(reversed(due.players)))
    with pytest.raises(TournamentError, match="the draw and the rules give"):
        t.apply(forged)
    with pytest.raises(TournamentError, match="is due first"):
        t.apply(Leave(1, due.players[0]))
    assert len(t.events) == 10  # nothing refused was applied


def test_blackpool_refuses_too_few_or_too_many_entrants() -> None:
    for n in (7, 33):
        t = Tournament.open("blackpool", "kalookie")
        for i in range(n):
            t.apply(Enter(f"P{i + 1}"))
        with pytest.raises(TournamentError, match="8 to 32 entrants"):
            t.apply(Start(1))


def test_blackpool_refuses_more_tables_than_two_semi_finals_can_seat() -> None:
    for tables in (2, 3, 4, 10):  # two or fewer winners have byes; ten fill two of five
        assert Tournament.open("blackpool", "kalookie",
                               settings={"tables": tables}).settings.tables == tables
    with pytest.raises(TournamentError, match="semi-finals of up to 6") as info:
        Tournament.open("blackpool", "kalookie", settings={"tables": 11})
    assert info.value.code == "bad-settings" and "\n" not in info.value.message


# -- the engine's end condition ------------------------------------------------------------

def test_a_kalookie_game_played_until_two_are_left_stops_there_with_its_pool_unpaid() -> None:
    from hoola.core.driver import play_deal
    from hoola.tournament.play import bot_for

    rules = Rules.preset("blackpool", buy_ins=0, target=30)
    game = get_game("kalookie")
    match = game.new_match(rules, ["A", "B", "C", "D"], seed=3, until=2)
    bots = [bot_for(game, "random", s)[0] for s in range(4)]
    while not match.is_over:
        play_deal(match.new_deal(), bots, rng=random.Random(len(match.deals)))
        match.finish_deal()
    alive = match.standing.seats()
    assert len(alive) <= 2 and len(match.deals[-1].standing.seats()) > 2
    if len(alive) == 2:
        assert match.winner is None and match.pool == 20
        shares = outcome.totals(match)
        assert sum(shares) == 0 and all(shares[q] > match.totals()[q] for q in alive)
    with pytest.raises(Exception, match="game is over"):
        match.new_deal()
    with pytest.raises(RulesError, match="until 1 to 3"):
        Match(rules, ["A", "B", "C", "D"], until=4)
    # A game that puts nobody out is played to its own end.
    for name in ("hoola", "capture"):
        other = get_game(name)
        with pytest.raises(RulesError, match="puts nobody out"):
            other.new_match(other.rules(), ["A", "B", "C", "D"], until=2)


# -- ratings -------------------------------------------------------------------------------

def test_ratings_keep_anchors_fixed_and_rate_partners_as_a_team() -> None:
    anchor = Skill(30.0, 1.0)
    after = rate_places({}, [["ann", "bob"], ["expert-1", "cy"]], places_of([2.0, 1.0],
                                                                          higher=True),
                        {"expert-1": anchor})
    assert set(after) == {"ann", "bob", "cy"}
    assert after["ann"] == after["bob"] and after["ann"].mu > START.mu > after["cy"].mu


# -- lab runs, records and hoola verify -----------------------------------------------------

def cup(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "cup.toml"
    result = CliRunner().invoke(cli, ["tournament", *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_command_runs_blackpool_prints_standings_and_writes_a_record(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["tournament", "--format", "blackpool", "--entrants", "8",
                                      "--bots", "random,greedy", "--seed", "1", "--option",
                                      "target=40", "-o", str(tmp_path / "cup.toml")])
    assert result.exit_code == 0, result.output
    assert "Kalookie has no greedy bot" in result.output
    assert "random-1" in result.output and "wins, after" in result.output
    verified = CliRunner().invoke(cli, ["verify", str(tmp_path / "cup.toml")])
    assert verified.exit_code == 0 and verified.output.startswith("ok cup.toml")


@pytest.mark.parametrize("args", [
    ["-f", "swiss", "-g", "hoola", "-n", "6", "--bots", "random,greedy", "--rounds", "2",
     "--deals", "1"],
    ["-f", "knockout", "-g", "sedma", "-n", "6", "--bots", "random", "--option", "target=2"],
    ["-f", "swiss", "-g", "kalookie", "-n", "5", "--bots", "random", "--table-size", "3",
     "--rounds", "2", "--option", "target=30"],
])
def test_swiss_and_knockout_of_any_game_verify(tmp_path: Path, args: list[str]) -> None:
    out = cup(tmp_path, *args, "--seed", "4")
    verdict = verify_text(out.read_text(), "cup")
    assert verdict.ok, verdict.line()


def test_the_record_round_trips(tmp_path: Path) -> None:
    text = cup(tmp_path, "-f", "blackpool", "-n", "9", "-b", "random", "--seed", "2",
               "--option", "target=40").read_text()
    t, records = loads(text)
    assert dumps(t, records) == text
    assert t.is_over and len(records) == len(t.tables)
    # Each table's record is a record of its game on its own, a semi-final's stopped at two.
    for table_id, record in records.items():
        assert verify_text(record, f"table {table_id}").ok
    assert seats(t, "semi-final")
    for semi in seats(t, "semi-final"):
        game = get_game("kalookie").resume(records[semi.table])
        left = outcome.still_in(game)
        assert 1 <= len(left) <= 2 and ("stopped = true" in records[semi.table]) == (
            len(left) == 2)


def tampered(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text, old
    return text.replace(old, new, count)


def test_a_tampered_record_is_refused_in_one_line(tmp_path: Path) -> None:
    text = cup(tmp_path, "-f", "blackpool", "-n", "8", "-b", "random", "--seed", "3",
               "--option", "target=40").read_text()
    t, _ = loads(text)
    table = seats(t)[0]
    a, b = table.players[:2]
    winner = t.winner
    assert winner is not None
    loser = next(p for p in t.entrants if p != winner)
    leave = next(e for e in t.events if isinstance(e, Leave))
    cases = {
        "seating": tampered(text, f'players = ["{a}", "{b}"', f'players = ["{b}", "{a}"'),
        "seed": tampered(text, "seed = 3", "seed = 30"),
        "pot": tampered(text, f"pot = {t.pot}", f"pot = {t.pot + 5}"),
        "winner": tampered(text, f'winner = "{winner}"\nstandings',
                           f'winner = "{loser}"\nstandings'),
        "a leave": tampered(text, f'{{ event = "leave", table = {leave.table}, player = '
                                  f'"{leave.player}" }},\n', ""),
        "an action": _change_an_action(text),
        "a result's places": _change_a_place(text),
        "a result's money": _move_money(text),
        "a table's record": tampered(text, "[[table]]\nid = 1\n", "[[table]]\nid = 99\n"),
        "a table's rules": tampered(text, "buy_ins = 0", "buy_ins = 2"),
        # Tables that play on past the tournament's cap on deals (a pool table too).
        "the cap on deals": tampered(text, "deals = 1000\n", "deals = 2\n"),
        "an entrant twice": tampered(text, f'entrants = ["{t.entrants[0]}", "{t.entrants[1]}"',
                                     f'entrants = ["{t.entrants[0]}", "{t.entrants[0]}"'),
        "an event unknown": tampered(text, '{ event = "close" }', '{ event = "closed" }'),
        "not TOML": text + "[[table\n",
    }
    for what, bad in cases.items():
        path = tmp_path / "bad.toml"
        path.write_text(bad)
        result = CliRunner().invoke(cli, ["verify", str(path)])
        first, *rest = result.output.splitlines()
        assert result.exit_code == 1, what
        assert first.startswith("FAIL bad.toml: "), (what, first)
        assert rest == ["0 passed, 1 failed"], what


def _change_an_action(text: str) -> str:
    # The first table's first discard becomes another card of the hand: refused, or a game
    # other than the one recorded.
    start = text.index("record = '''")
    at = text.index(" discard ", start)
    end = text.index('"', at)
    card = text[at + len(" discard "):end]
    return text[:at] + " discard " + ("2c" if card != "2c" else "3c") + text[end:]


def _change_a_place(text: str) -> str:
    """The first result with its first two players' places swapped."""
    at = text.index('{ event = "result"')
    start = text.index("places = { ", at) + len("places = { ")
    end = text.index(" }", start)
    (p, x), (q, y), *rest = (item.split(" = ") for item in text[start:end].split(", "))
    places = ", ".join(f"{k} = {v}" for k, v in [(p, y), (q, x), *rest])
    return text[:start] + places + text[end:]


def _move_money(text: str) -> str:
    """The first result with one unit of money moved between its first two players."""
    at = text.index('{ event = "result"')
    start = text.index("totals = { ", at) + len("totals = { ")
    end = text.index(" }", start)
    (p, x), (q, y), *rest = (item.split(" = ") for item in text[start:end].split(", "))
    totals = ", ".join(f"{k} = {v}" for k, v in
                       [(p, int(x) + 1), (q, int(y) - 1), *rest])
    return text[:start] + totals + text[end:]


def test_a_table_in_play_cannot_go_on_without_its_game() -> None:
    lineup = entrant_names(["random"], 8)
    whole = Tournament.open("blackpool", "kalookie", options={"target": 40})
    play(whole, lineup, seed=4)
    first_leave = next(i for i, e in enumerate(whole.events) if isinstance(e, Leave))
    again = Tournament.replay(whole.events[:first_leave + 2])
    with pytest.raises(TournamentError, match="its game is needed to go on"):
        play(again, lineup)


def test_a_restart_rebuilds_the_tournament_from_its_events_and_plays_on() -> None:
    lineup = entrant_names(["random", "greedy"], 8)
    whole = Tournament.open("swiss", "hoola", settings={"deals": 1})
    play(whole, lineup, seed=9)
    # Stop after the first round's last result, as a server killed then would have stored.
    cut = max(i for i, e in enumerate(whole.events)
              if isinstance(e, Result) and whole.tables[e.table].round == 1) + 1
    again = Tournament.replay(whole.events[:cut])
    play(again, lineup)
    assert again.events == whole.events
    assert again.standings() == whole.standings() and again.points == whole.points


# -- random tournaments ------------------------------------------------------------------------

def _random_places(rng: random.Random, players: tuple[str, ...]) -> dict[str, int]:
    scores = {p: rng.randrange(3) for p in players}
    order = sorted(scores.values(), reverse=True)
    return {p: order.index(s) + 1 for p, s in scores.items()}


def _drive(t: Tournament, rng: random.Random) -> None:
    """Play ``t`` to its end with made-up results: random leaves, decisions and places."""
    for _ in range(10_000):
        if t.is_over:
            return
        if t.deciding:
            p = rng.choice(t.deciding)
            t.step(BuyIn(p) if not t.closed and rng.random() < 0.6 else Retire(p))
            continue
        table = rng.choice(t.playing())
        staying = [p for p in table.players if p not in table.left]
        if t.format == "blackpool" and len(staying) > table.until:
            t.step(Leave(table.id, rng.choice(staying)))
            continue
        if t.format != "blackpool":
            places = _random_places(rng, table.players)
            totals = {p: Fraction(rng.randrange(-5, 6)) for p in table.players}
        else:
            gone = list(reversed(table.left))
            order = sorted(staying, key=lambda p: rng.random()) + gone
            places = {p: order.index(p) + 1 for p in table.players}
            amounts = [rng.randrange(-4, 5) for _ in table.players[1:]]
            totals = {p: Fraction(v) for p, v in zip(table.players, [-sum(amounts), *amounts],
                                                     strict=True)}
        t.step(Result(table.id, places, totals))
    raise AssertionError("the tournament did not end")


def _same_state(a: Tournament, b: Tournament) -> None:
    assert a.events == b.events and a.standings() == b.standings()
    assert (a.points, a.money, a.pot, a.winner, a.queue, a.out) == \
        (b.points, b.money, b.pot, b.winner, b.queue, b.out)


@given(format=st.sampled_from(["swiss", "knockout", "blackpool"]),
       entrants=st.integers(8, 32), size=st.integers(2, 5), seed=st.integers(0, 2**32),
       cap=st.integers(2, 10), cut=st.floats(0, 1))
def test_random_tournaments_add_up_and_replay_from_their_events(
        format: str, entrants: int, size: int, seed: int, cap: int, cut: float) -> None:
    options = {"swiss": {"table_size": size, "rounds": 3}, "knockout": {"table_size": size},
               "blackpool": {"tables": cap}}[format]
    t = started(format, "hoola" if format != "blackpool" else "kalookie", entrants, seed,
                settings=options)
    _drive(t, random.Random(seed))
    _same_state(t, Tournament.replay(t.events))
    # Stopped anywhere and rebuilt from the events stored so far, it takes the rest the same.
    stored = 1 + int(cut * (len(t.events) - 1))
    again = Tournament.replay(t.events[:stored])
    for event in t.events[stored:]:
        assert again.can(event)
        again.apply(event)
    _same_state(t, again)
    assert t.winner in t.entrants and t.standings()[0] == t.winner
    if format == "swiss":
        # Every player's points are the points of their places and byes.
        for p in t.entrants:
            earned = Fraction(0)
            for table in t.tables.values():
                if p in table.players and table.result is not None:
                    earned += t._place_points(table.result)[p]
            assert t.points[p] == earned + t.byes[p] * t.settings.bye
        tables = [tb for tb in t.tables.values()]
        assert sum(t.points.values()) == len(tables) * sum(t.settings.points) + \
            sum(t.byes.values()) * t.settings.bye
    if format == "blackpool":
        refunds = sum(1 for e in t.events if isinstance(e, Refund))
        assert t.pot == 5 * (entrants + sum(t.buy_ins.values()) - refunds)
        assert sum(t.money.values()) == 0
        assert len(t.tables) <= max(cap, len(blackpool_sizes(entrants))) + 3
        assert len([s for s in seats(t) if s.stage in ("qualifying", "buy-in")]) <= max(
            cap, len(blackpool_sizes(entrants)))


@settings(max_examples=FAST)
@given(format=st.sampled_from(["swiss", "knockout", "blackpool"]),
       entrants=st.integers(8, 12), seed=st.integers(0, 2**32))
def test_random_tournaments_of_real_games_verify(format: str, entrants: int,
                                                 seed: int) -> None:
    if format == "blackpool":
        t = Tournament.open("blackpool", "kalookie", options={"target": 30})
    elif format == "swiss":
        t = Tournament.open("swiss", "hoola", settings={"deals": 1, "rounds": 2})
    else:
        t = Tournament.open("knockout", "capture", "sedma", options={"target": 2})
    rng = random.Random(seed)
    games = play(t, entrant_names(["random"], entrants), seed=seed,
                 decide=lambda name: rng.random() < 0.5)
    game = get_game(t.game)
    text = dumps(t, {i: game.record_text(m) for i, m in games.items()})
    verdict = verify_text(text, "cup")
    assert verdict.ok, verdict.line()
    _same_state(t, loads(text)[0])
    if format == "blackpool":
        assert sum(t.money.values()) == 0


# -- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "says"), [
    (["-f", "blackpool", "-n", "5"], "8 to 32 entrants"),
    (["-f", "blackpool", "-g", "hoola"], "played at Kalookie"),
    (["-g", "nosuch"], "unknown game"),
    (["--bots", "wizard"], "unknown bot"),
    (["--points", "3,2"], "must list 4 numbers"),
    (["-g", "kalookie", "--option", "target=-4"], "target"),
    (["-f", "swiss", "-n", "3"], "at least 4 entrants"),
])
def test_bad_input_is_one_line_never_a_traceback(args: list[str], says: str) -> None:
    result = CliRunner().invoke(cli, ["tournament", *args])
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)
