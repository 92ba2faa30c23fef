"""Any game's table as lines of text, from :class:`~hoola.core.table.Table` alone.

The plain game prints these lines; the full-screen game uses the same ordering and grouping. A
zone is drawn by its kind and owner: hands, melds and captured piles under their seat, the
discard pile, the stock and the rest in one line between the seats and the hand. A zone this seat
may not see shows only its count. A table may carry the settlement of a finished hand, told to
this seat: a zone ``settlement`` of no cards whose label says how the hand ended and whose note
explains who pays what, line by line (:func:`settlement_of`); it is told apart, not in the middle.

>>> from hoola.core.table import Moment, Score, Table, Zone
>>> t = Table(zones=(Zone("hand-0", "hand", "Your hand", owner=0, cards=("Ks", "2h", "As")),
...                  Zone("hand-1", "hand", "B's hand", owner=1, count=3),
...                  Zone("m1", "meld", "m1 (B)", owner=1, cards=("5s", "5h", "5d"), note="m1"),
...                  Zone("discard", "discard", "Discard pile", cards=("4c", "Jd")),
...                  Zone("stock", "stock", "Stock", count=40)),
...           moment=Moment(actors=(1,), turn=1, phase="play", prompt="B to play"),
...           names=("You", "B"), scores=(Score("Penalty", ("0", "12")),))
>>> print("\\n".join(table_lines(t, 0)))
  You: 3 cards · Penalty: 0
▶ B: 3 cards · Penalty: 12
      m1 5s 5h 5d
Discard pile: Jd (2 cards) · Stock: 40 cards
Your hand: As Ks 2h
B to play
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

from hoola.core.cards import JOKER, parse_card
from hoola.core.errors import NotationError
from hoola.core.table import Table, Zone

__all__ = [
    "OWNED_KINDS",
    "card_key",
    "hand_of",
    "middle_text",
    "plural",
    "score_label",
    "score_lines",
    "seat_scores",
    "seat_text",
    "settlement_of",
    "sorted_cards",
    "table_lines",
    "wrap_line",
    "zones_of",
]

OWNED_KINDS = ("hand", "meld", "captured")
"""Zone kinds drawn under their owner's seat; every other zone is drawn between the seats and
the hand."""


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def card_key(card: str, by_rank: bool = False) -> tuple[int, int, str]:
    """A sort key for a card in notation: by suit then rank (the records' order) or by rank,
    jokers after the natural cards, anything unreadable last."""
    face = card.split("=", 1)[0]
    try:
        value = parse_card(face)
    except NotationError:
        return (2, 0, card)
    if value == JOKER:
        return (1, 0, card)
    return (0, value % 13 * 4 + value // 13 if by_rank else value, card)


def sorted_cards(cards: Iterable[str], by_rank: bool = False) -> list[str]:
    """Cards in display order (see :func:`card_key`)."""
    return sorted(cards, key=lambda c: card_key(c, by_rank))


def zones_of(table: Table, owner: int | None, kinds: Sequence[str] = OWNED_KINDS) -> list[Zone]:
    """The zones of ``kinds`` that ``owner`` owns, in the table's order."""
    return [z for z in table.zones if z.owner == owner and z.kind in kinds]


def hand_of(table: Table, seat: int) -> Zone | None:
    """``seat``'s hand zone, if the table has one."""
    return next((z for z in table.zones if z.kind == "hand" and z.owner == seat), None)


def score_label(label: str) -> str:
    """A score's label as a heading, a goal in it set apart: ``Game points to 10`` reads
    ``Game points (to 10)``, so that no number runs into the values after it.

    >>> score_label("Game points to 10"), score_label("Penalty")
    ('Game points (to 10)', 'Penalty')
    """
    head, sep, goal = label.rpartition(" to ")
    if sep and head and goal.split(" ", 1)[0].isdigit():
        return f"{head} (to {goal})"
    return label


SETTLEMENT = "settlement"
"""The id of the zone that tells a finished hand's settlement."""


def settlement_of(table: Table) -> list[str]:
    """How the hand ended and the settlement line by line, when the table tells them (a zone
    ``settlement``); [] when it does not.

    >>> from hoola.core.table import Moment, Table, Zone
    >>> told = Zone("settlement", "pile", "B went out.", count=0, note="You owe 1: rank pays 1")
    >>> settlement_of(Table(zones=(told,), moment=Moment((), 0, "over")))
    ['B went out.', 'You owe 1: rank pays 1']
    """
    zone = next((z for z in table.zones if z.id == SETTLEMENT), None)
    if zone is None:
        return []
    return [zone.label, *(line for line in zone.note.splitlines() if line.strip())]


def seat_scores(table: Table, seat: int) -> list[str]:
    """``Penalty: 12`` for each score line that has a value per seat, or per team (the seat's
    team's value, on each of its members' lines)."""
    out = []
    for s in table.scores:
        if len(s.values) == len(table.names):
            out.append(f"{score_label(s.label)}: {s.values[seat]}")
        elif table.teams is not None and len(s.values) == len(table.teams):
            team = next((i for i, t in enumerate(table.teams) if seat in t), None)
            if team is not None:
                out.append(f"{score_label(s.label)}: {s.values[team]}")
    return out


def score_lines(table: Table) -> list[str]:
    """Each score line as ``Label: A 0, B 12`` (seats, or teams when the values are theirs).

    >>> from hoola.core.table import Moment, Score, Table
    >>> t = Table(zones=(), moment=Moment((), None, "over"), names=("You", "Bot1"),
    ...           scores=(Score("Game points to 10", ("0", "3")),))
    >>> score_lines(t)
    ['Game points (to 10): You 0, Bot1 3']
    """
    lines = []
    for score in table.scores:
        if len(score.values) == len(table.names):
            who: Sequence[str] = table.names
        elif table.teams is not None and len(score.values) == len(table.teams):
            who = [" & ".join(table.names[q] for q in team) for team in table.teams]
        else:
            who = [f"#{i}" for i in range(1, len(score.values) + 1)]
        lines.append(f"{score_label(score.label)}: " + ", ".join(
            f"{w} {v}" for w, v in zip(who, score.values, strict=True)))
    return lines


def _cards_text(zone: Zone, by_rank: bool = False, sort: bool = False) -> str:
    if zone.cards is None:
        return plural(zone.count or 0, "card")
    cards = sorted_cards(zone.cards, by_rank) if sort else list(zone.cards)
    return " ".join(cards) if cards else "none"


def seat_text(table: Table, seat: int, note: str = "") -> str:
    """One seat's line: its cards in hand (a count), a note (``out``, a touch's ``dealer``), its
    captured piles, its score values."""
    hand = hand_of(table, seat)
    parts = [plural(hand.count or 0, "card") if hand is not None else ""]
    if hand is not None and hand.note:
        parts.append(hand.note)
    parts.append(note)
    for zone in zones_of(table, seat, ("captured",)):
        parts.append(f"{zone.label} {_cards_text(zone)}")
    parts.extend(seat_scores(table, seat))
    return " · ".join(p for p in parts if p)


def middle_text(table: Table) -> str:
    """The zones no seat owns (or not drawn under a seat): ``Discard pile: Jd (2 cards)``..."""
    parts = []
    for zone in table.zones:
        if zone.kind == "meld" or (zone.kind in OWNED_KINDS and zone.owner is not None) or \
                zone.id == SETTLEMENT:
            continue
        owner = f" ({table.names[zone.owner]})" if zone.owner is not None and \
            zone.owner < len(table.names) else ""
        note = f" ({zone.note})" if zone.note and zone.kind != "meld" else ""
        if zone.kind == "discard":
            top = zone.cards[-1] if zone.cards else "empty"
            parts.append(f"{zone.label}: {top} ({plural(zone.count or 0, 'card')})")
        elif zone.kind == "stock":
            parts.append(f"{zone.label}: {plural(zone.count or 0, 'card')}")
        elif zone.cards is None and not zone.count:
            parts.append(f"{zone.label}{owner}{note}")
        else:
            parts.append(f"{zone.label}{owner}: {_cards_text(zone)}{note}")
    return " · ".join(parts)


def table_lines(table: Table, me: int, by_rank: bool = False, *,
                seat_notes: Sequence[str] = (), hand_note: str = "") -> list[str]:
    """The whole table for seat ``me``: a line a seat with its melds under it, the middle, the
    hand (face up, sorted, with ``hand_note``), and what the moment asks; ``seat_notes`` are a
    word a seat (a touch's)."""
    lines = []
    actors = set(table.moment.actors)
    for seat, name in enumerate(table.names):
        mark = "▶ " if seat == table.moment.turn and table.moment.phase != "over" else \
            "· " if seat in actors else "  "
        note = seat_notes[seat] if seat < len(seat_notes) else ""
        head = f"{mark}{name}: {seat_text(table, seat, note)}"
        hand = hand_of(table, seat)
        if seat != me and hand is not None and hand.cards is not None:
            head += f" · shows {_cards_text(hand, by_rank, sort=True)}"
        lines.append(head)
        melds = zones_of(table, seat, ("meld",))
        if melds:
            lines.append("      " + "   ".join(f"{z.note or z.label} {_cards_text(z)}"
                                               for z in melds))
    loose = [z for z in table.zones if z.kind == "meld" and z.owner is None]
    if loose:
        lines.append("Table: " + "   ".join(f"{z.note or z.label} {_cards_text(z)}"
                                            for z in loose))
    middle = middle_text(table)
    if middle:
        lines.append(middle)
    mine = hand_of(table, me)
    if mine is not None:
        note = f" · {hand_note}" if hand_note else ""
        lines.append(f"{mine.label}: {_cards_text(mine, by_rank, sort=True)}{note}")
    if table.moment.prompt:
        lines.append(table.moment.prompt)
    return lines


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` broken at spaces to ``width`` columns (never inside a word), each later part
    indented two columns more than the line.

    >>> wrap_line("  Trick: As 7d (Bot1 You) · Stock: 22 cards", 24)
    ['  Trick: As 7d (Bot1', '    You) · Stock: 22', '    cards']
    """
    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip(" "))]
    return textwrap.wrap(line, max(width, len(indent) + 12), initial_indent="",
                         subsequent_indent=indent + "  ", break_long_words=False,
                         break_on_hyphens=False, drop_whitespace=True) or [line]
