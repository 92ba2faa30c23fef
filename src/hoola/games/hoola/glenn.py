"""Glenn's building (ruling 21, option ``glenn_melds``): a meld as a stack with a top card.

The cards of a meld lie in the order they were placed; the last is its *top card*. The meld laid
down is the stack's base: a set or a run lies as its cards are written (a run grows upward from
its highest card), a lone seven alone. A *branch* is started on the top card: a run
(the next card up in the top card's suit) on a set's top card, a set (a card of its rank in
another suit) on a run's or a lone seven's. The branch counts that card as its own first card.

Only the *open part* takes cards: the branch started last, or the base when no branch stands.
It grows like any meld: a set takes a card of its rank in a suit it lacks (a set of sevens no
fourth seven unless ``seven_set_extend``), a run the next card in its direction, a lone seven
the 6 or 8 of its suit (a run going down or up from then on). A run's next card on a set's top
card, or a set's on a run's, starts a branch instead. A part that reaches four cards, its first
card counted, is killed (:func:`kill`): the four go to the bottom of the discard pile, and the
card beneath its first card is the top card again; a branch left with only its first card ends
there, and a meld left with no card leaves the table.

>>> from hoola.core.cards import format_cards, parse_card, parse_cards
>>> from hoola.games.hoola.melds import is_killed, new_meld
>>> from hoola.games.hoola.rules import Rules
>>> rules = Rules.preset("glenn")
>>> m = new_meld(parse_cards("9d 9h 9s"), None, rules, owner=0, meld_id=1)
>>> m = build(m, parse_card("Ts"), None, rules)
>>> top_text(m), parts_text(m)
('Ts', 'set 9d 9h 9s, run 9s Ts')
>>> m = build(build(m, parse_card("Js"), None, rules), parse_card("Qs"), None, rules)
>>> is_killed(m, rules)
True
>>> rest, dead = kill(m)
>>> str(rest), top_text(rest), format_cards(dead)
('9d 9h', '9h', '9s Ts Js Qs')
"""

from __future__ import annotations

from typing import Final, NamedTuple

from hoola.core.cards import JOKER, SEVEN, format_card, make_card
from hoola.core.errors import IllegalActionError
from hoola.core.words import Said, phrases, say
from hoola.games.hoola.meld import AddOption, Branch, Meld, MeldKind
from hoola.games.hoola.rules import Rules

__all__ = ["Places", "build", "grows_from", "kill", "parts", "parts_said", "parts_text", "places",
           "targets", "top_text"]

phrases({
    "zone.part.set": "set {cards}",
    "zone.part.run": "run {cards}",
    "zone.part.seven": "lone seven {cards}",
    "zone.parts": "{first}, {then}",
})

RULING: Final = "ruling 21"


class Places(NamedTuple):
    """Where cards go on a meld's top card: what grows its open part, what starts a branch.

    ``grows`` are the natural cards the open part takes (a set's missing suits of its rank, a
    run's next card, a lone seven's 6 and 8); ``joker_grows`` whether a joker may join it (it
    holds none). ``run_branch`` is the card a run branch starts with, ``set_branch`` the cards a
    set branch starts with; ``joker_branches`` whether a joker may start one (the top card is not
    a joker, so the branch holds none yet).
    """

    kind: MeldKind
    top: int
    grows: tuple[int, ...]
    joker_grows: bool
    run_branch: int | None
    set_branch: tuple[int, ...]
    joker_branches: bool


def _open(meld: Meld) -> tuple[int, MeldKind, int, int, int]:
    """The open part: the index of its first card, its kind, rank, suit and direction."""
    if meld.branches:
        b = meld.branches[-1]
        return b.at, b.kind, b.rank, b.suit, b.direction
    return 0, meld.kind, meld.rank, meld.suit, meld.direction


def _up(face: int, high_ace: bool, wrap: bool) -> int | None:
    """The next card up in ``face``'s suit: the ace above the king, the two above a low ace
    (above a high one only where runs wrap)."""
    rank, suit = face % 13, face // 13
    if rank == 0 and high_ace and not wrap:
        return None
    return make_card((rank + 1) % 13, suit)


def _down(face: int, wrap: bool) -> int | None:
    """The next card down in ``face``'s suit (below an ace, reached from the two, only where
    runs wrap)."""
    rank, suit = face % 13, face // 13
    if rank == 0 and not wrap:
        return None
    return make_card((rank - 1) % 13, suit)


