"""The line-by-line terminal game: one person against bots, every game saved as a record."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TextIO

from hoola.actions import Action, Draw, parse_action
from hoola.bots import make_bot
from hoola.cards import JOKER, format_card, format_cards
from hoola.errors import HoolaError
from hoola.match import Match
from hoola.play import Player, play_deal
from hoola.records import dumps, record_of
from hoola.rules import Rules
from hoola.scoring import hand_points
from hoola.state import DealState
from hoola.text import describe_settlement, describe_table, stakes
from hoola.views import View

__all__ = ["Quit", "TerminalPlayer", "default_save_path", "run_terminal_game"]

HELP = """Type the number of a move, or the move itself (for example: draw, meld 3c 4c 5c,
add 6c on 5c, discard Kd, take 9d with 9s 9h, knock). Other keys:
  s  sort your hand by suit / by rank      t  show the table again
  h  this help                             q  quit (the game so far is saved)"""


class Quit(Exception):
    """The person asked to leave the game."""


class TerminalPlayer:
    """A person at a terminal: shows the view, lists the legal moves, reads a choice."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None) -> None:
        self.read = read or input
        self.out = out or sys.stdout
        self.by_rank = False

    def say(self, text: str = "") -> None:
        """Print one line to the player."""
        print(text, file=self.out, flush=True)

    def sorted_hand(self, hand: Sequence[int]) -> list[int]:
        """The hand by suit (canonical order) or by rank, jokers last."""
        if self.by_rank:
            return sorted(hand, key=lambda c: (c == JOKER, c % 13 if c != JOKER else 99, c))
        return sorted(hand)

    def show(self, view: View) -> None:
        """The table, the discard, the stock, the opponents, the hand."""
        names = view.names
        self.say("")
        self.say("Table:")
        for line in describe_table(view.table, names):
            self.say(line)
        top = format_card(view.discards[-1]) if view.discards else "-"
        self.say(f"Discard pile: {top}    Stock: {view.stock_size} cards    Stake: {view.stake}")
        others = []
        for q, name in enumerate(names):
            if q == view.player:
                continue
            if not view.in_deal[q]:
                others.append(f"{name}: out of this deal")
                continue
            state = "melded" if view.melded[q] else "no meld yet"
            others.append(f"{name}: {view.hand_sizes[q]} cards, {state}")
        self.say("Opponents: " + " | ".join(others))
        points = hand_points(sum(1 << c for c in view.hand if c != JOKER),
                             sum(1 for c in view.hand if c == JOKER), view.rules, True)
        self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}   ({points} points)")

    def act(self, view: View) -> Action | None:
        """Ask the person for a move until a legal one (or a pass, or quit) is given."""
        if not view.legal:
            return None
        claim = view.can_pass
        if claim:
            by = view.names[view.discarder] if view.discarder is not None else "someone"
            card = format_card(view.claimable) if view.claimable is not None else "the discard"
            self.say("")
            self.say(f"{by} discarded {card}. You may claim it (Thank you!) or let it go.")
            self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}")
        else:
            self.show(view)
        moves = list(view.legal)
        for i, a in enumerate(moves, 1):
            self.say(f"  {i:2}. {self.describe(a, view)}")
        if claim:
            self.say("   Enter. let it go")
        while True:
            try:
                line = self.read("Your move: " if not claim else "Claim? ").strip()
            except EOFError as exc:
                raise Quit from exc
            if not line:
                if claim:
                    return None
                continue
            key = line.lower()
            if key in ("q", "quit", "exit"):
                raise Quit
            if key in ("h", "help", "?"):
                self.say(HELP)
                continue
            if key == "s":
                self.by_rank = not self.by_rank
                self.say(f"Your hand: {format_cards(self.sorted_hand(view.hand))}")
                continue
            if key == "t":
                self.show(view)
                continue
            if line.isdigit():
                k = int(line)
                if 1 <= k <= len(moves):
                    return moves[k - 1]
                self.say(f"There is no move {k}: choose 1 to {len(moves)}.")
                continue
            try:
                action = parse_action(f"{view.names[view.player]} {line}", view.names)
            except HoolaError as exc:
                self.say(f"Cannot read that: {exc.message}")
                continue
            match = _find_equivalent(action, moves)
            if match is None:
                self.say("That move is not allowed now; choose one of the numbered moves.")
                continue
            return match

    def describe(self, action: Action, view: View) -> str:
        """A move as the person would type it (without their own name)."""
        from hoola.actions import format_action
        return format_action(action, view.names).split(" ", 1)[1]


