"""From keys, picked cards and clicks to the person's legal moves, for any game: the moves of a
verb that use the picked cards, why none does (in the engine's own words when it has them), what
a click on a pile of the table means, and which cards a move of a verb would use.

Everything reads the moves as the notation writes them (``meld 7h JK=8h 9h``), so it knows no
game. No Textual import here.

>>> labels = ["draw", "take 9d with 9s 9h", "meld 7h JK=8h 9h", "discard 7h"]
>>> [label for label in labels if verb_of(label) == "meld" and uses(label, Counter(["JK"]))]
['meld 7h JK=8h 9h']
>>> marked(labels, ["9s", "9h", "7h", "JK", "Kc"], {"take": "yellow", "meld": "green"})
{'9s': 'yellow', '9h': 'yellow', '7h': 'green', 'JK': 'green'}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hoola.core.errors import HoolaError
from hoola.terminal.plain import Notation, move_label

__all__ = ["CARD", "PILE_VERBS", "cards_of", "fitting", "marked", "mover", "uses", "verb_of",
           "why_none"]

CARD = re.compile(r"(?:10|[2-9TJQKA])[shdc]|JK(?:=(?:10|[2-9TJQKA])[shdc])?")
"""A card as the records write it (``Ts``, ``JK=7h``), so that English words stay words."""

PILE_VERBS: Mapping[str, tuple[str, ...]] = {"stock": ("draw",), "discard": ("take", "discard")}
"""What a click on a pile of the table asks, by the pile's kind: the first verb that has a move
with the picked cards (the discard pile takes, or gets the picked card once you have drawn)."""


def cards_of(label: str) -> list[str]:
    """The cards a move's notation names, a joker as the joker it is.

    >>> cards_of("add JK=7h on m2"), cards_of("take 9d with 9s 9h")
    (['JK'], ['9d', '9s', '9h'])
    """
    return [w.split("=", 1)[0] for w in label.split() if CARD.fullmatch(w)]


def uses(label: str, picked: Counter[str]) -> bool:
    """Whether a move's notation uses every picked card (a joker standing for a card counts as
    the joker it is).

    >>> uses("meld 7h JK=8h 9h", Counter(["JK", "7h"])), uses("discard 7h", Counter(["7h", "7h"]))
    (True, False)
    """
    have = Counter(card.lower() for card in cards_of(label))
    return all(have[card.lower()] >= n for card, n in picked.items())


def verb_of(label: str) -> str:
    """The verb of a move's notation: its first word (``meld``), lower case."""
    return label.split()[0].lower() if label.split() else ""


def fitting(view: Any, notation: Notation, verb: str | None, picked: Counter[str]) -> list[Any]:
    """The legal moves of ``view`` of the verb (any, when None) that use the picked cards."""
    me = view.names[view.player]
    found = []
    for action in view.legal:
        label = move_label(notation, action, me)
        if (verb is None or verb_of(label) == verb) and uses(label, picked):
            found.append(action)
    return found


def why_none(view: Any, notation: Notation, verb: str, picked: Sequence[str],
             prompt: str) -> tuple[Any | None, str]:
    """Why no listed move of ``verb`` uses the picked cards: the engine's reason for that move
    with those cards when it can be written, else what the moment asks. A move the engine takes
    though the list leaves it out (a Kalookie meld with three jokers) comes back to be played."""
    me = view.names[view.player]
    cards = " ".join(picked)
    try:
        action = notation.parse(f"{me} {verb} {cards}".strip())
    except HoolaError:
        action = None
    if action is not None:
        try:
            notation.verify(action)
        except HoolaError as exc:
            return None, exc.message.rstrip(".") + "."
        except Exception:  # an action the engine cannot even check is no move
            pass
        else:
            return action, ""
    listed = [a for a in view.legal if verb_of(move_label(notation, a, me)) == verb]
    if listed and picked:
        return None, f"No {verb} uses {cards}: pick other cards, or Esc puts them back."
    if listed:
        return None, f"Pick the cards to {verb} first."
    ask = f": {prompt.rstrip('.')}" if prompt else ""
    return None, f"No {verb} now{ask}."


def marked(labels: Sequence[str], hand: Sequence[str], marks: Mapping[str, str]) -> dict[str, str]:
    """Each card of ``hand`` a move of a verb in ``marks`` would use, with that verb's colour (the
    first verb of ``marks`` first)."""
    out: dict[str, str] = {}
    held = {card.split("=", 1)[0] for card in hand}
    for verb, colour in marks.items():
        for label in labels:
            if verb_of(label) != verb:
                continue
            for card in cards_of(label):
                if card in held:
                    out.setdefault(card, colour)
    return out


def mover(line: str, names: Sequence[str]) -> tuple[int, str] | None:
    """Who made the move a log line tells, and its verb (None when it names no seat).

    >>> mover("Greedy2 take 5d with 5s 5h", ["You", "Greedy1", "Greedy2"])
    (2, 'take')
    """
    for seat in sorted(range(len(names)), key=lambda q: -len(names[q])):
        if line.startswith(names[seat] + " "):
            return seat, verb_of(line[len(names[seat]) + 1:])
    return None
