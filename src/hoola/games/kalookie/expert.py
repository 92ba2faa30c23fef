"""Kalookie's expert: rule-based play the way a good club player plays, from the view alone.

It plans each turn with :func:`~.expert_plan.plan_lays` (the melds and builds that shed the most,
calling up whenever it can) and chooses only among ``view.legal``:

- **the initial meld**: it keeps the cards that build toward it, opens as soon as it can, and
  holds back when one card short of a kalookie (every card melded but one, so the next draw wins
  the higher stake) while nobody is close to going out;
- **drawing**: it takes the discard when the card is laid at once (a meld, a build, the opening,
  within ruling 8), a joker always, and otherwise draws;
- **jokers**: spent only when they let natural cards go down; released from the table when the
  hand holds the card (or suits) that win one back and the joker can be laid usefully, and laid
  where nobody can win them back (a closed set, a dead end) when the others are close to out;
- **discarding**: the card that helps its hand least, weighing its points (more as the others
  near the end) against the live cards that would complete it, and holding back what the next
  player could take: a card for the table's melds, one that frees a joker, the ranks and suits
  they took from the pile;
- **buying in** when the chance of taking the pool, judged from everyone's room under the target,
  is worth the money; **warning** whenever allowed; Scarne's **upcard swap** when the upcard
  completes a meld.

:meth:`ExpertBot.explain` gives the choice with a one-sentence reason; :meth:`ExpertBot.act`
makes the same choice. It uses no random source: the seed only keeps the bot interface.

>>> from hoola.games.kalookie import GAME
>>> state = GAME.new_deal(GAME.rules("british"), ["A", "B"], seed=1)
>>> action, why = ExpertBot().explain(state.view(1))
>>> action in state.legal_actions(1), why.endswith(".")
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from hoola.core.cards import format_card
from hoola.core.words import phrases, reason, say
from hoola.games.kalookie.actions import (
    Action,
    Add,
    BuyIn,
    Discard,
    Draw,
    NewMeld,
    Retire,
    Swap,
    SwapUpcard,
    Take,
    Warn,
)
from hoola.games.kalookie.amounts import format_number
from hoola.games.kalookie.cards import JOKER, NAMED, counts_of, format_token, format_tokens
from hoola.games.kalookie.expert_know import Knowledge
from hoola.games.kalookie.expert_plan import CARD_BONUS, Lay, Plan, plan_lays
from hoola.games.kalookie.melds import Meld, new_meld, release
from hoola.games.kalookie.turns import Turn, slots_for
from hoola.games.kalookie.views import View

if TYPE_CHECKING:
    pass

__all__ = ["ExpertBot"]

Choice = tuple[Action | None, str]

phrases({
    "hint.nothing": "There is nothing to do now.",
    "hint.only": "This is the only thing to do.",
    "kalookie.hint.warn": "Warn that you hold {n} cards: without it you may not call up on your "
                          "next turn (ruling 10).",
    "kalookie.hint.warn-one": "Warn that you hold 1 card: without it you may not call up on "
                              "your next turn (ruling 10).",
    "kalookie.hint.let-go": "Let it go: nothing is worth doing before your turn.",
    "kalookie.hint.draw-no-open": "Draw from the stock: {card} cannot make your initial meld "
                                  "this turn, so it may not be taken (ruling 8).",
    "kalookie.hint.draw": "Draw from the stock.",
    "kalookie.hint.take-joker": "Take the joker: it stands for any card you need.",
    "kalookie.hint.draw-alone": "Draw from the stock: {card} goes with nothing in your hand.",
    "kalookie.hint.take-out": "Take {card}: with it every card but one goes down this turn.",
    "kalookie.hint.take-opens": "Take {card}: it makes your initial meld{lay}.",
    "kalookie.hint.take-completes": "Take {card}: it completes a meld{lay}.",
    "kalookie.hint.lay-shown": " ({cards})",
    "kalookie.hint.lay-shown-on": " ({cards} on m{id})",
    "kalookie.hint.draw-no-meld": "Draw from the stock: {card} would not go down in a meld.",
    "kalookie.hint.meld": "Meld {cards}: {why}.",
    "kalookie.hint.add": "Add {card} on m{id}: {why}.",
    "kalookie.why.kalookie": "a kalookie: the whole hand goes down this turn",
    "kalookie.why.call-up": "every card but one goes down this turn, calling up",
    "kalookie.why.opening": "your initial meld, {need} points or more, goes down this turn",
    "kalookie.why.joker-back": "the released joker goes back into play",
    "kalookie.why.sheds": "it sheds {points} points from your hand",
    "kalookie.why.must-go": "it must go down this turn",
    "kalookie.why.taken": "{card}, taken from the discards, must go down this turn",
    "kalookie.why.one-left": "with it on the table one card is left to call up",
    "kalookie.why.joker-costs": "someone may go out soon, and a joker left in hand costs "
                                "{points} points",
    "kalookie.hint.swap": "Swap {cards} for the joker on m{id}: the cards leave your hand and "
                          "the joker goes straight into a meld (ruling 7).",
    "kalookie.hint.owed": "{who} still owes a lay this turn, and this one keeps the turn able "
                          "to end.",
    "kalookie.hint.discard-last-kalookie": "Discard {card}, your last card: a kalookie.",
    "kalookie.hint.discard-last-call-up": "Discard {card}, your last card: calling up.",
    "kalookie.hint.discard": "Discard {card}: {why}.",
    "kalookie.why.wait": "your initial meld waits: every other card is melded, and one more "
                         "card for those melds would make a kalookie",
    "kalookie.why.hold": "it fits none of your melds, which stay in hand until you can call up, "
                         "giving the others nowhere to build",
    "kalookie.why.helps-next": "{other} could help the next player, so {card} goes instead",
    "kalookie.why.costly": "someone may go out soon, and {card} would cost {points} points",
    "kalookie.why.least-useful": "it is the least useful card outside your melds",
    "kalookie.why.fits-none": "it fits no meld, and few live cards would complete one with it",
    "kalookie.hint.break": "Discard {card}: every card sits in a meld, and this one costs the "
                           "hand least.",
    "kalookie.hint.swap-upcard": "Swap the upcard {card} for {other}: it completes a meld.",
    "kalookie.hint.keep-hand": "Keep your hand: the upcard {card} completes no meld.",
    "kalookie.hint.buy-in": "Buy in: back to {points} points with about a {chance}% chance at a "
                            "pool of {pool} is worth the {stake} it costs.",
    "kalookie.hint.retire": "Retire: about a {chance}% chance at a pool of {pool} is not worth "
                            "the {stake} a buy-in costs.",
})

TAKE_GAIN = CARD_BONUS + 1.5  # plan score a taken card must add (a laid two adds 6)
POT_WEIGHT = 2.5     # penalty points one live completing card is worth in hand
PEN_BASE = 0.3       # weight of a card's points when discarding, nobody near out ...
PEN_THREAT = 1.5     # ... and how much it grows with the chance someone goes out
WAIT_THREAT = 0.15   # most chance of someone going out worth waiting a turn for a kalookie
WAIT_OUTS = 0.15     # least share of unseen cards that would then make the kalookie
DUMP_THREAT = 0.45   # chance of someone going out at which held jokers go down
HOLD_THREAT = 0.3    # chance of someone going out at which held melds go down
HEADROOM = 20        # penalty points a player at the target still has in them (buy-ins)


class ExpertBot:
    """Rule-based Kalookie from the view: see the module's docstring for what it does and why."""

    name = "expert"
    budget_seconds = 0.01  # the stated time budget of one decision (it takes far less)

    def __init__(self, seed: int | None = None, *, wait_for_kalookie: bool = True,
                 hold_melds: bool = True) -> None:
        self.seed = seed  # unused: the expert is deterministic, the seed keeps the bot interface
        self.wait_for_kalookie = wait_for_kalookie
        self.hold_melds = hold_melds

    def act(self, view: View) -> Action | None:
        """The expert's choice among ``view.legal`` (None: let a warning or a swap go)."""
        return self.explain(view)[0]

    def explain(self, view: View) -> Choice:
        """The expert's choice and a one-sentence reason in plain English."""
        legal = view.legal
        if not legal:
            return None, reason("hint.nothing")
        if view.phase == "decide":
            return _buy_in(view)
        for a in legal:
            if isinstance(a, Warn):
                size = view.hand_sizes[view.player]
                return a, reason("kalookie.hint.warn" if size > 1 else "kalookie.hint.warn-one",
                                 n=size)
        know = Knowledge(view)
        if view.current != view.player:
            if any(isinstance(a, SwapUpcard) for a in legal):
                return _swap_upcard(view, know)
            if view.can_pass:
                return None, reason("kalookie.hint.let-go")
            return legal[0], reason("hint.only")
        if not view.drawn:
            return _draw(view, know)
        return _play(view, know, self.wait_for_kalookie, self.hold_melds)


