"""The full-screen Hoola game: the table, the person's keys, bots in a worker, claims with a
countdown, hints, the log, the settlement and the running score.

The deal is played by :func:`hoola.core.driver.play_deal` in a worker thread (see
:mod:`hoola.terminal.hoola_session`); this app shows the person's views and answers the
person's questions.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import RichLog, Static

from hoola.core.driver import Race
from hoola.games.hoola.actions import Action, Add, Discard, NewMeld, Take
from hoola.games.hoola.views import View
from hoola.terminal.cardface import card_chip, card_label
from hoola.terminal.hoola_hints import Adviser, hint_words
from hoola.terminal.hoola_moves import candidates, describe, log_line, next_step, why_not
from hoola.terminal.hoola_screens import ChoiceScreen, HelpScreen, SettlementScreen
from hoola.terminal.hoola_session import PersonSeat, Session
from hoola.terminal.hoola_widgets import HandPanel, KeyBar, PilePanel, ScoreBar, SeatsPanel
from hoola.terminal.races import hoola_race
from hoola.terminal.table_screens import Leaving, LogScreen

__all__ = ["HoolaApp"]

WIDE = 120  # columns from which the log sits beside the table
TALL = 36  # lines from which cards are drawn large and the table framed
NEWS_SECONDS = 4.0  # how long news (who won a claim) stays beside the piles

CSS = """
Screen { layout: horizontal; }
#main { width: 1fr; height: 100%; }
#side { display: none; width: 50; height: 100%; border-left: solid $primary-darken-2; }
Screen.wide #side { display: block; }
Screen.wide #log { display: none; }
ScoreBar { height: 1; background: $boost; }
SeatsPanel { height: auto; max-height: 9; }
#middle { height: 5; }
PilePanel { width: 18; height: 4; }
#message { width: 1fr; height: 5; padding: 0 1; }
HandPanel { height: 7; }
Screen.big SeatsPanel { max-height: 18; border: round $primary-darken-1; margin: 1 0 0 0; }
Screen.big #middle { height: 6; margin: 1 0; }
Screen.big PilePanel { width: 22; height: 6; }
Screen.big #message { height: 6; }
Screen.big HandPanel { height: 9; border: round $primary-darken-1; height: 11; }
KeyBar { dock: bottom; height: auto; max-height: 2; background: $boost; }
#log { height: 1fr; min-height: 1; }
#side-log { height: 1fr; }
#choice, #leave { width: 70; max-width: 95%; height: auto; max-height: 90%;
    background: $panel; border: thick $primary; padding: 0 1; }
#choice OptionList { height: auto; max-height: 14; }
#settlement { width: 100; max-width: 100%; height: auto; max-height: 100%;
    background: $panel; border: thick $success; padding: 0 1; }
#settlement VerticalScroll { height: auto; max-height: 20; }
#help { width: 80; max-width: 100%; height: auto; max-height: 100%; background: $panel;
    border: thick $primary; padding: 0 1; }
#log-screen { width: 100; max-width: 100%; height: 90%; background: $panel;
    border: thick $primary; padding: 0 1; }
