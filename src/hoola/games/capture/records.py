"""Capture-game records (``shared/spec/records.md`` with ``game = "capture"``): check, verify,
write, resume and tell them.

Results are given by side: a team as ``"A+C"`` (its players in any order), a player alone by
name; in a partnership game a player's name stands for their side.

>>> text = '''format = "hoola-record/1"
... game = "capture"
... rules = "sedma"
... players = ["A", "B"]
...
... [[deal]]
... seed = 4
... actions = []
... '''
>>> from hoola.core.records import parse_toml
>>> match, players = start(parse_toml(text))
>>> verify(parse_toml(text)), verify(parse_toml(dumps(record_of(match))))
([], [])
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from hoola.core.cards import format_card, format_cards, parse_cards
from hoola.core.errors import HoolaError, RecordError
from hoola.core.records import (
    FORMAT,
    check_header,
    check_unit_stake,
    printable,
    shown,
    stopped_problem,
    toml_value,
)
from hoola.games.capture.actions import NAME_RE, Dark
from hoola.games.capture.match import Match
from hoola.games.capture.rules import Rules
from hoola.games.capture.state import DealState

__all__ = ["check", "dumps", "has_end", "record_of", "resume", "start", "tell", "verify"]

GAME = "capture"
_DEAL = ("dealer", "stake", "seed", "hands", "stock", "actions", "result")
_RESULT = ("end", "points", "game_points", "tricks", "hola", "clean", "outcome", "illegal")
_BY_SIDE = ("points", "game_points", "tricks", "clean")
_MATCH = ("totals", "winner", "stopped")
_OUTCOMES = ("win", "draw", "both-lose")
MAX_DEALS = 1_000
MAX_ACTIONS = 2_000


def _bad(message: str, code: str = "bad-record") -> RecordError:
    return RecordError(message, code)


# -- checking the shape ---------------------------------------------------------------------------

def check(data: Any) -> tuple[Rules, list[str]]:
    """The rules and players of a well-formed record; a RecordError for a malformed one."""
    rules, players, deals = check_header(
        data, game=GAME, title="capture-game", rules_type=Rules, default_preset="hola",
        name_re=NAME_RE, most_players=7, most_deals=MAX_DEALS)
    sides = Match(rules, players).labels
    for i, d in enumerate(deals, 1):
        _check_deal(d, players, sides, f"deal {i}")
    if "match" in data:
        _check_match(data["match"], players, sides)
    return rules, players


def _check_cards(value: Any, where: str) -> list[int]:
    if not isinstance(value, str) or len(value) > 2_000:
        raise _bad(f"{where} must be a string of cards such as \"9s Td\"")
    try:
        cards = parse_cards(value)
    except HoolaError as exc:
        raise _bad(f"{where}: {exc.message}") from exc
    if any(c >= 52 for c in cards):
        raise _bad(f"{where}: the capture games are played without jokers")
    return cards


def _side_key(key: Any, players: Sequence[str], sides: Sequence[str], where: str) -> int:
    """The side a result key names: ``"A+C"`` (any order), or a player's name."""
    text = str(key)
    for i, label in enumerate(sides):
        if sorted(text.split("+")) == sorted(label.split("+")):
            return i
    if text in players:
        q = players.index(text)
        return next(i for i, label in enumerate(sides) if players[q] in label.split("+"))
    raise _bad(f"{where} names {shown(text)}, which is neither a side ({', '.join(sides)}) nor "
               "a player")


def _by_side(value: Any, players: Sequence[str], sides: Sequence[str], where: str,
             kind: type) -> dict[int, Any]:
    if not isinstance(value, dict):
        raise _bad(f"{where} must be a table of side = value, such as {{ \"A+C\" = 60 }}")
    out: dict[int, Any] = {}
    for key, v in value.items():
        if kind is bool:
            if not isinstance(v, bool):
                raise _bad(f"{where} of {shown(key)} must be true or false")
        elif not isinstance(v, int) or isinstance(v, bool) or abs(v) > 10**9:
            raise _bad(f"{where} of {shown(key)} must be a whole number")
        out[_side_key(key, players, sides, where)] = v
    return out