def places(meld: Meld, rules: Rules) -> Places:
    """Where cards go on ``meld``'s top card under Glenn's building (ruling 21)."""
    at, kind, rank, suit, direction = _open(meld)
    faces = meld.faces[at:]
    top = meld.faces[-1]
    joker_grows = JOKER not in meld.cards[at:]
    grows: tuple[int, ...] = ()
    run_branch: int | None = None
    set_branch: tuple[int, ...] = ()
    if kind == MeldKind.SET:
        if rank != SEVEN or len(faces) < 3 or rules.seven_set_extend:
            taken = {f // 13 for f in faces if f >= 0}
            grows = tuple(make_card(rank, s) for s in range(4) if s not in taken)
        if top >= 0:
            run_branch = _up(top, False, rules.wrap_runs)
    elif kind == MeldKind.SEVEN:
        grows = (make_card(SEVEN - 1, suit), make_card(SEVEN + 1, suit))
    elif direction < 0:  # a run from a lone seven going down, its cards placed downward
        step = _down(top, rules.wrap_runs)
        grows = () if step is None else (step,)
    else:
        # A run grows upward from its highest card, which is its top card unless it was laid
        # down in another order (ruling 21: a meld laid down lies as written).
        # A run laid down whose last-written card a killed branch took may be left with a gap
        # (3c 5c of 3c 5c 4c): no longer a run, it grows no more (ruling 5).
        first = faces[0] % 13 if at else meld.start % 13
        spots = sorted((f % 13 - first) % 13 for f in faces)
        high = max(faces, key=lambda f: (f % 13 - first) % 13)
        high_ace = high % 13 == 0 and spots[-1] > 0
        step = _up(high, high_ace, rules.wrap_runs)
        whole = spots[-1] - spots[0] == len(spots) - 1
        grows = () if step is None or step in faces or not whole else (step,)
    if kind != MeldKind.SET and top >= 0:
        set_branch = tuple(make_card(top % 13, s) for s in range(4) if s != top // 13)
    return Places(kind, top, grows, joker_grows, run_branch, set_branch,
                  meld.cards[-1] != JOKER)


def grows_from(meld: Meld, on: int, card: int, joker_as: int | None, rules: Rules) -> bool:
    """Whether an addition that names ``on``, a card of the open part other than the top card,
    grows that part: a meld is named by any card of it (``add 6c on 5c`` grows the run laid down
    as 5c 4c 3c, whose top card is 3c), but a branch starts only on the top card."""
    at = _open(meld)[0]
    if on not in meld.cards[at:] and on not in meld.faces[at:]:
        return False
    face = joker_as if card == JOKER else card
    return face is not None and face in places(meld, rules).grows


def targets(meld: Meld, rules: Rules) -> tuple[AddOption, ...]:
    """What the meld's top card takes, as :func:`hoola.games.hoola.melds.meld_targets` lists it:
    each natural card, and a joker standing for it (a set's joker unnamed)."""
    at = places(meld, rules)
    options: list[AddOption] = []
    for c in sorted(at.grows):
        options.append((c, meld.id, None))
        if at.joker_grows and at.kind != MeldKind.SET:
            options.append((JOKER, meld.id, c))
    if at.grows and at.joker_grows and at.kind == MeldKind.SET:
        options.append((JOKER, meld.id, None))
    for c in (() if at.run_branch is None else (at.run_branch,)) + at.set_branch:
        options.append((c, meld.id, None))
        if at.joker_branches:
            options.append((JOKER, meld.id, c))
    return tuple(options)


def _name(card: int, joker_as: int | None) -> str:
    if card != JOKER:
        return format_card(card)
    return "JK" if joker_as is None else f"JK={format_card(joker_as)}"


def _refuse(card: int, joker_as: int | None, meld: Meld, why: str,
            code: str) -> IllegalActionError:
    return IllegalActionError(f"cannot add {_name(card, joker_as)} on m{meld.id}: {why}", code)


def _fits_text(meld: Meld, at: Places) -> str:
    """What the top card takes, for a refusal: ``9c (the set grows) or Ts (a run on 9s)``."""
    top = top_text(meld)
    said = [f"{format_card(c)} (the {at.kind.name.lower().replace('seven', 'lone seven')} "
            "grows)" for c in sorted(at.grows)]
    if at.run_branch is not None:
        said.append(f"{format_card(at.run_branch)} (a run built on {top})")
    if at.set_branch:
        said.append(f"{' '.join(format_card(c) for c in at.set_branch)} (a set built on {top})")
    if not said:
        return f"nothing more goes on its top card {top}"
    return f"its top card {top} takes only " + " or ".join(said)


def build(meld: Meld, card: int, joker_as: int | None, rules: Rules) -> Meld:
    """The meld with ``card`` (a joker standing for ``joker_as``) placed on its top card: grown,
    or with a branch started on it (ruling 21). The open part may then hold four cards: the
    caller kills it (:func:`kill`). Raises :class:`IllegalActionError` when the card fits
    nowhere there."""
    at = places(meld, rules)
    face = card
    if card == JOKER:
        if joker_as is not None:
            face = joker_as
        elif at.kind == MeldKind.SET and at.grows:
            face = -1  # a set's joker stands for its rank
        elif len(at.grows) == 1:
            face = at.grows[0]
        else:
            shown = " or ".join(f"JK={format_card(c)}" for c in
                                (*at.grows, *(() if at.run_branch is None else (at.run_branch,)),
                                 *at.set_branch)) or "such as JK=8h"
            raise _refuse(card, joker_as, meld, f"name the card the joker stands for ({shown})",
                          "joker-unnamed")
    if face in at.grows or face == -1:
        if card == JOKER and not at.joker_grows:
            raise _refuse(card, joker_as, meld, "the part of the meld it would join already "
                          "holds a joker (at most one joker a meld)", "two-jokers-in-meld")
        return _grown(meld, card, face)
    if face == at.run_branch or face in at.set_branch:
        if card == JOKER and not at.joker_branches:
            raise _refuse(card, joker_as, meld, f"a branch on the top card {top_text(meld)}, "
                          "a joker, would hold two jokers (at most one joker a meld)",
                          "two-jokers-in-meld")
        run = face == at.run_branch
        top = at.top
        branch = Branch(len(meld.cards) - 1, MeldKind.RUN if run else MeldKind.SET,
                        rank=-1 if run else top % 13, suit=top // 13 if run else -1,
                        direction=1 if run else 0)
        return Meld(meld.id, meld.owner, meld.kind, (*meld.cards, card), (*meld.faces, face),
                    meld.rank, meld.suit, meld.start, meld.direction, (*meld.branches, branch))
    raise _refuse(card, joker_as, meld, f"with Glenn's building {_fits_text(meld, at)} "
                  f"({RULING})", "does-not-fit")


def _grown(meld: Meld, card: int, face: int) -> Meld:
    """The open part grown by ``card`` standing for ``face`` (a lone seven becomes a run going
    the way of its first card)."""
    if meld.kind == MeldKind.SEVEN and not meld.branches:
        down = face % 13 == SEVEN - 1
        return Meld(meld.id, meld.owner, MeldKind.RUN, (*meld.cards, card),
                    (*meld.faces, face), suit=meld.suit, start=SEVEN - 1 if down else SEVEN,
                    direction=-1 if down else 1)
    return Meld(meld.id, meld.owner, meld.kind, (*meld.cards, card), (*meld.faces, face),
                meld.rank, meld.suit, meld.start, meld.direction, meld.branches)


def kill(meld: Meld) -> tuple[Meld | None, tuple[int, ...]]:
    """The meld once its open part is killed (None when no card is left) and the killed cards,
    in the order they lay: the card beneath the part's first card is the top card again, and a
    branch left with only its first card ends."""
    at = meld.branches[-1].at if meld.branches else 0
    dead = meld.cards[at:]
    cards, faces, branches = meld.cards[:at], meld.faces[:at], meld.branches[:-1]
    while branches and len(cards) - branches[-1].at < 2:
        branches = branches[:-1]
    if not cards:
        return None, dead
    return Meld(meld.id, meld.owner, meld.kind, cards, faces, meld.rank, meld.suit, meld.start,
                meld.direction, branches), dead


def parts(meld: Meld) -> tuple[Meld, ...]:
    """The meld's parts as melds of their own, base first: each branch holds its first card,
    which is also the last card of the part beneath (a meld without branches is one part)."""
    if not meld.branches:
        return (meld,)
    ends = [b.at + 1 for b in meld.branches] + [len(meld.cards)]
    found = [Meld(meld.id, meld.owner, meld.kind, meld.cards[:ends[0]], meld.faces[:ends[0]],
                  meld.rank, meld.suit, meld.start, meld.direction)]
    for b, end in zip(meld.branches, ends[1:], strict=True):
        first = meld.faces[b.at]
        found.append(Meld(meld.id, meld.owner, b.kind, meld.cards[b.at:end],
                          meld.faces[b.at:end], b.rank, b.suit,
                          first % 13 if first >= 0 else 0, b.direction))
    return tuple(found)


def top_text(meld: Meld) -> str:
    """The meld's top card in record notation (``9s``, ``JK=9c``, ``JK``)."""
    return _name(meld.cards[-1], meld.faces[-1] if meld.faces[-1] >= 0 else None)


def parts_said(meld: Meld) -> Said:
    """The meld's parts for people, base first, as words: ``set 9d 9h 9s, run 9s Ts``."""
    told = [say(f"zone.part.{p.kind.name.lower()}", cards=str(p)) for p in parts(meld)]
    listed = told[0]
    for part in told[1:]:
        listed = say("zone.parts", first=listed, then=part)
    return listed


def parts_text(meld: Meld) -> str:
    """The meld's parts for people, base first: ``set 9d 9h 9s, run 9s Ts``."""
    return parts_said(meld).text