# -- plans from the view ----------------------------------------------------------------------

def _counts(cards: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    counts = counts_of(cards)
    return tuple(counts[:52]), counts[JOKER]


def _lay_plan(view: View, cards: tuple[int, ...], turn: Turn,
              melds: Sequence[Meld] | None = None) -> Plan | None:
    """What the player would lay now holding ``cards`` at ``turn`` (None: the turn is stuck)."""
    rules = view.rules
    opened = view.opened[view.player]
    counts, jokers = _counts(cards)
    table = view.melds if melds is None else melds
    slots = tuple(slots_for(table, turn, rules))
    return plan_lays(counts, jokers + turn.loose, turn.loose, slots, rules, opened=opened,
                     need=max(rules.initial_meld - turn.value, 0), made=turn.made,
                     require=turn.opening(opened) or turn.must_open,
                     min_left=2 if view.player in view.barred else 1)


def _structure(view: View, cards: tuple[int, ...], turn: Turn) -> Plan:
    """The melds the hand holds and its deadwood, whatever the initial meld says."""
    rules = view.rules
    opened = view.opened[view.player]
    counts, jokers = _counts(cards)
    slots = tuple(slots_for(view.melds, turn, rules)) if opened else ()
    plan = plan_lays(counts, jokers + turn.loose, turn.loose, slots, rules, opened=opened,
                     need=rules.initial_meld, structure=True)
    assert plan is not None  # a structure plan always exists: keeping every card
    return plan


def _gain(before: Plan | None, after: Plan | None) -> float:
    return (after.score if after else 0.0) - (before.score if before else 0.0)


# -- drawing ----------------------------------------------------------------------------------

def _draw(view: View, know: Knowledge) -> Choice:
    legal = view.legal
    draw = next(a for a in legal if isinstance(a, Draw))
    take = next((a for a in legal if isinstance(a, Take)), None)
    opened = view.opened[view.player]
    if take is None:
        if not opened and not view.first and view.discards:
            return draw, reason("kalookie.hint.draw-no-open",
                                card=format_card(view.discards[-1]))
        return draw, reason("kalookie.hint.draw")
    top = view.discards[-1]
    name = format_card(top)
    if top == JOKER:
        return take, reason("kalookie.hint.take-joker")
    if not _related(view, know, top):
        return draw, reason("kalookie.hint.draw-alone", card=name)
    rules = view.rules
    fresh = Turn(opened_before=opened)
    with_top = (*view.hand, top)
    taking = fresh._replace(must_open=not opened and not view.first,
                            must_lay=top if rules.discard_take == "meld-at-once" else None)
    after = _lay_plan(view, with_top, taking)
    if after is not None and after.goes_out:
        return take, reason("kalookie.hint.take-out", card=name)
    if opened:
        gain = _gain(_lay_plan(view, view.hand, fresh), after)
        laid = after is not None and after.left.count(top) < with_top.count(top)
    elif taking.must_open or taking.must_lay is not None:
        # Taking binds the player to open now: worth it if the card opens a hand that could
        # not open without it, or adds to an opening it could make anyway.
        could = _lay_plan(view, view.hand, fresh._replace(must_open=True))
        gain = _gain(could, after) if could is not None else TAKE_GAIN
        laid = after is not None and after.left.count(top) < with_top.count(top)
    else:  # the first turn: the upcard is free, and a meld need not go down yet
        after = _structure(view, with_top, fresh)
        gain = _gain(_structure(view, view.hand, fresh), after)
        laid = after.left.count(top) < with_top.count(top)
    if laid and gain >= TAKE_GAIN:
        lay = next((x for x in (after.lays if after else ()) if top in x.tokens), None)
        shown = "" if lay is None else say("kalookie.hint.lay-shown",
                                           cards=format_tokens(lay.tokens)) if lay.is_meld \
            else say("kalookie.hint.lay-shown-on", cards=format_tokens(lay.tokens),
                     id=lay.meld_id)
        what = "opens" if not opened and taking.must_open else "completes"
        return take, reason(f"kalookie.hint.take-{what}", card=name, lay=shown)
    return draw, reason("kalookie.hint.draw-no-meld", card=name)


def _related(view: View, know: Knowledge, card: int) -> bool:
    """Whether ``card`` could meld with the hand or the table (a quick test before planning)."""
    hand = know.hand
    rank, suit = card % 13, card // 13
    if any(hand[s * 13 + rank] for s in range(4) if s != suit) or \
            (view.rules.identical_sets and hand[card]):
        return True
    if any(hand[suit * 13 + r] for r in range(13) if r != rank and
           min(abs(r - rank), 13 - abs(r - rank)) <= 2):
        return True
    builds = view.opened[view.player] or view.rules.initial_counts_builds
    return builds and know.fits_table(card)


# -- the turn after drawing -------------------------------------------------------------------

def _play(view: View, know: Knowledge, may_wait: bool, may_hold: bool) -> Choice:
    me, turn, legal = view.player, view.turn, view.legal
    opened = view.opened[me]
    can_discard = any(isinstance(a, Discard) for a in legal)
    if opened and any(isinstance(a, Swap) for a in legal):
        choice = _release(view)
        if choice is not None:
            return choice
    plan = _lay_plan(view, view.hand, turn)
    wait = hold = False
    if plan is not None and plan.lays:
        under_way = opened or turn.opening(opened) or plan.goes_out
        wait = may_wait and not under_way and _should_wait(view, know, plan)
        # Once opened, melds laid early only give the others places to build: they stay in
        # hand until they call up, or until someone may go out first and catch them there.
        hold = may_hold and opened and not plan.goes_out and know.threat < HOLD_THREAT
        if hold and not can_discard:  # a taken card or a released joker still owed
            owed = [x for x in plan.lays if turn.must_lay in x.tokens
                    or (turn.loose and any(t >= JOKER for t in x.tokens))]
            step = _step(view, plan, owed) if owed else None
            if step is not None:
                return step
        if (not wait and not hold) or not can_discard:
            step = _step(view, plan)
            if step is not None:
                return step
    hand_jokers = view.hand.count(JOKER)
    placing = turn.loose > 0 or (plan is not None and plan.goes_out and len(view.hand) > 1
                                 and hand_jokers > 0)
    dumping = opened and hand_jokers > 0 and know.threat >= _dump_threat(view)
    if placing or dumping:
        choice = _place_joker(view, know, placing)
        if choice is not None:
            return choice
    if not can_discard:
        return _obligation(view)
    # Once opened, the lay plan is the hand's structure: what it keeps is the deadwood.
    deadwood = plan.left if plan is not None and (wait or opened) else None
    return _discard(view, know, deadwood, "wait" if wait else "hold" if hold else "")


def _step(view: View, plan: Plan, lays: Sequence[Lay] | None = None) -> Choice | None:
    """The plan's next lay (of ``lays``, by default all) that the engine allows: new melds,
    biggest first, then builds."""
    legal = set(view.legal)
    me = view.player
    rules = view.rules
    opened = view.opened[me]
    lays = plan.lays if lays is None else lays
    melds = sorted((x for x in lays if x.is_meld),
                   key=lambda x: -sum(rules.card_value(t) for t in x.tokens if t < JOKER))
    for lay in (*melds, *(x for x in lays if not x.is_meld)):
        action: Action = NewMeld(me, lay.tokens) if lay.is_meld else \
            Add(me, lay.tokens[0], meld_id=lay.meld_id)
        if action not in legal:
            continue
        if plan.goes_out:
            why = say("kalookie.why.kalookie") if not view.turn.opened_before \
                else say("kalookie.why.call-up")
        elif not opened:
            why = say("kalookie.why.opening", need=rules.initial_meld)
        elif view.turn.loose and any(t >= JOKER for t in lay.tokens):
            why = say("kalookie.why.joker-back")
        elif (owed := _owed_card(view, lay)) is not None:
            # Laid because the taken card must be (meld-at-once), not to shed points: the rest
            # of the melds may stay in hand.
            why = say("kalookie.why.taken", card=format_token(owed))
        else:
            why = say("kalookie.why.sheds",
                      points=sum(rules.card_value(t) for t in lay.tokens if t < JOKER))
        if lay.is_meld:
            return action, reason("kalookie.hint.meld", cards=format_tokens(lay.tokens), why=why)
        return action, reason("kalookie.hint.add", card=format_token(lay.tokens[0]),
                              id=lay.meld_id, why=why)
    return None


def _owed_card(view: View, lay: Lay) -> int | None:
    """The card taken this turn that must be laid at once, if ``lay`` puts it down now (a build
    puts down its first card)."""
    must = view.turn.must_lay
    laid = lay.tokens if lay.is_meld else lay.tokens[:1]
    if must is not None and any(t == must or (t >= JOKER and must == JOKER) for t in laid):
        return must
    return None


def _should_wait(view: View, know: Knowledge, plan: Plan) -> bool:
    """Hold the initial meld back for a kalookie: every card melded but one after this discard,
    at a stake worth waiting for, with enough cards left that would complete it (a card for one
    of its melds or the table's, a joker), while nobody is likely to go out first."""
    rules = view.rules
    premium = (rules.scoring == "pool" and rules.kalookie_stake > rules.call_up) \
        or rules.scoring == "cards" or rules.kalookie_double_penalties
    if not premium or plan.cards_left != 2 or know.threat >= WAIT_THREAT \
            or view.stock_size <= len(view.names):
        return False
    melds = [new_meld(x.tokens, rules, owner=view.player, meld_id=0) for x in plan.lays
             if x.is_meld]
    return know.outs([*melds, *view.melds]) >= WAIT_OUTS


def _release(view: View) -> Choice | None:
    """Win a joker back when the cards that release it and the joker itself both go down."""
    turn = view.turn
    base = _lay_plan(view, view.hand, turn)
    best: tuple[float, Swap] | None = None
    for a in view.legal:
        if not isinstance(a, Swap):
            continue
        rest = list(view.hand)
        for c in a.cards:
            rest.remove(c)
        meld = next(m for m in view.melds if m.id == a.meld_id)
        table = tuple(release(meld, a.cards, view.rules) if m.id == meld.id else m
                      for m in view.melds)
        after = _lay_plan(view, tuple(rest), turn._replace(loose=turn.loose + 1), table)
        if after is None:
            continue
        gain = _gain(base, after) + sum(view.rules.card_value(c) + CARD_BONUS for c in a.cards)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, a)
    if best is None:
        return None
    a = best[1]
    return a, reason("kalookie.hint.swap", cards=format_tokens(a.cards), id=a.meld_id)