def _check_deal(d: dict[str, Any], players: Sequence[str], sides: Sequence[str],
                where: str) -> None:
    unknown = sorted(set(d) - set(_DEAL))
    if unknown:
        raise _bad(f"{where} has an unknown key {shown(unknown[0])}")
    check_unit_stake(d, where, "capture game's")
    actions = d.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise _bad(f"{where}: actions must be a list of strings")
    if len(actions) > MAX_ACTIONS:
        raise _bad(f"{where}: a deal holds at most {MAX_ACTIONS:,} actions")
    if "seed" in d and (not isinstance(d["seed"], int) or isinstance(d["seed"], bool)
                        or not 0 <= d["seed"] < 2**64):
        raise _bad(f"{where}: seed must be a whole number from 0 to 2**64 - 1")
    if "hands" in d:
        hands = d["hands"]
        if not isinstance(hands, dict) or sorted(hands) != sorted(players):
            raise _bad(f"{where}: hands must be a table with every player's cards")
        for name, cards in hands.items():
            _check_cards(cards, f"{where} hand of {name}")
    elif "seed" not in d:
        raise _bad(f"{where} needs hands (and a stock) or a seed")
    if "stock" in d:
        _check_cards(d["stock"], f"{where} stock")
    if "dealer" in d and d["dealer"] not in players:
        raise _bad(f"{where}: dealer {shown(d['dealer'])} is not a player")
    result = d.get("result", {})
    if not isinstance(result, dict):
        raise _bad(f"{where}: [deal.result] must be a table")
    unknown = sorted(set(result) - set(_RESULT))
    if unknown:
        raise _bad(f"{where}: unknown result key {shown(unknown[0])}")
    if "end" in result and result["end"] != "played":
        raise _bad(f"{where}: end must be \"played\"")
    if "outcome" in result and result["outcome"] not in _OUTCOMES:
        raise _bad(f"{where}: outcome must be one of {', '.join(_OUTCOMES)}")
    if "hola" in result and not isinstance(result["hola"], bool):
        raise _bad(f"{where}: hola must be true or false")
    for key in _BY_SIDE:
        if key in result:
            _by_side(result[key], players, sides, f"{where} {key}",
                     bool if key == "clean" else int)
    illegal = result.get("illegal")
    if illegal is not None and (not isinstance(illegal, int) or isinstance(illegal, bool)
                                or not 1 <= illegal <= len(actions)):
        raise _bad(f"{where}: illegal must be the 1-based number of one of its actions")


def _check_match(match: Any, players: Sequence[str], sides: Sequence[str]) -> None:
    if not isinstance(match, dict):
        raise _bad("[match] must be a table")
    unknown = sorted(set(match) - set(_MATCH))
    if unknown:
        raise _bad(f"[match] has an unknown key {shown(unknown[0])}")
    if "totals" in match:
        _by_side(match["totals"], players, sides, "match totals", int)
    if "winner" in match:
        if not isinstance(match["winner"], str):
            raise _bad("match winner must be a side such as \"A+C\", or a player")
        _side_key(match["winner"], players, sides, "match winner")
    if "stopped" in match and not isinstance(match["stopped"], bool):
        raise _bad("match stopped must be true or false")


def has_end(match: Match) -> bool:
    """Whether the game ends by itself (a target to reach): Ristiklappi with ``target = 0``
    goes on until the players stop, as Hoola does."""
    rules = match.effective
    return rules.target > 0 or rules.scoring != "ristiklappi"


# -- verifying ------------------------------------------------------------------------------------

