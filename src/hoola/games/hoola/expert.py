"""The expert bot: rule-based play the way a good human plays Hoola, from the view alone.

It ends play whenever a blast or four sevens allows, knocks when an undercut is unlikely, claims
every discard it can meld (out of turn too), lays down the melds that shed the most points, adds
what it can, and discards the card that costs most in hand for what it might still become: pairs
and two-card runs are kept while the cards that complete them are live (not discarded, not
melded), and a card the next players could take into a meld is held back, above all when a player
close to going out could take it (the discarder then pays everyone's losses). When the deal has a
mission (ruling 20) it goes for the feat where the odds favour it
(:mod:`hoola.games.hoola.expert_missions`); without one it plays as if missions did not exist.

:meth:`ExpertBot.explain` gives the choice with a one-sentence reason; :meth:`ExpertBot.act`
makes the same choice. Decisions take well under a millisecond and never use a random source.

>>> from hoola.games.hoola import DealState, Rules
>>> state = DealState.new(Rules.preset("pagat"), 4, seed=1)
>>> action, why = ExpertBot().explain(state.view(0))
>>> action == ExpertBot().act(state.view(0)), why.endswith(".")
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from hoola.core.cards import JOKER, SEVEN, format_card, format_cards
from hoola.core.words import phrases, reason
from hoola.games.hoola.actions import (
    Action,
    Add,
    Blast,
    Discard,
    Draw,
    Knock,
    NewMeld,
    Sevens,
    Take,
)
from hoola.games.hoola.expert_missions import Chase, knock_limit
from hoola.games.hoola.melds import find_melds
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.views import View

phrases({
    "hint.nothing": "There is nothing to do now.",
    "hoola.hint.sevens": "Show four sevens: it wins the deal at once.",
    "hoola.hint.blast": "Blast: a hand this low (or high) wins the deal at once.",
    "hoola.hint.take-blast": "Take {card} for a blast: it wins the deal at once.",
    "hoola.hint.take-sevens": "Take {card} for four sevens: it wins the deal at once.",
    "hoola.hint.draw": "Draw from the stock: the discard completes no meld for you.",
    "hoola.hint.let-go": "Let the discard go: it completes no meld for you.",
    "hoola.hint.add": "Add {card} to the table: it sheds {points} points from your hand.",
    "hoola.hint.last-resort": "This is the only thing left to do.",
    "hoola.hint.knock": "Knock: {points} points in hand, and the chance that someone holds as "
                        "few is only about {risk}%.",
    "hoola.hint.knock-mission": "Knock: a win now performs the mission {feat} ×{times}, worth "
                                "the chance of about {risk}% that someone holds as few as your "
                                "{points} points.",
    "hoola.hint.take-hoola-mission": "Take {card} with {cards}: every card then melds at once, "
                                     "a Hoola for the mission {feat} ×{times}.",
    "hoola.hint.draw-for-blast": "Draw rather than take {card}: your seven cards blast at your "
                                 "next turn, which performs the mission {feat} ×{times}.",
    "hoola.hint.draw-for-hoola": "Draw rather than take {card}: your hand is close to going out "
                                 "all at once, which performs the mission {feat} ×{times}.",
    "hoola.hint.let-go-for-blast": "Let {card} go: your seven cards blast at your next turn, "
                                   "which performs the mission {feat} ×{times}.",
    "hoola.hint.let-go-for-hoola": "Let {card} go: your hand is close to going out all at once, "
                                   "which performs the mission {feat} ×{times}.",
    "hoola.hint.meld-hoola-mission": "Meld {cards}: your whole hand goes out at once, a Hoola "
                                     "for the mission {feat} ×{times}.",
    "hoola.hint.hold-for-hoola": "Discard {card} and meld nothing yet: {outs} unseen cards would "
                                 "let your whole hand go out at once, a Hoola for the mission "
                                 "{feat} ×{times}.",
    "hoola.hint.hold-for-blast": "Discard {card} and meld nothing: the seven cards left blast at "
                                 "your next turn, for the mission {feat} ×{times}.",
    "hoola.hint.meld-mission": "Meld {cards}: it performs the mission {feat} ×{times} "
                               "({words}).",
    "hoola.hint.add-mission": "Add {card} to your meld: it performs the mission {feat} "
                              "×{times} ({words}).",
    "hoola.hint.take": "Take {card} with {cards}: a new meld at once sheds cards and gains a "
                       "turn.",
    "hoola.hint.take-out-of-turn": "Take {card} out of turn with {cards}: a new meld at once "
                                   "sheds cards and gains a turn.",
    "hoola.hint.meld-seven": "Meld the lone {card}: a seven costs {points} points and doubles "
                             "what you pay while you hold it.",
    "hoola.hint.meld": "Meld {cards}: these cards shed the most points from your hand.",
    "hoola.hint.discard-last": "Discard {card}, your last card, to go out.",
    "hoola.hint.discard-claimed": "Discard {card}: {other} would likely be claimed by an "
                                  "opponent, so {card} ({points} points) goes instead.",
    "hoola.hint.discard-live": "Discard {card}: {other} may still complete a meld, so {card} "
                               "({points} points) goes instead.",
    "hoola.hint.discard-dead": "Discard {card}: it costs {points} points in hand and completes "
                               "nothing live.",
    "hoola.hint.discard-costly": "Discard {card}: it costs {points} points in hand, more than "
                                 "its chances of a meld are worth.",
})

__all__ = ["ExpertBot", "Knowledge", "card_value", "undercut_risk"]

OUT_WEIGHT = 0.3      # points of hand value one live completing card is worth (a tie-break)
CLAIM_WEIGHT = 2.0    # points a discard costs per expected claim by an opponent
GO_OUT_WEIGHT = 45.0  # ... and per expected claim by an opponent who could go out with it
KNOCK_RISK = 0.1     # most chance of an undercut worth knocking into


def card_value(card: int, rules: Rules) -> int:
    """Points a card costs in hand at the end of play (a joker counts as a costly card)."""
    if card == JOKER:
        return 30
    rank = card % 13
    return rules.seven_value_end if rank == SEVEN else rules.rank_value(rank)


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        if c != JOKER:
            m |= 1 << c
    return m


def _neighbours(card: int, step: int, rules: Rules) -> int | None:
    """The card ``step`` ranks from ``card`` in its suit (None past an ace without wrapping)."""
    rank, suit = card % 13, card // 13
    r = rank + step
    if not rules.wrap_runs and not 0 <= r <= 13:
        return None
    if not rules.wrap_runs and r == 13:
        r = 0
    return suit * 13 + r % 13


class Knowledge:
    """What a view tells about the cards: the viewer's hand, the dead cards and the unseen ones."""

    __slots__ = (
        "claim_weight",
        "dead",
        "go_out_weight",
        "hand",
        "live",
        "live_count",
        "rules",
        "view",
    )

    def __init__(self, view: View, claim_weight: float = CLAIM_WEIGHT,
                 go_out_weight: float = GO_OUT_WEIGHT) -> None:
        self.view = view
        self.claim_weight = claim_weight
        self.go_out_weight = go_out_weight
        self.rules = view.rules
        self.hand = _mask(view.hand)
        table = _mask(c for m in view.melds for c in m.cards)
        self.dead = table | _mask(view.discards)
        self.live = ((1 << 52) - 1) & ~self.dead & ~self.hand
        self.live_count = max(self.live.bit_count(), 1)

    def is_live(self, card: int | None) -> bool:
        """Whether ``card`` may still come into play (unseen: in a hand or the stock)."""
        return card is not None and card != JOKER and bool((self.live >> card) & 1)

    def completers(self, card: int, hand: int) -> list[tuple[int, ...]]:
        """Pairs of cards that, with ``card``, would make a three-card meld (one may be held).

        Each entry lists only the cards still needed (one or two), all of them live.
        """
        rules = self.rules
        out: list[tuple[int, ...]] = []
        rank, suit = card % 13, card // 13
        others = [s * 13 + rank for s in range(4) if s != suit]
        held = [c for c in others if (hand >> c) & 1]
        live = [c for c in others if self.is_live(c)]
        if held:
            out.extend((c,) for c in live)
        elif rank != SEVEN or len(live) >= 2:
            out.extend((a, b) for i, a in enumerate(live) for b in live[i + 1:])
        for lo in (-2, -1, 0):
            window = [_neighbours(card, lo + k, rules) for k in range(3)]
            if any(c is None for c in window):
                continue
            need = tuple(c for c in window if c != card and c is not None and not (hand >> c) & 1)
            if all(self.is_live(c) for c in need) and len(need) < 3:
                out.append(need)
        return out

    def potential(self, card: int, hand: int) -> float:
        """How many live cards would complete a meld with ``card`` and the rest of ``hand``.

        Only cards one away from a meld count (a pair, a two-card run or a run with a gap): each
        live completing card counts once. A lone card, needing two more, counts nothing, since
        most deals end within a few turns.
        """
        score = 0.0
        for need in self.completers(card, hand & ~(1 << card)):
            if len(need) == 1:
                score += 1.0
        if card % 13 == SEVEN:
            score += 1.0  # a seven can always be melded alone
        return score

    def claim_danger(self, card: int) -> float:
        """Expected claims of ``card`` by opponents, weighted up for those it would let go out."""
        view = self.view
        if card == JOKER:
            return 0.0
        unseen = self.live_count
        rank, suit = card % 13, card // 13
        pairs: list[tuple[int, int]] = []
        others = [s * 13 + rank for s in range(4) if s != suit and self.is_live(s * 13 + rank)]
        pairs.extend((a, b) for i, a in enumerate(others) for b in others[i + 1:])
        for lo in (-2, -1, 0):
            window = [_neighbours(card, lo + k, self.rules) for k in range(3)]
            need = [c for c in window if c is not None and c != card]
            if len(need) == 2 and all(self.is_live(c) for c in need):
                pairs.append((need[0], need[1]))
        if not pairs:
            return 0.0
        danger = 0.0
        for q, size in enumerate(view.hand_sizes):
            if q == view.player or not view.in_deal[q] or size < 2:
                continue
            both = size * (size - 1) / (unseen * max(unseen - 1, 1))
            chance = min(1.0, both * len(pairs))
            danger += chance * (self.go_out_weight if size <= 3 else self.claim_weight)
        return danger


