"""The saved games of ``hoola play`` (both the plain and the full-screen game, every game).

A game is saved after every move as a record (``hoola verify`` accepts it) whose first line names
the game as it was set up (:class:`GamePlan`), so that ``hoola play --resume`` rebuilds it. Every
save replaces the file at once (:func:`write_atomically`): a kill, a power cut or a failed write
leaves the previous save whole, never half a record.

>>> plan = GamePlan("You", ("greedy", "random"), 3)
>>> GamePlan.from_text(f"# {plan.comment()}", ["You", "Greedy1", "Random2"],
...                    kinds=("random", "greedy")) == plan
True
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from hoola.core.errors import RecordError
from hoola.core.game import Game, GameState, Player
from hoola.core.game import Match as AnyMatch
from hoola.core.records import game_name_of, parse_toml, read_text
from hoola.core.registry import get_game

__all__ = ["META", "GamePlan", "SavedGame", "default_save_path", "forget_if_empty",
           "game_of_save", "plan_fields", "seat_kinds", "seat_player", "seats_of",
           "write_atomically"]

META = "# hoola play:"


def write_atomically(path: Path, text: str) -> None:
    """Replace the file at ``path`` by ``text`` in one step.

    The text goes to a temporary file in the same folder, is flushed to the disk, and is renamed
    over ``path``; the folder is then flushed too, so that the rename survives a power cut. If
    anything fails, the previous file is untouched and the error (an ``OSError``) is raised.
    """
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    # Hidden and not *.toml: a leftover (after a kill mid-write) is never taken for a record.
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private (0600); keep the mode a save had, else the usual one.
        with contextlib.suppress(FileNotFoundError):
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        if not path.exists():
            os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _flush_folder(folder)


def _flush_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; elsewhere there is nothing to open)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot flush a folder; the rename is still atomic
    finally:
        os.close(fd)


def default_save_path(folder: Path | None = None, game: str = "hoola") -> Path:
    """A new file for a game: ``~/.hoola/games/<game>-<date>-<time>-<random>.toml``.

    The file is created empty (exclusively, so two games started at the same moment never share
    one); the game's first save fills it.
    """
    folder = folder if folder is not None else Path.home() / ".hoola" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    while True:
        path = folder / f"{game}-{stamp}-{secrets.token_hex(2)}.toml"
        try:
            with path.open("x", encoding="utf-8"):
                return path
        except FileExistsError:
            continue


def forget_if_empty(path: Path) -> None:
    """Remove a file :func:`default_save_path` made if no save ever filled it."""
    with contextlib.suppress(OSError):
        if path.stat().st_size == 0:
            path.unlink()


def plan_fields(comment: str) -> dict[str, str] | None:
    """The ``key=value`` words of a record's ``# hoola play:`` line (None when it has none); a
    RecordError when a word is not key=value or you=, bots= or deals= is missing."""
    line = next((x for x in comment.splitlines() if x.startswith(META)), None)
    if line is None:
        return None
    fields: dict[str, str] = {}
    for word in line[len(META):].split():
        key, sep, value = word.partition("=")
        if not sep:
            raise RecordError(f"the '{META}' line has {word!r}, not key=value", "bad-plan")
        fields[key] = value
    missing = [k for k in ("you", "bots", "deals") if k not in fields]
    if missing:
        raise RecordError(f"the '{META}' line does not say {missing[0]}=", "bad-plan")
    return fields


def seats_of(fields: dict[str, str], players: Sequence[str],
             kinds: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The person and the bots (one a seat, of ``kinds``) a plan line names, checked."""
    you = fields["you"]
    if you not in players:
        raise RecordError(f"the '{META}' line says you={you}, who is not a player", "bad-plan")
    bots = tuple(fields["bots"].split(","))
    unknown = [b for b in bots if b not in kinds]
    if unknown:
        raise RecordError(f"the '{META}' line names an unknown bot {unknown[0]!r} (bots are "
                          f"{', '.join(kinds)})", "bad-plan")
    if len(bots) != len(players) - 1:
        count = f"{len(bots)} bot{'s' if len(bots) != 1 else ''}"
        raise RecordError(f"the '{META}' line names {count} for {len(players) - 1} seats",
                          "bad-plan")
    return you, bots