def start(data: dict[str, Any]) -> tuple[Match, list[str]]:
    """A match for the checked record ``data`` with its first deal started."""
    rules, players = check(data)
    match = Match(rules, players)
    deals = data.get("deal", [])
    if deals:
        start_deal(match, deals[0], players)
    return match, players


def start_deal(match: Match, d: dict[str, Any], players: Sequence[str]) -> DealState:
    """The next deal of ``match`` as the ``[[deal]]`` table ``d`` gives it (cards or a seed)."""
    dealer = players.index(d["dealer"]) if "dealer" in d else None
    if "hands" in d:
        hands = [parse_cards(d["hands"][name]) for name in players]
        return match.start_deal(hands, parse_cards(d.get("stock", "")), dealer=dealer)
    return match.start_deal(dealer=dealer, seed=d["seed"])


def verify(data: Any) -> list[str]:
    """Replay a record against the engine: the list of what differs (empty: it holds)."""
    rules, players = check(data)
    deals = data.get("deal", [])
    match = Match(rules, players)
    many = len(deals) > 1
    for i, d in enumerate(deals, 1):
        prefix = f"deal {i}: " if many else ""
        problems = _replay(match, d, players, prefix)
        if problems:
            return problems
        if "illegal" in d.get("result", {}):
            return [f"{prefix}a deal with an action that must be refused must be the last"] \
                if i < len(deals) else []
        if match.deals[-1].is_over:
            match.finish_deal()
        elif i < len(deals):
            return [f"{prefix}the hand has not ended, yet another deal follows"]
    if "match" in data:
        return _compare_match(data["match"], match, players)
    return []


def _replay(match: Match, d: dict[str, Any], players: Sequence[str], prefix: str) -> list[str]:
    if match.is_over:
        return [f"{prefix}the game was already won by {match.labels[match.winner or 0]}"]
    try:
        state = start_deal(match, d, players)
    except HoolaError as exc:
        return [f"{prefix}{exc.message}"]
    illegal = d.get("result", {}).get("illegal")
    for j, text in enumerate(d.get("actions", []), 1):
        said = shown(text if len(text) <= 60 else text[:57] + "...")
        try:
            state.apply(state.parse(text))
        except HoolaError as exc:
            if illegal == j:  # the other result keys describe the hand's end, if given
                return _compare_deal(d.get("result", {}), state, match, players, prefix)
            return [f"{prefix}action {j} {printable(said)} refused: {exc.message} [{exc.code}]"]
        if illegal == j:
            return [f"{prefix}action {j} {printable(said)} was accepted but must be refused"]
    return _compare_deal(d.get("result", {}), state, match, players, prefix)


def _compare_deal(expected: dict[str, Any], state: DealState, match: Match,
                  players: Sequence[str], prefix: str) -> list[str]:
    claimed = [k for k in _RESULT if k in expected and k != "illegal"]
    if not claimed:
        return []
    r = state.result
    if r is None:
        return [f"{prefix}the hand has not ended after the last action, but the record gives "
                f"{claimed[0]}"]
    labels = match.labels
    problems = []
    actual: dict[str, Sequence[Any] | None] = {"points": r.points, "game_points": r.game_points,
                                               "tricks": r.tricks, "clean": r.clean}
    for key in _BY_SIDE:
        if key not in expected:
            continue
        got = actual[key]
        if got is None:
            problems.append(f"{key} are not counted under these rules")
            continue
        for s, want in _by_side(expected[key], players, labels, key, bool if key == "clean"
                                else int).items():
            if got[s] != want:
                problems.append(f"{key} of {labels[s]} is {toml_value(got[s])}, record says "
                                f"{toml_value(want)}")
    if "hola" in expected and (r.hola is not None) != expected["hola"]:
        problems.append(f"hola is {toml_value(r.hola is not None)}, record says "
                        f"{toml_value(expected['hola'])}")
    if "outcome" in expected and r.outcome != expected["outcome"]:
        problems.append(f"outcome is {r.outcome or 'not counted'}, record says "
                        f"{expected['outcome']}")
    return [prefix + p for p in problems]