@lru_cache(maxsize=65536)
def _best_partition(mask: int, jokers: int,
                    rules: Rules) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The melds in a hand that shed the most points: (points shed, melds)."""
    best: tuple[int, tuple[tuple[int, ...], ...]] = (0, ())
    options = find_melds(mask, jokers, rules)
    if not options:
        return best
    # Every partition uses the lowest card that is melded at all, so branch on one card only.
    first = min(min(c for c in cards if c != JOKER) for cards, _ in options)
    for cards, _ in options:
        if first not in cards:
            continue
        used = _mask(cards)
        rest_points, rest = _best_partition(mask & ~used, jokers - cards.count(JOKER), rules)
        points = sum(card_value(c, rules) for c in cards if c != JOKER) + rest_points
        if points > best[0]:
            best = (points, (cards, *rest))
    without_points, without = _best_partition(mask & ~(1 << first), jokers, rules)
    if without_points > best[0]:
        best = (without_points, without)
    return best


def undercut_risk(view: View, points: int) -> float:
    """The chance that some opponent holds ``points`` or fewer (so a knock would be undercut).

    Each opponent's hand is taken as cards drawn from the unseen ones; players who have melded
    keep low cards, so their low cards are weighted up.
    """
    know = Knowledge(view)
    rules = view.rules
    values = [card_value(c, rules) for c in range(52) if (know.live >> c) & 1]
    if not values:
        return 0.0
    safe = 1.0
    for q, size in enumerate(view.hand_sizes):
        if q == view.player or not view.in_deal[q]:
            continue
        weight = [2.0 if (view.melded[q] and v <= 5) else 1.0 for v in values]
        total = sum(weight)
        single = [0.0] * (points + 1)
        for v, w in zip(values, weight, strict=True):
            if v <= points:
                single[v] += w / total
        dist = [1.0] + [0.0] * points
        for _ in range(size):
            nxt = [0.0] * (points + 1)
            for s, p in enumerate(dist):
                if p:
                    for v in range(points + 1 - s):
                        if single[v]:
                            nxt[s + v] += p * single[v]
            dist = nxt
        safe *= 1.0 - min(1.0, sum(dist))
    return 1.0 - safe


def _plan_after(know: Knowledge, hand: int, jokers: int) -> tuple[int, float]:
    """How good a hand is: points it can shed now, and its potential (live completers)."""
    rules = know.rules
    shed, melds = _best_partition(hand, jokers, rules)
    left = hand
    for m in melds:
        left &= ~_mask(m)
    potential = sum(know.potential(c, left) for c in range(52) if (left >> c) & 1)
    return shed, potential


class ExpertBot:
    """Rule-based play from the view: see the module's docstring for what it does and why."""

    name = "expert"
    budget_seconds = 0.01  # the stated time budget of one decision (it takes far less)

    def __init__(self, seed: int | None = None, *, knock_risk: float = KNOCK_RISK,
                 out_weight: float = OUT_WEIGHT, claim_weight: float = CLAIM_WEIGHT,
                 go_out_weight: float = GO_OUT_WEIGHT, missions: object = True) -> None:
        self.seed = seed  # unused: the expert is deterministic, the seed keeps the bot interface
        self.knock_risk = knock_risk
        self.out_weight = out_weight
        self.claim_weight = claim_weight
        self.go_out_weight = go_out_weight
        # False: the deal's mission is ignored (``expert:missions=0``, to measure what it gains);
        # typed ``object`` since the lab's options come as numbers (compiled, a ``bool``
        # parameter would refuse 0).
        self.missions = bool(missions)

    def act(self, view: View) -> Action | None:
        """The expert's choice among ``view.legal`` (None lets a claimable discard go)."""
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Action | None, str]:
        """The expert's choice and a one-sentence reason in plain English."""
        legal = view.legal
        if not legal:
            return None, reason("hint.nothing")
        for a in legal:
            if isinstance(a, Sevens):
                return a, reason("hoola.hint.sevens")
        for a in legal:
            if isinstance(a, Blast):
                return a, reason("hoola.hint.blast")
        for a in legal:
            if isinstance(a, Take) and a.purpose is not None:
                return a, reason(f"hoola.hint.take-{a.purpose}", card=format_card(a.card))
        know = Knowledge(view, self.claim_weight, self.go_out_weight)
        chase = Chase.of(view) if self.missions else None
        knock = next((a for a in legal if isinstance(a, Knock)), None)
        if knock is not None:
            choice = self._knock(view, know, knock, chase)
            if choice is not None:
                return choice
        takes = [a for a in legal if isinstance(a, Take)]
        if takes:
            if chase is not None:
                held = self._hold_takes(view, know, takes, chase)
                if held is not None:
                    return held
            return self._take(view, know, takes)
        if any(isinstance(a, Draw) for a in legal):
            draw = next(a for a in legal if isinstance(a, Draw))
            return draw, reason("hoola.hint.draw")
        if view.can_pass and not view.is_my_turn:
            return None, reason("hoola.hint.let-go")
        if chase is not None:
            chased = self._chase(view, know, chase)
            if chased is not None:
                return chased
        melds = [a for a in legal if isinstance(a, NewMeld)]
        if melds:
            choice = self._meld(view, know, melds)
            if choice is not None:
                return choice
        adds = [a for a in legal if isinstance(a, Add)]
        if adds:
            best = max(adds, key=lambda a: (a.card != JOKER, card_value(a.card, view.rules)))
            return best, reason("hoola.hint.add", card=format_card(best.card),
                                points=card_value(best.card, view.rules))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self._discard(view, know, discards)
        return legal[0], reason("hoola.hint.last-resort")

    # -- decisions ------------------------------------------------------------------------------

    def _knock(self, view: View, know: Knowledge, knock: Knock,
               chase: Chase | None = None) -> tuple[Action, str] | None:
        points = sum(card_value(c, view.rules) for c in view.hand)
        risk = undercut_risk(view, points)
        if risk <= self.knock_risk or view.stock_size <= 2:
            return knock, reason("hoola.hint.knock", points=points, risk=round(risk * 100))
        if chase is not None and chase.knock_performs() \
                and risk <= knock_limit(self.knock_risk, chase.mission.multiplier):
            m = chase.mission
            return knock, reason("hoola.hint.knock-mission", feat=m.feat, times=m.multiplier,
                                 risk=round(risk * 100), points=points)
        return None

    # -- the deal's mission (ruling 20) ---------------------------------------------------------

    def _hold_takes(self, view: View, know: Knowledge, takes: list[Take],
                    chase: Chase) -> tuple[Action | None, str] | None:
        """A take that goes out at once for the Hoola feat, or the draw (or letting the discard
        go) when a take would spoil a Hoola or a blast the hand is close to."""
        m = chase.mission
        take = chase.hoola_take(takes)
        if take is not None:
            return take, reason("hoola.hint.take-hoola-mission", card=format_card(take.card),
                                cards=format_cards(take.with_cards), feat=m.feat,
                                times=m.multiplier)
        card = takes[0].card
        if chase.blast_ready():
            why = "blast"
        elif chase.hoola_waits(card, know.live):
            why = "hoola"
        else:
            return None
        if view.is_my_turn:
            draw = next((a for a in view.legal if isinstance(a, Draw)), None)
            if draw is not None:
                return draw, reason(f"hoola.hint.draw-for-{why}", card=format_card(card),
                                    feat=m.feat, times=m.multiplier)
            return None
        if view.can_pass:
            return None, reason(f"hoola.hint.let-go-for-{why}", card=format_card(card),
                                feat=m.feat, times=m.multiplier)
        return None

    def _chase(self, view: View, know: Knowledge, chase: Chase) -> tuple[Action, str] | None:
        """After drawing: a Hoola at once, a hand held back for a Hoola or a blast, or the meld
        or addition that performs the mission's feat."""
        legal, rules, m = view.legal, view.rules, chase.mission
        melds = [a for a in legal if isinstance(a, NewMeld)]
        discards = [a for a in legal if isinstance(a, Discard)]
        plan = chase.hoola_plan()
        for cards in plan or ():
            for a in melds:
                if tuple(a.cards) == cards:
                    return a, reason("hoola.hint.meld-hoola-mission", cards=format_cards(cards),
                                     feat=m.feat, times=m.multiplier)
        held = chase.hoola_discard(discards, know.live)
        if held is not None:
            discard, outs = held
            return discard, reason("hoola.hint.hold-for-hoola", card=format_card(discard.card),
                                   outs=outs, feat=m.feat, times=m.multiplier)
        blast = chase.blast_discard(discards)
        if blast is not None:
            return blast, reason("hoola.hint.hold-for-blast", card=format_card(blast.card),
                                 feat=m.feat, times=m.multiplier)
        jokers = view.hand.count(JOKER)
        shed, _ = _best_partition(know.hand, jokers, rules)

        def shed_after(cards: tuple[int, ...]) -> int:
            rest, _ = _best_partition(know.hand & ~_mask(cards), jokers - cards.count(JOKER),
                                      rules)
            return rest + sum(card_value(c, rules) for c in cards if c != JOKER)

        meld = chase.feat_meld(melds, shed, lambda a: shed_after(a.cards))
        if meld is not None:
            return meld, reason("hoola.hint.meld-mission", cards=format_cards(meld.cards),
                                feat=m.feat, times=m.multiplier, words=m.words)
        adds = [a for a in legal if isinstance(a, Add)]
        add = chase.feat_add(adds, shed, lambda a: shed_after((a.card,)))
        if add is not None:
            return add, reason("hoola.hint.add-mission", card=format_card(add.card),
                               feat=m.feat, times=m.multiplier, words=m.words)
        return None

    def _take(self, view: View, know: Knowledge, takes: list[Take]) -> tuple[Action | None, str]:
        hand = know.hand
        jokers = view.hand.count(JOKER)

        def score(a: Take) -> tuple[float, int]:
            left = hand & ~_mask(a.with_cards)
            shed, potential = _plan_after(know, left, jokers - a.with_cards.count(JOKER))
            melded = sum(card_value(c, view.rules) for c in (a.card, *a.with_cards) if c != JOKER)
            return shed + melded + self.out_weight * potential, -a.with_cards.count(JOKER)

        best = max(takes, key=score)
        key = "hoola.hint.take" if view.is_my_turn else "hoola.hint.take-out-of-turn"
        return best, reason(key, card=format_card(best.card),
                            cards=format_cards(best.with_cards))

    def _meld(self, view: View, know: Knowledge,
              melds: list[NewMeld]) -> tuple[Action, str] | None:
        jokers = view.hand.count(JOKER)
        _, plan = _best_partition(know.hand, jokers, view.rules)
        for cards in plan:
            for a in melds:
                if tuple(a.cards) == tuple(cards):
                    if len(cards) == 1:
                        return a, reason("hoola.hint.meld-seven", card=format_card(cards[0]),
                                         points=view.rules.seven_value_end)
                    return a, reason("hoola.hint.meld", cards=format_cards(cards))
        return None

    def _discard(self, view: View, know: Knowledge,
                 discards: list[Discard]) -> tuple[Action, str]:
        hand, rules = know.hand, view.rules
        last = len(discards) == 1

        def cost(a: Discard) -> float:
            if a.card == JOKER:
                return -100.0
            keep = card_value(a.card, rules) + self.out_weight * know.potential(a.card, hand)
            return keep - (0.0 if last else know.claim_danger(a.card))

        scored = sorted(discards, key=lambda a: (cost(a), a.card))
        best = scored[-1]
        value = card_value(best.card, rules)
        if last:
            return best, reason("hoola.hint.discard-last", card=format_card(best.card))
        potential = know.potential(best.card, hand)
        danger = know.claim_danger(best.card)
        naive = max(discards, key=lambda a: card_value(a.card, rules))
        if naive.card != best.card and know.claim_danger(naive.card) > danger + 1:
            why = "claimed"
        elif naive.card != best.card:
            why = "live"
        elif potential < 0.5:
            why = "dead"
        else:
            why = "costly"
        return best, reason(f"hoola.hint.discard-{why}", card=format_card(best.card),
                            other=format_card(naive.card), points=value)
