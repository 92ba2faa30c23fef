"""The engine: one hand of Kalookie, from the deal to the settlement and the buy-in decisions.

Several players may act at once (the discarder may still warn while the next player draws; the
dealer may swap the upcard while the first player draws), so :meth:`DealState.actors` is a set.
Every action goes through check, ask, do: :meth:`DealState.verify` raises a precise
:class:`~hoola.core.errors.IllegalActionError`, :meth:`DealState.can` answers yes or no, and
:meth:`DealState.apply` checks, applies and returns the frozen record appended to the history. A
refused action changes nothing.

>>> from hoola.games.kalookie.rules import Rules
>>> s = DealState.new(Rules.preset("british"), ["A", "B"], seed=3)
>>> s.actors(), s.format(s.legal_actions(1)[0])
(frozenset({1}), 'B draw')
>>> s.apply(Draw(1)).card is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import compress
from typing import Any, ClassVar, Final

from hoola.core.cards import format_card
from hoola.core.chance import shuffle
from hoola.core.errors import HoolaError, IllegalActionError, OutOfTurnError
from hoola.core.game import Outcome
from hoola.core.prefix import Prefix, put
from hoola.games.kalookie.actions import (
    NAME_RE,
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
    check_fields,
    format_action,
    parse_action,
)
from hoola.games.kalookie.cards import (
    JOKER,
    NAMED,
    cards_of_counts,
    counts_of,
    face_of,
    format_token,
    format_tokens,
    hand_code,
)
from hoola.games.kalookie.deal import Deal, Standing, shuffled
from hoola.games.kalookie.legal import (
    MAX_LISTED_JOKERS,
    build_places,
    lay_options,
    swap_cards,
)
from hoola.games.kalookie.melds import (
    Meld,
    build,
    find_melds,
    meld_value,
    new_meld,
    release,
    token_value,
)
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.scoring import Settlement, settle, void
from hoola.games.kalookie.solver import (
    Goal,
    can_finish,
    can_lay,
    code_bound,
    is_plain,
    lay_of,
    table_bound,
    takes_jokers,
)
from hoola.games.kalookie.turns import Turn, slots_for
from hoola.games.kalookie.verbs import Verbs
from hoola.games.kalookie.views import View

__all__ = ["DealState"]

def _illegal(message: str, code: str) -> IllegalActionError:
    return IllegalActionError(message, code)


def _still_to_lay(card: int | None, naturals: Sequence[int], jokers: int) -> int | None:
    """The taken card still to lay (meld-at-once) after laying ``naturals`` and ``jokers``."""
    if card is None or card in naturals or (card == JOKER and jokers):
        return None
    return card


# A seat's discards (by card, jokers at JOKER), draw and take, made once and listed by every
# state: frozen values, as good as new ones, and the listing makes one for every card held. Then
# the records of its draws and takes, by card.
_DRAW: Final = JOKER + 1
_TAKE: Final = JOKER + 2
_DRAWN: Final = JOKER + 3
_TAKEN: Final = 2 * JOKER + 4
_SEAT_ACTIONS: Final[list[list[Action]]] = []


# Whether this module is compiled (mypyc): compiled, a loop over a hand's 53 counts is quicker
# than `compress`, which goes through Python's iterators card by card; in Python, `compress` is.
_COMPILED: Final = not __file__.endswith(".py")

# Kinds of actions, as tuples (isinstance is quicker with a tuple than with a union).
_LAYS: Final = (NewMeld, Add, Swap)
_BEGINS: Final = (Draw, Take)
_DECISIONS: Final = (BuyIn, Retire)
_FIRST: Final = (Warn, SwapUpcard)  # the decisions that come before the turn's
# (A union such as ``Draw | Take`` is made anew each time it is evaluated.)
# The one seat that may act, as a set, by seat: most moments have one actor.
_ALONE: Final = tuple(frozenset((q,)) for q in range(16))
# A turn begun by a draw, or by a take that binds to nothing, by whether the player has opened.
_FRESH: Final = (Turn(), Turn(opened_before=True))


def _seat_actions(p: int) -> list[Action]:
    while len(_SEAT_ACTIONS) <= p:
        q = len(_SEAT_ACTIONS)
        _SEAT_ACTIONS.append([*(Discard(q, c) for c in range(JOKER + 1)), Draw(q), Take(q),
                              *(Draw(q, c) for c in range(JOKER + 1)),
                              *(Take(q, c) for c in range(JOKER + 1))])
    return _SEAT_ACTIONS[p]


# The builds listed (frozen values, as good as new ones), by meld id, card and seat.
_ADDS: Final[dict[int, Add]] = {}


def _add(p: int, token: int, meld_id: int) -> Add:
    """The build of ``token`` on meld ``meld_id`` by seat ``p``, made once (:data:`_ADDS`)."""
    if len(_ADDS) >= 1 << 16:  # bounded: the meld ids of hands long over
        _ADDS.clear()
    add = _ADDS[(meld_id << 11) | (token << 4) | p] = Add(p, token, meld_id)
    return add


# The new melds listed (frozen values, as good as new ones), by seat, then by their tokens.
_MELDS: Final[list[dict[tuple[int, ...], NewMeld]]] = []


def _melds_of(p: int) -> dict[tuple[int, ...], NewMeld]:
    """Seat ``p``'s new melds listed so far (:data:`_MELDS`)."""
    while len(_MELDS) <= p:
        _MELDS.append({})
    made = _MELDS[p]
    if len(made) >= 1 << 14:  # bounded: a long simulation meets many melds
        made.clear()
    return made


def _meld_of(p: int, tokens: tuple[int, ...]) -> NewMeld:
    """The new meld of ``tokens`` by seat ``p``, made once (:data:`_MELDS`)."""
    meld = _MELDS[p][tokens] = NewMeld(p, tokens)
    return meld


# The releases by players who have opened and owe nothing, for the last table and turn listed:
# (meld id, cards) -> what _joker_onto_table says.
_SWAPS: Final[list[tuple[Any, Any, Any, dict[tuple[int, tuple[int, ...]], Any]]]] = [
    (None, None, None, {})]


def _joker_onto_table(melds: tuple[Meld, ...], meld: Meld, cards: tuple[int, ...], rules: Rules,
                      turn: Turn) -> tuple[Meld, Turn] | None:
    """The meld left and the turn after releasing the joker of ``meld`` with ``cards`` when the
    joker can then go straight onto a meld of the table; None when it cannot, or the release is
    not one."""
    try:
        freed = release(meld, cards, rules)
    except IllegalActionError:
        return None
    turn = turn._replace(loose=turn.loose + 1, laid_any=True,
                         must_lay=_still_to_lay(turn.must_lay, cards, 0))
    table = [freed if m.id == meld.id else m for m in melds]
    if not any(takes_jokers(slot, turn.loose, rules) for slot in slots_for(table, turn, rules)):
        return None
    return freed, turn


# The places to build on the table's melds, for the last table listed: (meld id, kind, where
# it grows as legal.build_places says, the cards that might release a joker from it and the
# natural cards that might be built on it, each as the bytes of a hand's code).
_Places = tuple[tuple[int, str, tuple[tuple[int, int, str], ...], int, int], ...]
_PLACES: Final[list[tuple[Any, Any, _Places]]] = [(None, None, ())]


