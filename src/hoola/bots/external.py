"""External bots: a program in any language that plays through lines of JSON on stdin/stdout.

The protocol (``hoola-bot/1``) is described in ``docs/protocol.md``; ``examples/random_bot.py``
is a reference client. :class:`ExternalBot` starts the program, says hello, and then sends one
``act`` message per decision with the player's view; the program answers with an action in the
record notation (``"B discard Kd"``), an index into the legal list, or ``null`` to pass.

>>> from hoola import DealState, Rules
>>> state = DealState.new(Rules.preset("pagat"), 4, seed=1)
>>> message = view_to_json(state.view(0))
>>> message["legal"], message["hand_sizes"]
(['A draw'], [7, 7, 7, 7])
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from hoola.actions import Action, format_action, parse_action
from hoola.cards import format_card, format_cards
from hoola.errors import HoolaError
from hoola.views import View

__all__ = ["PROTOCOL", "ExternalBot", "ExternalBotError", "view_to_json"]

PROTOCOL = "hoola-bot/1"


class ExternalBotError(HoolaError):
    """An external bot broke the protocol: bad JSON, an illegal action, silence, or it exited."""

    def __init__(self, message: str, code: str = "external-bot") -> None:
        super().__init__(message, code)


def _plain(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def view_to_json(view: View) -> dict[str, Any]:
    """The view as the protocol sends it: cards and actions in the record notation."""
    names = view.names
    result = None
    if view.result is not None:
        r = view.result
        result = {"end": r.end, "winners": [names[w] for w in r.winners],
                  "points": {names[q]: p for q, p in sorted(r.points.items())},
                  "payments": {names[q]: _plain(v) for q, v in sorted(r.payments.items())}}
    return {
        "player": view.player,
        "name": names[view.player],
        "names": list(names),
        "rules": {"preset": view.rules.preset_name, "options": _plain(view.rules.overrides())},
        "dealer": view.dealer,
        "stake": _plain(view.stake),
        "phase": view.phase,
        "current": view.current,
        "drawn": view.drawn,
        "hand": format_cards(view.hand).split(),
        "hand_sizes": list(view.hand_sizes),
        "in_deal": list(view.in_deal),
        "melded": list(view.melded),
        "own_meld": list(view.own_meld),
        "had_turn": list(view.had_turn),
        "table": [{"id": m.id, "owner": m.owner, "kind": m.kind.name.lower(),
                   "cards": str(m).split()} for m in view.table],
        "discards": format_cards(view.discards).split(),
        "claimable": format_card(view.claimable) if view.claimable is not None else None,
        "claim_open": view.claim_open,
        "discarder": view.discarder,
        "stock_size": view.stock_size,
        "history": [format_action(a, names) for a in view.history],
        "legal": [format_action(a, names) for a in view.legal],
        "can_pass": view.can_pass,
        "result": result,
        "hands": {names[q]: format_cards(h).split() for q, h in enumerate(view.hands)}
        if view.hands is not None else None,
    }


class ExternalBot:
    """A player backed by a program that speaks ``hoola-bot/1`` (started on first use).

    ``timeout`` is the stated time budget of one decision: a program silent for longer is an
    error. Call :meth:`close` (or use ``with``) to send ``quit`` and end the program.
    """

    def __init__(self, command: str | Sequence[str], *, name: str | None = None,
                 timeout: float = 10.0) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.name = name or os.path.basename(self.command[0])
        self.timeout = timeout
        self.budget_seconds = timeout
        self.bot_name: str | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._selector: selectors.BaseSelector | None = None

    # -- process --------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the program and exchange hello/ready (done by the first decision otherwise)."""
        if self._proc is not None:
            return
        self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, bufsize=1)
        self._selector = selectors.DefaultSelector()
        assert self._proc.stdout is not None
        self._selector.register(self._proc.stdout, selectors.EVENT_READ)
        reply = self._ask({"type": "hello", "protocol": PROTOCOL})
        if reply.get("type") != "ready":
            raise ExternalBotError(f"external bot {self.name} answered hello with {reply!r}, not "
                                   "a ready message")
        self.bot_name = str(reply.get("name", self.name))

    def close(self) -> None:
        """Send ``quit`` and wait briefly for the program to end (then kill it)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            self._send_to(proc, {"type": "quit"})
            if proc.stdin is not None:
                proc.stdin.close()  # end of input: a bot that ignores quit still stops
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            if self._selector is not None:
                self._selector.close()
                self._selector = None

    def __enter__(self) -> ExternalBot:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # never raise from a finaliser
            self.close()

    # -- messages -------------------------------------------------------------------------------

    @staticmethod
    def _send_to(proc: subprocess.Popen[str], message: dict[str, Any]) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
        proc.stdin.flush()

    def _send(self, message: dict[str, Any]) -> None:
        if self._proc is None:
            self.start()
        assert self._proc is not None
        try:
            self._send_to(self._proc, message)
        except OSError as exc:
            raise ExternalBotError(f"external bot {self.name} stopped reading its input") from exc

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        self._send(message)
        proc, selector = self._proc, self._selector
        assert proc is not None and proc.stdout is not None and selector is not None
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                raise ExternalBotError(f"external bot {self.name} did not answer within "
                                       f"{self.timeout:g} s", "external-timeout")
            line = proc.stdout.readline()
            if not line:
                raise ExternalBotError(f"external bot {self.name} exited (code {proc.poll()})",
                                       "external-exited")
            if line.strip():
                break
        try:
            reply = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ExternalBotError(f"external bot {self.name} sent a line that is not JSON: "
                                   f"{line.strip()[:80]!r}", "external-bad-json") from exc
        if not isinstance(reply, dict):
            raise ExternalBotError(f"external bot {self.name} sent {reply!r}, not an object",
                                   "external-bad-json")
        return reply

    def begin_deal(self, view: View) -> None:
        """Tell the program a deal begins (no answer is expected)."""
        self._send({"type": "deal", "view": view_to_json(view)})

    def end_deal(self, view: View) -> None:
        """Tell the program how the deal ended (the view holds the result and every hand)."""
        self._send({"type": "end", "view": view_to_json(view)})

    def act(self, view: View) -> Action | None:
        """Ask the program for a decision; refuse anything that is not legal now."""
        reply = self._ask({"type": "act", "view": view_to_json(view)})
        if reply.get("type") != "action":
            raise ExternalBotError(f"external bot {self.name} answered act with {reply!r}, not "
                                   "an action message")
        if "index" in reply and reply["index"] is not None:
            index = reply["index"]
            if not isinstance(index, int) or not 0 <= index < len(view.legal):
                raise ExternalBotError(f"external bot {self.name} chose index {index!r} of "
                                       f"{len(view.legal)} legal actions", "external-illegal")
            return view.legal[index]
        text = reply.get("action")
        if text is None:
            if not view.can_pass:
                raise ExternalBotError(f"external bot {self.name} passed but must act now",
                                       "external-illegal")
            return None
        try:
            action = parse_action(str(text), view.names)
        except HoolaError as exc:
            raise ExternalBotError(f"external bot {self.name} sent {text!r}: {exc.message}",
                                   "external-illegal") from exc
        legal = {format_action(a, view.names): a for a in view.legal}
        chosen = legal.get(format_action(action, view.names))
        if chosen is None:
            raise ExternalBotError(f"external bot {self.name} chose {text!r}, which is not legal "
                                   "now", "external-illegal")
        return chosen
