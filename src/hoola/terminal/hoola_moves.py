"""From keys and picked cards to legal actions, and actions told in words, for one player's view.

Everything here reads a :class:`~hoola.games.hoola.views.View` only: what the person may know.

>>> from hoola.games.hoola import DealState, Rules
>>> from hoola.core.cards import parse_cards
>>> from hoola.games.hoola.deal import Deal
>>> rules = Rules.preset("pagat")
>>> deal = Deal.explicit(rules, [parse_cards("3c 4c 5c 9s 9h Kd Qd"),
...                              parse_cards("As 2s 3s 4s 5s 6s 8s")], parse_cards("9d")[0])
>>> view = DealState.new(rules, ["You", "Bot"], deal=deal).view(0)
>>> [describe(a, view).plain.split() for a in candidates(view, "take", [])]
[['take', '9♦', 'with', '9♠', '9♥']]
>>> why_not(view, "meld", [])
'Draw first (d) or take the discard (t); then you may meld.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from hoola.core.cards import JOKER, SEVEN, card_mask
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Drop,
    Knock,
    NewMeld,
    Play,
    Sevens,
    Take,
)
from hoola.games.hoola.melds import Meld, find_adds, find_melds
from hoola.games.hoola.scoring import blast_kind, blast_points, hand_points
from hoola.games.hoola.views import View
from hoola.terminal.cardface import card_chip, card_label, chips, meld_chips

__all__ = [
    "VERBS",
    "HandStatus",
    "candidates",
    "describe",
    "hand_status",
    "log_line",
    "next_step",
    "why_not",
]

VERBS: dict[str, type[Action]] = {
    "draw": Draw, "take": Take, "meld": NewMeld, "add": Add, "discard": Discard, "knock": Knock,
    "blast": Blast, "sevens": Sevens, "play": Play, "drop": Drop,
}


def _is_sub(small: Sequence[int], big: Sequence[int]) -> bool:
    return not Counter(small) - Counter(big)


def candidates(view: View, verb: str, picked: Sequence[int]) -> list[Action]:
    """The legal actions of kind ``verb`` that fit the picked cards (all of them if none picked)."""
    kind = VERBS[verb]
    found = [a for a in view.legal if type(a) is kind]
    if kind is NewMeld:
        return [a for a in found if isinstance(a, NewMeld)
                and (not picked or sorted(a.cards) == sorted(picked))]
    if kind is Take:
        return [a for a in found if isinstance(a, Take)
                and (not picked or (a.purpose is None and _is_sub(picked, a.with_cards)))]
    if kind is Add:
        return [a for a in found if isinstance(a, Add)
                and (not picked or (len(picked) == 1 and a.card == picked[0]))]
    if kind is Discard:
        return [a for a in found if isinstance(a, Discard)
                and len(picked) == 1 and a.card == picked[0]]
    return found


def _target(view: View, action: Add) -> Meld | None:
    for meld in view.melds:
        if meld.id == action.meld_id or (action.on is not None and action.on in meld.cards):
            return meld
    return None


def describe(action: Action, view: View) -> Text:
    """An action in words with its cards drawn (for the person's own choices)."""
    match action:
        case Draw():
            return Text("draw from the stock")
        case Take(card=card, purpose=purpose) if purpose:
            return Text.assemble("take ", card_chip(card), f" for a {purpose}")
        case Take(card=card, with_cards=with_cards, joker_as=joker_as):
            faces = [card_chip(c, joker_as if c == JOKER else None) for c in with_cards]
            return Text.assemble("take ", card_chip(card), " with ", Text(" ").join(faces))
        case NewMeld(cards=cards, joker_as=joker_as):
            faces = [card_chip(c, joker_as if c == JOKER else None) for c in cards]
            return Text.assemble("meld ", Text(" ").join(faces))
        case Add(card=card, joker_as=joker_as):
            meld = _target(view, action)
            owner = "" if meld is None else (
                "your " if meld.owner == view.player else f"{view.names[meld.owner]}'s ")
            where = Text.assemble(f"{owner}", meld_chips(meld)) if meld else Text("the table")
            return Text.assemble("add ", card_chip(card, joker_as), " to ", where)
        case Discard(card=card):
            return Text.assemble("discard ", card_chip(card))
        case Knock():
            return Text("knock (end play: fewest points wins)")
        case Blast():
            return Text("blast (end play with your seven cards)")
        case Sevens():
            return Text("show four sevens (end play and win)")
        case Play():
            return Text("play this deal")
        case Drop():
            return Text("drop out of this deal")
    return Text(action.verb)


def log_line(action: Action, view: View, drawn: int | None = None) -> Text:
    """A public action as the deal's log tells it; ``drawn`` is the card the person drew."""
    who = "You" if action.player == view.player else view.names[action.player]
    mine = action.player == view.player
    match action:
        case Draw():
            if mine and drawn is not None:
                return Text.assemble(f"{who} drew ", card_chip(drawn))
            return Text(f"{who} {'draw' if mine else 'draws'} from the stock")
        case Take(card=card, purpose=purpose) if purpose:
            return Text.assemble(Text(f"{who}: Thank you! ", style="bold yellow"), "takes ",
                                 card_chip(card), f" for a {purpose}")
        case Take(card=card, with_cards=with_cards):
            return Text.assemble(Text(f"{who}: Thank you! ", style="bold yellow"),
                                 "take " if mine else "takes ", card_chip(card), " with ",
                                 chips(with_cards))
        case NewMeld(cards=cards, joker_as=joker_as):
            faces = [card_chip(c, joker_as if c == JOKER else None) for c in cards]
            return Text.assemble(f"{who} {'meld' if mine else 'melds'} ", Text(" ").join(faces))
        case Add(card=card, joker_as=joker_as):
            meld = next((m for m in view.melds if card in m.cards), None)
            if meld is None:
                owner = "a meld"
            elif meld.owner == view.player:
                owner = "your meld"
            elif meld.owner == action.player:
                owner = "their own meld"
            else:
                owner = f"{view.names[meld.owner]}'s meld"
            return Text.assemble(f"{who} {'add' if mine else 'adds'} ", card_chip(card, joker_as),
                                 f" to {owner}")
        case Discard(card=card):
            return Text.assemble(f"{who} {'discard' if mine else 'discards'} ", card_chip(card))
        case Knock():
            return Text(f"{who} {'knock' if mine else 'knocks'}!", style="bold")
        case Blast():
            return Text(f"{who} {'blast' if mine else 'blasts'}!", style="bold")
        case Sevens():
            return Text(f"{who} {'show' if mine else 'shows'} four sevens!", style="bold")
        case Play():
            return Text(f"{who} {'play' if mine else 'plays'} this deal")
        case Drop():
            return Text(f"{who} {'drop' if mine else 'drops'} out of this deal")
    return Text(f"{who} {action.verb}")


@dataclass(frozen=True, slots=True)
class HandStatus:
    """What the person's hand is worth and what it allows."""

    points: int
    knock_limit: int | None
    may_knock: bool
    blast: str | None
    blast_possible: bool
    blast_points: int
    meld_cards: frozenset[int]
    add_cards: frozenset[int]
    take_cards: frozenset[int]
    melds: tuple[tuple[int, ...], ...]

    def summary(self) -> Text:
        """``23 points · knock at 10 or less · blast: no``."""
        parts = [Text(f"{self.points} points", style="bold")]
        if self.may_knock:
            parts.append(Text("you may knock (k)", style="bold green"))
        elif self.knock_limit is not None:
            parts.append(Text(f"knock at {self.knock_limit} or less"))
        if self.blast:
            parts.append(Text(f"blast ready: {self.blast} (b)", style="bold green"))
        elif self.blast_possible:
            parts.append(Text("blast: no"))
        return Text(" · ").join(parts)


def hand_status(view: View) -> HandStatus:
    """Points in hand, knock and blast chances, and the cards that would meld, add or take."""
    rules, me = view.rules, view.player
    mask = card_mask(view.hand)
    jokers = sum(1 for c in view.hand if c == JOKER)
    points = hand_points(mask, jokers, rules, True)
    limit: int | None = None
    if rules.knocks and rules.knock_rule == "limit":
        limit = rules.knock_limit_for(sum(view.in_deal))
    blast_possible = rules.blasts and not view.melded[me] and len(view.hand) == 7
    blast = blast_kind(mask, jokers, rules) if blast_possible else None
    my_turn_melds = [a for a in view.legal if isinstance(a, NewMeld)]
    if my_turn_melds:
        melds = [a.cards for a in my_turn_melds]
    else:
        melds = [cards for cards, _ in find_melds(mask, jokers, rules)]
    adds = [a.card for a in view.legal if isinstance(a, Add)]
    if not adds and (view.own_meld[me] or not rules.lay_off_needs_own_meld):
        adds = [card for card, _, _ in find_adds(mask, jokers, view.melds, rules)]
    takes = [c for a in view.legal if isinstance(a, Take) for c in a.with_cards]
    return HandStatus(
        points=points, knock_limit=limit, may_knock=any(isinstance(a, Knock) for a in view.legal),
        blast=blast, blast_possible=blast_possible, blast_points=blast_points(mask, rules),
        meld_cards=frozenset(c for m in melds for c in m), add_cards=frozenset(adds),
        take_cards=frozenset(takes), melds=tuple(sorted(set(melds), key=lambda m: (-len(m), m))))


def _has(view: View, kind: type[Action]) -> bool:
    return any(type(a) is kind for a in view.legal)


def next_step(view: View, asked: bool) -> str:
    """What the person may do now, in one line with the keys."""
    if view.phase == "over":
        return "Play has ended."
    if not asked:
        if view.phase == "choose":
            return f"{view.names[view.current]} is choosing whether to play."
        return f"{view.names[view.current]} to play. Wait for your turn."
    if view.phase == "choose":
        if not _has(view, Play):
            return "Five are playing this deal already: you must drop out (o)."
        if not _has(view, Drop):
            return "Too many have dropped out: you must play this deal (p)."
        return "Play this deal (p) or drop out (o)?"
    if view.can_pass:
        if _has(view, Take):
            return "Thank you? Take the discard (t), or let it go (Esc)."
        return "You may show four sevens (v), or wait (Esc)."
    if not view.drawn:
        ends = [k for k, kind in (("k knock", Knock), ("b blast", Blast), ("v sevens", Sevens))
                if _has(view, kind)]
        take = " or take the discard (t)" if _has(view, Take) else ""
        extra = f"; or end play: {', '.join(ends)}" if ends else ""
        return f"Your turn: draw (d){take}{extra}."
    steps = []
    if _has(view, NewMeld):
        steps.append("meld (m)")
    if _has(view, Add):
        steps.append("add (a)")
    if _has(view, Sevens):
        steps.append("show sevens (v)")
    first = ", ".join(steps)
    if not _has(view, Discard):
        return f"Go on: {first}." if first else "Go on."
    lead = f"You may {first}; then " if first else "Now "
    return f"{lead}pick a card (1-{len(view.hand)}) and discard it (x)."


def why_not(view: View, verb: str, picked: Sequence[int]) -> str:
    """Why no legal action of kind ``verb`` fits the picked cards, in one sentence."""
    me, rules = view.player, view.rules
    names = " ".join(card_label(c) for c in picked)
    if view.phase == "over":
        return "Play has ended."
    if not view.legal:
        return f"It is {view.names[view.current]}'s turn, not yours."
    if view.phase == "choose":
        if verb == "play":
            return "Five are playing this deal already: you must drop out (o)."
        if verb == "drop":
            return "Too many have dropped out: you must play this deal (p)."
        return "First choose: play this deal (p) or drop out (o)."
    my_turn = view.is_my_turn
    if verb == "draw":
        if not my_turn:
            return "It is not your turn: you can only claim the discard (t) or let it go (Esc)."
        return "You have drawn already: meld (m), add (a) or discard (x)."
    if verb in ("meld", "add", "discard") and (not my_turn or not view.drawn):
        return "Draw first (d) or take the discard (t); then you may " + verb + "."
    if verb == "meld":
        if not picked:
            return "Your cards hold no meld now (three of a kind, three in a row in a suit, " \
                   "or a seven)."
        return f"{names} is not a meld you can lay down: a meld is three of a kind, three in a " \
               "row of one suit (K-A-2 turns the corner), or a lone seven."
    if verb == "add":
        if rules.lay_off_needs_own_meld and not view.own_meld[me]:
            return "You may add to the table only after laying down a meld of your own."
        if len(picked) > 1:
            return "Pick one card to add (one number key), then press a."
        if not picked:
            return "None of your cards fits a meld on the table."
        return f"{names} fits no meld on the table."
    if verb == "discard":
        if len(picked) != 1:
            return "Pick exactly one card with its number key, then press x to discard it."
        return f"You cannot discard {names} now."
    if verb == "take":
        top = view.discards[-1] if view.discards else None
        if top is None or (not view.claim_open and not (my_turn and view.upcard_live)):
            return "There is no discard to take now."
        if view.drawn:
            return "You have drawn already: the discard can be taken only instead of drawing."
        label = card_label(top)
        if picked:
            return f"{label} makes no new meld with {names}."
        return f"{label} makes no new three-card meld with your cards, so it cannot be taken."
    if verb == "knock":
        if not rules.knocks:
            return "Knocking is not played under these rules."
        if not my_turn or view.drawn:
            return "You may knock only at the start of your turn, before drawing."
        status = hand_status(view)
        if status.knock_limit is None:
            return "Only the dealer holding one card may stop the play under these rules."
        return f"You may knock with {status.knock_limit} points or less; you hold {status.points}."
    if verb == "blast":
        if not rules.blasts:
            return "Blasts are not played under these rules."
        if view.melded[me] or len(view.hand) != 7:
            return "A blast needs all seven cards in hand, nothing melded."
        if not my_turn or view.drawn:
            return "You may blast only at the start of your turn, before drawing."
        status = hand_status(view)
        return f"A blast needs {rules.blast_low} points or less, or {rules.blast_high} or " \
               f"more (sevens count {rules.seven_value_blast}); you hold {status.blast_points}."
    if verb == "sevens":
        held = sum(1 for c in view.hand if c != JOKER and c % 13 == SEVEN)
        if not rules.four_sevens:
            return "Four sevens do not end play under these rules."
        if held < 4:
            return f"Four sevens need all four sevens in your hand; you hold {held}."
        return "You may show four sevens only at the start of your turn under these rules."
    return f"You cannot {verb} now."
