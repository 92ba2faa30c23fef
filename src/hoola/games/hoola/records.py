"""The record file (``shared/spec/records.md``): read, write, replay and verify.

``dumps(loads(text)) == text`` holds for every record this module writes.

>>> text = '''format = "hoola-record/1"
... rules = "pagat"
... players = ["A", "B"]
...
... [[deal]]
... seed = 4
... actions = []
... '''
>>> dumps(loads(text)) == text
True
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from hoola.core.cards import format_cards, parse_cards
from hoola.core.errors import HoolaError, RecordError, RulesError
from hoola.core.records import (
    FORMAT,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    Verdict,
    format_number,
    game_name_of,
    parse_toml,
    printable,
    read_text,
    record_files,
    shown,
)
from hoola.games.hoola.actions import NAME_RE, parse_action
from hoola.games.hoola.deal import Deal
from hoola.games.hoola.match import Match, next_dealer, next_stake
from hoola.games.hoola.missions import Mission, check_mission
from hoola.games.hoola.rules import PRESETS, Rules
from hoola.games.hoola.scoring import END_KINDS
from hoola.games.hoola.state import DealState

__all__ = [
    "FORMAT",
    "MAX_DEALS",
    "MAX_DIGITS",
    "MAX_FILE_BYTES",
    "MAX_PLAYERS",
    "MAX_TEXT",
    "DealRecord",
    "Record",
    "Verdict",
    "dumps",
    "format_number",
    "load",
    "loads",
    "next_dealer",
    "next_stake",
    "parse_number",
    "printable",
    "read_text",
    "record_files",
    "record_of",
    "replay",
    "resume_match",
    "verify",
    "verify_path",
]

# Limits (docs/records.md): generous for any real game, small enough that a hostile file is
# refused within seconds instead of eating minutes or gigabytes.
MAX_DEALS = 1000
"""The most ``[[deal]]`` tables in one record (as many as ``hoola play --deals`` allows)."""
MAX_TEXT = 500
"""The most characters of one string: an action, a card list, a preset name, an option value."""
MAX_PLAYERS = 7
"""The most players at a Hoola table (and so in a record); the fewest is 2."""
MAX_OPTION_ENTRIES = 16
_RESULT_KEYS = ("end", "winners", "points", "payments", "mission", "illegal")
_DEAL_KEYS = ("dealer", "stake", "seed", "hands", "upcard", "stock", "mission", "actions",
              "result")
_MISSION_OUTCOMES = ("achieved", "failed")


@dataclass
class DealRecord:
    """One ``[[deal]]``: either explicit cards or a ``seed``, the actions, the expected result."""

    actions: list[str] = field(default_factory=list)
    hands: dict[str, str] | None = None
    upcard: str | None = None
    stock: str | None = None
    seed: int | None = None
    dealer: str | None = None
    stake: Fraction | None = None
    result: dict[str, Any] = field(default_factory=dict)
    mission: Mission | None = None


@dataclass
class Record:
    """A whole record file."""

    players: list[str]
    rules: str = "pagat"
    options: dict[str, Any] = field(default_factory=dict)
    deals: list[DealRecord] = field(default_factory=list)
    totals: dict[str, Fraction] | None = None
    comment: str = ""

    def make_rules(self) -> Rules:
        """The :class:`Rules` this record is played under.

        Raises :class:`RulesError` for a bad preset or option, :class:`RecordError` for a table
        the rules cannot seat: every replay starts here.
        """
        if not 2 <= len(self.players) <= MAX_PLAYERS:
            raise RecordError(f"a record has 2 to {MAX_PLAYERS} players, not {len(self.players)}")
        if self.rules not in PRESETS:
            raise RulesError(f"unknown preset {shown(self.rules)}; presets are "
                             f"{', '.join(PRESETS)}", "unknown-preset")
        keys = Rules.option_keys()
        for key, value in self.options.items():
            if key not in keys:
                raise RulesError(f"unknown rule option {shown(key)}", "unknown-option")
            _check_option(key, value)
        return Rules.from_options(self.rules, self.options)


# -- numbers and strings --------------------------------------------------------------------------

_DECIMAL_RE = re.compile(r"\s*([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?\s*")
_RATIO_RE = re.compile(r"\s*([+-]?[0-9]+)\s*/\s*([0-9]+)\s*")
_LIMIT = 10 ** MAX_DIGITS


def _bounded(number: Fraction, where: str) -> Fraction:
    if abs(number.numerator) >= _LIMIT or number.denominator >= _LIMIT:
        raise RecordError(f"{where} has more than {MAX_DIGITS} digits, the most a record's "
                          "numbers may have", "number-too-long")
    return number


def parse_number(text: str, where: str) -> Fraction:
    """Read ``"5"``, ``"-2.5"``, ``"1e3"`` or ``"5/2"`` exactly, refusing more than MAX_DIGITS.

    The digits are counted before converting: ``Fraction("1e100000000")`` alone takes minutes.
    """
    ratio = _RATIO_RE.fullmatch(text)
    if ratio:
        top, bottom = ratio[1].lstrip("+-"), ratio[2]
        if len(top) > MAX_DIGITS or len(bottom) > MAX_DIGITS:
            raise RecordError(f"{where} has more than {MAX_DIGITS} digits, the most a record's "
                              "numbers may have", "number-too-long")
        if int(bottom) == 0:
            raise RecordError(f"{where} divides by zero", "bad-record")
        return _bounded(Fraction(int(ratio[1]), int(bottom)), where)
    decimal = _DECIMAL_RE.fullmatch(text)
    if decimal and (decimal[2] or decimal[3]):
        digits = decimal[2] + (decimal[3] or "")
        exponent = decimal[4] or "0"
        if len(digits) > MAX_DIGITS or len(exponent.lstrip("+-")) > 4 \
                or abs(int(exponent)) > MAX_DIGITS:
            raise RecordError(f"{where} has more than {MAX_DIGITS} digits, the most a record's "
                              "numbers may have", "number-too-long")
        places = len(decimal[3] or "")
        number = Fraction(int(digits), 10 ** places) * Fraction(10) ** int(exponent)
        return _bounded(-number if decimal[1] == "-" else number, where)
    raise RecordError(f"{where} must be a number or a fraction such as \"5/2\", not "
                      f"{shown(text)}")


def _number(value: Any, where: str) -> Fraction:
    if isinstance(value, bool):
        raise RecordError(f"{where} must be a number, not {shown(value)}")
    if isinstance(value, int):
        return _bounded(Fraction(value), where)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RecordError(f"{where} must be a finite number, not {value!r}")
        # The decimal the file wrote (0.1 is 1/10), not the binary float nearest to it.
        return parse_number(repr(value), where)
    if isinstance(value, Fraction):
        return _bounded(value, where)
    if isinstance(value, str):
        return parse_number(value, where)
    raise RecordError(f"{where} must be a number or a fraction such as \"5/2\", not "
                      f"{shown(value)}")


# A string Fraction() would read as a number (\d: it takes any Unicode digit), exponent and all.
_NUMBER_LIKE_RE = re.compile(r"\s*[-+]?\.?\d")
_TABLE_KEY_RE = re.compile(r"[1-9][0-9]{0,2}")


def _is_player_count(key: Any) -> bool:
    if isinstance(key, str):
        return bool(_TABLE_KEY_RE.fullmatch(key))
    return isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= 999


def _check_option(key: str, value: Any) -> None:
    """Refuse an option value Rules could not take in bounded time and memory."""
    try:
        if isinstance(value, Mapping | tuple):
            # A table from the file, or the (count, limit) pairs of Rules.overrides().
            pairs = list(value.items()) if isinstance(value, Mapping) else list(value)
            if len(pairs) > MAX_OPTION_ENTRIES or not all(
                    isinstance(p, tuple) and len(p) == 2 and _is_player_count(p[0])
                    for p in pairs):
                raise RulesError(f"option {key} must be a table of player counts such as "
                                 "{ 2 = 5, 4 = 10 }", "bad-option-value")
            for count, entry in pairs:
                if isinstance(entry, Mapping | list | tuple):
                    raise RulesError(f"option {key} for {count} players must be a number, "
                                     f"not {shown(entry)}", "bad-option-value")
                _check_option(key, entry)
        elif isinstance(value, str):
            _text(value, f"option {key}")
            if _NUMBER_LIKE_RE.match(value):
                parse_number(value, f"option {key}")
        elif isinstance(value, int | float | Fraction) and not isinstance(value, bool):
            _number(value, f"option {key}")
        elif not isinstance(value, bool):
            raise RulesError(f"option {key} = {shown(value)} must be a number, true or false, "
                             "or a word", "bad-option-value")
    except RecordError as exc:
        raise RulesError(exc.message, "bad-option-value") from exc


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where} must be a string, not {shown(value)}")
    if len(value) > MAX_TEXT:
        raise RecordError(f"{where} has {len(value):,} characters; a string in a record has at "
                          f"most {MAX_TEXT}", "text-too-long")
    return value


# -- reading --------------------------------------------------------------------------------------

def loads(text: str) -> Record:
    """Read a record from TOML text; raises :class:`RecordError` naming what is wrong."""
    return record_from_data(parse_toml(text), text)


def record_from_data(data: dict[str, Any], text: str = "") -> Record:
    """A Hoola record from its parsed TOML (``text`` gives the header comment to keep)."""
    if game_name_of(data) != "hoola":
        raise RecordError(f"the record is of the game {shown(data['game'])}, not hoola",
                          "wrong-game")
    unknown = set(data) - {"format", "game", "rules", "players", "options", "deal", "match"}
    if unknown:
        raise RecordError(f"unknown top-level key {shown(sorted(unknown)[0])}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and NAME_RE.fullmatch(p)
                                                for p in players):
        raise RecordError("players must be a list of names of 1 to 64 letters, digits, _ and -")
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise RecordError(f"a record has 2 to {MAX_PLAYERS} players, not {len(players)}")
    if len(set(players)) != len(players):
        raise RecordError("players must have distinct names")
    rules = _text(data.get("rules", "pagat"), "rules")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("[options] must be a table")
    raw_deals = data.get("deal", [])
    if not isinstance(raw_deals, list):
        raise RecordError("deals are written as [[deal]] tables")
    if len(raw_deals) > MAX_DEALS:
        raise RecordError(f"the record has {len(raw_deals):,} deals; a record has at most "
                          f"{MAX_DEALS:,}", "too-many-deals")
    deals = [_read_deal(raw, players, i) for i, raw in enumerate(raw_deals, 1)]
    totals = None
    match = data.get("match")
    if match is not None:
        if not isinstance(match, dict) or set(match) - {"totals"}:
            # records.md: Hoola has no end of its own, so a match has no winner (nor stopped)
            raise RecordError("[match] holds only totals (a Hoola match has no end of its own: "
                              "no winner, nothing to stop before)")
        if "totals" in match:
            totals = _read_by_name(match["totals"], players, "match totals")
    comment_lines = []
    for line in text.splitlines():
        if line.startswith("#"):
            comment_lines.append(line)
        else:
            break
    comment = "\n".join(comment_lines) + "\n" if comment_lines else ""
    return Record(players, rules, options, deals, totals, comment)


def _read_by_name(raw: Any, players: Sequence[str], where: str) -> dict[str, Fraction]:
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be a table of player = number")
    for name in raw:
        if name not in players:
            raise RecordError(f"{where} names {shown(name)}, who is not a player")
    return {name: _number(v, f"{where} of {name}") for name, v in raw.items()}


def _read_deal(raw: Any, players: Sequence[str], i: int) -> DealRecord:
    where = f"deal {i}"
    if not isinstance(raw, dict):
        raise RecordError(f"{where} must be a table")
    unknown = set(raw) - set(_DEAL_KEYS)
    if unknown:
        raise RecordError(f"{where} has an unknown key {shown(sorted(unknown)[0])}")
    d = DealRecord()
    actions = raw.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f"{where}: actions must be a list of strings")
    d.actions = [_text(a, f"{where} action {k}") for k, a in enumerate(actions, 1)]
    if "seed" in raw:
        seed = raw["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"{where}: seed must be a whole number")
        d.seed = int(_bounded(Fraction(seed), f"{where} seed"))
    if "hands" in raw:
        hands = raw["hands"]
        if not isinstance(hands, dict) or not all(isinstance(v, str) for v in hands.values()):
            raise RecordError(f"{where}: hands must be a table of player = \"cards\"")
        if set(hands) != set(players):
            raise RecordError(f"{where}: hands must list every player's hand")
        d.hands = {name: _text(cards, f"{where} hand of {name}") for name, cards in hands.items()}
    elif d.seed is None:
        raise RecordError(f"{where} needs hands (with upcard and stock) or a seed")
    for key in ("upcard", "stock", "dealer"):
        if key in raw:
            setattr(d, key, _text(raw[key], f"{where} {key}"))
    if d.hands is not None and d.upcard is None:
        raise RecordError(f"{where}: explicit hands need an upcard")
    if d.dealer is not None and d.dealer not in players:
        raise RecordError(f"{where}: dealer {shown(d.dealer)} is not a player")
    if "stake" in raw:
        d.stake = _number(raw["stake"], f"{where} stake")
    if "mission" in raw:
        d.mission = _read_mission(raw["mission"], where)
    d.result = _read_result(raw.get("result", {}), players, len(d.actions), where)
    return d


def _read_mission(raw: Any, where: str) -> Mission:
    """A deal's ``mission = { feat = "quad", multiplier = 3 }`` (ruling 20), checked against the
    catalog."""
    if not isinstance(raw, dict) or set(raw) != {"feat", "multiplier"}:
        raise RecordError(f"{where}: mission must be {{ feat = \"...\", multiplier = 2, 3 or 4 }}, "
                          f"not {shown(raw)}", "bad-mission")
    try:
        return check_mission(raw["feat"], raw["multiplier"])
    except HoolaError as exc:
        raise RecordError(f"{where}: {exc.message}", "bad-mission") from exc


def _read_result(result: Any, players: Sequence[str], actions: int,
                 where: str) -> dict[str, Any]:
    if not isinstance(result, dict):
        raise RecordError(f"{where}: [deal.result] must be a table")
    unknown = set(result) - set(_RESULT_KEYS)
    if unknown:
        raise RecordError(f"{where}: unknown result key {shown(sorted(unknown)[0])}")
    if "mission" in result and result["mission"] not in _MISSION_OUTCOMES:
        raise RecordError(f"{where}: result mission must be \"achieved\" or \"failed\", not "
                          f"{shown(result['mission'])}", "bad-mission")
    if "end" in result and result["end"] not in END_KINDS:
        raise RecordError(f"{where}: end must be one of {', '.join(END_KINDS)}")
    if "winners" in result:
        w = result["winners"]
        if not isinstance(w, list) or not all(x in players for x in w):
            raise RecordError(f"{where}: winners must be a list of players")
    for key in ("points", "payments"):
        if key in result:
            result[key] = _read_by_name(result[key], players, f"{where} {key}")
    illegal = result.get("illegal")
    if illegal is not None and (isinstance(illegal, bool) or not isinstance(illegal, int)
                                or not 1 <= illegal <= actions):
        raise RecordError(f"{where}: illegal must be the 1-based number of one of its actions")
    return result


def load(path: str | Path) -> Record:
    """Read a record file; raises :class:`RecordError` (never OSError or ValueError)."""
    return loads(read_text(path))


# -- writing --------------------------------------------------------------------------------------

def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Fraction):
        return format_number(value)
    if isinstance(value, float):
        return format_number(Fraction(repr(value)))
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value) + " }"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise RecordError(f"cannot write {value!r} in a record")


def dumps(record: Record) -> str:
    """The canonical TOML text of a record."""
    out = [record.comment] if record.comment else []
    out.append(f'format = "{FORMAT}"\n')
    out.append(f"rules = {_toml_value(record.rules)}\n")
    out.append(f"players = {_toml_value(record.players)}\n")
    if record.options:
        out.append("\n[options]\n")
        out.extend(f"{k} = {_toml_value(v)}\n" for k, v in record.options.items())
    for d in record.deals:
        out.append("\n[[deal]]\n")
        if d.dealer is not None:
            out.append(f"dealer = {_toml_value(d.dealer)}\n")
        if d.stake is not None:
            out.append(f"stake = {format_number(d.stake)}\n")
        if d.seed is not None:
            out.append(f"seed = {d.seed}\n")
        if d.hands is not None:
            out.append(f"hands = {_toml_value(d.hands)}\n")
        if d.upcard is not None:
            out.append(f"upcard = {_toml_value(d.upcard)}\n")
        if d.stock is not None:
            out.append(f"stock = {_toml_value(d.stock)}\n")
        if d.mission is not None:
            out.append(f"mission = {{ feat = {_toml_value(d.mission.feat)}, "
                       f"multiplier = {d.mission.multiplier} }}\n")
        if d.actions:
            out.append("actions = [\n")
            out.extend(f"  {_toml_value(a)},\n" for a in d.actions)
            out.append("]\n")
        else:
            out.append("actions = []\n")
        if d.result:
            out.append("\n[deal.result]\n")
            for key in _RESULT_KEYS:
                if key in d.result:
                    out.append(f"{key} = {_toml_value(d.result[key])}\n")
    if record.totals is not None:
        out.append("\n[match]\n")
        out.append(f"totals = {_toml_value(record.totals)}\n")
    return "".join(out)


def record_of(states: Sequence[DealState], *, rules: Rules | None = None,
              totals: Mapping[int, Fraction] | None = None, comment: str = "") -> Record:
    """A record of one or more played deals (a match), with their results."""
    if not states:
        raise RecordError("a record needs at least one deal")
    first = states[0]
    rules = rules or first.rules
    names = list(first.names)
    deals = []
    for s in states:
        hands = {names[i]: format_cards(h) for i, h in enumerate(s.deal.hands)}
        stock = s.stock_after_drops if s.stock_after_drops is not None else s.deal.stock
        d = DealRecord(actions=[s.format(a) for a in s.history], hands=hands,
                       upcard=format_cards([s.deal.upcard]), stock=format_cards(stock),
                       dealer=names[s.dealer], stake=s.stake if s.stake != 1 else None,
                       mission=s.mission)
        if s.result is not None:
            r = s.result
            d.result = {
                "end": r.end,
                "winners": [names[w] for w in r.winners],
                "points": {names[q]: v for q, v in sorted(r.points.items())},
                "payments": {names[q]: v for q, v in sorted(r.payments.items())},
            }
            if r.mission is not None:
                d.result["mission"] = "achieved" if r.mission_achieved else "failed"
        deals.append(d)
    named_totals = {names[q]: v for q, v in sorted(totals.items())} if totals is not None else None
    return Record(names, rules.preset_name, rules.overrides(), deals, named_totals, comment)


# -- replaying and verifying ----------------------------------------------------------------------

def deal_state_of(record: Record, d: DealRecord, rules: Rules, dealer: int,
                  stake: Fraction) -> DealState:
    """The deal's first state: its cards or seed, its dealer and stake (given or computed)."""
    names = record.players
    if d.dealer is not None:
        dealer = names.index(d.dealer)
    if d.stake is not None:
        stake = d.stake
    if d.hands is None:
        return DealState.new(rules, names, seed=d.seed, dealer=dealer, stake=stake,
                             mission=d.mission)
    if rules.missions and d.mission is None:
        # Ruling 20: a mission is drawn with the cards; a deal that lists its cards lists it too.
        raise RecordError("missions are on (ruling 20), so a deal with explicit hands gives its "
                          "mission = { feat = \"...\", multiplier = ... }", "bad-mission")
    hands = [parse_cards(d.hands[name]) for name in names]
    upcard = parse_cards(d.upcard or "")
    if len(upcard) != 1:
        raise RecordError(f"upcard must be one card, not {shown(d.upcard)}")
    stock = parse_cards(d.stock or "")
    deal = Deal.explicit(rules, hands, upcard[0], stock)
    return DealState(rules, names, deal, dealer=dealer, stake=stake,
                     rng=random.Random(d.seed if d.seed is not None else 0), mission=d.mission)


