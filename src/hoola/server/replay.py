"""A table's game replayed from its stored actions: the table at any step, as one seat saw it or
with every hand open, the settlement of each finished deal line by line, and the expert's hint.

The web UI steps through finished games with it (``GET /api/tables/{id}/replay``), shows the
settlement of a deal just finished, and asks for hints (``GET /api/tables/{id}/hint``). Every
answer comes from views (:meth:`~hoola.core.game.GameState.view`), so a seat's replay holds only
what that seat knew at that step; ``all`` merges every seat's table, hands open.

A *position* is a place in the whole game: each deal as dealt (step 0) and after each of its
actions, deal after deal.

>>> from hoola.server.store import ActionRow, TableRow
>>> row = TableRow("t", {"game": "capture", "preset": "sedma", "options": {}, "seed": 1,
...                      "names": ["A", "B"]}, "over", "", "", 0.0, None)
>>> r = Replay(row, [ActionRow(1, 0, "B play Qh")])
>>> r.positions
[(0, 0), (0, 1)]
>>> r.snapshot(1, "all")["action"]
'B play Qh'
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from hoola.core.errors import HoolaError
from hoola.core.game import Game, GameState, Match
from hoola.core.registry import get_game
from hoola.core.table import Moment, Table, Zone
from hoola.core.words import Reason, say
from hoola.server.store import ActionRow, TableRow

__all__ = ["Replay", "ReplayError", "hint", "merged_table", "replay_of", "settlement_lines"]

_ACTION_LINE = re.compile(r"\s*\d+\. ")


class ReplayError(HoolaError):
    """A replay request that cannot be answered (a bad step or seat)."""

    code = "bad-replay"


class Replay:
    """A table's match rebuilt from its stored actions, with each deal's start kept so that any
    step is reached by replaying that deal's actions only."""

    def __init__(self, row: TableRow, actions: Sequence[ActionRow]) -> None:
        config = row.config
        self.row = row
        self.game: Game = get_game(config["game"])
        self.rules = self.game.rules(config.get("preset"), config.get("options") or {})
        self.names: tuple[str, ...] = tuple(config.get("names") or ())
        self.match: Match = self.game.new_match(self.rules, self.names, seed=config["seed"])
        self.starts: list[GameState] = []
        self.texts: list[list[str]] = []
        self.boards: list[dict[str, Any]] = []  # the match's scoreboard after each deal
        self.over: list[bool] = []
        self._before = self.match.scoreboard().to_json()
        state: GameState | None = None
        if row.status != "waiting":
            state = self._deal()
        for action in actions:
            assert state is not None
            if state.is_over:
                state = self._deal()
            state.apply(state.parse(action.text))
            self.texts[-1].append(action.text)
            if state.is_over:
                self.match.finish_deal()
                self.boards[-1] = self.match.scoreboard().to_json()
                self.over[-1] = True
        self._cursor: tuple[int, int, GameState] | None = None
        self._lines: list[list[str]] | None = None
        self.lock = threading.Lock()

    def _deal(self) -> GameState:
        state = self.match.new_deal()
        self.starts.append(state.copy())
        self.texts.append([])
        self.boards.append(self.match.scoreboard().to_json())
        self.over.append(False)
        return state

    @property
    def positions(self) -> list[tuple[int, int]]:
        """Every (deal, step) of the game in order; step 0 is the deal as dealt."""
        return [(d, k) for d, texts in enumerate(self.texts) for k in range(len(texts) + 1)]

    def state_at(self, deal: int, step: int) -> GameState:
        """The deal ``deal`` after its first ``step`` actions (a fresh state: the caller may keep
        it); stepping forward from the last answer replays only the new actions."""
        with self.lock:
            if self._cursor is not None and self._cursor[0] == deal and self._cursor[1] <= step:
                state = self._cursor[2].copy()
                done = self._cursor[1]
            else:
                state, done = self.starts[deal].copy(), 0
            for text in self.texts[deal][done:step]:
                state.apply(state.parse(text))
            self._cursor = (deal, step, state.copy())
            return state

    def settlement(self, deal: int) -> list[str]:
        """The finished deal's settlement told line by line, as ``hoola replay`` tells it."""
        with self.lock:
            if self._lines is None:
                text = self.game.record_text(self.match)
                self._lines = settlement_lines(
                    list(self.game.tell_record(tomllib.loads(text), text)))
        return self._lines[deal] if deal < len(self._lines) else []

    def snapshot(self, position: int, seat: int | str) -> dict[str, Any]:
        """The table at ``position`` as ``seat`` saw it (an int), or with every hand open
        (``"all"``): the action just played, the seat's legal moves, and at a deal's end its
        settlement and the match's score."""
        places = self.positions
        if not places:
            raise ReplayError("the game has not started: there is nothing to replay", "not-started")
        if not 0 <= position < len(places):
            raise ReplayError(f"there is no step {position}: the steps are 0 to "
                              f"{len(places) - 1}", "bad-step")
        deal, step = places[position]
        n = len(self.names)
        if seat != "all" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ReplayError(f"seat is 0 to {n - 1}, or all", "bad-seat")
        state = self.state_at(deal, step)
        if seat == "all":
            table = merged_table([state.view(q).table() for q in range(n)], self.names).to_json()
            legal: list[str] = []
        else:
            assert isinstance(seat, int)
            view = state.view(seat)
            table = view.table().to_json()
            legal = list(view.to_json().get("legal") or [])
        texts = self.texts[deal]
        finished = state.is_over
        return {
            "table_id": self.row.id, "game": self.game.name, "rules": self.rules.preset_name,
            "names": list(self.names), "status": self.row.status, "position": position,
            "positions": len(places), "deal": deal, "deals": len(self.texts), "step": step,
            "steps": len(texts), "action": texts[step - 1] if step else None,
            "seat": seat, "table": table, "legal": legal,
            "deal_starts": [i for i, (_, k) in enumerate(places) if k == 0],
            "settlement": self.settlement(deal) if finished and self.over[deal] else [],
            "scoreboard": self.boards[deal] if finished else
            (self.boards[deal - 1] if deal else self._before),
        }