# -- the seats ----------------------------------------------------------------------------------

def seat_kinds(game: Game) -> tuple[str, ...]:
    """The bots a seat at ``game`` may name: those of every game (random, expert, ismcts, the
    levels), then the game's own (Hoola's greedy).

    >>> seat_kinds(get_game("hoola"))[-1], "greedy" in seat_kinds(get_game("kalookie"))
    ('greedy', False)
    """
    from hoola.bots import SEAT_KINDS, kinds_of

    return (*SEAT_KINDS, *(k for k in kinds_of(game) if k not in SEAT_KINDS))


def seat_player(game: Game, kind: str, seed: int | None) -> tuple[Player, str | None]:
    """The bot ``kind`` (one of :func:`seat_kinds`) for a seat at ``game``, and a sentence when
    another plays in its place (a game with no expert yet is played by random)."""
    from hoola.bots import SEAT_KINDS, make_bot, seat_bot

    if kind in SEAT_KINDS:
        return seat_bot(game, kind, seed)
    return make_bot(kind, seed, game=game), None


# -- the plan and the save -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GamePlan:
    """The plan of a game: the person, the bots by seat, and how many deals (None: until the
    game's own end, such as Kalookie's pool being won)."""

    you: str
    bots: tuple[str, ...]
    deals: int | None

    def comment(self) -> str:
        """The plan as the record's first comment line (without the ``#``)."""
        deals = "end" if self.deals is None else str(self.deals)
        return f"{META[2:]} you={self.you} bots={','.join(self.bots)} deals={deals}"

    @classmethod
    def from_text(cls, text: str, players: Sequence[str], *, kinds: Sequence[str] | None = None,
                  bot: str = "random", deals: int | None = None) -> GamePlan:
        """The plan a record's ``# hoola play:`` line names, its bots of ``kinds`` (those of every
        game by default); without one, its first player against ``bot`` for ``deals`` deals. A
        wrong line raises a RecordError saying what is wrong."""
        from hoola.bots import SEAT_KINDS

        fields = plan_fields("\n".join(x for x in text.splitlines() if x.startswith("#")))
        if fields is None:
            return cls(players[0], (bot,) * (len(players) - 1), deals)
        you, bots = seats_of(fields, players, SEAT_KINDS if kinds is None else kinds)
        count = fields["deals"]
        if count == "end":
            return cls(you, bots, None)
        if not count.isdigit() or not 1 <= int(count) <= 1000:
            raise RecordError(f"the '{META}' line says deals={count}, not a number of deals "
                              "(1 to 1000) or end", "bad-plan")
        return cls(you, bots, int(count))


def _check_deals(plan: GamePlan, deals: object) -> None:
    """A RecordError when a record holds more deals than its plan."""
    if plan.deals is not None and isinstance(deals, Sequence) and len(deals) > plan.deals:
        raise RecordError(f"the record holds {len(deals)} deals, more than the {plan.deals} of "
                          "its game", "bad-plan")


def game_of_save(path: Path) -> str:
    """The name of the game a saved record holds (a RecordError when it cannot be read)."""
    return game_name_of(parse_toml(read_text(path)))


