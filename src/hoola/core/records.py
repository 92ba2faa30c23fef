"""The record frame every game shares (``shared/spec/records.md``): safe reading, the format
line, the ``game`` key, and verifying a file by handing it to its game.

A game reads its own deals and results; this module makes sure only a bounded, regular, UTF-8
TOML file reaches it, and turns every refusal into one :class:`Verdict` line.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from hoola.core.errors import HoolaError, RecordError
from hoola.core.registry import DEFAULT_GAME, get_game

__all__ = [
    "FORMAT",
    "MAX_DIGITS",
    "MAX_FILE_BYTES",
    "OTHER_FORMATS",
    "TOP_KEYS",
    "Verdict",
    "check_header",
    "format_number",
    "game_name_of",
    "parse_toml",
    "printable",
    "read_text",
    "record_files",
    "shown",
    "toml_value",
    "verify_path",
    "verify_text",
]

FORMAT = "hoola-record/1"
MAX_FILE_BYTES = 4 * 1024 * 1024
"""The largest record file read: 4 MiB (a 1,000-deal match takes about 1.5 MiB)."""
MAX_DIGITS = 100
"""The most digits of a number's numerator and of its denominator (a decimal exponent counts)."""


TOP_KEYS = ("format", "game", "rules", "players", "options", "deal", "match")
"""The top-level keys of a record (records.md); a game reads the deals and the match."""


def check_header(data: Any, *, game: str, title: str, rules_type: Any, default_preset: str,
                 name_re: re.Pattern[str], most_players: int,
                 most_deals: int) -> tuple[Any, list[str], list[dict[str, Any]]]:
    """The rules, players and deal tables of a record of ``game`` whose top level is well
    formed; a RecordError naming the first thing that is not.

    ``title`` names the game in messages ("Kalookie", "capture-game"); ``rules_type`` is the
    game's Rules class (``from_options(preset, options)`` and ``check_players(n)``).
    """
    if not isinstance(data, Mapping):
        raise RecordError("a record is a TOML table", "bad-record")
    unknown = sorted(str(k) for k in set(data) - set(TOP_KEYS))
    if unknown:
        raise RecordError(f"unknown top-level key {shown(unknown[0])}", "bad-record")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}", "bad-format")
    if data.get("game") != game:
        raise RecordError(f"game must be {game!r} for a {title} record", "bad-game")
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= most_players or not all(
            isinstance(p, str) and name_re.fullmatch(p) for p in players):
        raise RecordError(f"players must be a list of 2 to {most_players} names of letters, "
                          "digits, _ and - (at most 64 characters)", "bad-record")
    if len(set(players)) != len(players):
        raise RecordError("players must have distinct names", "bad-record")
    preset = data.get("rules", default_preset)
    options = data.get("options", {})
    if not isinstance(preset, str):
        raise RecordError(f"rules must be the name of a {title} preset", "bad-record")
    if not isinstance(options, dict):
        raise RecordError("[options] must be a table", "bad-record")
    try:
        rules = rules_type.from_options(preset, options)
        rules.check_players(len(players))
    except HoolaError as exc:
        raise RecordError(exc.message, exc.code) from exc
    deals = data.get("deal", [])
    if not isinstance(deals, list) or not all(isinstance(d, dict) for d in deals):
        raise RecordError("deals are written as [[deal]] tables", "bad-record")
    if len(deals) > most_deals:
        raise RecordError(f"a record holds at most {most_deals:,} deals", "bad-record")
    return rules, players, deals


def shown(value: Any) -> str:
    """``repr(value)`` cut to 40 characters, for messages that quote what a file holds."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def printable(text: str) -> str:
    """``text`` with control characters (and undecodable file-name bytes) written as escapes.

    A name or action printed as it stands could move the cursor or forge a line of output.
    """
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def format_number(value: Fraction | int) -> str:
    """A number as TOML: an integer, an exact decimal, or a quoted fraction ``"1/3"``."""
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    d = f.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        text = f"{float(f)!r}"
        if Fraction(text) == f:
            return text
    return f'"{f.numerator}/{f.denominator}"'


def toml_value(value: Any) -> str:
    """A value as a record's TOML spells it: options, results, tables by player count.

    >>> toml_value(True), toml_value(Fraction(1, 4)), toml_value("battle"), toml_value("a\\nb")
    ('true', '0.25', '"battle"', '"a\\\\nb"')
    >>> toml_value(((2, 5), (3, 10))), toml_value(Fraction(1, 3)), toml_value([1, 2])
    ('{2 = 5, 3 = 10}', '"1/3"', '[1, 2]')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        # JSON's escapes are TOML's: a control character never breaks a line.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    number = Fraction(value)
    if number.denominator == 1:
        return str(number.numerator)
    decimal = str(float(number))
    return decimal if Fraction(decimal) == number else f'"{number}"'


