"""External bots: a program in any language that plays through lines of JSON on stdin/stdout.

The protocol (``hoola-bot/1``) is described in ``docs/protocol.md``; ``examples/random_bot.py``
is a reference client. :class:`ExternalBot` starts the program, says hello (naming the game and
its rules), and then sends one ``act`` message per decision with the player's view
(``view.to_json()``, the game's own) and a question ``id``; the program answers with an action in
the game's record notation (``"B discard Kd"``), an index into the legal list, or ``null`` to
pass, echoing the ``id``. The host knows the game only through the core's interface, so every
registered game is played the same way.

The host never trusts the program: it reads without blocking, so the time budget holds to the
millisecond whatever the program writes (half a line, endless bytes, nothing); a message longer
than :data:`MAX_LINE` bytes, an answer to a question not asked, and anything not legal now are
errors. After an error the program is killed; the next decision would start it afresh.

>>> from hoola.games.hoola import GAME
>>> hello_message(GAME, GAME.rules("classic"))["rules"]
{'preset': 'classic', 'options': {}}
"""

from __future__ import annotations

import atexit
import contextlib
import json
import math
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from hoola.core.errors import HoolaError
from hoola.core.game import Game, View
from hoola.core.registry import get_game

__all__ = ["MAX_LINE", "PROTOCOL", "QUIT_GRACE", "ExternalBot", "ExternalBotError", "close_all",
           "hello_message", "split_command", "stop_all"]

PROTOCOL = "hoola-bot/1"
MAX_LINE = 64 * 1024
"""The longest message a program may send, in bytes (an answer takes a few dozen)."""
QUIT_GRACE = 1.0
"""Seconds a program has to exit after ``quit`` before it is killed."""
_CHUNK = 65536


class ExternalBotError(HoolaError):
    """An external bot broke the protocol: bad JSON, an illegal or stale answer, silence, exit."""

    def __init__(self, message: str, code: str = "external-bot") -> None:
        super().__init__(message, code)


def split_command(command: str | Sequence[str]) -> list[str]:
    """The program and its arguments, from a shell-like string or a list.

    >>> split_command('python "my bot.py" 3')
    ['python', 'my bot.py', '3']
    """
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:  # an unclosed quote
            raise ExternalBotError(f"cannot read the bot command {command!r}: {exc}",
                                   "external-command") from exc
    else:
        argv = [str(a) for a in command]
    if not argv or not argv[0]:
        raise ExternalBotError("the bot command is empty: name a program to run",
                               "external-command")
    return argv