def _releasers(meld: Meld) -> int:
    """The natural cards that might release a joker from ``meld`` (none without a joker), as
    the bytes of a hand's code (:func:`~.cards.hand_code`) that hold them: the cards a run's
    jokers stand for, every card of a set's rank."""
    if max(meld.tokens) < JOKER:
        return 0
    if meld.kind == "run":
        cards = [t - NAMED for t in meld.tokens if t >= NAMED]
    else:
        cards = [] if meld.rank < 0 else list(range(meld.rank, 52, 13))
    return sum(0xFF << (8 * c) for c in cards)


def _places(melds: tuple[Meld, ...], rules: Rules) -> _Places:
    """The places of ``melds``, remembered while the table stays the same (several turns)."""
    last = _PLACES[0]  # one read: another thread may replace it, never half of it
    if last[0] is melds and last[1] is rules:
        return last[2]
    places = tuple(_place(m, rules) for m in melds)
    _PLACES[0] = (melds, rules, places)
    return places


_Place = tuple[int, str, tuple[tuple[int, int, str], ...], int, int]
# The place of each meld met, by its id() (the meld kept, to know it is the same one): a table
# changes a meld at a time.
_PLACE_OF: Final[dict[int, tuple[Meld, Rules, _Place]]] = {}


def _place(meld: Meld, rules: Rules) -> _Place:
    """One meld's entry of :func:`_places`."""
    got = _PLACE_OF.get(id(meld))
    if got is not None and got[0] is meld and got[1] is rules:
        return got[2]
    where = build_places(meld, rules)
    builders = 0
    for card, _, _ in where:
        if card >= 0:
            builders |= 0xFF << (8 * card)
    place = (meld.id, meld.kind, where, _releasers(meld), builders)
    if len(_PLACE_OF) >= 4096:  # bounded: the melds of hands long over
        _PLACE_OF.clear()
    _PLACE_OF[id(meld)] = (meld, rules, place)
    return place