def _dump_threat(view: View) -> float:
    # Where points are paid as money a joker in hand costs more, so it goes down sooner.
    return DUMP_THREAT * (0.6 if view.rules.scoring != "pool" else 1.0)


def _place_joker(view: View, know: Knowledge, placing: bool) -> Choice | None:
    """Lay a joker where it is least likely to be won back: closing a set, at a dead end."""
    best: tuple[int, Add] | None = None
    for a in view.legal:
        if not isinstance(a, Add) or a.card < JOKER:
            continue
        meld = next(m for m in view.melds if m.id == a.meld_id)
        if meld.kind == "set":
            safety = 3 if len(meld.tokens) == 3 else 1
        else:
            face = a.card - NAMED
            safety = 2 if know.live[face] == 0 and not know.hand[face] else 1
        if best is None or safety > best[0]:
            best = (safety, a)
    if best is None:
        return None
    a = best[1]
    if placing:
        why = say("kalookie.why.must-go") if view.turn.loose else say("kalookie.why.one-left")
    else:
        why = say("kalookie.why.joker-costs", points=view.rules.joker_penalty)
    return a, reason("kalookie.hint.add", card=format_token(a.card), id=a.meld_id, why=why)


def _obligation(view: View) -> Choice:
    """A lay the turn still owes (an initial meld under way, a joker, a taken card)."""
    must = view.turn.must_lay
    rules = view.rules

    def score(a: Action) -> tuple[int, int]:
        cards = a.cards if isinstance(a, NewMeld | Swap) else \
            (a.card,) if isinstance(a, Add) else ()
        owed = (must is not None and any(c == must or (c >= JOKER and must == JOKER)
                                         for c in cards)) \
            or (view.turn.loose > 0 and any(c >= JOKER for c in cards))
        return int(owed), sum(rules.card_value(c) for c in cards if c < JOKER)

    lays = [a for a in view.legal if isinstance(a, NewMeld | Add | Swap)]
    if not lays:
        return view.legal[0], reason("hint.only")
    a = max(lays, key=score)
    return a, reason("kalookie.hint.owed", who=view.names[view.player])