class SavedGame:
    """A game of any registered kind between one person and bots, saved to ``path`` after every
    move through the game's own records (:meth:`~hoola.core.game.Game.record_text`).

    Start with :meth:`new` or :meth:`resume`; play each deal from :meth:`next_deal`, calling
    :meth:`moved` after every action. A save of Hoola's match written before every game shared
    this one reads the same (its ``# hoola play:`` line, its deals and totals).
    """

    def __init__(self, game: Game, match: AnyMatch, plan: GamePlan, path: Path, *, seed: int,
                 preset: str) -> None:
        self.game = game
        self.match = match
        self.plan = plan
        self.path = path
        self.seed = seed
        self.preset = preset
        self.names = tuple(match.names)
        self.person = self.names.index(plan.you)
        kinds = iter(plan.bots)
        self.kinds = ["you" if q == self.person else next(kinds) for q in range(len(self.names))]
        self.save_problem: str | None = None
        # Deals already folded into the score (a resumed game counts its finished deals).
        self.counted = {id(s) for s in match.deals if s.is_over}

    @classmethod
    def new(cls, game: Game, *, preset: str | None = None,
            options: dict[str, Any] | None = None, players: int = 4,
            bots: Sequence[str] = ("random",), seed: int | None = None,
            deals: int | None = None, name: str = "You", path: Path) -> SavedGame:
        """A new game, its first deal dealt and saved: the person in the first seat, bots named
        after their kind. Raises a HoolaError for rules or names the game refuses, and
        ``OSError`` if the game cannot be saved at ``path``."""
        seed = seed if seed is not None else random.randrange(2**31)
        preset = preset or game.default_preset
        rules = game.rules(preset, options or {})
        kinds = tuple(bots[i % len(bots)] for i in range(players - 1))
        names = [name] + [f"{kind.capitalize()}{i}" for i, kind in enumerate(kinds, 1)]
        saved = cls(game, game.new_match(rules, names, seed=seed), GamePlan(name, kinds, deals),
                    path, seed=seed, preset=preset)
        saved.match.new_deal()
        saved.save()  # a game that cannot be saved does not start
        return saved

    @classmethod
    def resume(cls, path: Path, *, seed: int | None = None) -> SavedGame:
        """The game saved at ``path`` (of the game its record names), its unfinished deal
        continued where it stopped. Raises a RecordError if it cannot be resumed."""
        from hoola.terminal.touches import touch_of

        text = read_text(path)
        data = parse_toml(text)
        game = get_game(game_name_of(data))
        seed = seed if seed is not None else random.randrange(2**31)
        touch = touch_of(game.name)
        kinds = seat_kinds(game)

        def plan_of(names: Sequence[str]) -> GamePlan:
            return GamePlan.from_text(text, names, kinds=kinds, bot=touch.bot or "random",
                                      deals=touch.deals)

        # The plan is read before the deals replay: a wrong line is the first thing said.
        players = data.get("players")
        plan = None
        if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
            plan = plan_of(players)
            _check_deals(plan, data.get("deal"))
        match = game.resume(text, seed=seed)
        plan = plan or plan_of(match.names)
        _check_deals(plan, match.deals)
        preset = data.get("rules", game.default_preset)
        return cls(game, match, plan, path, seed=seed,
                   preset=preset if isinstance(preset, str) else game.default_preset)

    @property
    def deal_number(self) -> int:
        """The number of the deal being played (or last played), from 1."""
        return max(len(self.match.deals), 1)

    @property
    def finished_deals(self) -> int:
        """How many deals are over."""
        return sum(1 for s in self.match.deals if s.is_over)

    @property
    def is_over(self) -> bool:
        """Whether the game has reached its own end, or the number of deals planned."""
        planned = self.plan.deals is not None and self.finished_deals >= self.plan.deals
        return planned or self.match.is_over

    def next_deal(self) -> GameState:
        """The unfinished deal, or a new one dealt (and saved)."""
        deals = self.match.deals
        if deals and not deals[-1].is_over:
            return deals[-1]
        state = self.match.new_deal()
        self.moved(state)
        return state

    def moved(self, state: GameState) -> str | None:
        """After an action on ``state``: fold a finished deal into the score, and save. Returns
        a sentence for the person when saving starts failing (the last save is kept) or works
        again."""
        if state.is_over and id(state) not in self.counted:
            self.counted.add(id(state))
            self.match.finish_deal()
        was = self.save_problem
        try:
            self.save()
        except OSError as exc:
            self.save_problem = f"The game cannot be saved to {self.path} " \
                                f"({exc.strerror or exc}); the last save is kept, and saving " \
                                "is tried again after every move."
            return self.save_problem if was is None else None
        self.save_problem = None
        return f"The game is saved again to {self.path}." if was is not None else None

    def save(self) -> None:
        """Write the record of the game so far (``hoola verify`` accepts it), all at once."""
        if self.match.deals:
            write_atomically(self.path, self.game.record_text(self.match, self.plan.comment()))