def _compare_match(expected: dict[str, Any], match: Match, players: Sequence[str]) -> list[str]:
    problems = []
    labels = match.labels
    totals = match.record_totals()
    for s, want in _by_side(expected.get("totals", {}), players, labels, "totals", int).items():
        if totals[s] != want:
            problems.append(f"match totals of {labels[s]} is {totals[s]}, record says "
                            f"{want}")
    stopped = has_end(match) and not match.is_over
    if "winner" in expected:
        want = _side_key(expected["winner"], players, labels, "match winner")
        # Without an end of its own (Ristiklappi to no target: each hand is a game), the
        # winner a record may name is the side that won the most of those games.
        side = match.winner if has_end(match) else match.leader()
        if stopped:
            problems.append(f"the game stopped before its end, so nobody won it; record says "
                            f"winner {expected['winner']}")
        elif side != want:
            named = labels[side] if side is not None else "nobody"
            problems.append(f"match winner is {named}, record says {expected['winner']}")
    wrong = stopped_problem(expected, stopped, None if match.winner is None
                            else labels[match.winner], has_end(match))
    if wrong is not None:
        problems.append(wrong)
    return problems


def resume(text: str, *, seed: int | None = None) -> Match:
    """The game a record's text holds, to play on: finished hands counted, an unfinished last
    hand continued where it stopped, later hands shuffled from ``seed``."""
    from hoola.core.records import parse_toml

    data = parse_toml(text)
    rules, players = check(data)
    deals = data.get("deal", [])
    if not deals:
        raise _bad("cannot resume the game: the record holds no hand")
    match = Match(rules, players, seed=seed)
    for i, d in enumerate(deals, 1):
        if "illegal" in d.get("result", {}):
            raise _bad(f"cannot resume the game: deal {i} ends with an action that must be "
                       "refused")
        problems = _replay(match, d, players, f"deal {i}: ")
        if problems:
            raise _bad(f"cannot resume the game: {problems[0]}")
        if match.deals[-1].is_over:
            match.finish_deal()
        elif i < len(deals):
            raise _bad(f"cannot resume the game: deal {i} has not ended, yet another follows")
    return match


# -- writing --------------------------------------------------------------------------------------

def record_of(match: Match | Sequence[DealState]) -> dict[str, Any]:
    """A record of a played game (a :class:`Match`) or of hands played one after another."""
    states = list(match.deals) if isinstance(match, Match) else list(match)
    if not states:
        raise _bad("a record needs at least one deal")
    first = states[0]
    names = list(first.names)
    data: dict[str, Any] = {"format": FORMAT, "game": GAME, "rules": first.base.preset_name,
                            "players": names}
    if first.base.overrides():
        data["options"] = first.base.overrides()
    data["deal"] = [_deal_record(s, names) for s in states]
    if isinstance(match, Match) and match.finished:
        summary: dict[str, Any] = {"totals": dict(zip(match.labels, match.record_totals(),
                                                            strict=True))}
        if match.winner is not None:
            summary["winner"] = match.labels[match.winner]
        elif has_end(match):
            summary["stopped"] = True  # records.md: a game stopped before its end has no winner
        data["match"] = summary
    return data


def _deal_record(s: DealState, names: Sequence[str]) -> dict[str, Any]:
    d: dict[str, Any] = {"dealer": names[s.dealer],
                         "hands": {names[q]: format_cards(h) for q, h in enumerate(s.dealt)},
                         "stock": format_cards(s.stock_dealt),
                         "actions": [s.format(a) for a in s.history]}
    r = s.result
    if r is not None:
        labels = [("+".join(names[q] for q in side)) for side in s.sides]
        result: dict[str, Any] = {"end": "played",
                                  "points": dict(zip(labels, r.points, strict=True))}
        if r.game_points is not None:
            result["game_points"] = dict(zip(labels, r.game_points, strict=True))
        result["tricks"] = dict(zip(labels, r.tricks, strict=True))
        if s.rules.hola_bonus:
            result["hola"] = r.hola is not None
        if r.clean is not None:
            result["clean"] = dict(zip(labels, r.clean, strict=True))
            result["outcome"] = r.outcome
        d["result"] = result
    return d


