"""The full-screen game for every registered game, drawn from ``view.table()``: the seats with the
score, the middle of the table, your hand (pick cards with keys or clicks), your legal moves as a
list that narrows to the moves using the picked cards (or of a verb, by the verb's key), the
countdown of a moment you may let pass, hints, the log, and the settlement between hands.

A game's touches (:mod:`hoola.terminal.touches`) may give keys to its verbs, group the hand, add a
word beside the hand and the seats; nothing else here knows any game. The deal runs in a worker
thread (:mod:`hoola.terminal.table_session`).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import OptionList, RichLog, Static
from textual.widgets.option_list import Option

from hoola.core.driver import REACTION, Race
from hoola.core.game import game_heading, own_game
from hoola.core.table import Score, Table
from hoola.terminal.plain import move_label
from hoola.terminal.saves import SavedGame
from hoola.terminal.table_hints import Advice, TableAdviser, hint_parts
from hoola.terminal.table_moves import (
    PILE_VERBS,
    cards_of,
    fitting,
    marked,
    mover,
    uses,
    verb_of,
    why_none,
)
from hoola.terminal.table_screens import (
    ChoiceScreen,
    HandOverScreen,
    Leaving,
    LogScreen,
    TableHelpScreen,
    help_text,
)
from hoola.terminal.table_session import PersonSeat, Question, TableSession
from hoola.terminal.table_widgets import (
    CARD_KEYS,
    HandView,
    SeatsView,
    card_keys,
    middle_line,
    pick_keys,
    words,
)
from hoola.terminal.tabletext import hand_of, score_label, sorted_cards
from hoola.terminal.touches import touch_of

__all__ = ["TableApp", "run_table_app", "uses"]

WIDE = 120  # columns from which the log sits beside the table
FACES = (100, 32)  # columns and lines from which the hand is drawn as card faces
NEWS_SECONDS = 4.0  # how long news (who won a race) outlasts the next question
FLASH_SECONDS = 2.5  # how long what a seat exclaims ("Thank you!") stays in the middle

CSS = """
Screen { layout: horizontal; }
#main { width: 1fr; height: 100%; }
#side { display: none; width: 44; height: 100%; border-left: solid $primary-darken-2; }
Screen.wide #side { display: block; }
Screen.wide #log { display: none; }
#header { height: 1; background: $boost; }
SeatsView { height: auto; max-height: 12; overflow-y: auto; }
#middle { height: auto; max-height: 6; padding: 0 1; }
HandView { height: 3; }
Screen.faces HandView { height: 5; }
#bottom { height: 1fr; min-height: 3; }
#moves { width: 1fr; height: 100%; border: none; border-top: solid $primary-darken-2;
    padding: 0; }
#moves:focus { border: none; border-top: solid $primary; }
#log { width: 1fr; height: 100%; border-left: solid $primary-darken-2;
    border-top: solid $primary-darken-2; }
#keys { dock: bottom; height: 1; background: $boost; }
#hand-over, #leave { width: 90; max-width: 100%; height: auto; max-height: 100%;
    background: $panel; border: thick $success; padding: 0 1; }
#hand-over VerticalScroll { height: auto; max-height: 20; }
#choice { width: 70; max-width: 95%; height: auto; max-height: 90%; background: $panel;
    border: thick $primary; padding: 0 1; }
#choice OptionList { height: auto; max-height: 14; }
#help { width: 90; max-width: 100%; height: auto; max-height: 100%; background: $panel;
    border: thick $primary; padding: 0 1; }
#log-screen { width: 100; max-width: 100%; height: 90%; background: $panel;
    border: thick $primary; padding: 0 1; }
HandOverScreen, LeaveScreen, TableHelpScreen, LogScreen, ChoiceScreen { align: center middle; }
"""

PASS = "pass"  # the option id of "let it pass"
SORT_WORDS = {"groups": "in groups", "suit": "by suit", "rank": "by rank"}


class FromWorker(Message):
    """Something the deal's worker asks the screen to do."""

    def __init__(self, call: Callable[[], None]) -> None:
        super().__init__()
        self.call = call