def replay(record: Record) -> Iterator[tuple[DealRecord, DealState, list[str]]]:
    """Play a record's deals in order; yield each deal with its final state and its problems."""
    rules = record.make_rules()
    names = record.players
    dealer, stake = 0, Fraction(1)
    for i, d in enumerate(record.deals, 1):
        problems: list[str] = []
        try:
            state = deal_state_of(record, d, rules, dealer, stake)
        except HoolaError as exc:
            # Cards that repeat or cannot be read: the record is malformed, name the deal.
            raise RecordError(f"deal {i}: {exc.message}", exc.code) from exc
        illegal = d.result.get("illegal")
        for k, text in enumerate(d.actions, 1):
            try:
                state.apply(parse_action(text, names))
            except HoolaError as exc:
                if illegal == k:
                    break
                problems.append(f"action {k} {text!r} refused: {exc.message} [{exc.code}]")
                break
            else:
                if illegal == k:
                    problems.append(f"action {k} {text!r} was accepted but must be refused")
                    break
        yield d, state, problems
        dealer, stake = next_dealer(state), next_stake(state)


def resume_match(record: Record, *, seed: int | None = None) -> Match:
    """A match rebuilt from its record: finished deals counted, an unfinished last deal resumed.

    New deals are shuffled from ``seed``. Raises :class:`RecordError` if the record does not replay.
    """
    try:
        match = Match(record.make_rules(), record.players, seed=seed)
    except HoolaError as exc:
        raise RecordError(f"cannot resume the match: {exc.message}", exc.code) from exc
    deals = replay(record)
    for i in range(1, len(record.deals) + 1):
        try:
            _, state, problems = next(deals)
        except HoolaError as exc:
            raise RecordError(f"cannot resume the match: {exc.message}", exc.code) from exc
        if problems:
            raise RecordError(f"cannot resume the match: deal {i}: {problems[0]}", "bad-record")
        if match.deals and not match.deals[-1].is_over:
            raise RecordError(f"cannot resume the match: deal {i - 1} is not finished",
                              "bad-record")
        match.deals.append(state)
        if state.is_over:
            match.finish_deal()
    return match


