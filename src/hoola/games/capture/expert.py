"""The capture games' expert: rule-based play the way a good player plays, from the view alone.

Every choice is scored by what it is expected to bring the seat's side, in card points:

- the **trick's value** to the side if it wins it and if it loses it (its card points, the last
  trick's, and in Ristiklappi a queen won early that makes a side dirty and a king without a queen
  that cleans it), weighted by the **chance of winning** it, which
  :meth:`~.expert_know.Knowledge.chance` works out from the cards still out: each seat after this
  one takes over when its side finds the trick worth a taker and it holds one (a partner's shown
  hand exactly, a hidden hand by the odds), and the leader fights on the same way;
- **winning the trick** is worth something beyond its cards (the next lead, and the cards the
  others then throw onto one's own tricks): 3 card points where the leader may fight on, 25
  where a trick is one round and a single card of the led rank takes it (both measured on
  duplicate deals); the others are taken to contest a trick by the same count;
- less what the card is worth **kept** for later (:func:`keep`): a wild, more while points are
  still out; a point card a little (it can be loaded onto a sure trick later); a rank held twice
  (it fights); in Ristiklappi a queen is worth getting rid of early and a king is worth keeping
  for a dirty side.

So it loads aces and tens onto a trick its side is sure to keep, throws worthless cards onto the
opponents' tricks, spends a taker only where the points at stake pay for it, fights on or stops
as the leader by the same count, plays in the dark (Ristikontra, Ristiklappi) where a blind card
costs less than any card in hand, and in Sedmice says ``napuni`` when it takes a trick its
partner can still load, ``ubij`` when it cannot take a rich trick its partner still can, and
heeds its partner's words. The lead limit and Ristiklappi's fourth king are the engine's: the
bot chooses among ``view.legal`` only.

:meth:`ExpertBot.explain` gives the choice with a one-sentence reason. The bot uses no random
source: the seed only keeps the bot interface.

>>> from hoola.games.capture import GAME
>>> state = GAME.new_deal(GAME.rules("hola"), ["A", "B", "C", "D"], seed=1)
>>> action, why = ExpertBot().explain(state.view(1))
>>> action in state.legal_actions(1), why.endswith(".")
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hoola.core.cards import RANKS, format_card
from hoola.core.words import phrases, reason
from hoola.games.capture.actions import Action, Dark, Play, Say, Stop
from hoola.games.capture.expert_know import KING, QUEEN, Knowledge
from hoola.games.capture.views import View

phrases({
    "hint.nothing": "There is nothing to do now.",
    "hint.only": "This is the only thing to do.",
    "capture.hint.napuni": "Say napuni: your {card} should take this trick ({odds}), so your "
                           "partner can load it.",
    "capture.hint.ubij": "Say ubij: you cannot take these {points} points, so your partner "
                         "should.",
    "capture.hint.stop-ours": "Stop: your side is winning the trick and takes it now.",
    "capture.hint.stop-costly": "Stop: fighting on for a trick worth {points} points costs more "
                                "than it is likely to win.",
    "capture.hint.dark": "Play in the dark: a blind card is worth more here than any card in "
                         "hand (your side then takes the trick {odds}).",
    "capture.hint.fight": "Fight on with {card}: {points} points at stake and your side should "
                          "win ({odds}).",
    "capture.hint.fight-try": "Fight on with {card}: {points} points at stake are worth the try "
                              "({odds} to win).",
    "capture.hint.lead-safe": "Lead {card}: its {points} points are safe, the others are "
                              "unlikely to take it ({odds} to keep it).",
    "capture.hint.lead-spare": "Lead {card}: its {points} points may be lost ({odds} to keep "
                               "it), but your other cards are worth more kept.",
    "capture.hint.lead-cheap": "Lead {card}: a card worth little, keeping your wilds and points "
                               "for later.",
    "capture.hint.lead-wild": "Lead {card}: a wild, which only its rank or another wild takes "
                              "({odds} to keep it).",
    "capture.hint.take-cheap": "Take with {card}: the lead is worth a cheap card ({odds} to keep "
                               "it).",
    "capture.hint.take": "Take with {card}: the trick is worth {points} points and your side "
                         "should keep it ({odds}).",
    "capture.hint.take-try": "Take with {card}: the trick is worth {points} points, worth the "
                             "try though it may be taken back ({odds} to keep it).",
    "capture.hint.load": "Load {card} onto your side's trick ({odds} to keep it).",
    "capture.hint.load-over": "Play {card} onto the opponents' trick: your side should take it "
                              "over ({odds}).",
    "capture.hint.throw-nothing-ours": "Throw {card}: a card worth nothing onto your side's "
                                       "trick, keeping the rest.",
    "capture.hint.throw-nothing-theirs": "Throw {card}: a card worth nothing onto the "
                                         "opponents' trick, keeping the rest.",
    "capture.hint.throw-cheapest-ours": "Throw {card}: the cheapest card ({rank}) onto your "
                                        "side's trick, keeping the rest.",
    "capture.hint.throw-cheapest-theirs": "Throw {card}: the cheapest card ({rank}) onto the "
                                          "opponents' trick, keeping the rest.",
    "capture.hint.throw-spare-ours": "Throw {card}: the cheapest card that does not take "
                                     "({rank}) onto your side's trick, keeping your takers.",
    "capture.hint.throw-spare-theirs": "Throw {card}: the cheapest card that does not take "
                                       "({rank}) onto the opponents' trick, keeping your "
                                       "takers.",
    "capture.hint.throw-keep-ours": "Throw {card} onto your side's trick: your cheaper cards "
                                    "are worth more kept.",
    "capture.hint.throw-keep-theirs": "Throw {card} onto the opponents' trick: your cheaper cards "
                                      "are worth more kept.",
    "capture.hint.give-queen": "Give {card} away: a queen in the opponents' trick makes them "
                               "dirty.",
    "capture.hint.let-queen": "Play {card} and let the queen go: winning it now would make your "
                              "side dirty.",
    "capture.hint.clean": "Play {card}: a trick with a king and no queen would clean your side "
                          "({odds} to take it).",
    "capture.hint.spoil": "Spoil it with {card}: a queen in the opponents' trick keeps it from "
                          "cleaning them.",
    "capture.hint.not-king": "Play {card}, not a king: a king in the opponents' trick could "
                             "clean them.",
})

__all__ = ["ExpertBot", "Option", "options"]

WILD = 8.0          # card points a wild kept is worth while every point is still out
WILD_FLOOR = 1.5    # ... and once none is
POINT_KEEP = 0.3    # share of a point card's points that keeping it for a better trick is worth
PAIR = 1.0          # a rank held twice: it leads and fights
QUEEN_EARLY = -6.0  # Ristiklappi, stock not gone: a queen is a card to be rid of
KING_DIRTY = 12.0   # Ristiklappi: a king kept by a dirty side (it cleans)
KING_SPARE = 3.0    # ... by a clean side while the stock lasts
HEEDED = 0.6        # how much of the doubt a partner's napuni takes away
URGED = 6.0         # card points a partner's ubij (or pusti) adds to taking (or letting go)
SIGNAL_SURE = 0.8   # chance of keeping the trick at which the expert says napuni
SIGNAL_RICH = 10    # least points in a trick the opponents win for ubij

Worth = Callable[[int, bool], tuple[float, float, bool]]


@dataclass(frozen=True, slots=True)
class Option:
    """One action scored: ``value`` in card points for the seat's side, ``chance`` that the side
    takes the trick after it, ``takes`` whether the card takes over the trick."""

    value: float
    action: Action
    chance: float
    takes: bool


class ExpertBot:
    """Rule-based play for every capture preset: see the module's docstring."""

    name = "expert"
    budget_seconds = 0.005  # the stated time budget of one decision (it takes far less)

    def __init__(self, seed: int | None = None, *, signals: bool = True) -> None:
        self.seed = seed  # unused: the expert is deterministic, the seed keeps the bot interface
        self.signals = signals

    def act(self, view: View) -> Action | None:
        """The expert's choice among ``view.legal`` (:meth:`explain`'s, without the reason)."""
        return self._choose(view, False)[0]

    def explain(self, view: View) -> tuple[Action | None, str]:
        """The expert's choice and a one-sentence reason in plain English."""
        return self._choose(view, True)

    def _choose(self, view: View, why: bool) -> tuple[Action | None, str]:
        legal = view.legal
        if not legal:
            return None, reason("hint.nothing")
        if len(legal) == 1:
            return legal[0], reason("hint.only")
        know = Knowledge(view)
        scored = options(view, know)
        best = max(scored, key=lambda o: o.value)
        if self.signals and view.rules.signals and not view.signaled:
            word = _signal(view, know, best)
            if word is not None:
                return word
        return best.action, _reason(view, know, best) if why else ""