class TableApp(Leaving, App[str]):
    """Any game against bots, full screen. ``claim_seconds`` is how long a moment the person may
    let pass waits (0: until they answer), by ``clock``; the result is the saved record's path."""

    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(key, f"press('{key}')", show=False) for key in CARD_KEYS],
        Binding("escape", "clear_or_pass", show=False), Binding("s", "sort", show=False),
        Binding("l", "log", show=False), Binding("question_mark,f1", "help", show=False),
        Binding("h", "hint", show=False), Binding("q", "quit", show=False),
        Binding("ctrl+c", "leave_now", show=False, priority=True),
    ]

    def __init__(self, session: TableSession, *, claim_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.session = session
        self.saved: SavedGame = session.saved
        self.touch = touch_of(self.saved.game.name)
        self.title = self.saved.game.title
        self.claim_seconds = claim_seconds
        self.clock = clock
        self.person = PersonSeat(self._ask_from_worker, self._withdraw_from_worker,
                                 pose=self._pose)
        self.keys = card_keys(self.touch.verbs)  # the keys that pick cards
        self.view: Any = None
        self.table: Table | None = None
        self.board: Table | None = None
        self.question: Question | None = None
        self.picked: set[int] = set()
        self.verb: str | None = None  # the verb the list is narrowed to (by its key)
        self.sorts = ("groups", "suit", "rank") if self.touch.groups else ("suit", "rank")
        self.sort = self.sorts[0]
        self.new: Counter[str] = Counter()
        self.hand_before: Counter[str] | None = None
        self.lines: list[Text] = []
        self.listed: list[Any] = []  # the actions in the list, in its order (None: a pass)
        self.message = Text("")
        self.keep_message_until = 0.0  # news outlasts the next question until then
        self.flash = Text("")
        self.flash_until = 0.0
        self.deadline: float | None = None
        self.last_tick = clock()
        self.ticks = 0  # how many times the countdown was looked at (tests wait on it)
        self.hands_played = 0  # hands whose end was shown (tests wait on it)
        self.adviser = TableAdviser(self.saved.game)
        self.advice: Advice | None = None  # the hint shown for the current question

    @property
    def hand_word(self) -> str:
        """What the game calls a hand (Hoola: a deal), capitalised."""
        return self.touch.hand.capitalize()

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Header, seats, the middle, the hand, moves and log, keys (the log beside, if wide)."""
        with Vertical(id="main"):
            yield Static(id="header")
            yield SeatsView()
            yield Static(id="middle")
            yield HandView()
            with Horizontal(id="bottom"):
                yield OptionList(id="moves")
                yield RichLog(id="log", wrap=True, min_width=20)
            yield Static(id="keys")
        with Vertical(id="side"):
            yield Static(Text(f" The {self.touch.hand}", style="bold"))
            yield RichLog(id="side-log", wrap=True, min_width=20)

    def on_mount(self) -> None:
        """Start (or continue) the game."""
        self.set_interval(0.1, self._tick)
        self._fit(self.size.width, self.size.height)
        saved = self.saved
        self._say_title()
        self._on_signals(True)
        self._fill_moves()
        if saved.is_over and saved.match.deals:
            # A finished game was resumed: show how it ended rather than deal again.
            last = saved.match.deals[-1].view(saved.person)
            self.board = saved.match.scoreboard()
            self._show(last)
            self._hand_over(last, self.board)
        else:
            self._play()

    def _say_title(self) -> None:
        saved = self.saved
        self._say(Text(f"{game_heading(saved.game, saved.preset)}. Press ? for help.",
                       style="bold"))
        for note in self.session.notes:
            self._say(Text(note, style="bold #ffaf5f"))

    def on_unmount(self) -> None:
        """Leaving by any way ends the deal's worker (the record is saved after every move)."""
        self._on_signals(False)
        self.session.stop()
        self.person.stop()

    def _on_signals(self, listen: bool) -> None:
        """A kill (SIGTERM) or a closed terminal (SIGHUP) leaves as q does."""
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                if listen:
                    loop.add_signal_handler(signum, self._leave)
                else:
                    loop.remove_signal_handler(signum)

    def on_resize(self, event: events.Resize) -> None:
        """The log beside the table when wide; card faces in the hand when there is room."""
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.screen.set_class(width >= WIDE, "wide")
        self.screen.set_class(width >= FACES[0] and height >= FACES[1], "faces")
        if self.view is not None:
            self._show(self.view)

    # -- the deal's worker --------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="deal")
    def _play(self) -> None:
        me = self.saved.person
        state = self.session.play(self.person, partial(self._later, self._started),
                                  partial(self._later, self._acted),
                                  partial(self._later, self._news),
                                  partial(self._later, self._race))
        if state is not None:
            self._later(self._hand_over, state.view(me), self.saved.match.scoreboard())

    def _later(self, call: Callable[..., None], *args: Any) -> None:
        # Posting never blocks the worker, even while the app is closing; messages keep order.
        self.post_message(FromWorker(partial(call, *args)))

    def on_from_worker(self, message: FromWorker) -> None:
        """Do on the screen's thread what the worker asked for."""
        message.call()

    def _pose(self, view: Any) -> Question:
        notation = self.session.notation
        assert notation is not None, "the session names the deal's notation first"
        return Question(view, notation)

    def _ask_from_worker(self, question: Question) -> None:
        self._later(self._ask, question)

    def _withdraw_from_worker(self, question: Question) -> None:
        self._later(self._withdraw, question)

    def _withdraw(self, question: Question) -> None:
        """The window was settled before the person answered (someone was quicker)."""
        if self.question is not question:
            return
        if isinstance(self.screen, ChoiceScreen):
            self.screen.dismiss(None)  # the ways to make the move are moot now
        self._close_question()

    def _close_question(self) -> None:
        self.question = None
        self.deadline = None
        self.picked = set()
        self.verb = None
        self.advice = None
        if self.view is not None:
            self._show(self.view)
        self._fill_moves()

    def _race(self, race: Race) -> None:
        self._news(self.touch.race(race, self.saved.names, self.saved.person))

    def _started(self, view: Any) -> None:
        for log in self.query(RichLog):
            log.clear()
        self.lines = []
        self._say_title()
        self.new = Counter()
        self.board = self.saved.match.scoreboard()
        self._say(Text(f"{self.hand_word} {self.saved.deal_number}{self._planned()}",
                       style="bold"))
        table = view.table()
        if table.log and self.saved.match.deals[-1].history:
            self._say(Text("(resumed: the last moves)", style="dim"))
            for line in table.log:
                self._say(self._log_line(line))
        self._show(view)

    def _planned(self) -> str:
        deals = self.saved.plan.deals
        return f" of {deals}" if deals is not None else ""

    def _log_line(self, line: str) -> Text:
        """A move as the log tells it, with what the table hears ("Thank you!")."""
        text = words(line)
        found = mover(line, self.saved.names)
        if found is not None and found[1] in self.touch.exclaim:
            text.append(f"  {self.touch.exclaim[found[1]]}", style="bold yellow")
        return text

    def _acted(self, view: Any, line: str | None, mine: bool) -> None:
        if line:
            self._say(self._log_line(line))
            found = mover(line, self.saved.names)
            if found is not None and not mine and found[1] in self.touch.exclaim:
                who = self.saved.names[found[0]]
                self.flash = Text(f" {who}: {self.touch.exclaim[found[1]]} ",
                                  style="bold #ffffff on #b5172f")
                self.flash_until = self.clock() + FLASH_SECONDS
        if mine and self.hand_before is not None:
            zone = hand_of(view.table(), view.player)
            self.new = Counter(zone.cards or ()) - self.hand_before if zone is not None \
                else Counter()
            self.hand_before = None
            if self.new:  # the card drawn, which the log of the table does not name
                said = Text("  new in your hand: ", style="dim")
                said.append_text(words(" ".join(sorted_cards(self.new.elements()))))
                self._say(said)
        self._show(view)
        if self.question is None:
            self._fill_moves()  # who is to play now

    def _news(self, text: str) -> None:
        """Something the person must hear: in the log, and in the middle for a while."""
        news = words(text)
        news.stylize_before("bold #ffaf5f")
        self._say(news)
        self.keep_message_until = self.clock() + NEWS_SECONDS
        self._tell(news)

    def _ask(self, question: Question) -> None:
        self.question = question
        view = question.view
        if self.clock() >= self.keep_message_until:
            self.message = Text("")
        self.verb = None
        self.advice = None
        if view.can_pass and self.claim_seconds > 0:
            self.deadline = self.clock() + self.claim_seconds
            self.bell()
        else:
            self.deadline = None
        self._show(view)
        self._fill_moves()
        self.query_one("#moves", OptionList).focus()

    def _answer(self, action: Any | None) -> None:
        question = self.question
        if question is None:
            return
        zone = hand_of(self.table, question.view.player) if self.table is not None else None
        self.hand_before = Counter(zone.cards or ()) if zone is not None else Counter()
        if action is None:
            self._say(Text("You let it pass", style="dim"))
        self.person.give(action, question)
        self._close_question()

    def _hand_over(self, view: Any, board: Table) -> None:
        self.board = board
        self.hands_played += 1
        self.question = None
        self.deadline = None
        self.verb = None
        self._show(view)
        self._fill_moves()
        saved = self.saved
        screen = HandOverScreen(view.table(), view.player, board,
                                f"{self.hand_word} {saved.deal_number}{self._planned()}",
                                str(saved.path), saved.is_over, self._hands(board),
                                self.touch.hand, self._won())

        def after(choice: str | None) -> None:
            if choice == "next" and not saved.is_over:
                self._play()
            else:
                self._leave()

        self.push_screen(screen, after)

    def _won(self) -> str:
        """Who won a game that ended with the deals planned (the best total: "You win"); ""
        while it goes on, or when it ended by its own end (its scoreboard says who won)."""
        saved = self.saved
        if not saved.is_over or saved.match.is_over:
            return ""
        totals = list(saved.match.totals())
        if not totals:
            return ""
        best = max(totals)
        top = ["you" if q == saved.person else name for q, name in enumerate(saved.names)
               if q < len(totals) and totals[q] == best]
        who = top[0] if len(top) == 1 else ", ".join(top[:-1]) + " and " + top[-1]
        verb = "win" if len(top) > 1 or top == ["you"] else "wins"
        return f"{who[:1].upper()}{who[1:]} {verb}"

    def _hands(self, board: Table) -> list[Score]:
        """Each finished hand's own result, for the running score: the last of its table's score
        lines that the scoreboard does not keep (Hoola's "This deal", a capture game's "Game
        points this hand")."""
        kept = {score_label(s.label) for s in board.scores}
        rows = []
        for number, state in enumerate(self.saved.match.deals, 1):
            if not state.is_over:
                continue
            own = [s for s in state.view(self.saved.person).table().scores
                   if score_label(s.label) not in kept]
            if own:
                rows.append(Score(f"{self.hand_word} {number}", own[-1].values))
        return rows

    # -- drawing ------------------------------------------------------------------------------

    def _order(self, cards: tuple[str, ...]) -> list[list[str]]:
        if self.sort == "groups" and self.touch.groups is not None:
            return self.touch.groups(cards)
        return [sorted_cards(cards, self.sort == "rank")]

    def _show(self, view: Any) -> None:
        table = view.table()
        mine = hand_of(table, view.player)
        old = hand_of(self.table, view.player) if self.table is not None else None
        if old is None or mine is None or old.cards != mine.cards:
            self.picked = set()
        self.view, self.table = view, table
        self._show_header()
        touch = self.touch
        notes = [touch.seat_note(view, q) for q in range(len(table.names))] \
            if touch.seat_note is not None else []
        board = self.board.scores if self.board is not None else ()
        self.query_one(SeatsView).show(table, view.player, notes, board)
        if mine is not None and mine.cards is not None:
            note = touch.note(view) if touch.note is not None else ""
            self.query_one(HandView).show(mine.label, self._order(mine.cards), self.picked,
                                          self.new, note, self.screen.has_class("faces"),
                                          self.keys, self._marks(mine.cards),
                                          SORT_WORDS.get(self.sort, self.sort))
        self._show_middle()
        self._show_keys()

    def _marks(self, cards: tuple[str, ...]) -> dict[str, str]:
        """The colour under each card a move of a marked verb would use (when asked)."""
        question = self.question
        if question is None or not self.touch.marks:
            return {}
        view = question.view
        me = view.names[view.player]
        labels = [move_label(question.notation, a, me) for a in view.legal]
        return marked(labels, cards, self.touch.marks)

    def _show_header(self) -> None:
        saved = self.saved
        title = own_game(saved.game, saved.preset) or saved.game.title
        text = Text.assemble((f" {title.upper()} ", "bold #ffffff on #28408c"),
                             f" {saved.preset} · {self.touch.hand} {saved.deal_number}"
                             f"{self._planned()}")
        if self.board is not None:
            for zone in self.board.zones:
                text.append(f" · {zone.label}")
        self.query_one("#header", Static).update(text)

    def _show_middle(self) -> None:
        table = self.table
        if table is None:
            return
        text = middle_line(table, PILE_VERBS)
        prompt = table.moment.prompt
        if self.question is not None:
            text.append("\n")
            asked = words(prompt or "Your move")
            asked.stylize_before("bold yellow")
            text.append_text(asked)
            if self.question.view.can_pass:
                keys = [f"{key} {verb}" for key, verb in self.touch.verbs.items()
                        if verb in self._verbs_now()]
                text.append(f"  ({' · '.join([*keys, 'Esc lets it pass'])})", style="dim")
            left = self._time_left()
            if left is not None:
                full = max(self.claim_seconds, 0.1)
                filled = max(0, min(10, round(10 * left / full)))
                text.append(f"\n{'■' * filled}{'□' * (10 - filled)} {left:3.1f}s to pass",
                            style="bold red" if left < 1.5 else "bold yellow")
        elif prompt:
            told = words(prompt)
            told.stylize_before("dim")
            text.append("\n")
            text.append_text(told)
        if self.flash and self.clock() < self.flash_until:
            text.append("\n")
            text.append_text(self.flash)
        if self.message:
            text.append("\n")
            text.append_text(self.message)
        self.query_one("#middle", Static).update(text)

    def _key(self, key: str, label: str, action: str) -> Text:
        """A key on the bar, clicked as it is pressed."""
        click = Style(meta={"@click": f"app.{action}"})
        return Text.assemble((f" {key}", Style(bold=True) + click), (f" {label} ", click))

    def _verbs_now(self) -> set[str]:
        """The verbs of the person's legal moves now (none while they wait)."""
        question = self.question
        if question is None:
            return set()
        me = question.view.names[question.view.player]
        return {verb_of(move_label(question.notation, a, me)) for a in question.view.legal}

    def _show_keys(self) -> None:
        keys = Text()
        if self.touch.verbs:
            now = self._verbs_now()
            for key, verb in self.touch.verbs.items():
                if verb in now:
                    keys.append_text(self._key(key, verb, f"press('{key}')"))
        picks = pick_keys(len(self.query_one(HandView).order), self.keys)
        if picks:
            keys.append_text(self._key(picks, "pick", "help"))
        keys.append_text(Text.assemble((" ↑↓ Enter", "bold"), " play "))
        keys.append_text(self._key("Esc", "clear/pass", "clear_or_pass"))
        keys.append_text(self._key("s", "sort", "sort"))
        if self.adviser.can_advise:
            keys.append_text(self._key("h", "hint", "hint"))
        for key, label, action in (("l", "log", "log"), ("?", "help", "help"),
                                   ("q", "leave", "quit")):
            keys.append_text(self._key(key, label, action))
        bar = self.query_one("#keys", Static)
        bar.update(keys)
        bar.styles.height = 1 if keys.cell_len <= max(self.size.width, 1) else 2

    def _picked_cards(self) -> Counter[str]:
        order = self.query_one(HandView).order
        return Counter(order[i] for i in self.picked if i < len(order))

    def _fill_moves(self) -> None:
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        question = self.question
        self.listed = []
        if question is None:
            who = ""
            if self.table is not None and self.table.moment.turn is not None \
                    and self.table.moment.phase != "over":
                who = f": {self.table.names[self.table.moment.turn]} to play"
            moves.add_option(Option(Text(f"Waiting{who}", style="dim"), disabled=True))
            moves.border_title = "Moves"
            return
        view, notation = question.view, question.notation
        me = view.names[view.player]
        picked = self._picked_cards()
        options = []
        for number, action in enumerate(view.legal, 1):
            label = move_label(notation, action, me)
            if (picked and not uses(label, picked)) or \
                    (self.verb is not None and verb_of(label) != self.verb):
                continue
            self.listed.append(action)
            options.append(Option(Text.assemble((f"{number:>2}. ", "dim"), words(label))))
        if view.can_pass:
            self.listed.append(None)
            options.append(Option(Text("    let it pass (Esc)", style="italic"), id=PASS))
        count = len(self.listed) - view.can_pass
        narrowed = bool(picked) or self.verb is not None
        what = f"{self.verb} moves" if self.verb is not None else "Moves"
        if narrowed and count == 0:
            options.insert(0, Option(Text(f"No {what.lower()} use all the picked cards: pick "
                                          "again, or Esc puts them back", style="bold #ff8787"),
                                     disabled=True))
            self.listed.insert(0, None)
        moves.add_options(options)
        moves.highlighted = next((i for i, o in enumerate(options) if not o.disabled), None)
        using = " using the picked cards" if picked else ""
        moves.border_title = f"{what.capitalize()}{using}: {count} of {len(view.legal)}" \
            if narrowed else f"Your moves ({len(view.legal)})"

    def _time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())

    def _tick(self) -> None:
        self.ticks += 1
        now = self.clock()
        elapsed, self.last_tick = now - self.last_tick, now
        if self.flash and now >= self.flash_until:
            self.flash = Text("")
            self._show_middle()
        if self.deadline is None or self.question is None:
            return
        if len(self.screen_stack) > 1:
            self.deadline += elapsed  # a list, the help or the log is open: the countdown waits
            return
        if now >= self.deadline:
            self._answer(None)
        else:
            self._show_middle()

    def _say(self, line: Text) -> None:
        self.lines.append(line)
        for log in self.query(RichLog):
            log.write(line)

    def _tell(self, message: Text | str) -> None:
        self.message = message if isinstance(message, Text) else Text(message, "bold #ff8787")
        self._show_middle()

    # -- the person's keys --------------------------------------------------------------------

    def action_press(self, key: str) -> None:
        """A letter or digit: the verb the touch gives it, else the card it picks."""
        verb = self.touch.verb_of(key)
        if verb is not None:
            self.action_verb(verb)
        elif key in self.keys:
            self.action_pick(self.keys.index(key))

    def action_pick(self, place: int) -> None:
        """Pick (or put back) the card at ``place`` in the hand as shown."""
        if not self._on_table() or place >= len(self.query_one(HandView).order):
            return
        self.picked ^= {place}
        self.message = Text("")
        if self.view is not None:
            self._show(self.view)
        self._fill_moves()

    def on_hand_view_picked(self, event: HandView.Picked) -> None:
        """A click on a card picks it."""
        self.action_pick(event.index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a move plays it."""
        if self.question is None or event.option_index >= len(self.listed):
            return
        self._answer(self.listed[event.option_index])

    def action_verb(self, verb: str) -> None:
        """Play the move of ``verb`` that uses the picked cards; list them when several fit (and
        open the chooser); say why when none does."""
        if not self._on_table():
            return
        question = self.question
        if question is None:
            self._tell(self._waiting())
            return
        picked = self._picked_cards()
        found = fitting(question.view, question.notation, verb, picked)
        if not found:
            action, why = why_none(question.view, question.notation, verb,
                                   sorted_cards(picked.elements()),
                                   self.table.moment.prompt if self.table is not None else "")
            if action is not None:
                self._answer(action)  # a move the list leaves out, which the game takes
            else:
                told = words(why)
                told.stylize_before("bold #ff8787")
                self._tell(told)
            return
        if len(found) == 1:
            self._answer(found[0])
            return
        self.verb = verb
        self.message = Text("")
        self._show_middle()
        self._fill_moves()
        self._choose(verb, found, question)

    def _waiting(self) -> str:
        table = self.table
        if table is None or table.moment.phase == "over" or table.moment.turn is None:
            return "Play has ended."
        return f"Wait: it is {table.names[table.moment.turn]}'s turn."

    def _choose(self, verb: str, found: list[Any], question: Question) -> None:
        me = question.view.names[question.view.player]
        labels = [move_label(question.notation, a, me) for a in found]

        def chosen(action: Any | None) -> None:
            if action is not None and self.question is question:
                self._answer(action)

        self.push_screen(ChoiceScreen(f"Which {verb}?", found, labels), chosen)

    def action_pile(self, kind: str) -> None:
        """A click on a pile of the table: the first of its verbs with a move (the stock draws,
        the discard pile is taken or gets the picked card)."""
        verbs = PILE_VERBS.get(kind, ())
        question = self.question
        if not verbs or question is None:
            if verbs:
                self.action_verb(verbs[0])
            return
        picked = self._picked_cards()
        self.action_verb(next((v for v in verbs
                               if fitting(question.view, question.notation, v, picked)),
                              verbs[0]))

    def action_clear_or_pass(self) -> None:
        """Put the picked cards back (and the whole list); with none picked, let the moment
        pass if one may."""
        if not self._on_table():
            return
        if self.picked or self.verb is not None:
            self.picked = set()
            self.verb = None
            self.message = Text("")
            if self.view is not None:
                self._show(self.view)
            self._fill_moves()
        elif self.question is not None and self.question.view.can_pass:
            self._answer(None)

    def action_sort(self) -> None:
        """Order the hand by groups (a game's touch), by suit, or by rank."""
        self.sort = self.sorts[(self.sorts.index(self.sort) + 1) % len(self.sorts)]
        self.picked = set()
        if self.view is not None:
            self._show(self.view)
        self._fill_moves()

    def action_hint(self) -> None:
        """Ask the game's expert what to do, and why (its reason, where it gives one)."""
        if not self._on_table():
            return
        question = self.question
        if question is None:
            self._tell(Text("Hints come when it is your move.", style="dim"))
            return
        if not self.adviser.can_advise:
            self._tell(Text(f"{self.saved.game.title} has no expert bot to give hints.",
                            style="dim"))
            return
        self._tell(Text("Thinking (the expert bot)...", style="dim"))
        self._advise(question)

    @work(thread=True, exclusive=True, group="hint")
    def _advise(self, question: Question) -> None:
        self._later(self._show_hint, question, self.adviser.advise(question.view))

    def _show_hint(self, question: Question, advice: Advice) -> None:
        if self.question is not question:
            return  # answered meanwhile
        self.advice = advice
        me = question.view.names[question.view.player]
        label = move_label(question.notation, advice.action, me) \
            if advice.action is not None else "let it pass"
        # The hint picks the cards it names, so the list shows the moves using them.
        self.verb = None
        self.picked = self._places(cards_of(label)) if advice.action is not None else set()
        if advice.action is not None and advice.action not in self._listed_for(question):
            self.picked = set()
        self._show(question.view)
        self._fill_moves()
        move, why = hint_parts(label, advice.reason) if advice.reason else (label, "")
        hint = Text.assemble(("Hint: ", "bold #87d7ff"), words(move),
                             (" · Enter plays it" if advice.action is not None else " (Esc)",
                              "bold"))
        if why:
            reason = words(why)
            reason.stylize_before("italic")
            hint.append("\n")
            hint.append_text(reason)
        self._tell(hint)
        moves = self.query_one("#moves", OptionList)
        if advice.action is not None:
            moves.highlighted = next(i for i, a in enumerate(self.listed)
                                     if a is not None and a == advice.action)
        elif question.view.can_pass:
            moves.highlighted = len(self.listed) - 1
        moves.focus()

    def _places(self, cards: list[str]) -> set[int]:
        """The places in the hand as shown of ``cards`` (a card named twice, twice)."""
        order = self.query_one(HandView).order
        places: set[int] = set()
        for card in cards:
            place = next((i for i, c in enumerate(order)
                          if c.split("=", 1)[0] == card and i not in places), None)
            if place is not None:
                places.add(place)
        return places

    def _listed_for(self, question: Question) -> list[Any]:
        """The moves the list would show for the picked cards now."""
        return fitting(question.view, question.notation, None, self._picked_cards())

    def action_log(self) -> None:
        """Show the whole log of the hand."""
        if self._on_table():
            self.push_screen(LogScreen(self.lines))

    def action_help(self) -> None:
        """Show the keys, and how the game is played."""
        if not self._on_table():
            return
        game = self.saved.game
        try:
            how = game.how_to_play(self.saved.preset)
        except Exception:  # a game that cannot say it: the keys are help enough
            how = ""
        picks = pick_keys(max(len(self.query_one(HandView).order), 1), self.keys) or "1"
        self.push_screen(TableHelpScreen(help_text(game.title, picks, self.touch.verbs,
                                                   self.touch.marks, how)))

    @property
    def save_path(self) -> str:
        """Where the game is saved."""
        return str(self.saved.path)


def run_table_app(saved: SavedGame, *, claim_seconds: float = 5.0, bot_delay: float = 0.6,
                  bot_reaction: tuple[float, float] = REACTION) -> TableApp:
    """Play ``saved`` full screen until its end or until the person leaves; a bot takes
    ``bot_reaction`` (seconds, low and high) to act in a window."""
    app = TableApp(TableSession(saved, bot_delay=bot_delay, reaction=bot_reaction),
                   claim_seconds=claim_seconds)
    app.run()
    return app