# -- discarding -------------------------------------------------------------------------------

def _discard_scores(view: View, know: Knowledge, cards: tuple[int, ...],
                    candidates: list[int]) -> list[tuple[float, int]]:
    """(score, card) for each candidate: the higher, the better to throw away."""
    rules = view.rules
    weight = PEN_BASE + PEN_THREAT * know.threat + (0.3 if rules.scoring == "points" else 0.0)
    hope = POT_WEIGHT * (1.0 - know.threat)  # outs matter less when the hand may end soon
    hand = counts_of(cards)
    out = []
    for c in candidates:
        if c == JOKER:
            out.append((-1000.0, c))
            continue
        hand[c] -= 1
        score = weight * rules.card_value(c) - hope * know.potential(c, hand) \
            - know.danger(c)
        hand[c] += 1
        out.append((score, c))
    return sorted(out, key=lambda sc: (-sc[0], sc[1]))


def _discard(view: View, know: Knowledge, deadwood: tuple[int, ...] | None,
             keeping: str = "") -> Choice:
    discards = sorted({a.card for a in view.legal if isinstance(a, Discard)})
    me = view.player
    if len(view.hand) == 1:
        how = "kalookie" if not view.turn.opened_before else "call-up"
        return Discard(me, discards[0]), reason(f"kalookie.hint.discard-last-{how}",
                                                card=format_card(discards[0]))
    if deadwood is None:
        deadwood = _structure(view, view.hand, view.turn).left
    pool = [c for c in discards if c in deadwood]
    if not pool:
        return _break_meld(view, know, discards)
    ranked = _discard_scores(view, know, view.hand, pool)
    card = ranked[0][1]
    name = format_card(card)
    worst = max(pool, key=lambda c: (view.rules.card_value(c), c))
    if keeping == "wait":
        why = say("kalookie.why.wait")
    elif keeping == "hold":
        why = say("kalookie.why.hold")
    elif worst != card and know.danger(worst) >= 3.0:
        why = say("kalookie.why.helps-next", other=format_card(worst), card=name)
    elif know.threat >= WAIT_THREAT and view.rules.card_value(card) >= 10:
        why = say("kalookie.why.costly", card=name, points=view.rules.card_value(card))
    elif deadwood and len(pool) < len(deadwood):
        why = say("kalookie.why.least-useful")
    else:
        why = say("kalookie.why.fits-none")
    return Discard(me, card), reason("kalookie.hint.discard", card=name, why=why)