def _find_equivalent(action: Action, moves: Sequence[Action]) -> Action | None:
    """The listed move meaning the same as a typed one (card order and meld naming aside)."""
    from hoola.actions import Add, NewMeld, Take
    for m in moves:
        if m == action:
            return m
        if type(m) is not type(action):
            continue
        if isinstance(m, NewMeld) and isinstance(action, NewMeld) \
                and sorted(m.cards) == sorted(action.cards) \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m
        if isinstance(m, Take) and isinstance(action, Take) and m.card == action.card \
                and m.purpose == action.purpose \
                and sorted(m.with_cards) == sorted(action.with_cards) \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m
        if isinstance(m, Add) and isinstance(action, Add) and m.card == action.card \
                and (action.joker_as is None or action.joker_as == m.joker_as):
            return m if action.on is None or action.on == m.on else action
    return None


def default_save_path() -> Path:
    """Where games are saved unless told otherwise: ``~/.hoola/games/<time>.toml``."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path.home() / ".hoola" / "games" / f"hoola-{stamp}.toml"


def run_terminal_game(rules: Rules, *, players: int = 4, bots: Sequence[str] = ("greedy",),
                      seed: int | None = None, deals: int = 1, name: str = "You",
                      save: Path | None = None, read: Callable[[str], str] | None = None,
                      out: TextIO | None = None) -> Path:
    """Play ``deals`` deals against bots in the terminal; return the path of the saved record."""
    person = TerminalPlayer(read, out)
    seed = seed if seed is not None else random.randrange(2**31)
    bot_kinds = [bots[i % len(bots)] for i in range(players - 1)]
    names = [name] + [f"{kind.capitalize()}{i + 1}" for i, kind in enumerate(bot_kinds)]
    seats: list[Player] = [person] + [make_bot(kind, seed + i) for i, kind in
                                      enumerate(bot_kinds, 1)]
    match = Match(rules, names, seed=seed)
    path = save or default_save_path()
    person.say(f"Hoola, {rules.preset_name} rules, {players} players: {', '.join(names)}. "
               f"Seed {seed}. Type h for help.")

    def announce(state: DealState, record: Action) -> None:
        if record.player == 0:
            if isinstance(record, Draw) and record.card is not None:
                person.say(f"You drew {format_card(record.card)}.")
            return
        shown = state.format(Draw(record.player) if isinstance(record, Draw) else record)
        person.say(f"  {shown}")

    try:
        for number in range(1, deals + 1):
            state = match.new_deal()
            person.say("")
            person.say(f"=== Deal {number} of {deals}: {names[state.dealer]} deals"
                       f"{', stake ' + str(state.stake) if state.stake != 1 else ''} ===")
            play_deal(state, seats, on_action=announce)
            match.finish_deal()
            assert state.result is not None
            person.say("")
            for line in describe_settlement(state.result, names,
                                            [state.hand(q) for q in range(state.n)]):
                person.say(line)
            if deals > 1:
                person.say("Match totals: " + ", ".join(f"{names[q]} {stakes(v)}"
                                                        for q, v in match.totals.items()))
    except Quit:
        person.say("You left the game.")
    finally:
        finished = [s for s in match.deals if s.is_over]
        totals = match.totals if len(finished) > 1 else None
        if match.deals:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dumps(record_of(match.deals, rules=rules, totals=totals)),
                            encoding="utf-8")
            person.say(f"Game saved to {path} (check it with: hoola verify {path})")
    return path