def keep(know: Knowledge, card: int, spare: bool = True) -> float:
    """What ``card`` is worth kept in hand for later, in card points (see the module)."""
    view, rules = know.view, know.rules
    rank = card % 13
    value = POINT_KEEP * know.points[rank]
    if rank in know.wilds:
        value += WILD_FLOOR + (WILD - WILD_FLOOR) * min(1.0, know.out / (know.total or 1))
    elif spare and sum(1 for c in know.hand if c % 13 == rank) >= 2:
        value += PAIR
    if rules.phases:
        early = view.stock_size > 0
        if rank == QUEEN and early:
            value += QUEEN_EARLY
        elif rank == KING:
            dirty = view.dirty[know.side]
            if dirty and not view.cleaned[know.side]:
                value += KING_DIRTY  # it may clean the side
            elif early and not dirty:
                value += KING_SPARE  # it may be needed should the side get dirty
    return value


def _fights(view: View) -> int:
    """How many more rounds of fighting the odds look ahead."""
    if not view.rules.fighting:
        return 0
    return 2 if len(view.names) <= 3 else 1


def _heed(view: View, know: Knowledge) -> str | None:
    """The partner's word in this trick, if any."""
    partners = view.partners
    return next((w for q, w in reversed(view.signals) if q in partners), None)