def _break_meld(view: View, know: Knowledge, discards: list[int]) -> Choice:
    """Every card belongs to a meld: give up the one whose loss costs the hand least."""
    naturals = [c for c in discards if c != JOKER] or discards
    best: tuple[float, int] | None = None
    for c in naturals:
        rest = list(view.hand)
        rest.remove(c)
        score = _structure(view, tuple(rest), view.turn).score - know.danger(c)
        if best is None or score > best[0]:
            best = (score, c)
    assert best is not None
    card = best[1]
    return Discard(view.player, card), reason("kalookie.hint.break", card=format_card(card))


# -- before play and after the hand -----------------------------------------------------------

def _swap_upcard(view: View, know: Knowledge) -> Choice:
    """Scarne's dealer: take the upcard when it completes a meld, giving up the worst card."""
    up = view.discards[-1]
    fresh = Turn(opened_before=False)
    with_up = (*view.hand, up)
    struct = _structure(view, with_up, fresh)
    gain = _gain(_structure(view, view.hand, fresh), struct)
    offered = {a.card for a in view.legal if isinstance(a, SwapUpcard)}
    pool = [c for c in struct.left if c in offered and c != up]
    if (up == JOKER or gain >= TAKE_GAIN) and pool:
        card = _discard_scores(view, know, with_up, pool)[0][1]
        return SwapUpcard(view.player, card), reason("kalookie.hint.swap-upcard",
                                                     card=format_card(up),
                                                     other=format_card(card))
    if view.can_pass:
        return None, reason("kalookie.hint.keep-hand", card=format_card(up))
    return view.legal[0], reason("hint.only")


def _buy_in(view: View) -> Choice:
    """Buy in when the chance of taking the pool is worth the money (ruling 13)."""
    rules = view.rules
    me = view.player
    if not any(isinstance(a, BuyIn) for a in view.legal):
        return view.legal[0], reason("hint.only")
    n = len(view.names)
    pool = Fraction(rules.initial_stake) * n + Fraction(rules.buy_in) * (
        sum(view.standing.buy_ins) + len(view.bought))
    mine = rules.target - view.reset_to + HEADROOM
    rivals = [rules.target - view.totals[q] + HEADROOM for q in range(n)
              if q != me and view.standing.active[q] and q not in view.out
              and view.totals[q] <= rules.target]
    later = sum(1 for q in view.queue if q != me)  # may buy in too, to the same total
    chance = mine / (mine + sum(rivals) + 0.5 * later * mine)
    worth = chance * (pool + rules.buy_in) - rules.buy_in
    odds = {"chance": round(100 * chance), "pool": format_number(pool + rules.buy_in),
            "stake": format_number(rules.buy_in)}
    if worth > 0:
        return BuyIn(me), reason("kalookie.hint.buy-in", points=view.reset_to, **odds)
    return Retire(me), reason("kalookie.hint.retire", **odds)
