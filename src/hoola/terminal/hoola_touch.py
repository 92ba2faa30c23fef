"""Hoola's touch of the terminal games: what the generic screen and plain game do differently for
Hoola, and nothing else (the table, the moves, the settlement come from the game's table as data).

- the keys of Hoola's verbs (:data:`HOOLA_VERBS`: ``d`` draw, ``t`` take, ``m`` meld, ...);
- the points in hand with the knock cue, beside the hand (:func:`hoola_note`);
- the dealer and whether a seat has melded, beside the seat (:func:`hoola_seat_note`);
- ten deals a match (:data:`HOOLA_DEALS`), Hoola having no end of its own.

Its race words are :func:`hoola.terminal.races.hoola_race`; :mod:`hoola.terminal.touches` puts it
all together. No Textual import here.

>>> from hoola.games.hoola import DealState, Rules
>>> from hoola.core.cards import parse_cards, parse_card
>>> from hoola.games.hoola.deal import Deal
>>> rules = Rules.preset("pagat")
>>> deal = Deal.explicit(rules, [parse_cards("9s 9h As Ac 2d 3c Kh"),
...                              parse_cards("9d 8c 2s 4h 5c 6d 3s")], parse_card("5h"))
>>> view = DealState.new(rules, ["You", "Bot"], deal=deal).view(0)
>>> hoola_note(view), hoola_seat_note(view, 0), hoola_seat_note(view, 1)
('38 points · knock at 10 or less · blast: no', 'dealer', '')
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["HOOLA_DEALS", "HOOLA_VERBS", "hoola_note", "hoola_seat_note"]

HOOLA_DEALS: Final = 10
"""Deals of ``hoola play`` (Hoola) unless ``--deals`` says otherwise: a match with the running
score, as a table plays an evening's session. Hoola has no end of its own (no target), so the
front end sets one; the person may leave at any deal (the game is saved, and ``--resume`` goes on).
"""

HOOLA_VERBS: Final = {"d": "draw", "t": "take", "m": "meld", "a": "add", "x": "discard",
                      "k": "knock", "b": "blast", "v": "sevens", "p": "play", "o": "drop"}
"""Hoola's keys, each a verb of its notation."""


KEYS: Final = {"hoola.cue.may-knock": " (k)", "hoola.cue.sopang": " (b)",
               "hoola.cue.daepang": " (b)"}
"""The key beside a cue whose move has one."""


def hoola_note(view: Any) -> str:
    """The points in the person's hand and what they allow (the view's cues): ``23 points ·
    knock at 10 or less``, ``you may knock (k)``, a blast ready, a stake other than 1."""
    return " · ".join(c.text + KEYS.get(c.key, "") for c in view.cues())


def hoola_seat_note(view: Any, seat: int) -> str:
    """``dealer`` for the seat that dealt (and plays first), ``melded`` for one that has laid
    down a meld (a seat without one pays double)."""
    words = []
    if seat == view.dealer:
        words.append("dealer")
    if view.in_deal[seat] and view.melded[seat]:
        words.append("melded")
    return ", ".join(words)