def _key(key: str) -> str:
    return key if NAME_RE.fullmatch(key) else toml_value(key)


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    return toml_value(value)


def dumps(data: Mapping[str, Any], *, comment: str = "") -> str:
    """The canonical TOML text of a record, with ``comment`` as its header."""
    out = [f"# {line}".rstrip() + "\n" for line in comment.splitlines()]
    for key in ("format", "game", "rules", "players"):
        if key in data:
            out.append(f"{key} = {_value(data[key])}\n")
    if data.get("options"):
        out.append("\n[options]\n")
        out.extend(f"{_key(k)} = {_value(v)}\n" for k, v in data["options"].items())
    for d in data.get("deal", []):
        out.append("\n[[deal]]\n")
        for key in ("dealer", "seed", "hands", "stock"):
            if key in d:
                out.append(f"{key} = {_value(d[key])}\n")
        actions = d.get("actions", [])
        out.append("actions = [\n" + "".join(f"  {_value(a)},\n" for a in actions) + "]\n"
                   if actions else "actions = []\n")
        if d.get("result"):
            out.append("\n[deal.result]\n")
            out.extend(f"{k} = {_value(d['result'][k])}\n" for k in _RESULT if k in d["result"])
    if data.get("match"):
        out.append("\n[match]\n")
        out.extend(f"{k} = {_value(data['match'][k])}\n" for k in _MATCH if k in data["match"])
    return "".join(out)


# -- telling --------------------------------------------------------------------------------------

def tell(data: dict[str, Any]) -> Iterator[str]:
    """A record told move by move (``hoola replay``); a RecordError after a refused action's
    line, unless the record says it must be refused."""
    rules, players = check(data)
    match = Match(rules, players)
    yield f"Capture game, rules: {rules.preset_name}; players: {', '.join(players)}; sides: " \
          f"{' against '.join(match.labels)}"
    for i, d in enumerate(data.get("deal", []), 1):
        try:
            state = start_deal(match, d, players)
        except HoolaError as exc:
            raise RecordError(f"deal {i}: {exc.message}", exc.code) from exc
        yield ""
        yield f"Deal {i}: {players[state.dealer]} deals"
        for q, hand in enumerate(state.dealt):
            yield f"  {players[q]}: {format_cards(hand)}"
        yield f"  stock: {len(state.stock_dealt)} cards"
        illegal = d.get("result", {}).get("illegal")
        tricks = 0
        for k, text in enumerate(d.get("actions", []), 1):
            try:
                action = state.apply(state.parse(text))
            except HoolaError as exc:
                yield f"{k:3}. {printable(text)}  -- refused: {exc.message}"
                if illegal == k:
                    return
                raise RecordError(f"deal {i}, action {k} is refused: {exc.message}",
                                  exc.code) from exc
            line = printable(text)
            if isinstance(action, Dark):
                line += f" ({format_card(state.darks[-1])})"
            yield f"{k:3}. {line}"
            if len(state.taken) > tricks:
                tricks = len(state.taken)
                assert state.last_winner is not None
                yield f"     trick {tricks} to {players[state.last_winner]}"
        if state.result is not None:
            yield "  " + state.view(0).prompt()
            match.finish_deal()
    board = match.scoreboard()
    yield ""
    for score in board.scores:
        yield f"{score.label}: " + ", ".join(f"{n} {v}" for n, v in zip(match.labels,
                                                                         score.values,
                                                                         strict=False))
    yield board.moment.prompt