def verify_path(path: Path) -> Verdict:
    """Read and verify one Hoola record file; a file that cannot be read or is malformed fails."""
    name = path.name or str(path)
    try:
        record = load(path)
    except HoolaError as exc:
        return Verdict(name, False, [exc.message])
    return verify(record, name)


def verify(record: Record, name: str = "record") -> Verdict:
    """Check every deal of a record against the engine, and the match totals.

    Deals are replayed one at a time and let go: memory does not grow with the record.
    """
    verdict = Verdict(name, True)
    totals: dict[str, Fraction] = {p: Fraction(0) for p in record.players}
    try:
        for i, (d, state, problems) in enumerate(replay(record), 1):
            prefix = f"deal {i}: " if len(record.deals) > 1 else ""
            verdict.problems.extend(prefix + p for p in problems)
            if problems:
                continue
            # Result keys besides ``illegal`` describe the deal's end: with a refused action too,
            # the deal must have ended before it (a move refused after a knock, say).
            verdict.problems.extend(prefix + p for p in _compare(d, state, record.players))
            if state.result is not None:
                for q, v in state.result.payments.items():
                    totals[record.players[q]] += v
    except HoolaError as exc:
        verdict.problems.append(f"{exc.message} [{exc.code}]")
    if record.totals is not None and not verdict.problems:
        for p, v in record.totals.items():
            if totals[p] != v:
                verdict.problems.append(f"match total of {p} is {format_number(totals[p])}, "
                                        f"record says {format_number(v)}")
    verdict.ok = not verdict.problems
    return verdict