def check_unit_stake(deal: Mapping[str, Any], where: str, title: str) -> None:
    """A deal's optional ``stake`` (records.md: its stake multiplier) in a game whose deals all
    play for the stakes its rules set: only 1 is true of them."""
    stake = deal.get("stake", 1)
    if isinstance(stake, str):
        stake = stake.strip()
    if isinstance(stake, bool) or stake not in (1, "1"):
        raise RecordError(f"{where}: stake must be 1, not {shown(deal.get('stake'))}: a {title} "
                          "deal has no stake multiplier of its own", "bad-stake")


def stopped_problem(expected: Any, stopped: bool, winner: str | None,
                    ends: bool) -> str | None:
    """What a record's ``[match] stopped`` gets wrong, if anything: the game was won by
    ``winner`` (a label), or stopped before its end, or has no end of its own (``ends``)."""
    if "stopped" not in expected or expected["stopped"] == stopped:
        return None
    if winner is not None:
        return f"the game was won by {winner}, record says stopped"
    if not ends:
        return ("the game has no end of its own to stop before, record says stopped = "
                f"{toml_value(expected['stopped'])}")
    return "the game stopped before its end, record says stopped = false"


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML of a record; a :class:`RecordError` for what tomllib cannot or should not read."""
    if len(text) > MAX_FILE_BYTES:
        raise RecordError(f"the record has {len(text):,} characters; a record has at most "
                          f"{MAX_FILE_BYTES:,}", "file-too-large")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(f"the record is not valid TOML: {exc}", "bad-toml") from exc
    except ValueError as exc:
        # tomllib lets int() refuse a literal of more than 4,300 digits.
        raise RecordError(f"the record holds a number of thousands of digits; a record's "
                          f"numbers have at most {MAX_DIGITS}", "number-too-long") from exc
    except RecursionError as exc:
        raise RecordError("the record nests arrays or tables too deeply to read",
                          "too-deep") from exc


def read_text(path: str | Path) -> str:
    """The text of a record file, read safely; raises :class:`RecordError` saying why not.

    Only a regular file is opened (a FIFO would block, ``/dev/zero`` never ends), at most
    MAX_FILE_BYTES are read, and the bytes must be UTF-8.
    """
    try:
        _check_regular(os.stat(path).st_mode)
        # O_NONBLOCK: if a FIFO replaced the file since the stat, open must not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as file:
            _check_regular(os.fstat(fd).st_mode)
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read the file: {exc.strerror or exc}", "unreadable") from exc
    if len(data) > MAX_FILE_BYTES:
        raise RecordError(f"the file is larger than {MAX_FILE_BYTES:,} bytes (4 MiB), the most a "
                          "record may have", "file-too-large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RecordError(f"the file is not UTF-8 text: byte {data[exc.start]:#04x} on line "
                          f"{line} cannot be read (save the record as UTF-8)",
                          "not-utf8") from exc
    return text.removeprefix("\ufeff")


def _check_regular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
        "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file"
    raise RecordError(f"the file is {kind}, not a record file", "not-a-file")


def game_name_of(data: dict[str, Any]) -> str:
    """The record's ``game`` (default ``hoola``), after checking its format line."""
    if "format" not in data:
        raise RecordError(f"the record has no format line (format = \"{FORMAT}\")", "bad-format")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {shown(data['format'])}", "bad-format")
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str):
        raise RecordError(f"game must be a name such as \"hoola\", not {shown(game)}", "bad-game")
    return game


@dataclass
class Verdict:
    """The outcome of verifying one record: ``ok`` and, when not, what differs."""

    name: str
    ok: bool
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        """``ok NAME`` or ``FAIL NAME: what differs`` (the name's control characters escaped)."""
        if self.ok:
            return f"ok {printable(self.name)}"
        return f"FAIL {printable(self.name)}: {'; '.join(self.problems)}"


def record_files(paths: Sequence[str | Path]) -> list[Path]:
    """The ``.toml`` files named or found (recursively, sorted) in the folders named.

    A named path that is not a folder is listed as it is, even if missing: its verdict says why.
    """
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        else:
            files.append(path)
    return files


OTHER_FORMATS = {"hoola-tournament/1": "hoola.tournament.record"}
"""Record formats other than a game's, by format line: the module whose ``verify_record(data,
text)`` checks them (imported when such a record is verified)."""


def verify_text(text: str, name: str = "record") -> Verdict:
    """Verify a record's text with the engine of the game it names (or, for another record
    format such as a tournament's, with that format's checker)."""
    try:
        data = parse_toml(text)
        other = data.get("format")
        if isinstance(other, str) and other in OTHER_FORMATS:
            import importlib

            checker = importlib.import_module(OTHER_FORMATS[other])
            problems = list(checker.verify_record(data, text))
            return Verdict(name, not problems, problems)
        game = get_game(game_name_of(data))
        problems = list(game.verify_record(data, text))
    except HoolaError as exc:
        return Verdict(name, False, [exc.message])
    return Verdict(name, not problems, problems)


def verify_path(path: Path) -> Verdict:
    """Read and verify one record file; a file that cannot be read or is malformed fails."""
    name = path.name or str(path)
    try:
        text = read_text(path)
    except HoolaError as exc:
        return Verdict(name, False, [exc.message])
    return verify_text(text, name)