def _plain(value: Any) -> Any:
    """Fractions as whole numbers or "a/b", containers as lists and string-keyed objects."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def hello_message(game: Game, rules: Any = None) -> dict[str, Any]:
    """The ``hello`` the host sends first: the protocol, the game's name and, when the host
    knows them, the rules (the preset and the options that differ from it)."""
    message: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "game": game.name}
    if rules is not None:
        message["rules"] = {"preset": rules.preset_name, "options": _plain(rules.overrides())}
    return message


def _clip(text: str | bytes | bytearray, width: int = 60) -> str:
    """A short printable excerpt of what a program sent, for error messages."""
    if not isinstance(text, str):
        text = text.decode("utf-8", "replace")
    text = text.strip()
    return repr(text if len(text) <= width else text[:width] + "...")


_LIVE: weakref.WeakSet[ExternalBot] = weakref.WeakSet()
_HELD = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait while this lasts, then arrive as usual.

    Starting a program, and killing and reaping one, must not be cut halfway by the exception a
    signal handler raises: that would leave a program running that nobody knows of, or one dead
    but never reaped (a zombie that outlives its host). Python runs signal handlers in the main
    thread only, so other threads have nothing to hold.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous: dict[signal.Signals, Any] = {}
    # Blocked while the handlers change, so none can raise with only some of them changed.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        for sig in _HELD:
            handler = signal.getsignal(sig)
            if handler is not None and handler != signal.SIG_IGN:  # None: set outside Python
                previous[sig] = signal.signal(sig, lambda signum, _frame: caught.append(signum))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    try:
        yield
    finally:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        try:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for signum in dict.fromkeys(caught):
                signal.raise_signal(signum)  # pending: delivered when the mask is restored
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def stop_all(bots: Iterable[ExternalBot]) -> None:
    """Kill several programs at once; a Ctrl-C meanwhile waits until every one is reaped."""
    with _signals_held():
        for bot in bots:
            bot.stop()


def close_all(bots: Iterable[ExternalBot]) -> None:
    """Close several bots at once: ``quit`` to each, one shared grace period, then kill the rest
    (so a table of stubborn programs costs one :data:`QUIT_GRACE`, not one each)."""
    running = [b for b in bots if b._proc is not None]
    try:
        for bot in running:
            bot._say_goodbye()
        deadline = time.monotonic() + QUIT_GRACE
        for bot in running:
            if bot._proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    bot._proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    finally:  # even on Ctrl-C
        stop_all(running)


@atexit.register
def _stop_live() -> None:
    """Kill every program still running when the interpreter exits (no orphans)."""
    stop_all(list(_LIVE))


class ExternalBot:
    """A player backed by a program that speaks ``hoola-bot/1`` (started on first use).

    ``game`` is the game it plays (a registered name or a :class:`~hoola.core.game.Game`;
    default hoola), ``rules`` the rules its hello names. ``timeout`` is the time budget of one
    decision in seconds, from sending ``act`` to the end of the answer. Call :meth:`close` (or
    use ``with``) to send ``quit`` and end the program; the program runs in its own process
    group, which is killed with it.
    """

    def __init__(self, command: str | Sequence[str], *, name: str | None = None,
                 timeout: float = 10.0, game: Game | str | None = None,
                 rules: Any = None) -> None:
        self.command = split_command(command)
        self.game = game if game is not None and not isinstance(game, str) else get_game(game)
        self.rules = rules
        self.name = name or os.path.basename(self.command[0])
        if not (isinstance(timeout, int | float) and math.isfinite(timeout) and timeout > 0):
            raise ExternalBotError(f"the time budget of external bot {self.name} must be a "
                                   f"positive number of seconds, not {timeout!r}",
                                   "external-command")
        self.timeout = float(timeout)
        self.budget_seconds = self.timeout
        self.bot_name: str | None = None
        self.questions = 0
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: selectors.BaseSelector | None = None
        self._writer: selectors.BaseSelector | None = None
        self._buffer = bytearray()

    @property
    def pid(self) -> int | None:
        """The running program's process id, or None."""
        return self._proc.pid if self._proc is not None else None

    # -- process --------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the program and exchange hello/ready (done by the first message otherwise)."""
        if self._proc is not None:
            return
        try:  # a start cut short, by a protocol error or a Ctrl-C, leaves no program behind
            with _signals_held():  # Ctrl-C waits until the program is known here, to be ended
                self._proc = self._spawn()
                _LIVE.add(self)
            assert self._proc.stdin is not None and self._proc.stdout is not None
            os.set_blocking(self._proc.stdin.fileno(), False)
            os.set_blocking(self._proc.stdout.fileno(), False)
            self._reader, self._writer = selectors.DefaultSelector(), selectors.DefaultSelector()
            self._reader.register(self._proc.stdout, selectors.EVENT_READ)
            self._writer.register(self._proc.stdin, selectors.EVENT_WRITE)
            self._buffer.clear()
            reply = self._ask(hello_message(self.game, self.rules))
            if reply.get("type") != "ready":
                raise ExternalBotError(f"external bot {self.name} answered hello with "
                                       f"{_clip(json.dumps(reply))}, not a ready message",
                                       "external-protocol")
        except BaseException:
            self.stop()
            raise
        name = reply.get("name")
        self.bot_name = name[:80] if isinstance(name, str) and name else self.name

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            # A session of its own: the program and anything it starts die together (killpg),
            # and a Ctrl-C at the terminal reaches the host, which then ends them.
            return subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    bufsize=0, start_new_session=True)
        except OSError as exc:
            raise ExternalBotError(f"external bot {self.name} cannot start "
                                   f"{self.command[0]!r}: {exc.strerror or exc}",
                                   "external-missing") from exc

    def close(self) -> None:
        """Send ``quit``, give the program :data:`QUIT_GRACE` seconds to exit, then kill it."""
        close_all([self])

    def stop(self) -> None:
        """Kill the program (and its process group) at once and reap it (Ctrl-C waits)."""
        with _signals_held():
            self._stop()

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            # The group too: nothing the program started may outlive it.
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        finally:
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            for selector in (self._reader, self._writer):
                if selector is not None:
                    selector.close()
            self._reader = self._writer = None
            self._buffer.clear()
            _LIVE.discard(self)

    def _say_goodbye(self) -> None:
        """Send ``quit`` if the pipe takes it now, and end the program's input."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(OSError, ExternalBotError):
            self._write(proc, {"type": "quit"}, time.monotonic())
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # end of input: a bot that ignores quit may still stop

    def __enter__(self) -> ExternalBot:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # never raise from a finaliser
            self.stop()

    @contextlib.contextmanager
    def _stopping_on_error(self) -> Iterator[None]:
        """A program that broke the protocol is killed: its next answer could not be trusted."""
        try:
            yield
        except ExternalBotError:
            self.stop()
            raise

    # -- messages -------------------------------------------------------------------------------

    def _write(self, proc: subprocess.Popen[bytes], message: dict[str, Any],
               deadline: float) -> None:
        """Write one message without blocking: a program that does not read runs out of time."""
        assert proc.stdin is not None and self._writer is not None
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        fd = proc.stdin.fileno()
        while data:
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ExternalBotError(f"external bot {self.name} did not read its input "
                                           f"within {self.timeout:g} s",
                                           "external-timeout") from None
                self._writer.select(left)
            except OSError as exc:  # a broken pipe: the program is gone
                raise ExternalBotError(f"external bot {self.name} stopped reading its input "
                                       f"({self._exit_status(proc)})",
                                       "external-exited") from exc

    @staticmethod
    def _exit_status(proc: subprocess.Popen[bytes]) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.2)  # it is usually exiting: let it say its code
        code = proc.poll()
        return "still running" if code is None else f"exit code {code}"

    def _send(self, message: dict[str, Any], deadline: float) -> None:
        if self._proc is None:
            self.start()
        assert self._proc is not None
        self._check_quiet()
        self._write(self._proc, message, deadline)

    def _fill(self) -> bool:
        """Read what the program has written so far; False at the end of its output."""
        assert self._proc is not None and self._proc.stdout is not None
        try:
            chunk = os.read(self._proc.stdout.fileno(), _CHUNK)
        except BlockingIOError:
            return True
        self._buffer += chunk
        return bool(chunk)

    def _check_quiet(self) -> None:
        """Refuse output nobody asked for (a second answer, or an answer after the fact)."""
        assert self._reader is not None
        while len(self._buffer) <= MAX_LINE and self._reader.select(0) and self._fill():
            pass
        if self._buffer.strip():
            raise ExternalBotError(f"external bot {self.name} sent {_clip(self._buffer)}, which "
                                   "answers no question (one answer per question)",
                                   "external-extra")
        self._buffer.clear()

    def _read_line(self, deadline: float) -> bytes:
        """The next non-blank line, read without blocking past ``deadline``."""
        assert self._proc is not None and self._reader is not None
        while True:
            end = self._buffer.find(b"\n")
            if end > MAX_LINE or (end < 0 and len(self._buffer) > MAX_LINE):
                raise ExternalBotError(f"external bot {self.name} sent a line longer than "
                                       f"{MAX_LINE} bytes", "external-long-line")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                if line.strip():
                    return line
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                partial = f" after part of a line, {_clip(self._buffer)}" \
                    if self._buffer.strip() else ""
                raise ExternalBotError(f"external bot {self.name} did not answer within "
                                       f"{self.timeout:g} s{partial}", "external-timeout")
            if self._reader.select(left) and not self._fill():
                raise ExternalBotError(f"external bot {self.name} closed its output "
                                       f"({self._exit_status(self._proc)})", "external-exited")

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        self._send(message, deadline)
        line = self._read_line(deadline)
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError) as exc:  # not JSON, not UTF-8, or nested too deep
            raise ExternalBotError(f"external bot {self.name} sent a line that is not JSON: "
                                   f"{_clip(line)}", "external-bad-json") from exc
        if not isinstance(reply, dict):
            raise ExternalBotError(f"external bot {self.name} sent {_clip(line)}, not a JSON "
                                   "object", "external-bad-json")
        self._check_quiet()  # two answers in one write: the second answers nothing
        return reply

    def begin_deal(self, view: View) -> None:
        """Tell the program a deal begins (no answer is expected)."""
        with self._stopping_on_error():
            self._send({"type": "deal", "view": view.to_json()}, time.monotonic() + self.timeout)

    def end_deal(self, view: View) -> None:
        """Tell the program how the deal ended (the view holds the result, and the hands the
        game shows at its end)."""
        with self._stopping_on_error():
            self._send({"type": "end", "view": view.to_json()}, time.monotonic() + self.timeout)

    def act(self, view: View) -> Any | None:
        """Ask the program for a decision; refuse anything that is not legal now."""
        with self._stopping_on_error():
            self.questions += 1
            question = self.questions
            data = view.to_json()
            reply = self._ask({"type": "act", "id": question, "view": data})
            return self._choice(reply, question, view, data)

    def _choice(self, reply: dict[str, Any], question: int, view: View,
                data: dict[str, Any]) -> Any | None:
        """The legal action an answer names (or None for a pass), else a precise error.

        An action's text is read with the game's notation and matched against the legal list the
        program was sent (``data``), so any spelling the notation reads as a legal action is it.
        """
        said = _clip(json.dumps(reply))
        if reply.get("type") != "action":
            raise ExternalBotError(f"external bot {self.name} answered act with {said}, not an "
                                   "action message", "external-protocol")
        if reply.get("id") is not None and (type(reply["id"]) is not int
                                            or reply["id"] != question):
            raise ExternalBotError(f"external bot {self.name} answered question "
                                   f"{_clip(json.dumps(reply['id']), 20)} while question "
                                   f"{question} was asked (a stale answer)", "external-stale")
        index, text = reply.get("index"), reply.get("action")
        if index is not None:
            if text is not None:
                raise ExternalBotError(f"external bot {self.name} sent both an index and an "
                                       f"action in {said}: send one", "external-protocol")
            if type(index) is not int or not 0 <= index < len(view.legal):  # true is no index
                raise ExternalBotError(f"external bot {self.name} chose index "
                                       f"{_clip(json.dumps(index), 20)}, not a whole number "
                                       f"from 0 to {len(view.legal) - 1}", "external-illegal")
            return view.legal[index]
        if text is None:
            if not view.can_pass:
                raise ExternalBotError(f"external bot {self.name} passed but must act now",
                                       "external-illegal")
            return None
        if not isinstance(text, str):
            raise ExternalBotError(f"external bot {self.name} sent the action "
                                   f"{_clip(json.dumps(text), 20)}, not a string or null",
                                   "external-illegal")
        names = data["names"]
        try:
            action = self.game.parse_action(text, names)
            spelled = self.game.format_action(action, names)
        except HoolaError as exc:
            raise ExternalBotError(f"external bot {self.name} sent {_clip(text)}: {exc.message}",
                                   "external-illegal") from exc
        legal = {t: i for i, t in enumerate(data["legal"])}
        if spelled not in legal:
            raise ExternalBotError(f"external bot {self.name} chose {_clip(text)}, which is not "
                                   "legal now", "external-illegal")
        return view.legal[legal[spelled]]