def _compare(d: DealRecord, state: DealState, names: Sequence[str]) -> list[str]:
    expected = d.result
    problems: list[str] = []
    claimed = [k for k in ("end", "winners", "points", "payments", "mission") if k in expected]
    if not claimed:
        return problems
    r = state.result
    if r is None:
        return [f"play has not ended after the last action, but the record gives {claimed[0]}"]
    if "end" in expected and r.end != expected["end"]:
        problems.append(f"end is {r.end}, record says {expected['end']}")
    if "winners" in expected:
        got = sorted(names[w] for w in r.winners)
        if got != sorted(expected["winners"]):
            problems.append(f"winners are {got}, record says {sorted(expected['winners'])}")
    if "mission" in expected:
        outcome = "none" if r.mission is None else "achieved" if r.mission_achieved \
            else "failed"
        if outcome != expected["mission"]:
            problems.append(f"mission is {outcome}, record says {expected['mission']}")
    ignored = _mission_ignored(expected.get("payments", {}), state, names)
    if ignored is not None:
        return [*problems, ignored]
    for key, actual in (("points", r.points), ("payments", r.payments)):
        for p, v in expected.get(key, {}).items():
            q = names.index(p)
            if q not in actual and key == "payments" and v == 0:
                continue
            if q not in actual:
                problems.append(f"{key} of {p}: not in the deal, record says {format_number(v)}")
            elif actual[q] != v:
                problems.append(f"{key} of {p} is {format_number(actual[q])}, record says "
                                f"{format_number(v)}")
    return problems


