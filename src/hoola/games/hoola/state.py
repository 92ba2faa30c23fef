"""The engine: one deal of Hoola, from the deal to the settlement.

Several players may act at once (a discard opens a claim window), so :meth:`DealState.actors` is a
set. Every action goes through check, ask, do: :meth:`DealState.verify` raises a precise
:class:`~hoola.core.errors.IllegalActionError`, :meth:`DealState.can` answers yes or no, and
:meth:`DealState.apply` checks, applies and returns the frozen record appended to the history. A
refused action changes nothing.

>>> from hoola.games.hoola.rules import Rules
>>> s = DealState.new(Rules.preset("pagat"), 4, seed=3)
>>> s.actors()
frozenset({0})
>>> s.apply(Draw(0)).card is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import partial
from itertools import permutations
from typing import Any, ClassVar, Final

from hoola.core.cards import JOKER, SEVEN, card_mask, cards_of, format_card, format_cards
from hoola.core.chance import shuffle
from hoola.core.errors import HoolaError, IllegalActionError, OutOfTurnError, RulesError
from hoola.core.game import Outcome
from hoola.core.prefix import Prefix, put
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
    format_action,
    parse_action,
)
from hoola.games.hoola.deal import HAND_SIZE, Deal, check_jokers, complete_stock
from hoola.games.hoola.glenn import grows_from, kill, top_text
from hoola.games.hoola.inputs import (
    MAX_PLAYERS,
    check_action,
    check_names,
    check_player_count,
    check_rng,
    check_seat,
    check_seed,
    check_stake,
)
from hoola.games.hoola.melds import (
    AddOption,
    AddTargets,
    KnownTargets,
    Meld,
    MeldKey,
    MeldKind,
    MeldOption,
    MeldTable,
    TakeOption,
    TakeTable,
    add_targets,
    adds_from,
    count_units,
    extend_meld,
    is_killed,
    listed_meld,
    may_take,
    meld_key,
    new_meld,
)
from hoola.games.hoola.missions import Mission, check_mission, draw_mission, feat_achieved
from hoola.games.hoola.rules import Rules
from hoola.games.hoola.scoring import (
    SEVEN_BITS,
    SeatShowdown,
    Settlement,
    blast_kind,
    blast_points,
    hand_points,
    points_table,
    settle,
    table_points,
)
from hoola.games.hoola.verbs import Verbs
from hoola.games.hoola.views import View

__all__ = ["DealState"]

PLAYING: Final = 5  # players in a deal of six or seven

# Actions are immutable values, so the common ones are built once (legal_actions is the hot path).
_DRAW: Final = tuple(Draw(p) for p in range(MAX_PLAYERS))
_KNOCK: Final = tuple(Knock(p) for p in range(MAX_PLAYERS))
_BLAST: Final = tuple(Blast(p) for p in range(MAX_PLAYERS))
_SEVENS: Final = tuple(Sevens(p) for p in range(MAX_PLAYERS))
_DISCARD: Final = tuple(tuple(Discard(p, c) for c in range(JOKER + 1)) for p in range(MAX_PLAYERS))
# A draw's record (the card drawn named): one value per seat and card, shared by every history.
_DRAWN: Final = tuple(tuple(Draw(p, c) for c in range(JOKER + 1)) for p in range(MAX_PLAYERS))
# The one seat that may act, most of the time.
_ALONE: Final = tuple(frozenset((p,)) for p in range(MAX_PLAYERS))
# The kinds whose check plans nothing: listed, they are applied without checking again.
_PLAIN: Final = frozenset((Draw, Discard, Knock, Blast, Sevens, Play, Drop))
# The kinds that begin a turn.
_TURNS: Final = frozenset((Draw, Take))
_new_view = tuple.__new__
_MELDS: Final[dict[tuple[int, tuple[int, ...], int | None], NewMeld]] = {}
_ADDS: Final[dict[tuple[int, int, int | None, int | None], Add]] = {}
_KNOCK_LIMITS: Final[dict[tuple[object, int, int, str, bool], tuple[int, int]]] = {}
# A table, what may be added to it, the seats' add actions made of that, and what each meld
# seen in the deal takes (DealState._keep_add_targets).
_AddsFor = tuple[tuple[Meld, ...], AddTargets, dict[tuple[int, AddOption], Add], KnownTargets]


def _new_meld_action(p: int, cards: tuple[int, ...], joker_as: int | None) -> NewMeld:
    key = (p, cards, joker_as)
    action = _MELDS.get(key)
    if action is None:
        action = _MELDS[key] = NewMeld(p, cards, joker_as)
    return action


def _new_meld(p: int, option: MeldOption) -> NewMeld:
    return _new_meld_action(p, option[0], option[1])


# Seat p's new-meld actions by slot and meld key (melds.MeldTable).
_MELD_TABLES: Final[dict[tuple[int, MeldKey], MeldTable[Action]]] = {}
def _discards(p: int, suit: int, pattern: int) -> tuple[Action, ...]:
    """Seat ``p``'s discards of one suit's pattern of cards."""
    seat = _DISCARD[p]
    return tuple([seat[c] for c in cards_of(pattern << (suit * 13))])


def three_sevens(hands: Sequence[int]) -> int:
    """The seats whose hands hold three natural sevens at least, a bit each: only they may ever
    show four sevens (with a joker), and only the cards they hold change it."""
    return sum(1 << p for p, mask in enumerate(hands) if (mask & SEVEN_BITS).bit_count() >= 3)


def _take_action(p: int, card: int, option: TakeOption) -> Take:
    return Take(p, card, option[0], option[1])


# Seat p's ways to take a card (melds.TakeTable).
_TAKE_TABLES: Final[tuple[TakeTable[Action], ...]] = tuple(
    TakeTable(partial(_take_action, p)) for p in range(MAX_PLAYERS))
# The same with Glenn's building, where a set's two cards from hand come in both orders.
_ORDERED_TAKE_TABLES: Final[tuple[TakeTable[Action], ...]] = tuple(
    TakeTable(partial(_take_action, p), orders=True) for p in range(MAX_PLAYERS))


def _add_action(p: int, card: int, on: int | None, joker_as: int | None) -> Add:
    key = (p, card, on, joker_as)
    action = _ADDS.get(key)
    if action is None:
        action = _ADDS[key] = Add(p, card, on=on, meld_id=None, joker_as=joker_as)
    return action


def _knock_limit(rules: Rules, players: int) -> tuple[int, int]:
    """``rules.knock_limit_for(players)``, and the natural cards worth more than it on their own
    (none where a quad in hand may count nothing), remembered by the settings they come from."""
    key = (rules.knock_limit, players, rules.seven_value_end, rules.face_values,
           rules.quad_in_hand_free)
    known = _KNOCK_LIMITS.get(key)
    if known is None:
        limit = rules.knock_limit_for(players)
        values = points_table(rules.seven_value_end, rules)
        over = 0 if rules.quad_in_hand_free else card_mask(
            c for c in range(JOKER) if values[1 << (c % 13)] > limit)
        known = _KNOCK_LIMITS[key] = (limit, over)
    return known


def _seat(player: object, n: int, what: str) -> int:
    """``player`` as a seat: the common case here, anything else through :func:`check_seat`."""
    if type(player) is int and 0 <= player < n:
        return player
    return check_seat(player, n, what)


class Switches:
    """The rules' switches that every decision reads, as plain attributes of a compiled class:
    ``Rules`` stays a Python class (docs/compiled.md), whose fields compiled code reads by a
    generic attribute lookup, several times a decision."""

    def __init__(self, rules: Rules) -> None:
        self.claims_open = rules.claims != "next-only"
        self.four_sevens = rules.four_sevens
        self.joker_as_seven = rules.joker_as_seven
        self.knocks = rules.knocks
        self.dealer_knocks = rules.knock_rule == "dealer-one-card"
        self.blasts = rules.blasts
        self.grouping_sevens = rules.grouping_sevens
        self.lay_off_needs_own_meld = rules.lay_off_needs_own_meld
        self.claim_purposes = rules.claim_for_blast_or_sevens
        # Each seat's ways to take a discard (melds.TakeTable).
        self.takes = _ORDERED_TAKE_TABLES if rules.glenn_melds else _TAKE_TABLES
        # Rules under which a move may be refused for how it leaves the hand (going out).
        self.out_rules = rules.discard_to_go_out or rules.hoola_only_out or rules.glenn_melds
        # A hand's points by table when it holds no joker: for a knock (None when a quad in
        # hand is free), and for a blast, which only a hand at most sopang or at least daepang
        # points can be (face values "ten" make daepang of picture cards: always asked).
        self.knock_points = None if rules.quad_in_hand_free else points_table(
            rules.seven_value_end, rules)
        self.blast_points = points_table(rules.seven_value_blast, rules)
        self.sopang = rules.blast_low
        self.daepang = 0 if rules.face_values == "ten" else rules.blast_high
        # The knock limit for the seats in the deal (DealState.in_deal), once asked, and the
        # cards worth more than it.
        self.knock_limit: tuple[tuple[bool, ...], int, int] | None = None
        # Each seat's new-meld table without and with a joker, at [2 * seat + (1 if jokers)].
        self.melds: list[MeldTable[Action] | None] = [None] * (2 * MAX_PLAYERS)


def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


def _check_mission(mission: object) -> Mission:
    """A given mission checked against the catalog (``bad-mission``)."""
    if not isinstance(mission, Mission):
        raise _illegal(f"the mission must be a Mission value, not {mission!r}", "bad-mission")
    return check_mission(mission.feat, mission.multiplier)


def _mission_text(mission: object) -> str:
    if isinstance(mission, Mission):
        return f"{mission.feat} ×{mission.multiplier}"
    return repr(mission)


def _check_deal(rules: Rules, deal: object, n: int) -> None:
    """Refuse a deal that does not fit ``n`` players and ``rules`` (``bad-deal``)."""
    if not isinstance(deal, Deal):
        raise _illegal(f"the deal must be a Deal value, not {deal!r}", "bad-deal")
    if len(deal.hands) != n:
        raise _illegal(f"the deal has {len(deal.hands)} hands for {n} players", "bad-deal")
    for i, hand in enumerate(deal.hands):
        if len(hand) != HAND_SIZE:
            raise _illegal(f"hand {i + 1} has {len(hand)} cards, not {HAND_SIZE}", "bad-deal")
    check_jokers(rules, deal)
    if n <= PLAYING or deal.redeal == "shuffle":
        dealt = sorted(c for c in (*(c for h in deal.hands for c in h), deal.upcard, *deal.stock))
        if dealt != [*range(JOKER), *[JOKER] * rules.jokers]:
            raise _illegal(f"the deal holds {len(dealt)} cards, not the whole pack of "
                           f"{JOKER + rules.jokers}", "bad-deal")


class DealState(Verbs):
    """One deal: the table, the hands, whose turn it is, and the history of applied actions.

    Build one with :meth:`new`. Seats are numbered in play order; ``names`` label them.
    """

    # A ClassVar, so that copy() can still read it when mypyc compiles the class.
    __slots__: ClassVar[tuple[str, ...]] = (
        "_adds", "_cache", "_on", "_public", "_sevens", "_sizes", "chose", "claimable",
        "compensation", "current", "deal", "dealer",
        "discarder", "discards", "drawn", "forced_out", "had_turn", "hands", "history",
        "hoola_turn", "in_deal", "jokers", "last_draw", "melded", "mission", "n", "names",
        "next_meld_id", "own_meld", "phase", "result", "rng", "rules", "sevens_laid", "stake",
        "stock", "stock_after_drops", "table", "took_from", "upcard_live",
    )

    # The arguments of the public methods are typed ``object`` where the engine refuses values
    # of any other type with its own error: compiled (docs/compiled.md), a parameter typed
    # ``int`` would raise TypeError on None and take True for 1 before the check could run.
    def __init__(self, rules: object, names: object, deal: object, *, dealer: object = 0,
                 stake: object = 1, rng: object = None, mission: object = None,
                 _shuffled: bool = False) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"the rules must be a Rules value, not {rules!r}", "bad-rules")
        # new() checked the names of a deal it shuffled itself (the whole pack: no check either).
        names = names if _shuffled and type(names) is tuple else check_names(names)
        n = len(names)
        if not _shuffled:
            _check_deal(rules, deal, n)
        assert isinstance(deal, Deal)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise _illegal(f"dealer seat {dealer!r} is not at the table (seats are 0 to {n - 1})",
                           "bad-deal")
        self.rules = rules
        self._on = Switches(rules)
        self.names = names
        self.n = n
        self.deal = deal
        self.dealer = dealer
        self.stake = check_stake(stake)
        self.rng = check_rng(rng) or random.Random()
        # Ruling 20: drawn from the deal's random source after the shuffle (the cards are the
        # same with or without missions), unless given as a record gives it. Without missions
        # the random source is not touched.
        self.mission: Mission | None = None
        if rules.missions:
            self.mission = draw_mission(self.rng) if mission is None else _check_mission(mission)
        elif mission is not None:
            raise RulesError(f"the deal has a mission ({_mission_text(mission)}) but the rules "
                             "play none (missions = false)", "bad-mission")
        self.hands = [card_mask(h) for h in deal.hands]
        self.jokers = [h.count(JOKER) for h in deal.hands]
        self._sevens = three_sevens(self.hands)
        self.stock = list(reversed(deal.stock))  # top of the stock at the end
        self.discards = [deal.upcard]
        # The public per-seat facts and the melds are tuples, replaced when they change (rarely),
        # so that views and copies share them instead of copying them.
        self.table: tuple[Meld, ...] = ()
        self.next_meld_id = 1
        self.in_deal = (True,) * n
        self.chose: tuple[bool | None, ...] = (None,) * n
        self.forced_out: list[int] = []
        self.compensation: dict[int, Fraction] = {}
        self.own_meld = (False,) * n
        self.melded = (False,) * n
        self.had_turn = (False,) * n
        self.sevens_laid = (0,) * n
        self.current = dealer
        self.drawn = False
        self.claimable = False
        self.discarder = -1
        self.upcard_live = True
        self.hoola_turn = False
        self.took_from: int | None = None
        self.last_draw = False
        self.history: list[Action] = []
        self._public: list[Action] = []
        self.result: Settlement | None = None
        self.stock_after_drops: tuple[int, ...] | None = None
        self._cache: dict[int, list[Action]] = {}
        self._sizes: tuple[int, ...] | None = None  # the hand sizes, once a view asked
        self._adds: _AddsFor | None = None
        self.phase = "play"
        if n > PLAYING:
            self.phase = "choose"
            self.current = self._next_seat(dealer)
            self.chose = put(self.chose, dealer, True)

    @classmethod
    def new(cls, rules: Rules, players: object = 4, *, seed: object = None,
            deal: object = None, dealer: object = 0, stake: object = 1,
            rng: object = None, mission: object = None) -> DealState:
        """A new deal for ``players`` (a count, or names), from ``seed`` unless ``deal``; with
        ``missions``, its mission drawn from the same source after the cards unless given."""
        if not isinstance(rules, Rules):
            raise RulesError(f"the rules must be a Rules value, not {rules!r}", "bad-rules")
        if isinstance(players, int):
            names: Sequence[str] = [chr(ord("A") + i) for i in range(check_player_count(players))]
        else:
            names = check_names(players)
        rng = check_rng(rng) or random.Random(check_seed(seed))
        if deal is None:
            return cls(rules, names, Deal.shuffled(rules, len(names), rng=rng), dealer=dealer,
                       stake=stake, rng=rng, mission=mission, _shuffled=True)
        return cls(rules, names, deal, dealer=dealer, stake=stake, rng=rng, mission=mission)

    def __new__(cls, *args: Any, **kwargs: Any) -> DealState:
        """A blank state (copy() and determinize fill one in); compiled by mypyc, a class
        without its own ``__new__`` would run ``__init__`` here."""
        return super().__new__(cls)

    def copy(self) -> DealState:
        """An independent copy (the random source included)."""
        other = DealState.__new__(DealState)
        for name in DealState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list | dict):
                value = value.copy()
            setattr(other, name, value)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._cache = {}
        other._sizes = None
        other._adds = None  # filled in as the copy goes on: not shared between copies
        return other

    # -- who may act ----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether play has ended (``result`` then holds the settlement)."""
        return self.phase == "over"

    @property
    def claim_open(self) -> bool:
        """Whether the top discard may still be taken (the window after a discard)."""
        return self.claimable

    def actors(self) -> frozenset[int]:
        """The seats that may act now: the player whose turn it is and any eligible claimant."""
        if self.phase == "over":
            return frozenset()
        current = self.current
        if self.phase == "choose":
            return _ALONE[current]
        if self.claimable and self._on.claims_open:
            return self._claim_window_actors(current)
        if not self._on.four_sevens:
            return _ALONE[current]
        # Four sevens may be shown out of turn, by a seat holding three sevens at least: rarely.
        others = self._sevens & ~(1 << current)
        if not others:
            return _ALONE[current]
        seats = [current, *(p for p in range(self.n)
                            if (others >> p) & 1 and self._may_show_sevens(p))]
        return _ALONE[current] if len(seats) == 1 else frozenset(seats)

    def legal_actions(self, player: object) -> list[Action]:
        """Every action ``player`` may take now (empty when they may not act).

        New melds of four or more cards are listed too (they are shorthand for a three-card meld
        and additions). The list is the single source of truth for bots and interfaces.
        """
        if type(player) is int and 0 <= player < self.n:  # the common case, without calls
            listed = self._cache.get(player)
            if listed is None:
                listed = self._cache[player] = self._legal(player)
            return listed[:]
        return self._legal_cached(check_seat(player, self.n, "list legal actions"))[:]

    def _legal_cached(self, player: int) -> list[Action]:
        cached = self._cache.get(player)
        if cached is None:
            cached = self._cache[player] = self._legal(player)
        return cached

    def _legal(self, p: int) -> list[Action]:
        if self.phase != "play" or not 0 <= p < self.n or not self.in_deal[p]:
            return self._choices(p) if self.phase == "choose" else []
        rules, on = self.rules, self._on
        acts: list[Action] = []
        mask, jokers = self.hands[p], self.jokers[p]
        # Four sevens need three sevens in hand at least (with a joker): rarely asked further.
        sevens = (self._sevens >> p) & 1
        if p == self.current and not self.drawn:
            if on.knocks and self._may_knock(p):
                acts.append(_KNOCK[p])
            if on.blasts and not self.melded[p] and mask.bit_count() + jokers == HAND_SIZE:
                points = table_points(on.blast_points, mask)
                if (points <= on.sopang or points >= on.daepang) \
                        and blast_kind(mask, jokers, rules) is not None:
                    acts.append(_BLAST[p])
            if sevens and self._may_show_sevens(p):
                acts.append(_SEVENS[p])
            acts.append(_DRAW[p])
            card = self._takeable_card(p)
            if card is not None:
                if may_take(mask, jokers, card, rules):
                    on.takes[p].add(mask, jokers, card, rules, acts)
                if on.claim_purposes and not self.upcard_live:
                    acts.extend(self._claim_purposes(p, card))
            return self._fit_out_rules(p, acts) if on.out_rules else acts
        if p == self.current:
            melds = on.melds[2 * p + (1 if jokers else 0)]
            if melds is None:
                melds = self._meld_table(p, jokers)
            melds.add(mask, acts)
            if on.grouping_sevens:
                acts.extend(self._grouping_options(p))
            if self.own_meld[p] or not on.lay_off_needs_own_meld:
                kept = self._adds
                if kept is None or kept[0] is not self.table:
                    kept = self._keep_add_targets()
                if jokers or mask & kept[1][1]:  # a natural card that fits, or a joker
                    added = kept[2]
                    for o in adds_from(kept[1], mask, jokers):
                        add = added.get((p, o))
                        if add is None:
                            target = self._target_card(o[1], o[0], o[2])
                            add = added[(p, o)] = _add_action(p, o[0], target, o[2]) \
                                if target is not None else Add(p, o[0], meld_id=o[1],
                                                               joker_as=o[2])
                        acts.append(add)
            if jokers:
                acts.append(_DISCARD[p][JOKER])
            if sevens and self._may_show_sevens(p):
                acts.append(_SEVENS[p])
            return self._fit_out_rules(p, acts) if on.out_rules else acts
        if sevens and self._may_show_sevens(p):
            acts.append(_SEVENS[p])
        card = self._takeable_card(p)
        if card is not None:
            on.takes[p].add(mask, jokers, card, self.rules, acts)
            acts.extend(self._claim_purposes(p, card))
        return self._fit_out_rules(p, acts)


    def _choices(self, p: int) -> list[Action]:
        """Playing or dropping out (six or seven players, before play), for the seat choosing."""
        if p != self.current:
            return []
        forced = self._forced_choice()
        if forced == "play":
            return [Play(p)]
        if forced == "drop":
            return [Drop(p)]
        return [Play(p), Drop(p)]

    def _claim_window_actors(self, current: int) -> frozenset[int]:
        """Who may act in an open claim window: ``current`` and every other seat in the deal whose
        legal list is not empty, found without building it where the rules allow."""
        in_deal, cache = self.in_deal, self._cache
        if self._on.claim_purposes or self._on.out_rules:
            return frozenset(p for p in range(self.n) if p == current or (
                in_deal[p] and bool(self._legal_cached(p))))
        # Under the other rules a claimant's list is four sevens to show and the ways to take
        # the discard (anyone's but its discarder's), worked out once for the window.
        card, discarder, rules = self.discards[-1], self.discarder, self.rules
        hands, jokers = self.hands, self.jokers
        seats = [current]
        for p in range(self.n):
            if p == current or not in_deal[p]:
                continue
            listed = cache.get(p) if cache else None  # empty right after an action
            if listed is not None:
                if listed:
                    seats.append(p)
            elif (p != discarder and may_take(hands[p], jokers[p], card, rules)) or (
                    (self._sevens >> p) & 1 and self._may_show_sevens(p)):
                seats.append(p)
        return _ALONE[current] if len(seats) == 1 else frozenset(seats)

    def _fit_out_rules(self, p: int, acts: list[Action]) -> list[Action]:
        if not self._on.out_rules:
            return acts
        return [a for a in acts if self._check_or_none(a) is None]

    def _check_or_none(self, action: Action) -> HoolaError | None:
        try:
            self._check(action)
        except HoolaError as exc:
            return exc
        return None

    def _claim_purposes(self, p: int, card: int) -> list[Action]:
        if not self._on.claim_purposes:
            return []
        return [a for a in (Take(p, card, purpose="blast"), Take(p, card, purpose="sevens"))
                if self._check_or_none(a) is None]

    def _grouping_options(self, p: int) -> list[Action]:
        held = [s * 13 + SEVEN for s in range(4) if (self.hands[p] >> (s * 13 + SEVEN)) & 1]
        if len(held) < 2:
            return []
        acts: list[Action] = []
        for meld in self.table:
            if meld.kind == MeldKind.SEVEN and not meld.branches:  # nothing built on it
                for i in range(len(held)):
                    for j in range(i + 1, len(held)):
                        cards = tuple(sorted((held[i], held[j], meld.cards[0])))
                        if self.rules.glenn_melds:  # ruling 21: a set lies as written
                            acts.extend(NewMeld(p, order) for order in permutations(cards))
                        else:
                            acts.append(NewMeld(p, cards))
        return acts

    def _meld_table(self, p: int, jokers: int) -> MeldTable[Action]:
        """Seat ``p``'s new-meld actions by slot, each suit's discards after its runs (shared by
        every deal under the same key)."""
        key = meld_key(self.rules, jokers)
        table = _MELD_TABLES.get((p, key))
        if table is None:
            table = _MELD_TABLES[(p, key)] = MeldTable(key, partial(_new_meld, p),
                                                       partial(_discards, p),
                                                       orders=self.rules.glenn_melds)
        self._on.melds[2 * p + key[3]] = table
        return table

    def _keep_add_targets(self) -> _AddsFor:
        """What may be added to the table's melds, kept with the table (a tuple, replaced when
        it changes) and the seats' add actions made of them so far."""
        known: KnownTargets = self._adds[3] if self._adds is not None else {}
        kept = self._adds = (self.table, add_targets(self.table, self.rules, known), {}, known)
        return kept

    def _target_card(self, meld_id: int, card: int, joker_as: int | None) -> int | None:
        """The card an addition names its meld by (None: name the meld by its number)."""
        meld = self._meld_by_id(meld_id)
        if self.rules.glenn_melds:  # ruling 21: the card is built on the top card
            top = meld.cards[-1]
            return None if top == JOKER else top
        naturals = meld.naturals()
        if meld.kind != MeldKind.RUN:
            return naturals[0]
        face = joker_as if card == JOKER else card
        if face is None:
            return naturals[0]
        # The natural card nearest the added card reads best ("add 6c on 5c").
        return min(naturals, key=lambda c: min((c - face) % 13, (face - c) % 13))

    def _takeable_card(self, p: int) -> int | None:
        if self.phase != "play":
            return None
        if p == self.current and not self.drawn and self.upcard_live:
            return self.discards[-1] if p == self.dealer and self.discards[-1] != JOKER else None
        if not self.claimable or p == self.discarder:
            return None
        if p != self.current and self.rules.claims == "next-only":
            return None
        if p == self.current and self.drawn:
            return None
        return self.discards[-1]

    # -- check / ask / do -----------------------------------------------------------------------

    def verify(self, action: object) -> None:
        """Raise an :class:`IllegalActionError` unless ``action`` is legal now."""
        self._check(check_action(action, self.n))

    def can(self, action: object) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except HoolaError:
            return False
        return True

    def apply(self, action: object) -> Action:
        """Check and apply ``action``; return the record appended to the history.

        An action taken from this moment's own legal list (the very object, as bots and
        interfaces pass it back) is known to be legal: the plain moves skip the checks.
        """
        # trusted.listed_one, inline (a call a decision): the seat read as any value.
        p = getattr(action, "player", None)
        listed = self._cache.get(p) if type(p) is int else None
        a: Action | None = None
        if listed is not None:
            for x in listed:
                if x is action:
                    a = x
                    break
        if a is None:
            a = check_action(action, self.n)
            plan = self._check(a)
        elif type(a) in _PLAIN:
            plan = None
        else:
            plan = self._listed_plan(a)
        self._cache.clear()
        self._sizes = None
        record = self._do(a, plan)
        self.history.append(record)
        self._public.append(_DRAW[record.player] if type(record) is Draw else record)
        return record

    def _listed_plan(self, a: Action) -> Any:
        """The plan of a take, meld or add from this moment's legal list: what :meth:`_check`
        returns, without checking again what listing it checked (the cards in hand, the turn,
        going out) or writing the texts of errors that cannot come."""
        p, rules = a.player, self.rules
        if isinstance(a, Take) and a.purpose is None:
            return listed_meld((a.card, *a.with_cards), a.joker_as, rules, owner=p,
                               meld_id=self.next_meld_id)
        if isinstance(a, NewMeld) and not self._on.grouping_sevens:
            return (listed_meld(a.cards, a.joker_as, rules, owner=p, meld_id=self.next_meld_id),
                    a.cards, None)
        if isinstance(a, Add) and a.on is not None:
            on = a.on
            for meld in self.table:
                if on in meld.cards:
                    return extend_meld(meld, a.card, a.joker_as, rules)
        return self._check(a)  # the rare kinds: grouped sevens, takes for a blast or sevens

    def _check(self, a: Action) -> Any:
        """The plan of a well-formed action (:func:`check_action`) if it is legal now."""
        p = a.player
        if self.phase == "over":
            raise _illegal(f"cannot {a.verb}: play has ended", "deal-over")
        who = self.names[p]
        if self.phase == "choose":
            if not isinstance(a, Play | Drop):
                raise OutOfTurnError(f"{who} cannot {a.verb}: players are still choosing to play "
                                     "or drop", "choosing")
            if p != self.current:
                raise OutOfTurnError(f"{who} cannot {a.verb}: it is {self.names[self.current]}'s "
                                     "turn to choose", "out-of-turn")
            forced = self._forced_choice()
            if forced is not None and forced != a.verb:
                raise _illegal(f"{who} cannot {a.verb}: {who} must {forced} (exactly five play "
                               "each deal, the dealer always)", "forced-choice")
            if self.deal.redeal == "listed" and self._next_seat(p) == self.dealer:
                playing = {c for q in range(self.n) if (q == p and isinstance(a, Play)) or (
                    q != p and self.chose[q] is True) for c in self._hand_cards(q)}
                clash = [c for c in self.deal.stock if c != JOKER and
                         (c in playing or c == self.deal.upcard)]
                if clash:
                    raise _illegal(f"the listed stock holds {format_card(clash[0])}, which is in "
                                   "a playing hand or is the upcard", "bad-deal")
            return None
        if isinstance(a, Play | Drop):
            raise _illegal(f"{who} cannot {a.verb}: choosing to play or drop happens only with six "
                           "or seven players, before play", "not-choosing")
        if not self.in_deal[p]:
            raise OutOfTurnError(f"{who} cannot {a.verb}: {who} dropped out of this deal",
                                 "dropped-out")
        if isinstance(a, Sevens):
            problem = self._sevens_problem(p)
            if problem:
                raise problem
            return None
        if isinstance(a, Take):
            return self._check_take(a)
        if p != self.current:
            raise OutOfTurnError(f"{who} cannot {a.verb}: it is {self.names[self.current]}'s turn",
                                 "out-of-turn")
        if isinstance(a, Draw | Knock | Blast):
            if self.drawn:
                raise _illegal(f"{who} cannot {a.verb}: {who} has already drawn this turn "
                               f"({a.verb} comes at the start of the turn)", "already-drawn")
            problem = None
            if isinstance(a, Knock):
                problem = self._knock_problem(p)
            elif isinstance(a, Blast):
                problem = self._blast_problem(p)
            elif not self.stock:
                problem = _illegal(f"{who} cannot draw: the stock is empty", "stock-empty")
            if problem:
                raise problem
            return None
        if not self.drawn:
            raise _illegal(f"{who} cannot {a.verb}: a turn begins by drawing (or taking the "
                           "discard)", "must-draw-first")
        if isinstance(a, Discard):
            self._need_in_hand(p, (a.card,), f"discard {format_card(a.card)}")
            if self._hand_size(p) == 1 and self.rules.hoola_only_out and not self.hoola_turn:
                raise _illegal(f"cannot discard {format_card(a.card)}: going out is allowed only "
                               "with a Hoola (hoola_only_out)", "hoola-only-out")
            return None
        if isinstance(a, NewMeld):
            return self._check_meld(a)
        if isinstance(a, Add):
            return self._check_add(a)
        raise _illegal(f"{who} cannot act with {a!r}: not a Hoola action", "unknown-action")

    def _hand_size(self, p: int) -> int:
        return self.hands[p].bit_count() + self.jokers[p]

    def _need_in_hand(self, p: int, cards: Sequence[int], what: str) -> None:
        jokers = sum(1 for c in cards if c == JOKER)
        naturals = [c for c in cards if c != JOKER]
        for c in naturals:
            if not isinstance(c, int) or not 0 <= c < 52:
                raise _illegal(f"cannot {what}: {c!r} is not a card", "bad-card")
        if len(set(naturals)) != len(naturals):
            raise _illegal(f"cannot {what}: a card is named twice", "duplicate-card")
        for c in naturals:
            if not (self.hands[p] >> c) & 1:
                raise _illegal(f"cannot {what}: {self.names[p]} does not hold {format_card(c)}",
                               "not-in-hand")
        if jokers > self.jokers[p]:
            raise _illegal(f"cannot {what}: {self.names[p]} does not hold "
                           f"{'a joker' if jokers == 1 else f'{jokers} jokers'}", "not-in-hand")

    def _check_going_out(self, p: int, what: str, left: int = 0,
                         laid: Sequence[int] = ()) -> None:
        """Refuse leaving ``left`` cards when the rules forbid going out that way.

        Laying ``laid`` so that four sevens are melded ends play as four sevens when cards are left
        (ruling 19), so the going-out rules do not apply then.
        """
        if left and self.rules.four_melded_sevens_win and self.sevens_laid[p] + sum(
                1 for c in laid if c != JOKER and c % 13 == SEVEN) == 4:
            return
        if left == 0 and self.rules.discard_to_go_out:
            raise _illegal(f"cannot {what}: a player must keep a card to discard to go out "
                           "(discard_to_go_out)", "must-discard-to-go-out")
        if self.rules.hoola_only_out and not self.hoola_turn and left <= 1:
            raise _illegal(f"cannot {what}: going out is allowed only with a Hoola "
                           "(hoola_only_out)", "hoola-only-out")

    def _check_take(self, a: Take) -> Any:
        p, who = a.player, self.names[a.player]
        card = self._takeable_card(p)
        what = f"take {format_card(a.card)}"
        if card is None or card != a.card:
            top = self.discards[-1] if self.discards else None
            if self.phase == "play" and p == self.current and self.drawn:
                raise _illegal(f"{who} cannot {what}: {who} has already drawn this turn",
                               "already-drawn")
            if top is not None and top == a.card and top == JOKER:
                raise _illegal(f"{who} cannot {what}: a discarded joker cannot be taken",
                               "joker-dead")
            if self.upcard_live and p != self.dealer and top == a.card:
                raise _illegal(f"{who} cannot {what}: the upcard may be taken only by the dealer "
                               "on the first draw", "upcard-dealer-only")
            if self.claimable and p == self.discarder:
                raise _illegal(f"{who} cannot {what}: a player cannot take their own discard",
                               "own-discard")
            if self.claimable and top == a.card and self.rules.claims == "next-only":
                raise OutOfTurnError(f"{who} cannot {what}: only the next player may take a "
                                     "discard (claims = next-only)", "out-of-turn")
            if top == a.card and self.last_draw is False and not self.claimable:
                raise _illegal(f"{who} cannot {what}: the discard can no longer be taken (the "
                               "claim window has closed)", "window-closed")
            raise _illegal(f"{who} cannot {what}: it is not the discard that may be taken now",
                           "not-takeable")
        if a.purpose is not None:
            if self.upcard_live:
                raise _illegal(f"{who} cannot {what} for {a.purpose}: the upcard is nobody's "
                               "discard, and the dealer takes it only into a new three-card meld "
                               "(ruling 3)", "upcard-not-a-discard")
            return self._check_claim_purpose(a)
        if len(a.with_cards) != 2:
            raise _illegal(f"{who} cannot {what}: a discard is taken only into a new three-card "
                           "meld with exactly two cards from hand", "take-needs-two")
        self._need_in_hand(p, a.with_cards, what)
        meld = new_meld((a.card, *a.with_cards), a.joker_as, self.rules, owner=p,
                        meld_id=self.next_meld_id)
        left = self._hand_size(p) - 2
        if left <= 1:
            saved = self.hoola_turn
            self.hoola_turn = not self.melded[p]
            try:
                self._check_going_out(p, what, left, (a.card, *a.with_cards))
            finally:
                self.hoola_turn = saved
        return meld

    def _check_claim_purpose(self, a: Take) -> Any:
        p, who, rules = a.player, self.names[a.player], self.rules
        what = f"take {format_card(a.card)} for {a.purpose}"
        if not rules.claim_for_blast_or_sevens:
            raise _illegal(f"{who} cannot {what}: taking a discard for a blast or four sevens is "
                           "an online rule (claim_for_blast_or_sevens)", "claim-purpose-off")
        if a.purpose == "sevens":
            if not rules.four_sevens:
                raise _illegal(f"{who} cannot {what}: four sevens do not end play under these "
                               "rules", "sevens-off")
            # The discard must complete the four: a seven the hand lacks for them.
            if a.card % 13 != SEVEN or self._holds_four_sevens(p, self.hands[p], self.jokers[p]) \
                    or not self._holds_four_sevens(p, self.hands[p] | (1 << a.card),
                                                   self.jokers[p]):
                raise _illegal(f"{who} cannot {what}: {format_card(a.card)} does not complete "
                               "four sevens in hand", "not-four-sevens")
            return "sevens"
        if a.purpose != "blast":
            raise _illegal(f"{who} cannot {what}: a take is for blast or sevens", "bad-action")
        if not rules.blasts:
            raise _illegal(f"{who} cannot {what}: blasts are not played", "blasts-off")
        if self.melded[p] or self._hand_size(p) != HAND_SIZE:
            raise _illegal(f"{who} cannot {what}: a blast needs seven cards and no meld yet",
                           "blast-after-meld")
        # The discard completes the blast: it is one of the seven cards shown, and one card of
        # the player's own hand (a joker included) is left out.
        mask = self.hands[p] | (1 << a.card)
        kinds = set()
        for c in cards_of(self.hands[p]):
            kind = blast_kind(mask & ~(1 << c), self.jokers[p], rules)
            if kind:
                kinds.add(kind)
        if self.jokers[p]:
            kind = blast_kind(mask, self.jokers[p] - 1, rules)
            if kind:
                kinds.add(kind)
        if not kinds:
            raise _illegal(f"{who} cannot {what}: {format_card(a.card)} with six cards of the hand "
                           "makes no blast", "not-a-blast")
        return "sopang" if "sopang" in kinds else "daepang"

    def _check_meld(self, a: NewMeld) -> Any:
        p, what = a.player, f"meld {format_cards(a.cards)}"
        if not a.cards:
            raise _illegal("cannot meld: name the cards to meld", "meld-too-short")
        grouped = self._grouped_seven(a)
        from_hand = tuple(c for c in a.cards if grouped is None or c != grouped.cards[0])
        self._need_in_hand(p, from_hand, what)
        if grouped is not None:
            laid = tuple(a.cards) if self.rules.glenn_melds else tuple(sorted(a.cards))
            meld = Meld(self.next_meld_id, p, MeldKind.SET, laid, laid, rank=SEVEN)
        else:
            meld = new_meld(a.cards, a.joker_as, self.rules, owner=p, meld_id=self.next_meld_id)
        left = self._hand_size(p) - len(from_hand)
        if left <= 1:
            self._check_going_out(p, what, left, from_hand)
        return (meld, from_hand, grouped)

    def _grouped_seven(self, a: NewMeld) -> Meld | None:
        """Grouping sevens (old rule): the lone melded seven named in a three-seven meld."""
        if not self.rules.grouping_sevens or len(a.cards) != 3:
            return None
        if not all(c != JOKER and c % 13 == SEVEN for c in a.cards):
            return None
        off_hand = [c for c in a.cards if not (self.hands[a.player] >> c) & 1]
        if len(off_hand) != 1:
            return None
        for meld in self.table:
            if meld.kind == MeldKind.SEVEN and meld.cards[0] == off_hand[0] \
                    and not meld.branches:
                return meld
        return None

    def _meld_by_id(self, meld_id: int) -> Meld:
        for meld in self.table:
            if meld.id == meld_id:
                return meld
        raise _illegal(f"there is no meld m{meld_id} on the table", "no-such-meld")

    def _check_add(self, a: Add) -> Any:
        p, rules = a.player, self.rules
        name = f"JK={format_card(a.joker_as)}" if a.card == JOKER and a.joker_as is not None \
            else format_card(a.card)
        target = format_card(a.on) if a.on is not None else f"m{a.meld_id}"
        what = f"add {name} on {target}"
        if rules.lay_off_needs_own_meld and not self.own_meld[p]:
            raise _illegal(f"cannot {what}: you have not laid down a meld of your own yet",
                           "no-own-meld")
        self._need_in_hand(p, (a.card,), what)
        meld: Meld | None = None
        if a.meld_id is not None:
            meld = self._meld_by_id(a.meld_id)
        elif a.on is not None:
            meld = next((m for m in self.table if a.on in m.cards), None) or next(
                (m for m in self.table if a.on in m.faces), None)
        if meld is None:
            raise _illegal(f"cannot {what}: no meld on the table holds {target}", "no-such-meld")
        if rules.glenn_melds and a.on is not None and a.on not in (
                meld.cards[-1], meld.faces[-1]) and not grows_from(meld, a.on, a.card,
                                                                   a.joker_as, rules):
            raise _illegal(f"cannot {what}: {target} is not the top card of m{meld.id} (the top "
                           f"card is {top_text(meld)}), and with Glenn's building a card goes "
                           "only on a meld's top card (ruling 21)", "not-top-card")
        grown = extend_meld(meld, a.card, a.joker_as, rules)
        left = self._hand_size(p) - 1
        if left <= 1:
            self._check_going_out(p, what, left, (a.card,))
        return grown

    def _may_knock(self, p: int) -> bool:
        """The knock condition alone (the caller knows it is the start of p's turn)."""
        on = self._on
        if on.dealer_knocks:
            return p == self.dealer and self._hand_size(p) == 1
        rules, table, mask = self.rules, on.knock_points, self.hands[p]
        limit = on.knock_limit
        if limit is None or limit[0] is not self.in_deal:  # the seats in the deal: a tuple
            limit = on.knock_limit = (self.in_deal, *_knock_limit(rules, sum(self.in_deal)))
        if mask & limit[2]:  # a card worth more than the limit (no card counts below 0, jokers add)
            return False
        if table is None or self.jokers[p]:
            points = hand_points(mask, self.jokers[p], rules, True)
        else:
            points = table_points(table, mask)
        return points <= limit[1]

    def _knock_problem(self, p: int) -> IllegalActionError | None:
        rules, who = self.rules, self.names[p]
        if self.phase != "play" or p != self.current or self.drawn:
            return _illegal(f"{who} cannot knock: a knock comes at the start of one's own turn",
                            "not-turn-start")
        if not rules.knocks:
            return _illegal(f"{who} cannot knock: knocking is not played under these rules",
                            "knocks-off")
        if rules.knock_rule == "dealer-one-card":
            if p != self.dealer or self._hand_size(p) != 1:
                return _illegal(f"{who} cannot knock: only the dealer holding one card may stop "
                                "the play (knock_rule = dealer-one-card)", "knock-not-allowed")
            return None
        limit = rules.knock_limit_for(sum(self.in_deal))
        points = hand_points(self.hands[p], self.jokers[p], rules, True)
        if points > limit:
            return _illegal(f"{who} cannot knock: {points} points in hand is more than the knock "
                            f"limit of {limit}", "knock-over-limit")
        return None

    def _blast_problem(self, p: int) -> IllegalActionError | None:
        rules, who = self.rules, self.names[p]
        if self.phase != "play" or p != self.current or self.drawn:
            return _illegal(f"{who} cannot blast: a blast comes at the start of one's own turn",
                            "not-turn-start")
        if not rules.blasts:
            return _illegal(f"{who} cannot blast: blasts are not played under these rules",
                            "blasts-off")
        if self.melded[p] or self._hand_size(p) != HAND_SIZE:
            return _illegal(f"{who} cannot blast: a blast needs seven cards in hand and nothing "
                            "melded", "blast-after-meld")
        if blast_kind(self.hands[p], self.jokers[p], rules) is None:
            points = blast_points(self.hands[p], rules)
            return _illegal(f"{who} cannot blast: {points} points is neither at most "
                            f"{rules.blast_low} nor a daepang", "not-a-blast")
        return None

    def _holds_four_sevens(self, p: int, mask: int, jokers: int) -> bool:
        sevens = (mask & SEVEN_BITS).bit_count()
        return sevens == 4 or (self._on.joker_as_seven and sevens == 3 and jokers > 0)

    def _may_show_sevens(self, p: int) -> bool:
        return self._on.four_sevens and self._holds_four_sevens(
            p, self.hands[p], self.jokers[p]) and self._sevens_problem(p) is None

    def _sevens_problem(self, p: int) -> IllegalActionError | None:
        rules, who = self.rules, self.names[p]
        if self.phase != "play":
            return _illegal(f"{who} cannot show four sevens now", "not-now")
        if not rules.four_sevens:
            return _illegal(f"{who} cannot show four sevens: they do not end play under these "
                            "rules", "sevens-off")
        if not self._holds_four_sevens(p, self.hands[p], self.jokers[p]):
            return _illegal(f"{who} cannot show four sevens: {who} does not hold all four sevens "
                            "in hand", "not-four-sevens")
        if rules.four_sevens_timing == "turn-start" and (p != self.current or self.drawn):
            return _illegal(f"{who} cannot show four sevens now: only at the start of one's own "
                            "turn (four_sevens_timing = turn-start)", "not-turn-start")
        return None

    def _forced_choice(self) -> str | None:
        playing = sum(1 for c in self.chose if c is True)
        dropped = sum(1 for c in self.chose if c is False)
        if playing >= PLAYING:
            return "drop"
        if dropped >= self.n - PLAYING:
            return "play"
        return None

    # -- doing ----------------------------------------------------------------------------------

    def _do(self, a: Action, plan: Any) -> Action:
        # The kinds in the order of how often they come: a discard or a draw most decisions.
        p = a.player
        if isinstance(a, Discard):
            card = a.card
            self._take_out(p, card)
            self.discards.append(card)
            if not self.hands[p] and not self.jokers[p]:
                self._end_out(p, a)
            elif self.last_draw:
                self._end("stock", self._lowest(range(self.n)), a)
            else:
                self.claimable = card != JOKER
                self.discarder = p
                nxt = p + 1 if p + 1 < self.n else 0
                self.current = nxt if self.in_deal[nxt] else self._next_seat(p)
                self.drawn = False
            return a
        if isinstance(a, Draw):
            card = self.stock.pop()
            self._give(p, card)
            self._begin_turn(p)
            self.drawn = True
            self.claimable = False
            self.upcard_live = False
            if not self.stock:
                self.last_draw = True
            return _DRAWN[p][card]
        if isinstance(a, Take):
            return self._do_take(a, plan)
        if isinstance(a, NewMeld):
            meld, from_hand, grouped = plan
            self._remove(p, from_hand)
            if grouped is not None:
                self.table = tuple(m for m in self.table if m is not grouped)
            else:
                self.own_meld = put(self.own_meld, p, True)
            self.melded = put(self.melded, p, True)
            self._lay(meld, from_hand)
            self._after_laying(p, a)
            return a
        if isinstance(a, Add):
            grown: Meld = plan
            self._remove(p, (a.card,))
            self.melded = put(self.melded, p, True)
            index = next(i for i, m in enumerate(self.table) if m.id == grown.id)
            if is_killed(grown, self.rules):
                # Glenn's building (ruling 21): the open part's four cards go to the bottom of
                # the discard pile; what lay beneath them stays.
                remains, killed = kill(grown)
                self.discards[0:0] = list(killed)
                self.table = self.table[:index] + self.table[index + 1:] if remains is None \
                    else put(self.table, index, remains)
            else:
                self.table = put(self.table, index, grown)
            if a.card != JOKER and a.card % 13 == SEVEN:
                self.sevens_laid = put(self.sevens_laid, p, self.sevens_laid[p] + 1)
            self._after_laying(p, a)
            return a
        if isinstance(a, Play | Drop):
            return self._do_choice(a)
        if isinstance(a, Knock):
            self._begin_turn(p)
            self._end_knock(p, a)
            return a
        if isinstance(a, Blast):
            self._begin_turn(p)
            kind = blast_kind(self.hands[p], self.jokers[p], self.rules)
            self._end(kind or "sopang", [p], a)
            return a
        if isinstance(a, Sevens):
            if p == self.current and not self.drawn:
                self._begin_turn(p)
            self._end("sevens", [p], a)
            return a
        raise AssertionError(a)

    def _do_choice(self, a: Action) -> Action:
        p = a.player
        forced = self._forced_choice()
        self.chose = put(self.chose, p, isinstance(a, Play))
        if isinstance(a, Drop):
            self.in_deal = put(self.in_deal, p, False)
            if forced == "drop":
                self.forced_out.append(p)
        nxt = self._next_seat(p)
        if nxt != self.dealer:
            self.current = nxt
            return a
        self._finish_choosing()
        return a

    def _finish_choosing(self) -> None:
        rules = self.rules
        volunteers = [q for q in range(self.n) if q != self.dealer and self.chose[q] is True]
        for d in self.forced_out:
            units = count_units(self.hands[d], rules)
            if units:
                each = Fraction(rules.dropout_compensation) * units * self.stake
                gain = each * len(volunteers)
                self.compensation[d] = self.compensation.get(d, Fraction(0)) + gain
                for q in volunteers:
                    self.compensation[q] = self.compensation.get(q, Fraction(0)) - each
        dropped = [q for q in range(self.n) if not self.in_deal[q]]
        if self.deal.redeal == "shuffle":
            cards = list(reversed(self.stock))
            for q in dropped:
                cards.extend(self._hand_cards(q))
            shuffle(self.rng, cards)
            final = tuple(cards)
        else:
            playing = [c for q in range(self.n) if self.in_deal[q] for c in self._hand_cards(q)]
            final = complete_stock(rules, [*playing, self.deal.upcard], self.deal.stock)
        for q in dropped:
            self.hands[q] = 0
            self.jokers[q] = 0
        self._sevens = three_sevens(self.hands)
        self.stock = list(reversed(final))
        self.stock_after_drops = final
        self.phase = "play"
        self.current = self.dealer

    def _do_take(self, a: Take, plan: Any) -> Action:
        p = a.player
        from_discarder = None if self.upcard_live else self.discarder
        self.discards.pop()
        self.current = p
        self.claimable = False
        self.upcard_live = False
        self._begin_turn(p)
        self.took_from = from_discarder
        self.drawn = True
        if a.purpose is not None:
            self._give(p, a.card)
            kind: str = plan
            self._end(kind, [p], a, claimed_from=from_discarder)
            return a
        meld: Meld = plan
        self._remove(p, a.with_cards)
        self.own_meld = put(self.own_meld, p, True)
        self.melded = put(self.melded, p, True)
        self._lay(meld, (a.card, *a.with_cards))
        self._after_laying(p, a)
        return a

    def _lay(self, meld: Meld, laid: Sequence[int]) -> None:
        self.next_meld_id += 1
        sevens = sum(1 for c in laid if c != JOKER and c % 13 == SEVEN)
        if sevens:
            owner = meld.owner
            self.sevens_laid = put(self.sevens_laid, owner, self.sevens_laid[owner] + sevens)
        if is_killed(meld, self.rules):
            self.discards[0:0] = list(meld.cards)
        else:
            self.table += (meld,)

    def _after_laying(self, p: int, a: Action) -> None:
        # Ruling 19: a card that empties the hand goes out, even when it completes four sevens.
        if self._hand_size(p) == 0:
            self._end_out(p, a)
        elif self.rules.four_melded_sevens_win and self.sevens_laid[p] == 4:
            self._end("sevens", [p], a)

    def _begin_turn(self, p: int) -> None:
        if not self.had_turn[p]:
            self.had_turn = put(self.had_turn, p, True)
        self.hoola_turn = not self.melded[p]
        self.took_from = None

    def _give(self, p: int, card: int) -> None:
        if card == JOKER:
            self.jokers[p] += 1
        else:
            self.hands[p] |= 1 << card
            if card % 13 == SEVEN:
                self._count_sevens(p)

    def _take_out(self, p: int, card: int) -> None:
        if card == JOKER:
            self.jokers[p] -= 1
        else:
            self.hands[p] &= ~(1 << card)
            if card % 13 == SEVEN:
                self._count_sevens(p)

    def _remove(self, p: int, cards: Sequence[int]) -> None:
        for c in cards:
            self._take_out(p, c)

    def _count_sevens(self, p: int) -> None:
        """Keep ``_sevens`` (the seats holding three sevens at least) for seat p's hand."""
        if (self.hands[p] & SEVEN_BITS).bit_count() >= 3:
            self._sevens |= 1 << p
        else:
            self._sevens &= ~(1 << p)

    def _hand_cards(self, p: int) -> list[int]:
        cards = cards_of(self.hands[p])
        if self.jokers[p]:
            cards.extend([JOKER] * self.jokers[p])
        return cards

    def _next_seat(self, p: int) -> int:
        q = (p + 1) % self.n
        while not self.in_deal[q] and q != p:
            q = (q + 1) % self.n
        return q

    # -- ends -----------------------------------------------------------------------------------

    def _points(self, p: int) -> int:
        return hand_points(self.hands[p], self.jokers[p], self.rules, self.had_turn[p])

    def _lowest(self, seats: Any) -> list[int]:
        playing = [q for q in seats if self.in_deal[q]]
        low = min(self._points(q) for q in playing)
        return [q for q in playing if self._points(q) == low]

    def _end_out(self, p: int, a: Action) -> None:
        hoola = self.hoola_turn and (not self.rules.hoola_needs_all_played or all(
            self.had_turn[q] for q in range(self.n) if self.in_deal[q] and q != p))
        self._end("hoola" if hoola else "out", [p], a, claimed_from=self.took_from)

    def _end_knock(self, p: int, a: Action) -> None:
        mine = self._points(p)
        others = [q for q in range(self.n) if self.in_deal[q] and q != p]
        low = min(self._points(q) for q in others)
        if mine < low:
            self._end("knock", [p], a)
        else:
            self._end("knock", [q for q in others if self._points(q) == low], a, undercut=p)

    def _end(self, end: str, winners: list[int], last: Action, *, undercut: int | None = None,
             claimed_from: int | None = None) -> None:
        """Settle the deal that ``last`` (the action being applied, not yet in the history)
        ends."""
        seats = {q: SeatShowdown(self._points(q), (self.hands[q] & SEVEN_BITS).bit_count(),
                                 self.melded[q], self.had_turn[q])
                 for q in range(self.n) if self.in_deal[q]}
        mission = self.mission
        achieved = False
        if mission is not None and len(winners) == 1:
            w = winners[0]
            achieved = feat_achieved(mission.feat, end=end, winner=w, table=self.table,
                                     history=[*self.history, last], dealer=self.dealer,
                                     in_deal=self.in_deal, winner_points=seats[w].points)
        result = settle(self.rules, end, seats, winners, stake=self.stake,
                        undercut_knocker=undercut, claimed_from=claimed_from, mission=mission,
                        mission_achieved=achieved)
        if self.compensation:
            payments = dict(result.payments)
            for q, amount in self.compensation.items():
                payments[q] = payments.get(q, Fraction(0)) + amount
            result = replace(result, payments=payments)
        self.result = result
        self.phase = "over"
        self.claimable = False

    # -- views and text -------------------------------------------------------------------------

    def view(self, player: object) -> View:
        """What ``player`` may know now: their own hand, the table, counts, the public history.

        Other players' hands appear only once play has ended (the showdown).
        """
        p = _seat(player, self.n, "view")
        over = self.phase == "over"
        hands = tuple(tuple(self._hand_cards(q)) for q in range(self.n)) if over else None
        sizes = self._sizes
        if sizes is None:  # once per moment, however many seats look
            sizes = self._sizes = tuple([h.bit_count() + j for h, j in zip(
                self.hands, self.jokers, strict=True)])
        # Positional, in View's field order (a keyword call costs a third of the view); the
        # tuples of public facts are the state's own (never changed in place), not copies.
        return _new_view(View, (
            p, self.names, self.rules, self.dealer, self.stake, self.phase, self.current,
            self.drawn,
            hands[p] if hands is not None else tuple(self._hand_cards(p)),
            sizes, self.in_deal, self.melded, self.own_meld, self.had_turn, self.table,
            tuple(self.discards), self._takeable_card(p),
            self.discarder if self.claimable else None, len(self.stock), Prefix(self._public),
            tuple(self._legal_cached(p)), self.phase == "play" and p != self.current,
            self.result, hands, self.claimable, self.upcard_live, self.hoola_turn,
            self.took_from, self.last_draw, self.sevens_laid, self.next_meld_id, self.chose,
            tuple(self.compensation.items()), self.mission,
        ))

    def returns(self) -> list[Fraction]:
        """Each seat's net stakes for this deal (zeros until play has ended)."""
        if self.result is None:
            return [Fraction(0)] * self.n
        return [self.result.payments.get(q, Fraction(0)) for q in range(self.n)]

    def outcome(self) -> Outcome:
        """How the deal ended, for statistics: the end, the winners, the dealer, the turns begun
        (draws and takes), and two tags: the ``undercut`` knocker, and the seat that ``paid for
        all`` (the discarder a winner went out with; an undercut knocker is tagged undercut)."""
        result = self.result
        if result is None:
            raise IllegalActionError("the deal has no outcome yet: play has not ended",
                                     "deal-not-over")
        last = self.history[-1] if self.history else None
        undercut = (last.player,) if isinstance(last, Knock) \
            and last.player not in result.winners else ()
        payer = (result.payer,) if result.payer is not None and not undercut else ()
        turns = sum(map(_TURNS.__contains__, map(type, self.history)))  # draws and takes
        return Outcome(result.end, tuple(result.winners), self.dealer, turns,
                       {"undercut": undercut, "paid for all": payer})

    def hand(self, player: object) -> tuple[int, ...]:
        """The cards ``player`` holds, canonical order, jokers last."""
        return tuple(self._hand_cards(_seat(player, self.n, "show a hand")))

    def parse(self, text: str) -> Action:
        """An action from its notation with this deal's names (``"B take 9d with 9s 9h"``)."""
        return parse_action(text, self.names)

    def resolve(self, decisions: Sequence[Action]) -> Action | None:
        """Which of simultaneous decisions stands, given in the order they arrived (ruling 2).

        Four sevens shown beat everything, the first to arrive winning. A claim on the discard
        beats the player whose turn it is unless they chose something other than drawing; among
        claims, ``battle`` takes the first to arrive, the other settings the claimant whose turn
        would come soonest. With no claim, the current player's own decision stands.
        """
        mine = next((a for a in decisions if a.player == self.current), None)
        sevens = [a for a in decisions if type(a) is Sevens]
        if sevens:
            return sevens[0]
        claims = [a for a in decisions if type(a) is Take]
        if claims and (mine is None or type(mine) in (Take, Draw)):
            if self.rules.claims == "battle":
                return claims[0]
            return min(claims, key=lambda a: (a.player - self.current) % self.n)
        return mine

    def format(self, action: Action) -> str:
        """The notation of ``action`` with this deal's player names."""
        # A draw in the history names its card; the notation does not.
        check_action(Draw(action.player) if type(action) is Draw else action, self.n)
        return format_action(action, self.names)

    def __repr__(self) -> str:
        return (f"<DealState {self.phase} players={','.join(self.names)} "
                f"current={self.names[self.current]} actions={len(self.history)}>")