def options(view: View, know: Knowledge) -> list[Option]:
    """Every play, stop and dark in ``view.legal`` with its value (see the module)."""
    me, side = view.player, know.side
    trick = [c for _, c, _ in view.trick]
    led = view.led
    ranks = know.takers(led)
    hand_takers = sum(1 for c in view.hand if c % 13 in ranks)
    fights = _fights(view)
    word = _heed(view, know)
    others = [(me + j) % know.n for j in range(1, know.n)]
    dark_ok = view.rules.play_in_dark and view.stock_size > 0
    others = [q for q in others if view.hand_sizes[q] > 0 or dark_ok]
    out: list[Option] = []

    def worth(card: int, spare: bool) -> tuple[float, float, bool]:
        """(value before keeping, chance, takes) of ``card`` played now."""
        cards = [*trick, card]
        rank = card % 13
        if view.deciding:
            takes, winner, order, left = True, me, others, hand_takers - int(spare)
            chance = know.chance(cards, rank if led is None else led, winner, order, me, left,
                                 fights - 1)
        elif led is None:
            lead_ranks = know.takers(rank)
            left = sum(1 for c in view.hand if c % 13 in lead_ranks) - int(spare)
            takes, winner = True, me
            chance = know.chance(cards, rank, me, list(view.queue[1:]), me, left, fights)
        else:
            takes = rank in ranks
            winner = me if takes else view.winner
            left = hand_takers - int(spare and takes)
            chance = know.chance(cards, led, winner, list(view.queue[1:]), view.leader, left,
                                 fights)
            if word == "napuni" and view.side_of[winner] == side:
                chance = 1 - (1 - chance) * (1 - HEEDED)
        mine = know.value(cards, side, side)
        theirs = min(know.value(cards, side, s) for s in range(len(view.sides)) if s != side)
        value = chance * mine + (1 - chance) * theirs
        if word in ("ubij", "pusti") and led is not None and not view.deciding \
                and (word == "ubij") == takes:
            value += URGED
        return value, chance, takes

    for a in view.legal:
        if isinstance(a, Stop):
            win = view.side_of[view.winner]
            value = know.value(trick, side, win)
            out.append(Option(value, a, float(win == side), False))
        elif isinstance(a, Play):
            value, chance, takes = worth(a.card, True)
            out.append(Option(value - keep(know, a.card), a, chance, takes))
        elif isinstance(a, Dark):
            out.append(_dark(know, a, worth))
    return out


def _dark(know: Knowledge, action: Dark, worth: Worth) -> Option:
    """A blind card: the odds over the unseen ranks (``worth`` of a card of each, not from the
    hand), keeping the whole hand instead of a card from it and a card drawn."""
    total = know.unseen or 1
    value = chance = 0.0
    for rank, count in enumerate(know.counts):
        if count:
            v, c, _ = worth(rank, False)
            share = count / total
            value += share * (v - keep(know, rank, False))
            chance += share * c
    return Option(value, action, chance, False)