def _mission_ignored(payments: Mapping[str, Fraction], state: DealState,
                     names: Sequence[str]) -> str | None:
    """One line when a record's payments differ from the deal's only by its mission's factor
    (ruling 20): left out where the winner achieved it, or applied where the mission failed."""
    r = state.result
    if r is None or r.mission is None or not payments:
        return None
    m = r.mission.multiplier
    comp = state.compensation
    actual = {names[q]: v - comp.get(q, Fraction(0)) for q, v in r.payments.items()}
    said = {p: v - comp.get(names.index(p), Fraction(0)) for p, v in payments.items()}
    if all(said.get(p, Fraction(0)) == actual.get(p, Fraction(0)) for p in set(actual) | set(said)):
        return None
    factor = Fraction(1, m) if r.mission_achieved else Fraction(m)
    if not all(said.get(p, Fraction(0)) == actual.get(p, Fraction(0)) * factor
               for p in set(actual) | set(said)):
        return None
    mission = f"mission {r.mission.feat} ×{m}"
    if r.mission_achieved:
        winner = names[r.winners[0]]
        return (f"payments ignore the {mission}, which {winner} achieved: every payment to "
                f"{winner} is multiplied by {m}")
    return f"payments multiply by the {mission}, but it failed: payments are unchanged by it"
