"""The tournament record (``docs/tournaments.md``): a TOML file in the spirit of
``shared/spec/records.md`` holding the format, the game and preset, the entrants, the seed, the
events in order and each table's own game record; written, read and verified here.

``hoola verify`` checks it table by table (each table's record verifies as a record of its game,
and its result is the one its game gives) and as a whole (replaying the events: seating and
pairing follow from the seed, advancement, points and the pot add up).

>>> from hoola.tournament.play import entrant_names, play
>>> t = Tournament.open("swiss", "hoola", settings={"table_size": 2, "rounds": 2, "deals": 1})
>>> games = play(t, entrant_names(["random", "expert"], 4), seed=3)
>>> text = dumps(t, {i: get_game("hoola").record_text(m) for i, m in games.items()})
>>> verify(parse_toml(text), text)
[]
>>> problem, = verify(parse_toml(text.replace("seed = 3", "seed = 4")), text)
>>> problem.endswith("the draw and the rules give table 1 (round): expert-2 random-3")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from hoola.core.errors import HoolaError, RecordError
from hoola.core.records import parse_toml, shown, toml_value
from hoola.core.registry import get_game
from hoola.tournament import outcome
from hoola.tournament.config import FORMATS
from hoola.tournament.events import (
    NAME_RE,
    Enter,
    Event,
    Open,
    Start,
    TournamentError,
    as_table,
    describe,
    from_table,
)
from hoola.tournament.state import Tournament

__all__ = ["FORMAT", "describe_events", "dumps", "events_of", "loads", "replay", "summary",
           "verify", "verify_record"]

FORMAT: Final = "hoola-tournament/1"
TOP_KEYS: Final = ("format", "tournament", "game", "rules", "entrants", "seed", "events",
                   "options", "settings", "result", "table")
MOST_EVENTS: Final = 100_000


def _bad(message: str) -> RecordError:
    return RecordError(message, "bad-tournament-record")


# -- writing --------------------------------------------------------------------------------------

def _inline(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple) and not (value and isinstance(value[0], tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return toml_value(value)


def _embed(text: str) -> str:
    """A game record as a TOML string: a literal multi-line string when it can be one."""
    if "'''" not in text and all(c.isprintable() or c in "\n\t" for c in text):
        return "'''\n" + text + "'''"
    return toml_value(text)


def summary(t: Tournament) -> dict[str, Any]:
    """The ``[result]`` of a tournament: its winner, the standings, each player's points (Swiss)
    or money (Blackpool: the pot too)."""
    out: dict[str, Any] = {}
    if t.winner is not None:
        out["winner"] = t.winner
    out["standings"] = t.standings()
    if t.format == "swiss":
        out["points"] = {p: t.points[p] for p in t.standings()}
    if t.format == "blackpool":
        out["pot"] = t.pot
        out["money"] = {p: t.money[p] for p in t.standings()}
    return out


def dumps(t: Tournament, records: Mapping[int, str]) -> str:
    """The record of tournament ``t`` with each table's game record (text) by table id."""
    opening = t.events[0]
    assert isinstance(opening, Open)
    lines = [f"format = {toml_value(FORMAT)}", f"tournament = {toml_value(t.format)}",
             f"game = {toml_value(t.game)}", f"rules = {toml_value(opening.rules)}",
             f"entrants = {_inline(t.entrants)}"]
    if t.seed is not None:
        lines.append(f"seed = {t.seed}")
    later = [e for e in t.events if not isinstance(e, Open | Enter | Start)]
    lines.append("events = [")
    for event in later:
        table = as_table(event)
        lines.append(f"  {_inline(table)},")
    lines.append("]")
    if opening.options:
        lines += ["", "[options]", *(f"{k} = {toml_value(v)}" for k, v in opening.options.items())]
    lines += ["", "[settings]", *(f"{k} = {_inline(v)}"
                                  for k, v in t.settings.as_mapping().items())]
    lines += ["", "[result]", *(f"{k} = {_inline(v)}" for k, v in summary(t).items())]
    for table_id in sorted(records):
        lines += ["", "[[table]]", f"id = {table_id}", f"record = {_embed(records[table_id])}"]
    return "\n".join(lines) + "\n"


# -- reading --------------------------------------------------------------------------------------