def _signal(view: View, know: Knowledge, best: Option) -> tuple[Action, str] | None:
    """A Sedmice word worth saying before ``best``, with its reason (None: say nothing)."""
    if not view.partners or not isinstance(best.action, Play):
        return None
    after = set(view.queue[1:]) & set(view.partners)
    if not after:
        return None
    me = view.player
    if best.takes and best.chance >= SIGNAL_SURE:
        return Say(me, "napuni"), reason("capture.hint.napuni",
                                         card=format_card(best.action.card),
                                         odds=f"{best.chance:.0%}")
    trick_points = sum(know.points[c % 13] for _, c, _ in view.trick)
    if view.led is not None and not best.takes and trick_points >= SIGNAL_RICH and \
            view.side_of[view.winner] != know.side:
        return Say(me, "ubij"), reason("capture.hint.ubij", points=trick_points)
    return None


def _reason(view: View, know: Knowledge, o: Option) -> str:
    """One sentence on why ``o`` was chosen."""
    a = o.action
    pts = sum(know.points[c % 13] for _, c, _ in view.trick)
    odds = f"{o.chance:.0%}"
    if isinstance(a, Stop):
        if view.side_of[view.winner] == know.side:
            return reason("capture.hint.stop-ours")
        return reason("capture.hint.stop-costly", points=pts)
    if isinstance(a, Dark):
        return reason("capture.hint.dark", odds=odds)
    assert isinstance(a, Play)
    card = format_card(a.card)
    rank = a.card % 13
    worth = know.points[rank]
    if view.rules.phases:
        clean = _klappi_reason(view, know, o, card)
        if clean is not None:
            return clean
    sure = o.chance >= 0.5
    if view.deciding:
        return reason("capture.hint.fight" if sure else "capture.hint.fight-try", card=card,
                      points=pts, odds=odds)
    if view.led is None:
        if worth:
            return reason("capture.hint.lead-safe" if sure else "capture.hint.lead-spare",
                          card=card, points=worth, odds=odds)
        if rank in know.wilds:
            return reason("capture.hint.lead-wild", card=card, odds=odds)
        return reason("capture.hint.lead-cheap", card=card)
    if o.takes:
        if not pts + worth:
            return reason("capture.hint.take-cheap", card=card, odds=odds)
        return reason("capture.hint.take" if sure else "capture.hint.take-try", card=card,
                      points=pts + worth, odds=odds)
    ours = view.side_of[view.winner] == know.side
    if worth and sure:
        # A card that does not take goes to whoever ends up with the trick: onto the side's own
        # trick it is loaded; onto the opponents' it is a bet on the side taking it over.
        return reason("capture.hint.load" if ours else "capture.hint.load-over", card=card,
                      odds=odds)
    where = "ours" if ours else "theirs"
    if not worth:
        what = "nothing"
    else:
        cheaper = [c % 13 for c in view.hand if know.points[c % 13] < worth]
        if not cheaper:
            what = "cheapest"
        elif set(cheaper) <= know.takers(view.led):
            what = "spare"  # the cheaper cards would take the trick
        else:
            what = "keep"  # a cheaper card kept for later (a wild, a pair, a king to clean)
    return reason(f"capture.hint.throw-{what}-{where}", card=card, rank=RANKS[rank])


def _klappi_reason(view: View, know: Knowledge, o: Option, card: str) -> str | None:
    """Why a Ristiklappi play keeps a side clean, makes one dirty or cleans one (None: the
    card-point reasons apply)."""
    assert isinstance(o.action, Play)
    rank, side = o.action.card % 13, know.side
    ranks = {c % 13 for _, c, _ in view.trick}
    theirs = view.led is not None and view.side_of[view.winner] != side and not o.takes
    if view.phase1:
        if rank == QUEEN and theirs:
            return reason("capture.hint.give-queen", card=card)
        if QUEEN in ranks and not o.takes and not view.dirty[side]:
            return reason("capture.hint.let-queen", card=card)
        return None
    dirty = [view.dirty[s] and not view.cleaned[s] for s in range(len(view.sides))]
    if rank == KING and dirty[side] and (o.takes or view.led is None):
        return reason("capture.hint.clean", card=card, odds=f"{o.chance:.0%}")
    if rank == QUEEN and theirs and KING in ranks and any(dirty):
        return reason("capture.hint.spoil", card=card)
    if rank != KING and theirs and any(dirty[s] for s in range(len(dirty)) if s != side) \
            and any(c % 13 == KING for c in view.hand):
        return reason("capture.hint.not-king", card=card)
    return None