class DealState(Verbs):
    """One hand: the cards, the table, whose turn it is, and the history of applied actions.

    Build one with :meth:`new`. Seats are numbered in play order; ``names`` label them. The
    ``standing`` (penalty totals, buy-ins, who is still in) comes from the game; after the hand,
    :attr:`after` is the standing the next hand starts from.
    """

    # The fields copy() copies. Not __slots__: compiled by mypyc, a class with slots cannot be
    # subclassed (the search's Horizon is one), so pure Python keeps a __dict__.
    FIELDS: ClassVar[tuple[str, ...]] = (
        "_cache", "_plans", "_public", "after", "barred", "bought", "current", "deal",
        "dealer", "discards", "drawn", "first", "forced", "hands", "history", "melds", "n", "names",
        "next_id", "opened", "out", "phase", "queue", "reset_to", "reshuffles", "restocked",
        "result", "rng", "rules", "sizes", "standing", "stock", "swap_window", "totals", "turn",
        "warner",
    )

    def __init__(self, rules: Rules, names: Sequence[str], deal: Deal, *, dealer: object = 0,
                 standing: Standing | None = None, rng: random.Random | None = None) -> None:
        names = tuple(names)
        if not all(isinstance(x, str) and NAME_RE.fullmatch(x) for x in names) \
                or len(set(names)) != len(names):
            raise _illegal("players need distinct names made of letters, digits, _ and -",
                           "bad-names")
        n = len(names)
        standing = standing if standing is not None else Standing.fresh(n)
        if len(standing.active) != n:
            raise _illegal(f"the standing has {len(standing.active)} seats for {n} players",
                           "bad-deal")
        rules.check_players(len(standing.seats()))
        if type(dealer) is not int or not 0 <= dealer < n or not standing.active[dealer]:
            raise _illegal(f"dealer seat {dealer!r} is not a player still in the game", "bad-deal")
        if len(deal.hands) != n:
            raise _illegal(f"the deal has {len(deal.hands)} hands for {n} players", "bad-deal")
        self.rules = rules
        self.names = names
        self.n = n
        self.deal = deal
        self.dealer = dealer
        self.standing = standing
        self.rng = rng if rng is not None else random.Random()
        self.hands = [counts_of(h) for h in deal.hands]
        self._codes = [hand_code(h) for h in self.hands]
        self.sizes = [len(h) for h in deal.hands]
        self.stock = list(reversed(deal.stock))  # the top of the stock last
        self.discards = [deal.upcard]
        # The melds and who has opened are tuples replaced when they change, so that views and
        # copies share them instead of copying them.
        self.melds: tuple[Meld, ...] = ()
        self.next_id = 1
        self.opened = (False,) * n
        self.current = self._next_seat(dealer)
        self.drawn = False
        self.turn = Turn()
        self.first = True
        self.swap_window = rules.upcard_swap
        self.warner: int | None = None
        self.barred: frozenset[int] = frozenset()
        self.reshuffles = 0
        self.restocked: tuple[int, ...] | None = None  # the new stock of a reshuffle, top first
        self.result: Settlement | None = None
        self.phase = "play"
        self.queue: list[int] = []
        self.totals = list(standing.penalty)
        self.reset_to = 0
        self.out: list[int] = []
        self.forced: list[int] = []  # out with no buy-in possible, not yet said (a lone retire)
        self.bought: list[int] = []
        self.after: Standing | None = None
        self.history: list[Action] = []
        self._public: list[Action] = []
        self._cache: dict[int, list[Action]] = {}
        self._plans: dict[int, Any] = {}  # id of a listed action -> its check's plan

    @classmethod
    def new(cls, rules: Rules, players: object = 4, *, seed: object = None,
            deal: Deal | None = None, dealer: object = 0, standing: Standing | None = None,
            rng: object = None) -> DealState:
        """A new hand for ``players`` (a count, or names) from ``seed``, or from ``deal``."""
        # Arguments typed ``object`` are checked here: compiled (docs/compiled.md), a parameter
        # typed ``int`` would raise TypeError on None and take True for 1 before the check.
        if isinstance(players, int) and not isinstance(players, bool):
            rules.check_players(players)  # a precise message before names are made up
            names: list[str] = [chr(ord("A") + i) for i in range(players)]
        elif isinstance(players, list | tuple):
            names = list(players)
        else:
            raise _illegal(f"players must be a count or a list of names, not {players!r}",
                           "bad-names")
        standing = standing if standing is not None else Standing.fresh(len(names))
        if rng is None:
            if seed is not None and not isinstance(seed, int | str | bytes | bytearray):
                raise _illegal(f"a seed is a whole number or a string, not {seed!r}", "bad-seed")
            rng = random.Random(seed)
        elif not isinstance(rng, random.Random):
            raise _illegal(f"rng must be a random.Random, not {rng!r}", "bad-seed")
        if type(dealer) is not int or not 0 <= dealer < len(names):
            raise _illegal(f"dealer seat {dealer!r} is not at the table", "bad-deal")
        if deal is None:
            deal = shuffled(rules, standing, dealer, rng)
        return cls(rules, names, deal, dealer=dealer, standing=standing, rng=rng)

    def __new__(cls, *args: Any, **kwargs: Any) -> DealState:
        """A blank state (copy() and determinize fill one in); compiled by mypyc, a class
        without its own ``__new__`` would run ``__init__`` here."""
        return super().__new__(cls)

    def copy(self) -> DealState:
        """An independent copy (the random source included)."""
        other = DealState.__new__(DealState)
        self.copy_into(other)
        return other

    def copy_into(self, other: DealState) -> None:
        """Fill the blank state ``other`` (of a subclass, as the search's horizon) with an
        independent copy of this one."""
        for name in DealState.FIELDS:
            value = getattr(self, name)
            if isinstance(value, list | dict):
                value = value.copy()
            setattr(other, name, value)
        other.hands = [h.copy() for h in self.hands]
        other._codes = self._codes_now().copy()
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other._cache = {}
        other._plans = {}

    # -- who may act ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended, buy-in decisions included (``result`` holds the end)."""
        return self.phase == "over"

    def actors(self) -> frozenset[int]:
        """The seats that may act now: the player whose turn it is, a warner, the upcard swapper."""
        if self.phase == "play" and self.warner is None and not self.swap_window:
            return _ALONE[self.current]
        if self.phase == "over":
            return frozenset()
        seats = {self.current}
        if self.phase == "play":
            if self.warner is not None:
                seats.add(self.warner)
            if self.swap_window:
                seats.add(self.dealer)
        return frozenset(seats)

    def legal_actions(self, player: object) -> list[Action]:
        """Every action ``player`` may take now (empty when they may not act).

        New melds are listed with at most two jokers (sets of jokers apart); any other legal meld
        is accepted all the same. The list is the single source of truth for bots and interfaces.
        """
        if type(player) is not int or not 0 <= player < self.n:
            return []  # bool is not a seat: type(), not isinstance()
        cached = self._cache.get(player)
        if cached is None:
            cached = self._cache[player] = self._legal(player)
        return list(cached)

    def _legal_cached(self, player: int) -> list[Action]:
        cached = self._cache.get(player)
        if cached is None:
            cached = self._cache[player] = self._legal(player)
        return cached

    def _legal(self, p: int) -> list[Action]:
        if self.phase == "over":
            return []
        if self.phase == "decide":
            return [BuyIn(p), Retire(p)] if p == self.current else []
        acts: list[Action] = []
        if p == self.warner:
            acts.append(Warn(p))
        if self.swap_window and p == self.dealer:
            acts.extend(SwapUpcard(p, c) for c in self._distinct(p))
        if p != self.current:
            return acts
        if not self.drawn:
            pool = _seat_actions(p)
            acts.append(pool[_DRAW])
            take = pool[_TAKE]
            opened = self.opened[p]
            rules = self.rules
            if rules.discard_take != "meld-at-once" and self.discards \
                    and self.standing.active[p] and (opened or self.first):
                # Taken freely (ruling 8): its check would find nothing to ask.
                acts.append(take)
                self._plans[id(take)] = _FRESH[1 if opened else 0]
            elif rules.discard_take != "meld-at-once" and self.discards \
                    and self.standing.active[p] and not rules.initial_counts_builds \
                    and not rules.kalookie_without_initial:
                # Taken only to open with (ruling 8): what its check asks, asked directly.
                if self._can_open_with(p, self.discards[-1]):
                    acts.append(take)
                    self._plans[id(take)] = Turn(must_open=True)
            else:
                self._keep_if_legal(take, acts)
            return acts
        turn = self.turn
        if self.opened[p] and not turn.loose and turn.must_lay is None:
            self._free_lays(p, acts)
        elif self._owes_points_only(p):
            self._opening_lays(p, acts)
        elif not self._opening_out_of_reach(p):
            for a in lay_options(self.hands[p], turn.loose, self.melds, self.rules, p,
                                 builds=self.opened[p] or self.rules.initial_counts_builds,
                                 swaps=self.opened[p]):
                self._keep_if_legal(a, acts)
        self._keep_discards(p, acts)
        return acts

    def _opening_out_of_reach(self, p: int) -> bool:
        """Whether ``p``, who has not opened, surely cannot complete the initial meld this turn:
        every lay would leave it owed (ruling 5), and all the new melds and builds the hand could
        make are worth less than what is missing (:func:`table_bound`). Not said when a kalookie
        needs no initial meld."""
        rules, turn = self.rules, self.turn
        if self.opened[p] or rules.kalookie_without_initial:
            return False
        need = rules.initial_meld - turn.value
        hand = self.hands[p]
        return need > 0 and table_bound(hand, hand[JOKER] + turn.loose, self.melds, rules) < need

    def _free_lays(self, p: int, acts: list[Action]) -> None:
        """List the lays of a player who has opened and owes nothing this turn (no loose joker,
        no taken card to lay), as :func:`lay_options` finds them, without checking each.

        Such a player may lay any meld found in the hand and build any card that fits, as long
        as a card stays for the discard (rulings 9, 10) and a run takes no more than the build
        limit allows (ruling 6): that is all their checks would ask. A release leaves a joker to
        lay, so each one is checked. The plan of a lay listed here is made when it is applied.
        """
        hand, rules, turn = self.hands[p], self.rules, self.turn
        jokers = hand[JOKER]
        code = self._codes_now()[p]
        most = self.sizes[p] - self._min_left(p)
        if most >= 3:
            made = _melds_of(p)
            for tokens in find_melds(hand, jokers, rules, MAX_LISTED_JOKERS, code):
                if len(tokens) <= most:
                    acts.append(made.get(tokens) or _meld_of(p, tokens))
        limit = rules.run_build_limit
        places = _places(self.melds, rules)
        if most >= 1 and not turn.ends:  # nothing built yet this turn: no limit reached
            for meld_id, _, where, _, builders in places:
                if not (jokers or builders & code):
                    continue  # no card of the hand fits
                out = []
                for card, joker, _ in where:
                    if card >= 0 and hand[card] and card not in out:
                        out.append(card)
                        acts.append(_ADDS.get((meld_id << 11) | (card << 4) | p)
                                    or _add(p, card, meld_id))
                    if joker >= 0 and jokers:
                        acts.append(_ADDS.get((meld_id << 11) | (joker << 4) | p)
                                    or _add(p, joker, meld_id))
        elif most >= 1:
            for meld_id, kind, where, _, builders in places:
                if not (jokers or builders & code):
                    continue
                limited = kind == "run" and limit != "none" and meld_id not in turn.laid
                low, high = turn.built(meld_id) if limited else (0, 0)
                if limited and limit == "two-total" and low + high >= 2:
                    continue
                out = []
                for card, joker, end in where:
                    if limited and limit == "two-per-end" and (low if end == "low" else high) >= 2:
                        continue
                    if card >= 0 and hand[card] and card not in out:
                        out.append(card)
                        acts.append(_ADDS.get((meld_id << 11) | (card << 4) | p)
                                    or _add(p, card, meld_id))
                    if joker >= 0 and jokers:
                        acts.append(_ADDS.get((meld_id << 11) | (joker << 4) | p)
                                    or _add(p, joker, meld_id))
        for meld_id, _, _, releasers, _ in places:
            if releasers & code:
                meld = self._meld(meld_id)
                for cards in swap_cards(meld, hand, rules):
                    swap = Swap(p, cards, meld_id)
                    plan = self._quick_swap(p, meld, cards)
                    if plan is None:
                        self._keep_if_legal(swap, acts)
                    else:
                        acts.append(swap)
                        self._plans[id(swap)] = plan

    def _quick_swap(self, p: int, meld: Meld, cards: tuple[int, ...]) -> Any:
        """The plan of a release by a player who has opened and owes nothing when the joker can
        go straight onto a meld of the table, keeping the cards for the discard (the first way
        its check's search tries); None to leave it to the check."""
        hand, rules, turn = self.hands[p], self.rules, self.turn
        jokers = hand[JOKER]
        if min(self.sizes[p] - jokers - len(cards), 3) + jokers < self._min_left(p):
            return None
        # The rest hangs on the table, the turn and the release alone: remembered while they
        # stay the same (the turns of players who have opened begin with the same turn).
        last = _SWAPS[0]  # one read: another thread may replace it, never half of it
        if last[0] is self.melds and last[1] is rules and last[2] is turn:
            known = last[3]
        else:
            known = {}
            _SWAPS[0] = (self.melds, rules, turn, known)
        key = (meld.id, cards)
        if key in known:
            got = known[key]
        else:
            got = known[key] = _joker_onto_table(self.melds, meld, cards, rules, turn)
        if got is None:
            return None
        return got[0], list(cards), 0, got[1], False

    def _meld(self, meld_id: int) -> Meld:
        for m in self.melds:
            if m.id == meld_id:
                return m
        raise KeyError(meld_id)

    def _owes_points_only(self, p: int) -> bool:
        """Whether ``p`` has not opened and owes nothing this turn but the initial meld's points
        (no build counting, no kalookie short of the minimum, no taken card to lay)."""
        rules, turn = self.rules, self.turn
        return not self.opened[p] and not rules.initial_counts_builds \
            and not rules.kalookie_without_initial and turn.must_lay is None and not turn.loose

    def _opening_lays(self, p: int, acts: list[Action]) -> None:
        """List the new melds of a player who owes the initial meld's points only, as
        :func:`lay_options` finds them (no builds, no releases before the initial meld).

        A meld is accepted when it completes the minimum and a card stays for the discard, or
        when the rest of the hand can still make up the difference (ruling 5): what its check
        asks, asked here directly. No melds from this hand can make more than
        :func:`meld_bound`, so when that is short, none is. The plan of a meld listed here is
        made when it is applied.
        """
        hand, rules = self.hands[p], self.rules
        jokers = hand[JOKER]
        need = rules.initial_meld - self.turn.value
        code = self._codes_now()[p]
        if code_bound(code, jokers, rules) < need:
            return
        min_left = self._min_left(p)
        size = self.sizes[p]
        made = _melds_of(p)
        for tokens in find_melds(hand, jokers, rules, MAX_LISTED_JOKERS, code):
            lay = lay_of(tokens, rules)
            if lay is None:
                continue
            gain, naturals, laid = lay
            if gain >= need:
                if size - len(tokens) < min_left:
                    continue
            elif not can_lay(need - gain, min_left, code - naturals, jokers - laid, rules):
                continue
            acts.append(made.get(tokens) or _meld_of(p, tokens))

    def _can_open_with(self, p: int, top: int) -> bool:
        """Whether ``p``, who has not opened, could make the initial meld this turn with the
        discard ``top`` taken, when the goal is plain (:func:`is_plain`): its points, a card
        kept."""
        hand, rules = self.hands[p], self.rules
        code, jokers = self._codes_now()[p], hand[JOKER]
        if top < JOKER:
            code += 1 << (8 * top)
        else:
            jokers += 1
        return can_lay(rules.initial_meld, self._min_left(p), code, jokers, rules)

    def _keep_discards(self, p: int, acts: list[Action]) -> None:
        """List the discards of the cards ``p`` holds: whether one is legal does not depend on
        the card (ruling 9 and the turn's obligations), so one check stands for all."""
        hand = self.hands[p]
        pool = _seat_actions(p)
        turn = self.turn
        if not turn.loose and turn.must_lay is None and self.sizes[p] > 1 and self.stock \
                and (self.opened[p] or not (turn.laid_any or turn.must_open)) \
                and self.standing.active[p]:
            # Nothing owed, no call-up, no reshuffle: what the check would find, without a plan.
            if _COMPILED:
                for c in range(JOKER + 1):
                    if hand[c]:
                        acts.append(pool[c])
            else:
                acts.extend(compress(pool, hand))
            return
        discards = [pool[c] for c in range(JOKER + 1) if hand[c]]
        if not discards:
            return
        try:
            plan = self._check(discards[0])
        except HoolaError:
            return
        acts.extend(discards)
        if plan is not None:
            for a in discards:
                self._plans[id(a)] = plan

    def _keep_if_legal(self, action: Action, acts: list[Action]) -> None:
        """List ``action`` if it is legal, keeping its check's plan for :meth:`apply`."""
        try:
            plan = self._check(action)
        except HoolaError:
            return
        acts.append(action)
        if plan is not None:
            self._plans[id(action)] = plan

    def _distinct(self, p: int) -> list[int]:
        return [c for c in range(JOKER + 1) if self.hands[p][c]]

    def resolve(self, decisions: Sequence[Action]) -> Action | None:
        """Which decision stands: a warning or the dealer's upcard swap comes before the turn."""
        for a in decisions:
            if isinstance(a, _FIRST):
                return a
        for a in decisions:
            if getattr(a, "player", None) == self.current:
                return a
        return None

    # -- check, ask, do ---------------------------------------------------------------------------

    # The public methods take ``object`` where the engine refuses values of any other type with
    # its own error: compiled (docs/compiled.md), a parameter typed ``int`` would raise TypeError
    # on None and take True for 1 before the check could run.
    def verify(self, action: object) -> None:
        """Raise a specific error unless ``action`` is legal now."""
        self._check(check_fields(action, self.names))

    def can(self, action: object) -> bool:
        """Whether ``action`` is legal now (never raises)."""
        try:
            self.verify(action)
        except HoolaError:
            return False
        except Exception:  # garbage from outside is simply not legal
            return False
        return True

    def apply(self, action: object) -> Action:
        """Check and apply ``action``; return the record appended to the history.

        An action taken from this moment's own legal list (the very object, as bots and
        interfaces pass it back) was checked when it was listed: its plan is used as it is.
        """
        # (hoola.core.trusted.listed_one, inlined: this runs at every decision.)
        a: Action | None = None
        seat = getattr(action, "player", None)
        if type(seat) is int:
            for x in self._cache.get(seat, ()):
                if x is action:
                    a = x
                    break
        if a is not None:
            plan = self._plans.get(id(a))
            if plan is None:
                # Listed without its plan (legal, as the listing found): made now, unchecked.
                if isinstance(a, NewMeld):
                    plan = self._check_meld(a, True)
                elif isinstance(a, Add):
                    plan = self._check_add(a, True)
        else:
            a = check_fields(action, self.names)
            plan = self._check(a)
        self._cache.clear()
        self._plans.clear()
        record = self._do(a, plan)
        self.history.append(record)
        # (A draw's record is always the seat's own, made once: its type is Draw itself.)
        self._public.append(_seat_actions(record.player)[_DRAW] if type(record) is Draw
                            else record)
        return record

    def _check(self, a: Action) -> Any:
        """The plan of a well-formed action (:func:`check_fields`) if it is legal now."""
        p = a.player
        who = self.names[p]
        if isinstance(a, Retire) and p in self.forced:
            return None  # a player out without a choice may still say so; it changes nothing
        if self.phase == "over":
            raise _illegal(f"{who} cannot {a.verb}: the hand is over", "deal-over")
        if not self.standing.active[p]:
            raise OutOfTurnError(f"{who} cannot {a.verb}: {who} is out of the game", "out-player")
        if self.phase == "decide":
            if not isinstance(a, BuyIn | Retire):
                raise OutOfTurnError(f"{who} cannot {a.verb}: the hand is over and players over "
                                     "the target are deciding to buy in (ruling 13)", "deciding")
            if p != self.current:
                raise OutOfTurnError(f"{who} cannot {a.verb}: it is {self.names[self.current]}'s "
                                     "turn to buy in or retire (ruling 13)", "out-of-turn")
            return None
        if isinstance(a, _DECISIONS):
            raise _illegal(f"{who} cannot {a.verb}: buying in or retiring comes after a hand, for "
                           "a player over the target (ruling 13)", "not-deciding")
        if isinstance(a, Warn):
            return self._check_warn(p)
        if isinstance(a, SwapUpcard):
            return self._check_swap_upcard(a)
        if p != self.current:
            raise OutOfTurnError(f"{who} cannot {a.verb}: it is {self.names[self.current]}'s turn",
                                 "out-of-turn")
        if isinstance(a, _BEGINS):
            if self.drawn:
                raise _illegal(f"{who} cannot {a.verb}: {who} has already drawn this turn",
                               "already-drawn")
            return self._check_take(a) if isinstance(a, Take) else None
        if not self.drawn:
            raise _illegal(f"{who} cannot {a.verb}: a turn begins by drawing or taking the discard "
                           "(ruling 8)", "must-draw-first")
        if isinstance(a, NewMeld):
            return self._check_meld(a)
        if isinstance(a, Add):
            return self._check_add(a)
        if isinstance(a, Swap):
            return self._check_swap(a)
        assert isinstance(a, Discard)
        return self._check_discard(a)

    # -- checks of each action --------------------------------------------------------------------

    def _check_warn(self, p: int) -> None:
        who = self.names[p]
        if self.rules.warnings == "auto":
            raise _illegal(f"{who} cannot warn: warnings are announced for the players "
                           "(warnings = auto)", "warnings-auto")
        if p != self.warner:
            raise _illegal(f"{who} cannot warn now: a warning follows one's own discard that "
                           "leaves one, two or three cards, before the next player acts "
                           "(ruling 10)", "no-warning-due")

    def _check_swap_upcard(self, a: SwapUpcard) -> None:
        if not self.rules.upcard_swap:
            raise _illegal(f"{self._cannot(a)}: the dealer's upcard swap is not played "
                           "(upcard_swap)", "upcard-swap-off")
        if a.player != self.dealer:
            raise _illegal(f"{self._cannot(a)}: only the dealer may swap the upcard",
                           "not-dealer")
        if not self.swap_window:
            raise _illegal(f"{self._cannot(a)}: the upcard is swapped only before play begins",
                           "too-late")
        self._need_in_hand(a.player, [a.card], 0, a)

    def _check_take(self, a: Take) -> Turn:
        p, rules = a.player, self.rules
        who = self.names[p]
        if not self.discards:
            raise _illegal(f"{who} cannot take: the discard pile is empty", "no-discard")
        top = self.discards[-1]
        what = f"take {format_card(top)}"
        if a.card is not None and a.card != top:
            raise _illegal(f"{who} cannot take {format_card(a.card)}: the top discard is "
                           f"{format_card(top)}", "not-top-discard")
        at_once = rules.discard_take == "meld-at-once"
        opened = self.opened[p]
        must_open = not opened and not self.first
        turn = Turn(opened_before=opened, must_open=must_open,
                    must_lay=top if at_once else None)
        if not at_once and (opened or self.first):
            return turn
        if not opened and not at_once and not rules.initial_counts_builds \
                and not rules.kalookie_without_initial:
            if self._can_open_with(p, top):
                return turn
            raise _illegal(f"{who} cannot {what}: {who} has not made the initial meld of "
                           f"{rules.initial_meld} and could not make it this turn with "
                           f"{format_card(top)} (ruling 8)", "cannot-open-with-discard")
        counts = self.hands[p].copy()
        counts[top] += 1
        goal = turn.goal(rules, opened, self._min_left(p))
        if not opened:
            # Taking the discard before melding binds the player to make the meld this turn.
            goal = Goal(need=rules.initial_meld, builds_count=rules.initial_counts_builds,
                        need_meld=rules.initial_counts_builds, must_lay=goal.must_lay,
                        min_left=goal.min_left)
        if self._feasible(goal, counts, 0, self.melds, turn, opened):
            return turn
        if at_once:
            raise _illegal(f"{who} cannot {what}: the discard is taken only to be laid in a meld "
                           f"at once, and {who} could not lay it (discard_take = meld-at-once)",
                           "cannot-lay-discard")
        raise _illegal(f"{who} cannot {what}: {who} has not made the initial meld of "
                       f"{rules.initial_meld} and could not make it this turn with "
                       f"{format_card(top)} (ruling 8)", "cannot-open-with-discard")

    def _check_meld(self, a: NewMeld, listed: bool = False) -> Any:
        """The plan of a new meld, checked unless ``listed`` (a lay its listing found legal)."""
        p, rules = a.player, self.rules
        naturals = [t for t in a.cards if t < JOKER]
        jokers = len(a.cards) - len(naturals)
        from_hand = max(0, jokers - self.turn.loose)
        if not listed:
            self._need_in_hand(p, naturals, from_hand, a)
        try:
            meld = new_meld(a.cards, rules, owner=p, meld_id=self.next_id)
        except IllegalActionError as exc:
            reason = exc.message.split(" is not a meld: ", 1)[-1]
            raise _illegal(f"{self._cannot(a)}: {reason}", exc.code) from exc
        t = self.turn  # (made field by field: quicker than _replace)
        turn = Turn(t.opened_before, t.value + meld_value(meld, rules), True, (*t.laid, meld.id),
                    t.ends, t.must_open, _still_to_lay(t.must_lay, naturals, jokers),
                    t.loose - (jokers - from_hand), True)
        opened = self._opens(p, turn)
        if not listed:
            self._check_rest(p, a, naturals, from_hand, [*self.melds, meld], turn, opened)
        return meld, naturals, from_hand, turn, opened

    def _check_add(self, a: Add, listed: bool = False) -> Any:
        """The plan of a build, checked unless ``listed`` (a lay its listing found legal)."""
        p, rules = a.player, self.rules
        who = self.names[p]
        if not listed and not self.opened[p] and not rules.initial_counts_builds:
            so_far = f" ({self.turn.value} points so far)" if self.turn.laid_any else ""
            raise _illegal(f"{self._cannot(a)}: building comes only after one's own initial "
                           f"meld of {rules.initial_meld} points{so_far} (ruling 6)",
                           "not-opened")
        meld = self._find_meld(a.meld_id, a.on, who, a)
        joker = a.card >= JOKER
        from_hand = 0 if not joker or self.turn.loose else 1
        naturals = [] if joker else [a.card]
        if not listed:
            self._need_in_hand(p, naturals, from_hand, a)
        try:
            grown, end, position = build(meld, a.card, rules)
        except IllegalActionError as exc:
            raise _illegal(f"{who} {exc.message}", exc.code) from exc
        turn = self.turn
        if not listed and meld.kind == "run" and meld.id not in turn.laid:
            low, high = turn.built(meld.id)
            limit = rules.run_build_limit
            if limit == "two-per-end" and (low if end == "low" else high) >= 2:
                raise _illegal(f"{self._cannot(a)}: at most two cards go on the same end of a "
                               "run in one turn (run_build_limit = two-per-end, ruling 6)",
                               "build-limit")
            if limit == "two-total" and low + high >= 2:
                raise _illegal(f"{self._cannot(a)}: at most two cards go on one run in one turn "
                               "(run_build_limit = two-total)", "build-limit")
        t = turn.with_build(meld.id, end)
        counted = not self.opened[p] and rules.initial_counts_builds
        turn = Turn(t.opened_before,
                    t.value + (token_value(meld, position, rules) if counted else 0), t.made,
                    t.laid, t.ends, t.must_open, _still_to_lay(t.must_lay, naturals, int(joker)),
                    t.loose - (1 if joker and not from_hand else 0), t.laid_any)
        opened = self._opens(p, turn)
        if not listed:
            table = [grown if m.id == meld.id else m for m in self.melds]
            self._check_rest(p, a, naturals, from_hand, table, turn, opened)
        return grown, naturals, from_hand, turn, opened

    def _check_swap(self, a: Swap) -> Any:
        p, rules = a.player, self.rules
        who = self.names[p]
        if not self.opened[p]:
            raise _illegal(f"{self._cannot(a)}: releasing a joker comes only after one's own "
                           f"initial meld of {rules.initial_meld} points (ruling 7)", "not-opened")
        meld = self._find_meld(a.meld_id, a.on, who, a)
        self._need_in_hand(p, list(a.cards), 0, a)
        try:
            freed = release(meld, a.cards, rules)
        except IllegalActionError as exc:
            raise _illegal(f"{who} {exc.message}", exc.code) from exc
        turn = self.turn._replace(loose=self.turn.loose + 1, laid_any=True,
                                  must_lay=_still_to_lay(self.turn.must_lay, a.cards, 0))
        table = [freed if m.id == meld.id else m for m in self.melds]
        self._check_rest(p, a, list(a.cards), 0, table, turn, True)
        return freed, list(a.cards), 0, turn, False

    def _check_discard(self, a: Discard) -> Any:
        p, rules, turn = a.player, self.rules, self.turn
        who = self.names[p]
        self._need_in_hand(p, [] if a.card == JOKER else [a.card], int(a.card == JOKER), a)
        if turn.loose:
            raise _illegal(f"{self._cannot(a)}: the released joker must be laid in a meld or a "
                           "build before the turn ends (ruling 7)", "joker-not-laid")
        if turn.must_lay is not None:
            raise _illegal(f"{self._cannot(a)}: the discard taken, {format_card(turn.must_lay)}, "
                           "must be laid in a meld before the turn ends (discard_take = "
                           "meld-at-once)", "discard-not-laid")
        calling_up = self.sizes[p] == 1
        if turn.opening(self.opened[p]) and not (calling_up and rules.kalookie_without_initial):
            if turn.value >= rules.initial_meld:
                raise _illegal(f"{self._cannot(a)}: builds count toward the initial meld only "
                               "with a new meld of one's own (initial_counts_builds)",
                               "initial-needs-meld")
            why = f"{who} took the discard and" if turn.must_open and not turn.laid_any else \
                f"{who} has laid {turn.value} points and"
            raise _illegal(f"{self._cannot(a)}: {why} must complete the initial meld of "
                           f"{rules.initial_meld} points before the turn ends (rulings 5, 8)",
                           "initial-incomplete")
        if calling_up and p in self.barred:
            raise _illegal(f"{self._cannot(a)}: {who} did not warn after the last turn and "
                           "cannot call up on this one (ruling 10)", "not-warned")
        if calling_up or self.stock:
            return None
        return self._restock_plan()

    def _restock_plan(self) -> tuple[int, ...] | None:
        """After the stock's last card: the new stock (ruling 11), () to shuffle, None for void.

        The pile below this discard becomes the stock: a record's ``restock`` first, the rest in
        canonical order; without one, the pile is shuffled when the discard is applied.
        """
        if self.rules.reshuffle == "never" or self.reshuffles:
            return None
        if self.deal.restock is None:
            return ()
        left = counts_of(self.discards)
        for c in self.deal.restock:
            if left[c] == 0:
                raise _illegal(f"the record's restock holds {format_card(c)}, which is not in the "
                               "discard pile", "bad-deal")
            left[c] -= 1
        return (*self.deal.restock, *cards_of_counts(left))

    # -- the rest of the turn ---------------------------------------------------------------------

    def _min_left(self, p: int) -> int:
        """Cards that must stay for the discard: one; two for a player barred from calling up.

        Ruling 10 lets a player who did not warn meld and build but not call up: a lay down to
        one card would leave a turn that cannot end (its discard would be the call-up), so it is
        refused, as a release whose joker cannot be laid is (ruling 7).
        """
        return 2 if p in self.barred else 1

    def _opens(self, p: int, turn: Turn) -> bool:
        """Whether the player's initial meld is complete with ``turn`` (ruling 5)."""
        if self.opened[p]:
            return True
        return turn.value >= self.rules.initial_meld and turn.made

    def _feasible(self, goal: Goal, counts: list[int], from_hand: int, table: Sequence[Meld],
                  turn: Turn, opened: bool) -> bool:
        jokers = counts[JOKER] - from_hand + turn.loose
        slots = () if is_plain(goal) else slots_for(table, turn, self.rules)
        if can_finish(goal, counts, jokers, slots, self.rules):
            return True
        if self.rules.kalookie_without_initial and not opened and goal.need:
            # A kalookie needs no initial minimum: the rest must meld out, new melds only.
            out = Goal(must_lay=goal.must_lay, exact_left=1, min_left=goal.min_left,
                       builds=False)
            return can_finish(out, counts, jokers, (), self.rules)
        return False

    def _check_rest(self, p: int, a: Action, naturals: list[int], from_hand: int,
                    table: Sequence[Meld], turn: Turn, opened: bool) -> None:
        """Refuse a lay after which the turn could not end legally (rulings 5, 7, 9, 10)."""
        who, rules = self.names[p], self.rules
        left = self.sizes[p] - len(naturals) - from_hand
        min_left = self._min_left(p)
        # Nothing owed (as turn.goal would say, without making the goal): a card kept will do.
        under_way = turn.opening(opened)
        if not (under_way and (turn.value < rules.initial_meld or (
                rules.initial_counts_builds and not turn.made))) \
                and not turn.loose and turn.must_lay is None:
            if left >= min_left:
                return
        else:
            goal = turn.goal(rules, opened, min_left)
            counts = self.hands[p].copy()
            for c in naturals:
                counts[c] -= 1
            if self._feasible(goal, counts, from_hand, table, turn, opened):
                return
            if goal.need:
                raise _illegal(f"{self._cannot(a)}: it brings the initial meld to {turn.value} "
                               f"of {rules.initial_meld} points, and the rest of the hand cannot "
                               "make up the difference this turn (ruling 5)",
                               "initial-out-of-reach")
            if goal.need_meld:
                raise _illegal(f"{self._cannot(a)}: builds count toward the initial meld only "
                               "with a new meld of one's own, and none could then be laid "
                               "(initial_counts_builds)", "initial-needs-meld")
            if goal.loose:
                raise _illegal(f"{self._cannot(a)}: the released joker could then not be laid "
                               "in a meld or a build this turn (ruling 7)", "joker-unplayable")
            if goal.must_lay is not None:
                raise _illegal(f"{self._cannot(a)}: the discard taken could then not be laid "
                               "this turn (discard_take = meld-at-once)", "discard-unplayable")
        if min_left == 2 and left <= 1:
            raise _illegal(f"{self._cannot(a)}: {who} did not warn and cannot call up this "
                           "turn, so two cards must stay in hand (ruling 10)", "not-warned")
        raise _illegal(f"{self._cannot(a)}: a turn ends with a discard, so a card must stay in "
                       "hand (ruling 9)", "must-keep-discard")

    # -- helpers ----------------------------------------------------------------------------------

    def _need_in_hand(self, p: int, naturals: Sequence[int], jokers: int, a: Action) -> None:
        who = self.names[p]
        hand = self.hands[p]
        for c in set(naturals):
            if c == JOKER:
                jokers += naturals.count(c)
                continue
            have = hand[c]
            if naturals.count(c) > have:
                held = "does not hold" if not have else f"holds only {have} of"
                raise _illegal(f"{self._cannot(a)}: {who} {held} {format_card(c)}",
                               "not-in-hand")
        if jokers > hand[JOKER]:
            held = "does not hold a joker" if not hand[JOKER] else \
                f"holds only {hand[JOKER]} joker{'s' if hand[JOKER] > 1 else ''}"
            raise _illegal(f"{self._cannot(a)}: {who} {held}", "not-in-hand")

    def _cannot(self, a: Action) -> str:
        """The start of an error message: who cannot do what."""
        return f"{self.names[a.player]} cannot {self._what(a)}"

    def _what(self, a: Action) -> str:
        """What an action would do, for its error messages (written only when one is raised)."""
        if isinstance(a, NewMeld):
            return f"meld {format_tokens(a.cards)}"
        if isinstance(a, Add):
            return f"add {format_token(a.card)} on {self._target_text(a.meld_id, a.on)}"
        if isinstance(a, Swap):
            return f"swap {format_tokens(a.cards)} for JK on {self._target_text(a.meld_id, a.on)}"
        if isinstance(a, SwapUpcard):
            return f"swap the upcard for {format_card(a.card)}"
        assert isinstance(a, Discard)
        return f"discard {format_card(a.card)}"

    def _target_text(self, meld_id: int | None, on: int | None) -> str:
        return f"m{meld_id}" if meld_id is not None else format_card(on or 0)

    def _find_meld(self, meld_id: int | None, on: int | None, who: str, a: Action) -> Meld:
        if meld_id is not None:
            for m in self.melds:
                if m.id == meld_id:
                    return m
            raise _illegal(f"{self._cannot(a)}: there is no meld m{meld_id} on the table",
                           "no-such-meld")
        holding = [m for m in self.melds if on in m.tokens]
        if not holding:
            holding = [m for m in self.melds if any(face_of(t) == on for t in m.tokens)]
        if len(holding) == 1:
            return holding[0]
        if not holding:
            raise _illegal(f"{self._cannot(a)}: no meld on the table holds "
                           f"{format_card(on or 0)}", "no-such-meld")
        ids = " and ".join(f"m{m.id}" for m in holding)
        raise _illegal(f"{self._cannot(a)}: {ids} both hold {format_card(on or 0)}; name the "
                       "meld as m<number>", "ambiguous-meld")

    def _next_seat(self, p: int) -> int:
        q = (p + 1) % self.n
        while not self.standing.active[q]:
            q = (q + 1) % self.n
        return q

    def hand(self, player: object) -> tuple[int, ...]:
        """The cards ``player`` holds, in canonical order, jokers last."""
        return tuple(cards_of_counts(self.hands[self._seat(player)]))

    def _seat(self, player: object) -> int:
        if type(player) is not int or not 0 <= player < self.n:
            raise _illegal(f"there is no seat {player!r}", "unknown-player")
        return player

    # -- doing ------------------------------------------------------------------------------------

    def _begin(self, p: int, turn: Turn) -> None:
        if self.warner is not None:
            # The next player acted: a warning not given by now bars the next call-up.
            self.barred = self.barred | {self.warner}
            self.warner = None
        self.swap_window = False
        self.first = False
        self.drawn = True
        self.turn = turn

    def _do(self, a: Action, plan: Any) -> Action:
        p = a.player
        if isinstance(a, Discard):
            return self._do_discard(a, plan)
        if isinstance(a, Draw):
            card = self.stock.pop()
            self._give(p, card)
            self._begin(p, _FRESH[1 if self.opened[p] else 0])
            return _seat_actions(p)[_DRAWN + card]
        if isinstance(a, Take):
            card = self.discards.pop()
            self._give(p, card)
            self._begin(p, plan)
            return _seat_actions(p)[_TAKEN + card]
        if isinstance(a, _LAYS):
            meld, naturals, from_hand, turn, opened = plan
            codes = self._codes_now()
            for c in naturals:
                self.hands[p][c] -= 1
                codes[p] -= 1 << (8 * c)
            self.hands[p][JOKER] -= from_hand
            self.sizes[p] -= len(naturals) + from_hand
            if isinstance(a, NewMeld):
                self.melds += (meld,)
                self.next_id += 1
            else:
                self.melds = tuple(meld if m.id == meld.id else m for m in self.melds)
            self.turn = turn
            if opened and not self.opened[p]:
                self.opened = put(self.opened, p, True)
            # The record names the meld by its number: an action listed does already (as
            # it is, it is not made again).
            if isinstance(a, Add):
                if type(a) is Add and a.meld_id == meld.id and a.on is None:
                    return a
                return Add(p, a.card, meld_id=meld.id)
            if isinstance(a, Swap):
                if type(a) is Swap and a.meld_id == meld.id and a.on is None:
                    return a
                return Swap(p, a.cards, meld_id=meld.id)
            return a
        if isinstance(a, Warn):
            self.warner = None
            return a
        if isinstance(a, SwapUpcard):
            upcard = self.discards.pop()
            self._give(p, upcard)
            self._take_card(p, a.card)
            self.discards.append(a.card)
            self.swap_window = False
            return a
        return self._do_decision(a)

    def _give(self, p: int, card: int) -> None:
        codes = self._codes_now()  # (first: made from the hands as they are)
        self.hands[p][card] += 1
        if card < JOKER:
            codes[p] += 1 << (8 * card)
        self.sizes[p] += 1

    def _take_card(self, p: int, card: int) -> None:
        codes = self._codes_now()  # (first: made from the hands as they are)
        self.hands[p][card] -= 1
        if card < JOKER:
            codes[p] -= 1 << (8 * card)
        self.sizes[p] -= 1

    def _codes_now(self) -> list[int]:
        """Each seat's hand as its code (:func:`hand_code`), kept up to date card by card; made
        here for a state built field by field (as a determinized one is)."""
        try:
            return self._codes
        except AttributeError:
            self._codes = [hand_code(h) for h in self.hands]
            return self._codes

    def _do_discard(self, a: Discard, restock: tuple[int, ...] | None) -> Action:
        p = a.player
        self._take_card(p, a.card)
        self.discards.append(a.card)
        if p in self.barred:
            self.barred = self.barred - {p}
        if self.sizes[p] == 0:
            self._end_hand("call-up" if self.turn.opened_before else "kalookie", p)
            return a
        if not self.stock:
            if restock is None:
                self._void()
                return a
            pile = self.discards[:-1]
            if not restock:
                shuffle(self.rng, pile)
                restock = tuple(pile)
            self.reshuffles += 1
            self.restocked = restock
            self.stock = list(reversed(restock))
            self.discards = [a.card]
            if not self.stock:
                self._void()
                return a
        if self.rules.warnings == "manual" and self.sizes[p] <= 3:
            self.warner = p
        self.current = self._next_seat(p)
        self.drawn = False
        self.turn = _FRESH[1 if self.opened[self.current] else 0]
        return a

    def _void(self) -> None:
        self.result = void(self.standing.seats())
        self.after = self.standing
        self.phase = "over"
        self.warner = None

    def _end_hand(self, end: str, winner: int) -> None:
        rules, standing = self.rules, self.standing
        seats = standing.seats()
        self.result = settle(rules, end, winner, {q: cards_of_counts(self.hands[q])
                                                  for q in seats})
        self.warner = None
        self.totals = [standing.penalty[q] + self.result.penalty.get(q, 0) for q in range(self.n)]
        if rules.scoring != "pool":
            scored = list(standing.scored or (0,) * self.n)
            if rules.scoring == "points":
                scored[winner] += int(self.result.payments[winner])
            self.after = standing._replace(penalty=tuple(self.totals), scored=tuple(scored))
            self.phase = "over"
            return
        order = sorted(seats, key=lambda q: (q - winner - 1) % self.n)
        self.queue = [q for q in order if self.totals[q] > rules.target]
        under = [self.totals[q] for q in seats if self.totals[q] <= rules.target]
        self.reset_to = max(under) if len(under) >= 2 else -1  # -1: no buy-in possible
        self.phase = "decide"
        self._next_decision()

    def _next_decision(self) -> None:
        while self.queue:
            q = self.queue[0]
            if self.reset_to >= 0 and self._buy_ins_used(q) < self.rules.buy_ins:
                self.current = q
                return
            self.queue.pop(0)
            self.out.append(q)
            self.forced.append(q)
        active = [a and q not in self.out for q, a in enumerate(self.standing.active)]
        buy_ins = [self._buy_ins_used(q) for q in range(self.n)]
        self.after = self.standing._replace(penalty=tuple(self.totals), buy_ins=tuple(buy_ins),
                                            active=tuple(active))
        self.phase = "over"

    def _buy_ins_used(self, q: int) -> int:
        return self.standing.buy_ins[q] + self.bought.count(q)

    def _do_decision(self, a: Action) -> Action:
        if isinstance(a, Retire) and a.player in self.forced:
            self.forced.remove(a.player)
            return a
        q = self.queue.pop(0)
        if isinstance(a, BuyIn):
            self.totals[q] = self.reset_to
            self.bought.append(q)
        else:
            self.out.append(q)
        self._next_decision()
        return a

    # -- views and text ---------------------------------------------------------------------------

    def view(self, player: object) -> View:
        """What ``player`` may know now: their own hand, the table, counts, the public history.

        Other hands are shown only at a call-up's showdown, where they are counted.
        """
        player = self._seat(player)
        shown = self.result is not None and self.result.winner is not None
        return View(
            player=player, names=self.names, rules=self.rules, dealer=self.dealer,
            phase=self.phase, current=self.current, drawn=self.drawn,
            hand=self.hand(player), hand_sizes=tuple(self.sizes), standing=self.standing,
            opened=self.opened, melds=self.melds, discards=tuple(self.discards),
            stock_size=len(self.stock), history=Prefix(self._public),
            legal=tuple(self._legal_cached(player)),
            can_pass=player in self.actors() and player != self.current,
            turn=self.turn, first=self.first, swap_window=self.swap_window, warner=self.warner,
            barred=tuple(sorted(self.barred)), reshuffles=self.reshuffles, next_id=self.next_id,
            result=self.result,
            hands=tuple(self.hand(q) for q in range(self.n)) if shown else None,
            totals=tuple(self.totals), queue=tuple(self.queue), out=tuple(self.out),
            bought=tuple(self.bought), reset_to=self.reset_to, after=self.after,
        )

    def returns(self) -> list[Fraction]:
        """Each seat's net stakes for this hand (zeros until it has ended)."""
        if self.result is None:
            return [Fraction(0)] * self.n
        return [self.result.payments.get(q, Fraction(0)) for q in range(self.n)]

    def turns_begun(self) -> int:
        """The turns begun so far in this hand: its draws and takes."""
        return sum([1 for a in self.history if isinstance(a, _BEGINS)])

    def outcome(self) -> Outcome:
        """How the hand ended, for statistics: the end (``call-up``, ``kalookie``, ``void``), the
        winner, the dealer, the turns begun (draws and takes) and, in the pool game, who
        ``bought in`` after it and who went ``out`` of the game (retired or forced out)."""
        if not self.is_over or self.result is None:
            raise _illegal("the hand has no outcome yet: it has not ended", "deal-not-over")
        r = self.result
        turns = self.turns_begun()
        tags = {"bought in": tuple(self.bought), "out": tuple(self.out)} \
            if self.rules.scoring == "pool" else {}
        return Outcome(r.end, () if r.winner is None else (r.winner,), self.dealer, turns, tags)

    def format(self, action: Action) -> str:
        """The notation of ``action`` with this hand's player names."""
        return format_action(action, self.names)

    def parse(self, text: str) -> Action:
        """An action from notation with this hand's player names."""
        return parse_action(text, self.names)

    def __repr__(self) -> str:
        return (f"<Kalookie DealState {self.phase} players={','.join(self.names)} "
                f"current={self.names[self.current]} actions={len(self.history)}>")