def settlement_lines(told: Sequence[str]) -> list[list[str]]:
    """Each deal's settlement from a record told by its game (``tell_record``): the lines after
    the deal's last action, board lines (indented deeper) left out."""
    deals: list[list[str]] = []
    current: list[str] | None = None
    for line in told:
        if line.startswith("Deal "):
            current = []
            deals.append(current)
        elif current is None:
            continue
        elif _ACTION_LINE.match(line):
            current.clear()
        elif not line.strip():
            current = None
        elif not line.startswith("     "):
            current.append(line.strip())
    return deals


def merged_table(tables: Sequence[Table], names: Sequence[str]) -> Table:
    """Every seat's table merged, hands open: a zone takes its cards from the first seat that
    sees them (its owner first)."""
    first = tables[0]
    zones: list[Zone] = []
    for zone in first.zones:
        cards = zone.cards
        if cards is None:
            order = list(range(len(tables)))
            if zone.owner is not None and zone.owner < len(tables):
                order.insert(0, order.pop(zone.owner))
            for q in order:
                try:
                    seen = tables[q].zone(zone.id).cards
                except KeyError:
                    continue
                if seen is not None:
                    cards = seen
                    break
        label, said = zone.label, zone.say
        if zone.kind == "hand" and zone.owner is not None and zone.owner < len(names):
            said = say("zone.hand", who=names[zone.owner])
            label = said.text
        zones.append(Zone(zone.id, zone.kind, label, zone.owner, cards,
                          zone.count if cards is None else len(cards), zone.note, said))
    m = first.moment
    who = ", ".join(names[q] for q in m.actors if q < len(names))
    said = tables[m.turn].moment.say if m.phase == "over" and m.turn is not None \
        and m.turn < len(tables) else say("prompt.to-act", who=who) if who else m.say
    moment = Moment(actors=m.actors, turn=m.turn, phase=m.phase,
                    prompt=(tables[m.turn].moment.prompt if m.phase == "over" and m.turn is not None
                            and m.turn < len(tables) else f"{who} to act" if who else m.prompt),
                    window=m.window, deadline=m.deadline, say=said)
    return Table(zones=tuple(zones), moment=moment, names=tuple(names), scores=first.scores,
                 teams=first.teams, log=first.log, settlement=first.settlement,
                 outcome=first.outcome)


_CACHE: OrderedDict[tuple[str, str, int], Replay] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def replay_of(row: TableRow, actions: Sequence[ActionRow]) -> Replay:
    """The replay of a table with these stored actions (the last few kept: stepping through a
    game asks for the same one again and again)."""
    key = (row.id, row.status, len(actions))
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    replay = Replay(row, actions)
    with _CACHE_LOCK:
        _CACHE[key] = replay
        while len(_CACHE) > 16:
            _CACHE.popitem(last=False)
    return replay


_RULING = re.compile(r"\s*\((?:see )?rulings? [0-9, and]+\)")


def hint(row: TableRow, actions: Sequence[ActionRow], seat: int) -> dict[str, Any]:
    """The game's expert's move for ``seat`` now and, where it can say, why."""
    replay = replay_of(row, actions)
    if not replay.starts:
        raise ReplayError("the game has not started", "not-started")
    deal = len(replay.starts) - 1
    state = replay.state_at(deal, len(replay.texts[deal]))
    if state.is_over and row.status == "playing":  # the next deal is dealt, nothing played yet
        replay = Replay(row, actions)
        state = replay._deal()
    if state.is_over:
        return {"action": None, "why": "The deal is over."}
    view = state.view(seat)
    if not view.legal:
        return {"action": None, "why": "There is nothing for you to do now."}
    try:
        expert: Any = replay.game.expert()
    except NotImplementedError:
        return {"action": None, "why": f"{replay.game.title} has no expert to ask yet."}
    if hasattr(expert, "explain"):
        action, why = expert.explain(view)
    else:
        action, why = expert.act(view), ""
    text = None if action is None else state.format(action)
    if action is None and not why:
        why = "Let it pass."
    # A hint is for a player at the table: the rulings' numbers are for the rule book. A reason
    # given as a key (:class:`~hoola.core.words.Reason`) goes with it, for the page's language.
    said = why.said.to_json() if isinstance(why, Reason) else None
    why = _RULING.sub("", why)
    return {"action": text, "why": why, "say": said}
