"""What the front ends do differently for one game, keyed by the game's name: nothing else in the
front ends knows any game.

A game with no entry plays with :data:`NO_TOUCH`: the generic screen and plain game draw it from
its table as data alone. Every touch is small: keys for the verbs of the game's notation, a note
beside the hand, the words of a race, what the game calls a hand. Kalookie's groups the hand into
runs and sets and says how far the initial meld has come; Hoola's
(:mod:`hoola.terminal.hoola_touch`) counts the points in hand with the knock cue, marks the dealer,
says "Thank you!" and plays ten deals against greedy bots unless told otherwise. No Textual import
here.

>>> kalookie_groups(["9h", "Ks", "7h", "8h", "JK", "Kd", "Kc", "2s"])
[['7h', '8h', '9h'], ['Ks', 'Kd', 'Kc'], ['2s'], ['JK']]
>>> touch_of("no such game") is NO_TOUCH
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hoola.core.cards import JOKER, parse_card
from hoola.core.driver import Race
from hoola.core.errors import NotationError
from hoola.terminal.hoola_touch import HOOLA_DEALS, HOOLA_VERBS, hoola_note, hoola_seat_note
from hoola.terminal.races import describe_race, hoola_race
from hoola.terminal.tabletext import sorted_cards

__all__ = ["NO_TOUCH", "RUMMY_MARKS", "TOUCHES", "Touch", "kalookie_groups", "kalookie_note",
           "touch_of"]


@dataclass(frozen=True, slots=True)
class Touch:
    """One game's touches: each left out means the generic way.

    ``groups`` orders the person's hand into groups (drawn apart); ``note`` is a short line
    about the hand from the person's view; ``race`` words how a contested window ended
    (:func:`hoola.terminal.races.describe_race` by default). ``verbs`` maps keys to the verbs of
    the game's notation (``d``: ``draw``): a key narrows the moves to that verb with the picked
    cards, and plays the one that fits. ``marks`` colours the key under a card that a move of a
    verb uses (green under the cards of a meld). ``seat_note`` says a word about a seat
    (``dealer``); ``exclaim`` what the table hears when a seat makes a move of a verb ("Thank
    you!"). ``hand`` is what the game calls a hand (``deal``), ``bot`` the bots' kind when none is
    named (None: the game's expert, or random), ``deals`` how many deals a game is when none is
    named (None: until the game's own end).
    """

    groups: Callable[[Sequence[str]], list[list[str]]] | None = None
    note: Callable[[Any], str] | None = None
    race: Callable[[Race, Sequence[str], int], str] = describe_race
    verbs: Mapping[str, str] = field(default_factory=dict)
    marks: Mapping[str, str] = field(default_factory=dict)
    seat_note: Callable[[Any, int], str] | None = None
    exclaim: Mapping[str, str] = field(default_factory=dict)
    hand: str = "hand"
    bot: str | None = None
    deals: int | None = None

    def verb_of(self, key: str) -> str | None:
        """The verb a key stands for (None: the key picks a card, or is a command)."""
        return self.verbs.get(key)

    def key_of(self, verb: str) -> str | None:
        """The key of a verb (None when it has none)."""
        return next((k for k, v in self.verbs.items() if v == verb), None)


RUMMY_MARKS: Mapping[str, str] = {"take": "#ffd75f", "meld": "#5fd75f", "add": "#5fafff"}
"""The marks of the rummies: yellow under the cards that take the discard, green under those
that meld, blue under those that add to a meld on the table."""


def kalookie_groups(cards: Sequence[str]) -> list[list[str]]:
    """A hand as Kalookie players hold it: runs of a suit (three or more, ace high or low), then
    sets of a rank in different suits (three or more), then the rest by suit, jokers last."""
    parsed: list[tuple[str, int]] = []
    odd: list[str] = []
    jokers: list[str] = []
    for card in cards:
        try:
            value = parse_card(card.split("=", 1)[0])
        except NotationError:
            odd.append(card)
            continue
        if value == JOKER:
            jokers.append(card)
        else:
            parsed.append((card, value))
    groups: list[list[str]] = []
    left = list(parsed)
    for suit in range(4):
        while True:
            run = _longest_run([(c, v) for c, v in left if v // 13 == suit])
            if len(run) < 3:
                break
            groups.append(run)
            for card in run:
                left.remove(next(p for p in left if p[0] == card))
    for rank in range(13):
        same = [(c, v) for c, v in left if v % 13 == rank]
        distinct: dict[int, str] = {}
        for c, v in same:
            distinct.setdefault(v // 13, c)
        if len(distinct) >= 3:
            groups.append(list(distinct.values()))
            for card in distinct.values():
                left.remove(next(p for p in left if p[0] == card))
    rest = sorted_cards([c for c, _ in left])
    groups.extend([[c] for c in rest] if len(rest) <= 1 else [rest])
    for extra in (odd, jokers):
        if extra:
            groups.append(list(extra))
    return groups


def _longest_run(suited: list[tuple[str, int]]) -> list[str]:
    """The longest run of consecutive ranks among cards of one suit (an ace below 2 or above K)."""
    by_rank: dict[int, str] = {}
    for card, value in suited:
        by_rank.setdefault(value % 13, card)
    if 0 in by_rank:
        by_rank[13] = by_rank[0]
    best: list[int] = []
    run: list[int] = []
    for rank in range(14):
        run = [*run, rank] if rank in by_rank else []
        if len(run) > len(best):
            best = run
    if 0 in best and 13 in best:
        best = best[1:] if best[0] == 0 else best
    return [by_rank[r] for r in best]


def kalookie_note(view: Any) -> str:
    """How far the initial meld has come (nothing once it is made)."""
    opened = getattr(view, "opened", None)
    rules = getattr(view, "rules", None)
    turn = getattr(view, "turn", None)
    if opened is None or rules is None or opened[view.player]:
        return ""
    value = getattr(turn, "value", 0)
    need = getattr(rules, "initial_meld", 0)
    return f"initial meld {value} of {need}" if value else f"to open: melds of {need}"


NO_TOUCH = Touch()


TOUCHES: dict[str, Touch] = {
    "kalookie": Touch(groups=kalookie_groups, note=kalookie_note,
                      verbs={"d": "draw", "t": "take", "m": "meld", "a": "add", "x": "discard",
                             "w": "warn"}, marks=RUMMY_MARKS),
    "hoola": Touch(note=hoola_note, race=hoola_race, verbs=HOOLA_VERBS, marks=RUMMY_MARKS,
                   seat_note=hoola_seat_note, exclaim={"take": "Thank you!"}, hand="deal",
                   bot="greedy", deals=HOOLA_DEALS),
}
"""Every game's touches, by the game's name."""


def touch_of(game: str) -> Touch:
    """The touches of the game named ``game`` (:data:`NO_TOUCH` when it has none)."""
    return TOUCHES.get(game, NO_TOUCH)