def events_of(data: Mapping[str, Any]) -> list[Event]:
    """Every event a tournament record holds, its opening, entries and start first; a
    RecordError names what is malformed."""
    unknown = sorted(str(k) for k in data if k not in TOP_KEYS)
    if unknown:
        raise _bad(f"unknown top-level key {unknown[0]!r}")
    if data.get("format") != FORMAT:
        raise _bad(f"format must be {FORMAT!r}")
    if data.get("tournament") not in FORMATS:
        raise _bad(f"tournament must be one of {', '.join(FORMATS)}")
    for key in ("game", "rules"):
        if not isinstance(data.get(key), str):
            raise _bad(f"{key} must be a name")
    options, settings = data.get("options", {}), data.get("settings", {})
    if not isinstance(options, dict) or not isinstance(settings, dict):
        raise _bad("[options] and [settings] must be tables")
    entrants = data.get("entrants")
    if not isinstance(entrants, list) or not all(
            isinstance(p, str) and NAME_RE.fullmatch(p) for p in entrants):
        raise _bad("entrants must be a list of names of letters, digits, _ and -")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise _bad("seed must be a whole number from 0 to 2**63 - 1")
    raw = data.get("events", [])
    if not isinstance(raw, list) or len(raw) > MOST_EVENTS:
        raise _bad(f"events must be a list of at most {MOST_EVENTS:,} tables")
    events: list[Event] = [Open(data["tournament"], data["game"], data["rules"], options,
                                settings)]
    events += [Enter(p) for p in entrants]
    events.append(Start(seed))
    for i, table in enumerate(raw, 1):
        try:
            events.append(from_table(table))
        except TournamentError as exc:
            raise _bad(f"event {i}: {exc.message}") from exc
    return events


def loads(text: str) -> tuple[Tournament, dict[int, str]]:
    """The tournament a record's text holds (its events replayed) and each table's game record
    by table id; a RecordError names the first thing that does not hold."""
    data = parse_toml(text)
    try:
        t = replay(data)
    except HoolaError as exc:
        raise _bad(exc.message) from exc
    return t, _tables(data)


def replay(data: Mapping[str, Any]) -> Tournament:
    """The tournament a record's events make; a TournamentError names the first event refused
    (numbered as the record's ``events`` list counts them) or what the header gets wrong."""
    opening, *events = events_of(data)
    header = len(data["entrants"]) + 2
    if not isinstance(opening, Open):
        raise TournamentError("a tournament's first event opens it")
    try:
        t = Tournament(opening)
    except HoolaError as exc:
        raise TournamentError(exc.message, exc.code) from exc
    for i, event in enumerate(events, 2 - header):
        try:
            t.apply(event)
        except TournamentError as exc:
            where = f"event {i} ({describe(event)})" if i >= 1 else \
                "entrants" if isinstance(event, Enter) else "the start"
            raise TournamentError(f"{where}: {exc.message}", exc.code) from exc
    return t


def _tables(data: Mapping[str, Any]) -> dict[int, str]:
    tables = data.get("table", [])
    if not isinstance(tables, list):
        raise _bad("each table's record is a [[table]] with id and record")
    out: dict[int, str] = {}
    for entry in tables:
        if not isinstance(entry, dict) or set(entry) != {"id", "record"}:
            raise _bad("each [[table]] holds exactly id and record")
        table_id, text = entry["id"], entry["record"]
        if isinstance(table_id, bool) or not isinstance(table_id, int) or \
                not isinstance(text, str):
            raise _bad("a [[table]]'s id is a whole number and its record a string")
        if table_id in out:
            raise _bad(f"table {table_id} has two records")
        out[table_id] = text
    return out


# -- verifying ------------------------------------------------------------------------------------

