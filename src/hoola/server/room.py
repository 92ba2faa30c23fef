"""One table at play on the server: its match, its moments, its timers and its bots.

The moments are :mod:`hoola.core.flow`'s (who may act, which decisions a window takes, which one
stands, who is told how a race went); the room adds the clock. A window stays open for the
table's ``claim_seconds``; otherwise the one seat to act is waited for, its turn timer running;
a bot plays for a person who runs out of time or has no connection. Every accepted action is
stored before it is applied and announced, so the table can be rebuilt from its stored actions
(:meth:`Room.rebuild`).

Everything here runs on the server's event loop under the room's lock; bots think in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hoola.core import flow
from hoola.core.errors import HoolaError
from hoola.core.flow import Moment
from hoola.core.game import Game, GameState, Match, Player
from hoola.core.registry import get_game
from hoola.server.store import (
    PlaceTaken,
    SeatRow,
    Store,
    StoreUnavailable,
    TableRow,
    digest,
    new_token,
)
from hoola.server.views import seat_message, spectator_message

__all__ = ["Between", "Room", "RoomError", "Send"]

CLAIM_SECONDS = 5.0
"""How long a claim window stays open unless the table says otherwise: time for a person to see
the discard, see that it fits, and press (the rules' online play gives five seconds)."""

RESULT_SECONDS = 0.0
"""How long the next deal waits, unless the table says otherwise, for the people to read the
result of the last one (the browser's tables wait twenty seconds); a person's Continue ends
their wait, everyone's ends the table's."""

RESUME_GRACE = 15.0
"""Seconds a person has to come back after the table is rebuilt (a restart) before a bot stands
in for them."""

RETRY_SECONDS = (0.25, 5.0)
"""After a write the table could not make (its database refused, or this process may no longer
write it), the first pause before it tries again, and the longest (each pause doubles)."""

log = logging.getLogger("hoola.server")

Send = Callable[[int | None, dict[str, Any]], None]
"""Deliver a message to a seat's connections (an int) or to the spectators (None)."""


class RoomError(HoolaError):
    """A request the table refuses; ``code`` and message go back to the client."""

    code = "refused"


@dataclass
class Between:
    """The pause between two deals: the finished deal (its index), until when the next one
    waits (Unix time), and the people it still waits for."""

    deal: int
    deadline: float
    waiting: set[int] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        """The pause as the state messages tell it."""
        return {"deal": self.deal, "deadline": self.deadline, "waiting": sorted(self.waiting)}


class Room:
    """A table: seats, the match, the current moment; see the module."""

    def __init__(self, row: TableRow, seat_rows: list[SeatRow], store: Store, send: Send,
                 *, bots: Callable[[Game, str, int | None], Player] | None = None,
                 externals: Mapping[str, str] | None = None) -> None:
        self.id = row.id
        self.config = row.config
        self.status = row.status
        self.store = store
        self.send = send
        self.game = get_game(row.config["game"])
        self.rules = self.game.rules(row.config.get("preset"), row.config.get("options") or {})
        self.seats = {s.seat: s for s in seat_rows}
        self.connected: dict[int, int] = {s.seat: 0 for s in seat_rows}
        self.lock = asyncio.Lock()
        self.match: Match | None = None
        self.state: GameState | None = None
        self.counter = 0
        self.moment: Moment | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.make_bot = bots or _bot
        self.externals = dict(externals or {})  # bot name -> the command of its program
        self.players: dict[int, Player] = {}
        self.rng = random.Random()
        self.stored = 0  # actions in the store: the next one takes place stored + 1
        self.on_lost: Callable[[], None] = lambda: None
        self.watched: Callable[[], bool] = lambda: True  # whether any spectator may listen
        self.grace_until = 0.0
        self.may_write: Callable[[], bool] = lambda: True  # False: another may own the table
        self.on_stored: Callable[[], None] = lambda: None  # an action was stored
        self.on_over: Callable[[], None] = lambda: None  # the game ended: its result is rated
        self.halts = 0  # writes refused in a row: the table waits longer before each retry
        # Between two deals, the next one waits for the people to read the result: not a game
        # action, so not stored; a table rebuilt in the pause starts its countdown afresh.
        self.between: Between | None = None

    # -- configuration ------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """Seats at the table."""
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names, as the records write them."""
        return tuple(self.config.get("names") or [self.seats[q].name for q in range(self.n)])

    def setting(self, key: str, default: float) -> float:
        """A timer of the table's configuration (seconds)."""
        value = self.config.get(key, default)
        return float(value) if isinstance(value, int | float) else default

    # -- building ------------------------------------------------------------------------------

    def rebuild(self) -> None:
        """Replay the stored actions: the match and its deals as they were accepted."""
        if self.status == "waiting":
            return
        stored = self.status
        self._deal_first()
        for row in self.store.actions(self.id):
            assert self.state is not None
            if self.state.is_over:
                self._deal_next()  # the pause ended before this action was taken
            self.state.apply(self.state.parse(row.text))
            self.stored = row.seq
            self.counter += 1
            if self.state.is_over:
                self._after_deal()
        if stored == "playing" and self.status == "over":
            self.store.set_status(self.id, "over")  # stopped between the last action and this
        if self.status == "playing" and self.state is not None and self.state.is_over:
            self._pause()  # stopped between two deals: the countdown starts again
        # The people were cut off by the restart, not gone: give them time to come back before
        # a bot stands in for them.
        self.grace_until = time.time() + RESUME_GRACE

    def resume(self) -> None:
        """Open the current moment (after a rebuild): timers and bots go on."""
        if self.status == "playing":
            self._open_moment()

    def close(self) -> None:
        """Stop every timer and bot of the table (this process no longer plays it); external
        bots' programs end."""
        for task in list(self.tasks):
            task.cancel()
        self.tasks.clear()
        for player in self.players.values():
            _stop(player)

    def _deal_first(self) -> None:
        self.match = self.game.new_match(self.rules, self.names, seed=self.config["seed"],
                                         until=int(self.config.get("until", 1)))
        self.state = self.match.new_deal()
        self.counter = 1

    def _after_deal(self) -> None:
        """Fold the finished deal into the match, or end the game; the next deal is dealt by
        :meth:`_deal_next`, after the pause for the result (:meth:`_pause`)."""
        assert self.match is not None and self.state is not None
        self.match.finish_deal()
        limit = self.config.get("deals")
        if self.match.is_over or (isinstance(limit, int) and len(self.match.deals) >= limit):
            self.status = "over"

    def _deal_next(self) -> None:
        assert self.match is not None
        self.between = None
        self.state = self.match.new_deal()
        self.counter += 1

    def _pause(self) -> None:
        """Hold the next deal for the people at the table to read the result: until each has
        pressed Continue or the table's ``result_seconds`` ran out. Bots never wait: a table
        without people deals at once."""
        assert self.match is not None
        seconds = self.setting("result_seconds", RESULT_SECONDS)
        people = {q for q, s in self.seats.items() if s.kind == "person" and not s.leaving}
        if seconds <= 0 or not people:
            self._deal_next()
            return
        self.between = Between(len(self.match.deals) - 1, time.time() + seconds, people)

    # -- the protocol's requests ---------------------------------------------------------------

    async def start(self) -> None:
        """The host starts the game (every seat must be held)."""
        async with self.lock:
            if self.status != "waiting":
                raise RoomError("the game has already started", "already-started")
            empty = [q for q, s in self.seats.items() if s.kind == "empty"]
            if empty:
                raise RoomError(f"seat {empty[0] + 1} is empty: invite someone or give it to a "
                                "bot", "seat-empty")
            self.config["names"] = [self.seats[q].name for q in range(self.n)]
            self._deal_first()
            self.store.start_table(self.id, self.config)
            self.status = "playing"
            self._open_moment()

    async def submit(self, seat: int, text: str | None, counter: Any,
                     holder: str | None = None) -> None:
        """A seat's decision: an action in notation, or None to let the moment pass.
        ``holder`` is the digest of the token the client holds the seat by: a person who has
        left the seat (a bot plays it now) acts for it no more."""
        async with self.lock:
            if holder is not None and self.seats[seat].token_digest != holder:
                raise RoomError("you have left this seat; a bot plays it now", "not-seated")
            self._submit(seat, text, counter)

    def _submit(self, seat: int, text: str | None, counter: Any) -> None:
        state, moment = self.state, self.moment
        if self.between is not None:
            raise RoomError("the deal is over: the next one is dealt when everyone has seen "
                            "the result", "between-deals")
        if self.status != "playing" or state is None or moment is None:
            raise RoomError("the game is not in play", "not-playing")
        if not isinstance(counter, int) or isinstance(counter, bool) or counter != self.counter:
            raise RoomError(f"stale action: the table is at {self.counter}, not "
                            f"{repr(counter)[:20]}; "
                            "act on the newest state", "stale")
        action = None if text is None else _parse(state, text, self.names, seat)
        now = flow.decide(state, moment, seat, action)
        if now is not None:
            self._accept(now)
            return
        self._settle()
        if self.moment is moment and not moment.closed:
            # The decision waits for the window: the decider alone is told it was taken (its
            # state, no longer asked); nobody else learns who has decided.
            self.send(seat, seat_message(self, seat))

    def _settle(self) -> None:
        """Resolve a window once it has closed or everyone in it has decided."""
        moment, state = self.moment, self.state
        assert moment is not None and state is not None
        settled = flow.settle(state, moment)
        if settled is None:
            return
        if settled.action is None:
            self._announce()  # the window is closed; the seat whose turn it is still decides
            return
        claimer, said = settled.action.player, state.format(settled.action)
        try:
            self._accept(settled.action, settled.claims)
            if claimer in moment.passers:
                # A claim out of turn that stood is news for the whole table (the log has it
                # anyway): every seat and spectator is told, so that each page can call it out.
                self.send(-2, {"type": "claimed", "seat": claimer, "name": self.names[claimer],
                               "action": said})
        except HoolaError as exc:
            if exc.code != "unavailable":
                raise
            # Not stored, not taken: everyone who decided in the window is told why (the
            # seat whose decision closed it among them), and is asked again when it reopens.
            refusal = {"type": "error", "code": exc.code, "message": exc.message}
            for seat in flow.deciders(moment):
                self.send(seat, refusal)

    def _accept(self, action: Any, claims: Sequence[flow.Claim] = ()) -> None:
        """Store, apply and announce an action the engine has checked, and tell the claimants
        of a window how their claims went. When it cannot be stored nothing changes: the
        table halts and tries again (:meth:`_halt`)."""
        state = self.state
        assert state is not None and self.match is not None
        text = state.format(action)
        if not self.may_write():  # the lease may have passed to another process: fenced
            raise self._halt(RoomError("the table is paused: its server has lost touch with the "
                                       "others; try again in a moment", "unavailable"))
        try:
            self.store.add_action(self.id, len(self.match.deals) - 1, text, seq=self.stored + 1)
        except PlaceTaken as exc:  # another process owns the table now
            self.on_lost()
            raise RoomError("the table moved to another server: reconnect", "moved") from exc
        except StoreUnavailable as exc:
            raise self._halt(exc) from None
        self.halts = 0
        self.stored += 1
        self.on_stored()
        state.apply(action)
        self.counter += 1
        for claim in claims:
            self.send(claim.seat, {"type": "claim", "seat": claim.seat, "action": claim.action,
                                   "result": claim.result, "winner": claim.winner})
        saved = True
        if state.is_over:
            self._after_deal()
            self._apply_leaving()
            if self.status == "playing":
                self._pause()
            if self.status == "over":
                saved = self._save_over()
                for player in self.players.values():
                    _stop(player)  # external bots' programs end with the game
        self._open_moment()
        if not saved:
            self._later(RETRY_SECONDS[1], self._save_over_later)

    def _halt(self, error: HoolaError) -> HoolaError:
        """A write the table could not make: nothing was applied. Its timers and bots stop,
        and after a pause (doubling with each refusal in a row) the moment opens again, so
        bots try again and people are asked again; a person's own try may come first.
        Returns ``error``, for the one who acted."""
        for task in list(self.tasks):
            task.cancel()
        self.tasks.clear()
        self.halts += 1
        first, longest = RETRY_SECONDS
        self._later(min(longest, first * 2 ** (self.halts - 1)), self._retry, self.counter)
        return error

    async def _retry(self, counter: int) -> None:
        async with self.lock:
            if self.counter == counter and self.status == "playing":
                self._open_moment()

    def _save_over(self) -> bool:
        """Mark the table over in the store; whether the database took it. (The game's last
        action is stored: a rebuild finds the game over whatever the status says.)"""
        try:
            self.store.set_status(self.id, "over")
            self.on_over()
        except StoreUnavailable:
            return False
        return True

    async def _save_over_later(self) -> None:
        if not self._save_over():
            self._later(RETRY_SECONDS[1], self._save_over_later)

    # -- moments, timers, bots -----------------------------------------------------------------

    def _open_moment(self) -> None:
        state = self.state
        for task in list(self.tasks):
            task.cancel()
        self.tasks.clear()
        if self.status != "playing" or state is None:
            self.moment = None
            self._announce()
            return
        if self.between is not None:
            self.moment = None
            self._later(self.between.deadline - time.time(), self._end_pause, self.between.deal)
            self._announce()
            return
        # While the table shows a window every seat that may let it pass is in it (flow), and
        # its bots take their time alike, claimants or not.
        moment = flow.open_moment(state, self.counter)
        now = time.time()
        if moment.shown:
            moment.window_deadline = now + self.setting("claim_seconds", CLAIM_SECONDS)
            self._later(moment.window_deadline - now, self._close_window, moment.counter)
        turn = self.setting("turn_seconds", 60.0)
        if turn > 0:
            moment.turn_deadline = now + turn
        self.moment = moment
        for q in moment.actors:
            self._schedule(q, moment)
        self._announce()

    def _schedule(self, seat: int, moment: Moment) -> None:
        """Ask a bot for its decision: the seat's own bot, or one standing in for a person with
        no connection (at once) or out of time (at the turn deadline)."""
        s = self.seats[seat]
        if s.kind == "bot":
            delay = self._reaction() if seat in moment.passers else self.setting("bot_delay", 0.5)
            self._later(0, self._bot_decides, moment.counter, seat, delay)
        elif self.connected.get(seat, 0) == 0:
            # In a window the stand-in takes a bot's time too, so no pause tells who could claim.
            delay = self._reaction() if seat in moment.passers else self.setting("bot_delay", 0.5)
            delay = max(delay, self.grace_until - time.time())
            self._later(0, self._bot_decides, moment.counter, seat, delay, True)
        elif moment.turn_deadline is not None and seat not in moment.passers:
            self._later(moment.turn_deadline - time.time(), self._bot_decides, moment.counter,
                        seat, 0.0)

    def _reaction(self) -> float:
        low, high = self.config.get("bot_reaction", [0.8, 1.5])
        return self.rng.uniform(float(low), float(high))

    def _later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        async def run() -> None:
            if delay > 0:
                await asyncio.sleep(delay)
            await fn(*args)

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def go_on(self, seat: int) -> None:
        """A person has read the result between two deals (Continue): the next deal comes when
        every person has, or when the pause runs out. After the pause, nothing to do."""
        async with self.lock:
            between = self.between
            if between is None or seat not in between.waiting:
                return
            between.waiting.discard(seat)
            if between.waiting:
                self._announce()
                return
            self._deal_next()
            self._open_moment()

    async def _end_pause(self, deal: int) -> None:
        async with self.lock:
            if self.between is not None and self.between.deal == deal:
                self._deal_next()
                self._open_moment()

    async def _close_window(self, counter: int) -> None:
        async with self.lock:
            moment = self.moment
            if moment is None or moment.counter != counter or moment.closed:
                return
            flow.close(moment)
            with contextlib.suppress(HoolaError):  # a halt: the table tries again
                self._settle()

    async def _bot_decides(self, counter: int, seat: int, delay: float,
                           absent: bool = False) -> None:
        """A bot's decision for ``seat`` at moment ``counter``, after ``delay``; ``absent``: it
        stands in for a person with no connection, who may come back meanwhile."""
        state = self.state
        if state is None or self.counter != counter:
            return
        view = state.copy().view(seat)
        bot = self._player(seat)
        started = time.monotonic()
        try:
            action = await asyncio.to_thread(bot.act, view)
        except Exception as exc:  # an external bot that broke its protocol or timed out
            log.warning("table %s: the bot of seat %d failed (%s); the expert plays instead",
                        self.id, seat, exc)
            self.players[seat] = _bot(self.game, "expert", self.rng.randrange(2**32))
            _stop(bot)
            action = await asyncio.to_thread(self.players[seat].act, view)
        rest = delay - (time.monotonic() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        async with self.lock:
            moment = self.moment
            if moment is None or moment.counter != counter or seat in moment.decided:
                return
            if absent and self.connected.get(seat, 0) > 0:
                # The person is back in time: their turn is theirs, under its timer again.
                if moment.turn_deadline is not None:
                    self._later(moment.turn_deadline - time.time(), self._bot_decides, counter,
                                seat, 0.0)
                return
            text = None if action is None else state.format(action)
            with contextlib.suppress(HoolaError):  # the moment moved on (a window closed)
                self._submit(seat, text, counter)
                if self.seats[seat].kind == "person" and seat not in moment.passers:
                    # A bot played a person's turn: the whole table is told, and why.
                    self.send(-2, {"type": "standin", "seat": seat, "name": self.names[seat],
                                   "reason": "away" if absent else "time", "action": text})

    def _player(self, seat: int) -> Player:
        if seat not in self.players:
            s = self.seats[seat]
            kind = s.bot if s.kind == "bot" and s.bot else "expert"
            if kind in self.externals:
                from hoola.bots.external import ExternalBot

                self.players[seat] = ExternalBot(self.externals[kind], name=kind,
                                                 game=self.game, rules=self.rules)
            else:
                self.players[seat] = self.make_bot(self.game, kind, self.rng.randrange(2**32))
        return self.players[seat]

    # -- seats ---------------------------------------------------------------------------------

    async def connect(self, seat: int | None, delta: int) -> None:
        """A seat's connection opened (+1) or closed (-1), on any process."""
        async with self.lock:
            if seat is None or seat not in self.seats:
                return
            self.connected[seat] = max(0, self.connected.get(seat, 0) + delta)
            moment = self.moment
            if delta < 0 and self.connected[seat] == 0 and moment is not None and \
                    seat in moment.actors and seat not in moment.decided:
                self._schedule(seat, moment)

    async def join(self, name: str) -> dict[str, Any]:
        """A person takes the first open seat; returns the seat and its secret token."""
        async with self.lock:
            open_seats = [q for q, s in sorted(self.seats.items()) if s.kind == "empty"]
            if not open_seats:
                raise RoomError("no open seat at this table", "table-full")
            q = open_seats[0]
            if self.status == "waiting" and name in [s.name for s in self.seats.values()]:
                raise RoomError(f"{name} is already at the table", "name-taken")
            token = new_token()
            seat_name = name if self.status == "waiting" else self.seats[q].name
            self._set_seat(SeatRow(q, "person", seat_name, None, digest(token), False))
            if self.moment is not None and q in self.moment.actors:
                self._schedule(q, self.moment)
            self._announce()
            return {"seat": q, "token": token}

    async def seat_bot(self, seat: int, bot: str) -> dict[str, Any]:
        """The host gives an open seat to a bot."""
        async with self.lock:
            s = self.seats.get(seat)
            if s is None or s.kind != "empty":
                raise RoomError("that seat is not open", "seat-taken")
            self._set_seat(SeatRow(seat, "bot", s.name, bot, None, False))
            if self.moment is not None and seat in self.moment.actors:
                self._schedule(seat, self.moment)
            self._announce()
            return {"seat": seat, "bot": bot}

    async def leave(self, seat: int) -> dict[str, Any]:
        """A person leaves: at once before the game starts, else at the end of the deal (a bot
        then takes the seat)."""
        async with self.lock:
            s = self.seats[seat]
            if self.status == "waiting":
                self._set_seat(SeatRow(seat, "empty", s.name, None, None, False))
            elif self.status == "playing":
                self._set_seat(SeatRow(seat, s.kind, s.name, s.bot, s.token_digest, True))
            self._announce()
            return {"seat": seat, "leaving": self.seats[seat].leaving}

    async def chat(self, seat: int | None, text: str) -> None:
        """A chat line from a seat (None: a spectator) to everyone at the table."""
        name = self.seats[seat].name if seat is not None else "spectator"
        self.store.add_chat(self.id, seat, name, text)
        self.send(-2, {"type": "chat", "name": name, "text": text})

    def _set_seat(self, row: SeatRow) -> None:
        self.store.set_seat(self.id, row)
        self.seats[row.seat] = row
        _stop(self.players.pop(row.seat, None))

    def _apply_leaving(self) -> None:
        for q, s in list(self.seats.items()):
            if s.leaving:
                # The deal's last action is stored: a seat the database cannot hand over now
                # stays leaving, and is handed over at the end of the next deal.
                with contextlib.suppress(StoreUnavailable):
                    self._set_seat(SeatRow(q, "bot", s.name,
                                           self.config.get("leave_bot", "expert"), None, False))

    def rematch_made(self, table: str) -> None:
        """Tell every page of this finished table that its rematch is table ``table``."""
        self.send(-2, {"type": "rematch", "table_id": table})

    def announce(self) -> None:
        """Send every seat and the spectators the table as they may see it."""
        self._announce()

    def message(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) sees now, for that client alone."""
        return spectator_message(self) if seat is None else seat_message(self, seat)

    def holder(self, seat: int | None) -> str | None:
        """The digest of the token that holds ``seat`` now (None: a bot, an open seat)."""
        s = self.seats.get(seat) if seat is not None else None
        return s.token_digest if s is not None else None

    def _announce(self) -> None:
        for q in range(self.n):
            self.send(q, seat_message(self, q))
        if self.watched():  # the public table costs every seat's view: only for an audience
            self.send(None, spectator_message(self))


def _parse(state: GameState, text: str, names: tuple[str, ...], seat: int) -> Any:
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise RoomError("an action is a line of notation such as \"B draw\"", "bad-action")
    if text.split()[0] not in names:
        text = f"{names[seat]} {text}"  # the seat's own name may be left out
    return state.parse(text)


def _stop(player: Player | None) -> None:
    """End an external bot's program (other bots have none)."""
    stop = getattr(player, "stop", None)
    if callable(stop):
        with contextlib.suppress(Exception):
            stop()


def _bot(game: Game, kind: str, seed: int | None) -> Player:
    from hoola.bots import seat_bot

    return seat_bot(game, kind, seed)[0]