ChoiceScreen, LeaveScreen, SettlementScreen, HelpScreen, LogScreen { align: center middle; }
"""


class FromWorker(Message):
    """Something a worker thread asks the screen to do."""

    def __init__(self, call: Callable[[], None]) -> None:
        super().__init__()
        self.call = call


class HoolaApp(Leaving, App[str]):
    """Hoola against bots, full screen. ``claim_seconds`` is how long a claim prompt waits
    (0: until the person answers), by ``clock``; the app's result is the path of the saved
    record."""

    TITLE = "Hoola"
    CSS = CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(k % 10), f"pick({(k - 1) % 10})", show=False) for k in range(1, 11)],
        Binding("d", "verb('draw')", show=False), Binding("t", "verb('take')", show=False),
        Binding("m", "verb('meld')", show=False), Binding("a", "verb('add')", show=False),
        Binding("x", "verb('discard')", show=False), Binding("k", "verb('knock')", show=False),
        Binding("b", "verb('blast')", show=False), Binding("v", "verb('sevens')", show=False),
        Binding("p", "verb('play')", show=False), Binding("o", "verb('drop')", show=False),
        Binding("escape", "let_go", show=False), Binding("enter", "follow_hint", show=False),
        Binding("s", "sort", show=False), Binding("h", "hint", show=False),
        Binding("l", "log", show=False), Binding("question_mark,f1", "help", show=False),
        Binding("q", "quit", show=False), Binding("ctrl+c", "leave_now", show=False,
                                                  priority=True),
    ]

    def __init__(self, session: Session, *, claim_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.session = session
        self.claim_seconds = claim_seconds
        self.person = PersonSeat(self._ask_from_worker, self._withdraw_from_worker)
        self.adviser = Adviser(seed=session.seed)
        self.view: View | None = None
        self.asking: View | None = None
        self.picked: set[int] = set()
        self.by_rank = False
        self.lines: list[Text] = []
        self.message = Text("")
        self.flash = Text("")
        self.suggested: Action | None = None
        self.deadline: float | None = None
        self.clock = clock  # the countdown's clock (a test may turn it by hand)
        self.last_tick = clock()
        self.ticks = 0  # how many times the countdown was looked at (tests wait on it)
        self.flash_timer: Timer | None = None
        self.deal_over = False
        self.big = False
        self.keep_message_until = 0.0  # news for the person outlasts the next question

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Score line, seats, piles and messages, hand, keys, log (beside, on wide screens)."""
        with Vertical(id="main"):
            yield ScoreBar()
            yield SeatsPanel()
            with Horizontal(id="middle"):
                yield PilePanel()
                yield Static(id="message")
            yield HandPanel()
            yield KeyBar()
            yield RichLog(id="log", wrap=True, min_width=20)
        with Vertical(id="side"):
            yield Static(Text(" The deal", style="bold"))
            yield RichLog(id="side-log", wrap=True, min_width=20)

    def on_mount(self) -> None:
        """Start (or continue) the match."""
        self.set_interval(0.1, self._tick)
        self.query_one(SeatsPanel).border_title = "Table"
        self._fit(self.size.width, self.size.height)
        self._say(Text(f"Hoola, {self.session.rules.preset_name} rules. Press ? for help.",
                       style="bold"))
        self._on_signals(True)
        if self.session.is_over:
            # A finished match was resumed: show how it ended rather than deal again.
            last = self.session.match.deals[-1].view(self.session.person)
            self._show(last)
            self._finish(last)
        else:
            self._play_deal()

    def on_unmount(self) -> None:
        """Leaving by any way ends the deal's worker (the record is saved after every move)."""
        self._on_signals(False)
        self.session.stop()
        self.person.stop()

    def _on_signals(self, listen: bool) -> None:
        """A kill (SIGTERM) or a closed terminal (SIGHUP) leaves as q does: the terminal is put
        back as it was, and the game is saved already."""
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGHUP"):
            signum = getattr(signal, name, None)
            if signum is None:
                continue
            # Not every platform or thread can listen (Windows, a loop off the main thread).
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                if listen:
                    loop.add_signal_handler(signum, self._leave)
                else:
                    loop.remove_signal_handler(signum)

    def on_resize(self, event: events.Resize) -> None:
        """Put the log beside the table when the terminal is wide; larger cards when tall."""
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        self.screen.set_class(width >= WIDE, "wide")
        self.big = height >= TALL and width >= 100
        self.screen.set_class(self.big, "big")
        if self.view is not None:
            self._show(self.view)

    # -- the deal's worker --------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="deal")
    def _play_deal(self) -> None:
        self.session.play(self.person, self._action_from_worker, self._start_from_worker,
                          on_race=partial(self._later, self._race),
                          on_problem=partial(self._later, self._save_problem))

    def _later(self, call: Callable[..., None], *args: Any) -> None:
        # Posting never blocks the worker, even while the app is closing; messages keep order.
        self.post_message(FromWorker(partial(call, *args)))

    def on_from_worker(self, message: FromWorker) -> None:
        """Do on the screen's thread what a worker asked for."""
        message.call()

    def _start_from_worker(self, view: View) -> None:
        self._later(self._deal_started, view)

    def _action_from_worker(self, view: View, action: Action, drawn: int | None) -> None:
        self._later(self._engine_action, view, action, drawn)

    def _ask_from_worker(self, view: View) -> None:
        self._later(self._ask, view)

    def _withdraw_from_worker(self, view: View) -> None:
        self._later(self._withdraw, view)

    def _deal_started(self, view: View) -> None:
        session = self.session
        self.deal_over = False
        for log in (self.query_one("#log", RichLog), self.query_one("#side-log", RichLog)):
            log.clear()
        self.lines = []
        mine = view.dealer == view.player
        who = "you deal and play" if mine else f"{view.names[view.dealer]} deals and plays"
        self._say(Text(f"Deal {session.deal_number} of {session.plan.deals}: {who} first.",
                       style="bold"))
        if view.history:
            self._say(Text("(resumed: the deal so far)", style="dim"))
            for action in view.history:
                self._say(log_line(action, view))
        self._show(view)

    def _engine_action(self, view: View, action: Action, drawn: int | None) -> None:
        self._say(log_line(action, view, drawn))
        if isinstance(action, Take) and action.player != view.player:
            self.flash = Text(f" {view.names[action.player]}: Thank you! ",
                              style="bold #ffffff on #b5172f")
            if self.flash_timer is not None:
                self.flash_timer.stop()
            self.flash_timer = self.set_timer(2.5, self._clear_flash)
        self._show(view)
        if view.phase == "over":
            self._finish(view)

    def _ask(self, view: View) -> None:
        self.asking = view
        self.suggested = None
        if self.clock() >= self.keep_message_until:
            self.message = Text("")
        if view.can_pass and self.claim_seconds > 0:
            self.deadline = self.clock() + self.claim_seconds
            self.bell()
        else:
            self.deadline = None
        self._show(view)

    def _answer(self, action: Action | None) -> None:
        if self.asking is None:
            return
        self._close_question()
        self.person.give(action)

    def _withdraw(self, view: View) -> None:
        """The window closed before the person answered (someone was quicker)."""
        if self.asking is view:
            if isinstance(self.screen, ChoiceScreen):
                self.screen.dismiss(None)  # the list of ways to take the card is moot now
            self._close_question()

    def _close_question(self) -> None:
        self.asking = None
        self.deadline = None
        self.suggested = None
        self.picked = set()
        if self.view is not None:
            self._show(self.view)

    def _race(self, race: Race) -> None:
        text = hoola_race(race, self.session.names, self.session.person, card_label)
        self._news(Text(text, style="bold #ffaf5f"))

    def _save_problem(self, problem: str) -> None:
        self._news(Text(problem, style="bold red"))

    def _news(self, text: Text) -> None:
        """Something the person must hear: in the log, and beside the piles for a while."""
        self._say(text)
        self.keep_message_until = self.clock() + NEWS_SECONDS
        self._tell(text)

    def _finish(self, view: View) -> None:
        session = self.session
        self.deal_over = True
        self.asking = None
        self.deadline = None
        screen = SettlementScreen(view, session.deal_number, session.plan.deals,
                                  session.deal_results(), dict(session.match.totals),
                                  str(session.path), session.is_over)

        def after(choice: str | None) -> None:
            if choice == "next" and not session.is_over:
                self._play_deal()
            else:
                self._leave()

        self.push_screen(screen, after)

    # -- drawing ------------------------------------------------------------------------------

    def _show(self, view: View) -> None:
        if self.view is None or self.view.hand != view.hand:
            self.picked = set()
        self.view = view
        session = self.session
        asked = self.asking is not None
        self.query_one(ScoreBar).show(session.rules.preset_name, session.deal_number,
                                      session.plan.deals, view.stake, view.names,
                                      dict(session.match.totals), view.player)
        self.query_one(SeatsPanel).show(view, self.big)
        self.query_one(PilePanel).show(view, self.big)
        self.query_one(HandPanel).show(view, self.picked, self.by_rank, self.big)
        self.query_one(KeyBar).show(self.asking, asked)
        self._show_message()

    def _show_message(self) -> None:
        view = self.asking or self.view
        if view is None:
            return
        asked = self.asking is not None
        text = Text()
        if self.flash:
            text.append_text(self.flash)
            text.append(" ")
        if asked and view.can_pass and view.claimable is not None:
            text.append_text(self._claim_banner(view))
        else:
            style = "bold yellow" if asked else "dim"
            text.append(next_step(view, asked), style=style)
        if self.message:
            text.append("\n")
            text.append_text(self.message)
        self.query_one("#message", Static).update(text)

    def _claim_banner(self, view: View) -> Text:
        by = view.names[view.discarder] if view.discarder is not None else "The dealer"
        assert view.claimable is not None
        text = Text.assemble(Text(" Thank you? ", style="bold #000000 on #ffd75f"), " ",
                             f"{by} discarded ", card_chip(view.claimable),
                             ": t takes it, Esc lets it go.")
        left = self._time_left()
        if left is not None:
            full = max(self.claim_seconds, 0.1)
            filled = max(0, min(10, round(10 * left / full)))
            text.append(f"\n{'■' * filled}{'□' * (10 - filled)} {left:3.1f}s",
                        style="bold red" if left < 1.5 else "bold yellow")
        return text

    def _time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())

    def _tick(self) -> None:
        self.ticks += 1
        now = self.clock()
        elapsed, self.last_tick = now - self.last_tick, now
        if self.deadline is None or self.asking is None:
            return
        if not self._on_table():
            # A list, the help or the log is open over the table: the countdown waits.
            self.deadline += elapsed
            return
        if now >= self.deadline:
            view = self.asking
            self._say(Text.assemble("You let ", card_chip(view.claimable), " go")
                      if view.claimable is not None else Text("You wait"))
            self._answer(None)
        else:
            self._show_message()

    def _say(self, line: Text) -> None:
        self.lines.append(line)
        for log in (self.query_one("#log", RichLog), self.query_one("#side-log", RichLog)):
            log.write(line)

    def _tell(self, message: str | Text, style: str = "bold #ff8787") -> None:
        self.message = message if isinstance(message, Text) else Text(message, style=style)
        self._show_message()

    def _clear_flash(self) -> None:
        self.flash = Text("")
        self._show_message()

    # -- the person's keys --------------------------------------------------------------------

    def _picked_cards(self) -> list[int]:
        view = self.view
        if view is None:
            return []
        return [view.hand[i] for i in sorted(self.picked) if i < len(view.hand)]

    def action_pick(self, place: int) -> None:
        """Pick (or put back) the card at ``place`` on the screen, from 0."""
        panel = self.query_one(HandPanel)
        if place >= len(panel.order) or self.view is None or not self._on_table():
            return
        index = panel.order[place]
        self.picked ^= {index}
        self.message = Text("")
        self.query_one(HandPanel).show(self.view, self.picked, self.by_rank)
        self._show_message()

    def on_hand_panel_picked(self, event: HandPanel.Picked) -> None:
        """A click on a card picks it."""
        self.action_pick(event.index)

    def on_pile_panel_clicked(self, event: PilePanel.Clicked) -> None:
        """The stock draws; the discard takes, or discards the picked card."""
        view = self.asking
        if event.pile == "stock":
            self.action_verb("draw")
        elif view is not None and view.drawn and view.is_my_turn:
            self.action_verb("discard")
        else:
            self.action_verb("take")

    def action_verb(self, verb: str) -> None:
        """Do the move ``verb`` with the picked cards; ask which when several fit."""
        if not self._on_table():
            return
        view = self.asking
        picked = self._picked_cards()
        if view is None:
            self._tell(why_not(self.view, verb, picked) if self.view is not None and
                       self.view.phase == "over" else self._waiting_reason())
            return
        found = candidates(view, verb, picked)
        if not found:
            self._tell(why_not(view, verb, picked))
        elif len(found) == 1:
            self._answer(found[0])
        else:
            self._choose(verb, found, view)

    def _waiting_reason(self) -> str:
        view = self.view
        if view is None or self.deal_over:
            return "Play has ended."
        return f"Wait: it is {view.names[view.current]}'s turn."

    def _choose(self, verb: str, found: list[Action], view: View) -> None:
        titles = {"meld": "Which meld?", "add": "Add which card where?", "take":
                  "Take the discard with which cards?", "discard": "Discard which card?"}
        def chosen(action: Action | None) -> None:
            if action is not None and self.asking is view:
                self._answer(action)

        self.push_screen(ChoiceScreen(titles.get(verb, "Which one?"), found,
                                      [describe(a, view) for a in found]), chosen)

    def action_let_go(self) -> None:
        """Let the discard go (in a claim window); otherwise put the picked cards back."""
        if not self._on_table():
            return
        view = self.asking
        if view is not None and view.can_pass:
            self._say(Text.assemble("You let ", card_chip(view.claimable), " go")
                      if view.claimable is not None else Text("You wait"))
            self._answer(None)
            return
        self.picked = set()
        self.message = Text("")
        if self.view is not None:
            self._show(self.view)

    def action_sort(self) -> None:
        """Sort the hand by suit or by rank."""
        self.by_rank = not self.by_rank
        if self.view is not None:
            self.query_one(HandPanel).show(self.view, self.picked, self.by_rank)

    def action_hint(self) -> None:
        """Ask the adviser what to do, and why."""
        if not self._on_table():
            return
        view = self.asking
        if view is None:
            self._tell("Hints come when it is your move.", style="dim")
            return
        self._tell(Text(f"Thinking ({self.adviser.source})...", style="dim"))
        self._advise(view)

    @work(thread=True, exclusive=True, group="hint")
    def _advise(self, view: View) -> None:
        action, why = self.adviser.advise(view)
        self._later(self._show_hint, view, action, why)

    def _show_hint(self, view: View, action: Action | None, why: str) -> None:
        if self.asking is not view:
            return
        self.suggested = action
        head = Text("Hint: ", style="bold #87d7ff")
        what, reason = hint_words(action, why, view)
        keys = Text(" (Esc)" if action is None else " · Enter plays it", style="bold")
        # Said once, beside the piles (the log keeps what was played, not what was advised).
        self._tell(Text.assemble(head, what, keys, "\n" if reason else "",
                                 Text(reason, style="italic")))
        if action is None:
            return
        cards: tuple[int, ...] = ()
        if isinstance(action, NewMeld):
            cards = action.cards
        elif isinstance(action, Take):
            cards = action.with_cards
        elif isinstance(action, Add | Discard):
            cards = (action.card,)
        self.picked = _indices(view.hand, cards)
        self.query_one(HandPanel).show(view, self.picked, self.by_rank)

    def action_follow_hint(self) -> None:
        """Enter plays the hinted move."""
        if not self._on_table():
            return
        view = self.asking
        if view is None or self.suggested is None:
            return
        if self.suggested in view.legal:
            self._answer(self.suggested)

    def action_log(self) -> None:
        """Show the whole log of the deal."""
        if self._on_table():
            self.push_screen(LogScreen(self.lines))

    def action_help(self) -> None:
        """Show the rules in brief and the keys."""
        if self._on_table():
            self.push_screen(HelpScreen())

    @property
    def save_path(self) -> str:
        """Where the game is saved."""
        return str(self.session.path)


def _indices(hand: tuple[int, ...], cards: tuple[int, ...]) -> set[int]:
    """Places in ``hand`` of ``cards`` (a joker twice if named twice)."""
    chosen: set[int] = set()
    for card in cards:
        for i, c in enumerate(hand):
            if c == card and i not in chosen:
                chosen.add(i)
                break
    return chosen

