"""Kalookie records (``shared/spec/records.md`` with ``game = "kalookie"``): read, verify, write.

A record is the TOML table as :mod:`tomllib` reads it. :func:`verify` replays it against the
engine and returns its problems (none: the record holds); a record that is malformed raises a
:class:`~hoola.core.errors.RecordError` naming what is wrong. :func:`record_of` writes a played
game as such a table and :func:`dumps` as canonical text: ``loads(dumps(r)) == r``.

>>> text = '''format = "hoola-record/1"
... game = "kalookie"
... rules = "british"
... players = ["A", "B"]
...
... [[deal]]
... seed = 4
... actions = [
...   "B draw",
... ]
... '''
>>> verify(loads(text)), dumps(loads(text)) == text
([], True)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from hoola.core.cards import format_card
from hoola.core.errors import HoolaError, RecordError
from hoola.core.records import FORMAT, check_header, check_unit_stake, stopped_problem
from hoola.games.kalookie.actions import NAME_RE
from hoola.games.kalookie.amounts import format_number, read_number
from hoola.games.kalookie.cards import JOKER, format_tokens, parse_tokens
from hoola.games.kalookie.deal import explicit
from hoola.games.kalookie.match import Match
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.scoring import END_KINDS
from hoola.games.kalookie.state import DealState

__all__ = ["FORMAT", "GAME", "check", "dumps", "has_end", "loads", "record_of", "resume",
           "start_deal", "verify"]

GAME = "kalookie"
_DEAL = ("dealer", "stake", "seed", "hands", "upcard", "stock", "restock", "cut", "actions",
         "result")
_RESULT = ("end", "winner", "penalty", "payments", "illegal")
_MATCH = ("penalty", "out", "pool", "winner", "stopped", "totals")
MAX_DEALS = 2_000
MAX_ACTIONS = 5_000


def _bad(message: str) -> RecordError:
    return RecordError(message, "bad-record")


# -- reading --------------------------------------------------------------------------------------

def loads(text: str) -> dict[str, Any]:
    """Read a record from TOML text and check its shape (a RecordError names what is wrong)."""
    if not isinstance(text, str):
        raise _bad("a record is TOML text")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(f"the record is not valid TOML: {exc}", "bad-toml") from exc
    except RecursionError as exc:
        raise RecordError("the record is nested too deeply to be a record", "bad-toml") from exc
    except ValueError as exc:  # an integer of thousands of digits
        raise RecordError("the record holds a whole number of thousands of digits, too large "
                          "to read", "bad-toml") from exc
    check(data)
    return data


def check(data: Any) -> tuple[Rules, list[str]]:
    """The rules and players of a well-formed record; a RecordError for a malformed one."""
    rules, players, deals = check_header(
        data, game=GAME, title="Kalookie", rules_type=Rules, default_preset="british",
        name_re=NAME_RE, most_players=8, most_deals=MAX_DEALS)
    for i, d in enumerate(deals, 1):
        _check_deal(d, players, f"deal {i}")
    if "match" in data:
        _check_match(data["match"], players)
    return rules, players


def _check_cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, str) or len(value) > 3_000:
        raise _bad(f"{where} must be a string of cards such as \"9s JK Td\"")
    try:
        cards = parse_tokens(value)
    except HoolaError as exc:
        raise _bad(f"{where}: {exc.message}") from exc
    if any(c > JOKER for c in cards):
        raise _bad(f"{where}: a dealt joker is written JK, not named")
    return cards


def _check_names(value: Any, players: Sequence[str], where: str, kind: str) -> None:
    if not isinstance(value, dict):
        raise _bad(f"{where} must be a table of player = {kind}")
    for name in value:
        if name not in players:
            raise _bad(f"{where} names {name!r}, who is not a player")


def _check_deal(d: dict[str, Any], players: Sequence[str], where: str) -> None:
    unknown = sorted(set(d) - set(_DEAL))
    if unknown:
        raise _bad(f"{where} has an unknown key {unknown[0]!r}")
    check_unit_stake(d, where, "Kalookie")
    actions = d.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise _bad(f"{where}: actions must be a list of strings")
    if len(actions) > MAX_ACTIONS:
        raise _bad(f"{where}: a deal holds at most {MAX_ACTIONS} actions")
    if "seed" in d and (not isinstance(d["seed"], int) or isinstance(d["seed"], bool)
                        or not 0 <= d["seed"] < 2**64):
        raise _bad(f"{where}: seed must be a whole number from 0 to 2**64 - 1")
    if "hands" in d:
        _check_names(d["hands"], players, f"{where} hands", "\"cards\"")
        for name, cards in d["hands"].items():
            _check_cards(cards, f"{where} hand of {name}")
        if "upcard" not in d:
            raise _bad(f"{where}: explicit hands need an upcard")
    elif "seed" not in d:
        raise _bad(f"{where} needs hands (with upcard and stock) or a seed")
    for key in ("upcard", "stock", "restock"):
        if key in d:
            cards = _check_cards(d[key], f"{where} {key}")
            if key == "upcard" and len(cards) != 1:
                raise _bad(f"{where}: upcard must be one card")
    if "cut" in d and d["cut"] not in ("JK", "jk"):
        raise _bad(f"{where}: cut names the joker shown at the bottom of the cut: \"JK\"")
    if "dealer" in d and d["dealer"] not in players:
        raise _bad(f"{where}: dealer {d['dealer']!r} is not a player")
    result = d.get("result", {})
    if not isinstance(result, dict):
        raise _bad(f"{where}: [deal.result] must be a table")
    unknown = sorted(set(result) - set(_RESULT))
    if unknown:
        raise _bad(f"{where}: unknown result key {unknown[0]!r}")
    if "end" in result and result["end"] not in END_KINDS:
        raise _bad(f"{where}: end must be one of {', '.join(END_KINDS)}")
    if "winner" in result and result["winner"] not in players:
        raise _bad(f"{where}: winner must be a player")
    for key in ("penalty", "payments"):
        if key in result:
            _check_names(result[key], players, f"{where} {key}", "number")
            for name, v in result[key].items():
                read_number(v, f"{where} {key} of {name}")
    illegal = result.get("illegal")
    if illegal is not None and (not isinstance(illegal, int) or isinstance(illegal, bool)
                                or not 1 <= illegal <= len(actions)):
        raise _bad(f"{where}: illegal must be the 1-based number of one of its actions")


def _check_match(match: Any, players: Sequence[str]) -> None:
    if not isinstance(match, dict):
        raise _bad("[match] must be a table")
    unknown = sorted(set(match) - set(_MATCH))
    if unknown:
        raise _bad(f"[match] has an unknown key {unknown[0]!r}")
    for key in ("penalty", "totals"):
        if key in match:
            _check_names(match[key], players, f"match {key}", "number")
            for name, v in match[key].items():
                read_number(v, f"match {key} of {name}")
    if "out" in match and (not isinstance(match["out"], list)
                           or not all(x in players for x in match["out"])):
        raise _bad("match out must be a list of players")
    if "pool" in match:
        read_number(match["pool"], "match pool")
    if "winner" in match and match["winner"] not in players:
        raise _bad("match winner must be a player")
    if "stopped" in match and not isinstance(match["stopped"], bool):
        raise _bad("match stopped must be true or false")


def has_end(match: Match) -> bool:
    """Whether the game ends by itself: the pool won, or a target of points reached (a Scarne
    game, scored by cards, goes on until the players stop)."""
    return match.rules.scoring in ("pool", "points")


# -- verifying ------------------------------------------------------------------------------------

def verify(data: Any) -> list[str]:
    """Replay a record against the engine: the list of what differs (empty: it holds)."""
    rules, players = check(data)
    deals = data.get("deal", [])
    match = Match(rules, players)
    many = len(deals) > 1
    for i, d in enumerate(deals, 1):
        prefix = f"deal {i}: " if many else ""
        problems = _replay_deal(match, d, players, prefix)
        if problems:
            return problems
        state = match.deals[-1]
        if "illegal" in d.get("result", {}):
            if i < len(deals):
                return [f"{prefix}a deal with an illegal action must be the last deal"]
            return []
        if state.is_over:
            match.finish_deal()
        elif i < len(deals):
            return [f"{prefix}the hand has not ended, yet another deal follows"]
    if "match" in data:
        return _compare_match(data["match"], match, players)
    return []


def start_deal(match: Match, d: dict[str, Any], players: Sequence[str]) -> DealState:
    """The next deal of ``match`` as the checked ``[[deal]]`` table ``d`` gives it (cards or seed).

    Raises a HoolaError naming what is wrong (cards that repeat, hands of players who are out).
    """
    dealer = players.index(d["dealer"]) if "dealer" in d else None
    if "hands" in d:
        standing = match.standing
        hands = d["hands"]
        listed = {players[q] for q in standing.seats()}
        if set(hands) != listed:
            raise RecordError(f"hands must list exactly the players still in: "
                              f"{', '.join(sorted(listed))}")
        deal = explicit(match.rules, standing, match.dealer if dealer is None else dealer,
                        [parse_tokens(hands.get(name, "")) for name in players],
                        parse_tokens(d["upcard"])[0], parse_tokens(d.get("stock", "")),
                        cut="cut" in d,
                        restock=parse_tokens(d["restock"]) if "restock" in d else None)
        return match.start_deal(deal, dealer=dealer)
    return match.start_deal(dealer=dealer, seed=d["seed"])


def _replay_deal(match: Match, d: dict[str, Any], players: Sequence[str],
                 prefix: str) -> list[str]:
    if match.is_over:
        return [f"{prefix}the game was already won by {players[match.winner or 0]}"]
    try:
        state = start_deal(match, d, players)
    except HoolaError as exc:
        return [f"{prefix}{exc.message}"]
    illegal = d.get("result", {}).get("illegal")
    for j, text in enumerate(d.get("actions", []), 1):
        shown = repr(text if len(text) <= 60 else text[:57] + "...")
        try:
            state.apply(state.parse(text))
        except HoolaError as exc:
            if illegal == j:  # the other result keys describe the hand's end, if given
                return _compare_deal(d.get("result", {}), state, players, prefix)
            return [f"{prefix}action {j} {shown} refused: {exc.message} [{exc.code}]"]
        if illegal == j:
            return [f"{prefix}action {j} {shown} was accepted but must be refused"]
    return _compare_deal(d.get("result", {}), state, players, prefix)


def _compare_deal(expected: dict[str, Any], state: DealState, players: Sequence[str],
                  prefix: str) -> list[str]:
    claimed = [k for k in ("end", "winner", "penalty", "payments") if k in expected]
    if not claimed:
        return []
    r = state.result
    if r is None:
        return [f"{prefix}the hand has not ended after the last action, but the record gives "
                f"{claimed[0]}"]
    problems = []
    if "end" in expected and r.end != expected["end"]:
        problems.append(f"end is {r.end}, record says {expected['end']}")
    if "winner" in expected:
        named = players[r.winner] if r.winner is not None else "nobody"
        if named != expected["winner"]:
            problems.append(f"winner is {named}, record says {expected['winner']}")
    for key, actual in (("penalty", r.penalty), ("payments", r.payments)):
        for name, v in expected.get(key, {}).items():
            q = players.index(name)
            got = Fraction(actual.get(q, 0))
            want = read_number(v, f"{key} of {name}")
            if got != want:
                problems.append(f"{key} of {name} is {format_number(got)}, record says "
                                f"{format_number(want)}")
    return [prefix + p for p in problems]


def _compare_match(expected: dict[str, Any], match: Match, players: Sequence[str]) -> list[str]:
    problems = []
    for key, actual in (("penalty", match.standing.penalty), ("totals", match.totals())):
        for name, v in expected.get(key, {}).items():
            got = Fraction(actual[players.index(name)])
            want = read_number(v, f"match {key} of {name}")
            if got != want:
                problems.append(f"match {key} of {name} is {format_number(got)}, record says "
                                f"{format_number(want)}")
    if "out" in expected:
        got_out = [players[q] for q in match.out]
        if got_out != expected["out"]:
            problems.append(f"out is {got_out}, record says {expected['out']}")
    if "pool" in expected and match.pool != read_number(expected["pool"], "match pool"):
        problems.append(f"pool is {format_number(match.pool)}, record says "
                        f"{format_number(read_number(expected['pool'], 'match pool'))}")
    stopped = has_end(match) and not match.is_over
    if "winner" in expected:
        if match.winner is None:
            why = "stopped before its end" if stopped else "has no end of its own"
            problems.append(f"the game {why}, so nobody won it; record says winner "
                            f"{expected['winner']}")
        elif players[match.winner] != expected["winner"]:
            problems.append(f"match winner is {players[match.winner]}, record says "
                            f"{expected['winner']}")
    wrong = stopped_problem(expected, stopped, None if match.winner is None
                            else players[match.winner], has_end(match))
    if wrong is not None:
        problems.append(wrong)
    return problems


def resume(text: str, *, seed: int | None = None) -> Match:
    """The game a record's text holds, to play on: finished hands folded into the score, an
    unfinished last hand continued where it stopped, later hands shuffled from ``seed``.

    Raises :class:`~hoola.core.errors.RecordError` naming what does not replay.
    """
    data = loads(text)
    rules, players = check(data)
    deals = data.get("deal", [])
    if not deals:
        raise RecordError("cannot resume the game: the record holds no hand", "bad-record")
    match = Match(rules, players, seed=seed)
    for i, d in enumerate(deals, 1):
        prefix = f"deal {i}: "
        if "illegal" in d.get("result", {}):
            raise RecordError(f"cannot resume the game: {prefix}it ends with an action that "
                              "must be refused", "bad-record")
        problems = _replay_deal(match, d, players, prefix)
        if problems:
            raise RecordError(f"cannot resume the game: {problems[0]}", "bad-record")
        if match.deals[-1].is_over:
            match.finish_deal()
        elif i < len(deals):
            raise RecordError(f"cannot resume the game: {prefix}the hand has not ended, yet "
                              "another follows", "bad-record")
    return match


# -- writing --------------------------------------------------------------------------------------

def _native(value: Fraction | int) -> int | float | str:
    """A number as TOML reads it back: an int, an exact float, or a fraction string."""
    text = format_number(value)
    if text.startswith('"'):
        return text.strip('"')
    return float(text) if "." in text else int(text)


def record_of(match: Match | Sequence[DealState]) -> dict[str, Any]:
    """A record of a played game (a :class:`Match`) or of hands played one after another."""
    states = list(match.deals) if isinstance(match, Match) else list(match)
    if not states:
        raise _bad("a record needs at least one deal")
    first = states[0]
    rules, names = first.rules, list(first.names)
    data: dict[str, Any] = {"format": FORMAT, "game": GAME, "rules": rules.preset_name,
                            "players": names}
    if rules.overrides():
        data["options"] = {k: _option(v) for k, v in rules.overrides().items()}
    data["deal"] = [_deal_record(s, names) for s in states]
    if isinstance(match, Match):
        summary: dict[str, Any] = {
            "penalty": {names[q]: t for q, t in enumerate(match.standing.penalty)},
            "out": [names[q] for q in match.out]}
        if rules.scoring == "pool":
            summary["pool"] = _native(match.pool)
        if match.winner is not None:
            summary["winner"] = names[match.winner]
        elif has_end(match):
            summary["stopped"] = True  # records.md: a game stopped before its end has no winner
        summary["totals"] = {names[q]: _native(t) for q, t in enumerate(match.totals())}
        data["match"] = summary
    return data


def _option(value: Any) -> Any:
    if isinstance(value, Fraction):
        return _native(value)
    if isinstance(value, tuple):
        return {str(k): v for k, v in value}
    return value


def _deal_record(s: DealState, names: Sequence[str]) -> dict[str, Any]:
    d: dict[str, Any] = {"dealer": names[s.dealer]}
    d["hands"] = {names[q]: format_tokens(h) for q, h in enumerate(s.deal.hands)
                  if s.standing.active[q]}
    d["upcard"] = format_card(s.deal.upcard)
    d["stock"] = format_tokens(s.deal.stock)
    if s.restocked is not None:
        d["restock"] = format_tokens(s.restocked)
    if s.deal.cut:
        d["cut"] = "JK"
    d["actions"] = [s.format(a) for a in s.history]
    r = s.result
    if r is not None:
        result: dict[str, Any] = {"end": r.end}
        if r.winner is not None:
            result["winner"] = names[r.winner]
        result["penalty"] = {names[q]: v for q, v in sorted(r.penalty.items())}
        result["payments"] = {names[q]: _native(v) for q, v in sorted(r.payments.items())}
        d["result"] = result
    return d


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Fraction):
        return format_number(Fraction(repr(value)) if isinstance(value, float) else value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise _bad(f"cannot write {value!r} in a record")


def _key(key: Any) -> str:
    text = str(key)
    return text if NAME_RE.fullmatch(text) else _toml(text)


def dumps(data: Mapping[str, Any], *, comment: str = "") -> str:
    """The canonical TOML text of a record, with ``comment`` as its header."""
    out = [f"# {line}".rstrip() + "\n" for line in comment.splitlines()]
    for key in ("format", "game", "rules", "players"):
        if key in data:
            out.append(f"{key} = {_toml(data[key])}\n")
    if data.get("options"):
        out.append("\n[options]\n")
        out.extend(f"{_key(k)} = {_toml(v)}\n" for k, v in data["options"].items())
    for d in data.get("deal", []):
        out.append("\n[[deal]]\n")
        for key in _DEAL:
            if key in ("actions", "result") or key not in d:
                continue
            out.append(f"{key} = {_toml(d[key])}\n")
        actions = d.get("actions", [])
        out.append("actions = [\n" + "".join(f"  {_toml(a)},\n" for a in actions) + "]\n"
                   if actions else "actions = []\n")
        if d.get("result"):
            out.append("\n[deal.result]\n")
            out.extend(f"{k} = {_toml(d['result'][k])}\n" for k in _RESULT if k in d["result"])
    if data.get("match"):
        out.append("\n[match]\n")
        out.extend(f"{k} = {_toml(data['match'][k])}\n" for k in _MATCH if k in data["match"])
    return "".join(out)