def verify(data: Any, text: str = "") -> list[str]:
    """What is wrong with a tournament record (its parsed TOML); [] when it holds.

    A malformed record raises a RecordError; a refused event or a table whose game does not
    give its result is a problem, with the table or event it concerns.
    """
    if not isinstance(data, Mapping):
        raise _bad("a record is a TOML table")
    try:
        t = replay(data)
    except TournamentError as exc:
        return [exc.message]
    records = _tables(data)
    game = get_game(t.game)
    problems: list[str] = []
    for table_id, table in sorted(t.tables.items()):
        if table_id not in records:
            if table.is_over:
                problems.append(f"table {table_id} has ended but the record has no game of it")
            continue
        problems += [f"table {table_id}: {p}" for p in _verify_table(t, game, table_id,
                                                                     records[table_id])]
    extra = sorted(set(records) - set(t.tables))
    if extra:
        problems.append(f"the record holds a game of table {extra[0]}, which was never formed")
    if "result" in data:
        problems += _compare_summary(data["result"], t)
    return problems


def _verify_table(t: Tournament, game: Any, table_id: int, text: str) -> list[str]:
    table = t.tables[table_id]
    try:
        data = parse_toml(text)
        problems = list(game.verify_record(data, text))
    except HoolaError as exc:
        return [exc.message]
    if problems:
        return problems[:1]
    if data.get("game", "hoola") != t.game:
        return [f"the game is {data.get('game', 'hoola')}, the tournament plays {t.game}"]
    if tuple(data.get("players", ())) != table.players:
        return [f"its players are {data.get('players')}, the table seats "
                f"{list(table.players)}"]
    try:
        rules = game.rules(data.get("rules"), data.get("options", {}))
        match = game.resume(text)
    except HoolaError as exc:
        return [exc.message]
    if rules != t.rules:
        return ["it is played under other rules than the tournament's tables"]
    if table.result is None:
        return []
    if not outcome.ended(match, until=table.until, deals=t.settings.deals):
        return ["the game stops before its end"]
    if len(outcome.still_in(match, len(match.deals) - 1)) <= table.until or \
            len(match.deals) > t.settings.deals:
        return ["the game goes on after its end"]
    names = table.players
    problems = []
    if t.format == "blackpool":
        gone = [names[q] for q in outcome.gone(match)]
        if gone != table.left:
            problems.append(f"players go out in the order {gone}, the events say "
                            f"{table.left}")
    places = outcome.places(match)
    totals = outcome.totals(match)
    for q, name in enumerate(names):
        if table.result.places[name] != places[q]:
            problems.append(f"{name} is placed {places[q]}, the result says "
                            f"{table.result.places[name]}")
        if Fraction(table.result.totals[name]) != totals[q]:
            problems.append(f"{name} takes {toml_value(totals[q])}, the result says "
                            f"{toml_value(table.result.totals[name])}")
    return problems


def _compare_summary(expected: Any, t: Tournament) -> list[str]:
    if not isinstance(expected, dict):
        raise _bad("[result] must be a table")
    actual = summary(t)
    problems = []
    for key, value in expected.items():
        if key not in ("winner", "standings", "points", "pot", "money"):
            raise _bad(f"[result] has an unknown key {key!r}")
        got = actual.get(key)
        if isinstance(got, dict):
            if not isinstance(value, dict):
                raise _bad(f"[result] {key} must be a table of player = number")
            for name, v in value.items():
                if name not in got or _number(v) != got[name]:
                    problems.append(f"{key} of {name} is "
                                    f"{_shown(got[name]) if name in got else 'nothing'}, "
                                    f"record says {_shown(v)}")
        elif isinstance(got, Fraction):
            if _number(value) != got:
                problems.append(f"the {key} is {_shown(got)}, record says {_shown(value)}")
        elif got != value:
            said = "nobody yet" if got is None else _shown(got)
            verb = "are" if key == "standings" else "is"
            problems.append(f"the {key} {verb} {said}, record says {_shown(value)}")
    return problems


def _shown(value: Any) -> str:
    """A value for a message: as TOML writes it, or its repr when it is none of a record's."""
    try:
        text = toml_value(value)
    except (TypeError, ValueError):
        return shown(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _number(value: Any) -> Fraction | None:
    from hoola.tournament.events import read_amount

    try:
        return read_amount(value, "a number")
    except TournamentError:
        return None


def verify_record(data: dict[str, Any], text: str = "") -> list[str]:
    """:func:`verify` as ``hoola verify`` calls a record format's checker."""
    return verify(data, text)


def describe_events(t: Tournament) -> list[str]:
    """Every event of ``t`` in a few words, in order (for a report)."""
    return [describe(e) for e in t.events]

