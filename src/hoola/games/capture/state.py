"""One hand of a capture game, from the deal to its score (``shared/spec/capture-rules.md``).

The trick: the leader plays any card, each other player any card; the last card of the led rank
or a wild is winning. After each round the leader may fight on (with the led rank or a wild) or
stop, where the rules give the choice; a trick that ends by itself leaves no action. The winner
takes the cards, everyone refills from the stock (winner first; a short stock is shared equally
and its remainder goes with the last trick), and the winner leads next.

>>> from hoola.games.capture.rules import Rules
>>> s = DealState.new(Rules.preset("sedma"), ["A", "B"], seed=3)
>>> s.actors(), len(s.legal_actions(1))
(frozenset({1}), 4)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, TypeVar

from hoola.core.cards import format_card, rank_of
from hoola.core.chance import shuffle
from hoola.core.errors import IllegalActionError, NotationError, OutOfTurnError
from hoola.core.game import Outcome
from hoola.core.prefix import Prefix, put
from hoola.games.capture.actions import Action, Dark, Play, Say, Stop, format_action, parse_action
from hoola.games.capture.result import Result, side_label
from hoola.games.capture.rules import SIGNALS, Rules, teams_for
from hoola.games.capture.views import View

__all__ = ["DealState", "Result", "side_label"]

KING, QUEEN = 12, 11


_C = TypeVar("_C", bound=type)


def _python_class(cls: _C) -> _C:
    # Under mypyc a decorated class stays an ordinary Python class (its methods are compiled):
    # copy() shares __dict__, and the search's Horizon changes a state's __class__.
    return cls


@_python_class
class DealState:
    """A hand in progress: seats, hands, stock, the trick, the captured piles, the history."""

    def __init__(self, rules: Rules, names: Sequence[str], hands: Sequence[Sequence[int]],
                 stock: Sequence[int], dealer: object = 0) -> None:
        self.base = rules
        self.names = tuple(names)
        self.n = len(self.names)
        rules.check_players(self.n)
        self.rules = rules.for_players(self.n)
        teams = teams_for(self.n)
        self.sides: tuple[tuple[int, ...], ...] = teams if teams is not None else \
            tuple((q,) for q in range(self.n))
        self.side_of = tuple(next(i for i, side in enumerate(self.sides) if q in side)
                             for q in range(self.n))
        self.teams = teams
        if type(dealer) is not int or not 0 <= dealer < self.n:  # a bool is not a seat
            raise NotationError(f"dealer {dealer!r} is not a seat at this table of {self.n}",
                                "bad-dealer")
        if len(hands) != self.n:
            raise NotationError(f"{len(hands)} hands for a table of {self.n} players",
                                "bad-hand-count")
        self.dealer = dealer
        self.dealt = tuple(tuple(h) for h in hands)
        self.stock_dealt = tuple(stock)
        self.hands = [list(h) for h in hands]
        self.stock = list(reversed(stock))  # the top card last, for pop()
        self.leftover: list[int] = []
        # What only grows once a trick (the piles, the trick counts, the leads, the tricks taken,
        # the darks) is kept in tuples replaced when they change, so that views and copies share
        # them instead of copying them.
        self.captured: tuple[tuple[int, ...], ...] = ((),) * len(self.sides)
        self.tricks = (0,) * len(self.sides)
        self.history: list[Action] = []
        self.darks: tuple[int, ...] = ()  # the card each Dark in the history turned up
        self.signals: list[tuple[int, str]] = []  # (seat, word) in this trick
        self.signaled = False
        self.leads: tuple[tuple[int, int], ...] = ()  # (leader, led rank) of every trick begun
        self.trick: list[tuple[int, int, bool]] = []  # (seat, card, in the dark)
        self.taken: tuple[tuple[int, ...], ...] = ()  # the cards of each finished trick
        self.last_winner: int | None = None
        self.leader = (dealer + 1) % self.n
        self.winner = self.leader
        self.led: int | None = None
        self.queue: list[int] = []
        self.deciding = False
        self.phase1 = True
        self.kings_played = 0
        self.kings = sum(1 for c in self.rules.pack() if rank_of(c) == KING)
        self.dirty = (False,) * len(self.sides)
        self.cleaned = (False,) * len(self.sides)
        self.result: Result | None = None
        self.rng: random.Random | None = None
        self.standing: tuple[int, ...] = (0,) * len(self.sides)  # the match score before
        self.carry = 0
        self._listed: list[Action] | None = None  # the turn's legal actions, once asked
        self._start_trick(self.leader)

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules, names: Sequence[str], *, dealer: int = 0,
            seed: int | None = None, rng: random.Random | None = None) -> DealState:
        """A hand from a shuffle: ``hand_size`` cards each from the top, the rest the stock."""
        rng = rng or random.Random(seed)
        n = len(names)
        rules.check_players(n)
        cards = rules.for_players(n).pack()
        shuffle(rng, cards)
        size = rules.for_players(n).hand_size
        hands = [cards[i * size:(i + 1) * size] for i in range(n)]
        order = [(dealer + 1 + i) % n for i in range(n)]
        dealt = [hands[order.index(q)] for q in range(n)]
        return cls(rules, names, dealt, cards[n * size:], dealer)

    @classmethod
    def explicit(cls, rules: Rules, names: Sequence[str], hands: Sequence[Sequence[int]],
                 stock: Sequence[int], dealer: int = 0) -> DealState:
        """A hand from a record: ``hands`` as listed and ``stock`` top first, the pack's
        unlisted cards following the stock in canonical order. A NotationError names cards that
        are not in the pack, or too many of one card."""
        r = rules.for_players(len(names))
        rules.check_players(len(names))
        left = r.pack()
        for where, cards in [*((names[q], h) for q, h in enumerate(hands)), ("stock", stock)]:
            for c in cards:
                if c not in left:
                    raise NotationError(f"{format_card(c)} ({where}) is not in the pack, or is "
                                        "listed more often than the pack holds it",
                                        "bad-card-count")
                left.remove(c)
        for q, h in enumerate(hands):
            if len(h) != r.hand_size:
                raise NotationError(f"{names[q]} holds {len(h)} cards; the rules deal "
                                    f"{r.hand_size}", "bad-hand-size")
        return cls(rules, names, hands, [*stock, *left], dealer)

    def copy(self) -> DealState:
        """An independent copy."""
        new = object.__new__(DealState)
        new.__dict__.update(self.__dict__)
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.leftover = list(self.leftover)
        new.history = list(self.history)
        new.signals = list(self.signals)
        new.trick = list(self.trick)
        new.queue = list(self.queue)
        new._listed = None
        return new

    # -- the interface ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether every card has been played."""
        return self.result is not None

    @property
    def turn(self) -> int | None:
        """The seat to act (the leader deciding, else the next to play); None when over."""
        if self.result is not None:
            return None
        return self.leader if self.deciding else self.queue[0]

    def actors(self) -> frozenset[int]:
        """The one seat that may act now."""
        t = self.turn
        return frozenset() if t is None else frozenset((t,))

    # The public methods take ``object`` where the engine refuses values of any other type with
    # its own error: compiled (docs/compiled.md), a parameter typed ``int`` would raise TypeError
    # on None and take True for 1 before the check could run.
    def legal_actions(self, player: object) -> list[Action]:
        """Every action ``player`` may take now (empty when not their turn, or not a seat)."""
        return list(self.listed(player))

    def listed(self, player: object) -> Sequence[Action]:
        """:meth:`legal_actions` as the state keeps it until the next action (not a copy)."""
        if type(player) is not int or player != self.turn:
            return ()
        if self._listed is None:
            self._listed = self._legal(player)
        return self._listed

    def _legal(self, player: int) -> list[Action]:
        out: list[Action] = []
        if self.deciding:
            out.append(Stop(player))
            out.extend(Play(player, c) for c in self._fight_cards(player))
        else:
            out.extend(Play(player, c) for c in self._playable(player))
            if self._may_dark():
                out.append(Dark(player))
        if self.rules.signals and not self.signaled:
            out.extend(Say(player, w) for w in SIGNALS)
        return out

    def can(self, action: object) -> bool:
        """Whether ``action`` is legal now (never raises)."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def verify(self, action: object) -> None:
        """Raise a specific IllegalActionError unless ``action`` is legal now."""
        if not isinstance(action, Play | Dark | Stop | Say):
            raise IllegalActionError(f"{action!r} is not a capture-game action", "bad-action")
        # The fields are read as any value: compiled, reading them as typed would raise
        # TypeError on garbage (or take True for 1) before they could be refused.
        p: object = getattr(action, "player")  # noqa: B009
        if type(p) is not int or not 0 <= p < self.n:
            raise IllegalActionError(f"seat {p!r} is not at this table", "bad-player")
        if self.result is not None:
            raise IllegalActionError("the hand is over", "deal-over")
        who = self.names[p]
        if p != self.turn:
            t = self.turn
            assert t is not None
            doing = "decide whether to fight on or stop" if self.deciding else "play"
            raise OutOfTurnError(f"it is {self.names[t]}'s turn to {doing}, not {who}'s",
                                 "out-of-turn")
        if isinstance(action, Say):
            if not self.rules.signals:
                raise IllegalActionError("these rules have no signals", "no-signals")
            word: object = getattr(action, "word")  # noqa: B009
            if not isinstance(word, str) or word not in SIGNALS:
                raise IllegalActionError(f"{_shown_word(word)} is not a signal: the "
                                         f"signals are {', '.join(SIGNALS)}", "bad-signal")
            if self.signaled:
                raise IllegalActionError(f"{who} has already given a signal this turn",
                                         "one-signal")
            return
        if isinstance(action, Stop):
            if not self.rules.fighting:
                raise IllegalActionError("these rules have no fighting: a trick is one round",
                                         "no-fighting")
            if not self.deciding:
                raise IllegalActionError(f"{who} has no trick to stop: stop is the leader's "
                                         "choice after a round, where they may fight on",
                                         "no-stop")
            return
        if isinstance(action, Dark):
            if self.deciding:
                raise IllegalActionError(f"{who} fights on with the led rank or a wild from "
                                         "hand, not in the dark", "fight-card")
            if not self.rules.play_in_dark:
                raise IllegalActionError("these rules do not allow playing in the dark",
                                         "no-dark")
            if not self.stock:
                raise IllegalActionError("the stock is empty: nothing to play in the dark",
                                         "stock-empty")
            return
        card: object = getattr(action, "card")  # noqa: B009
        if type(card) is not int or not 0 <= card < 52:
            raise IllegalActionError(f"{card!r} is not a card", "bad-card")
        hand = self.hands[p]
        if card not in hand:
            raise IllegalActionError(f"{who} does not hold {format_card(card)}", "not-in-hand")
        if self.deciding:
            if not self._fights(card):
                assert self.led is not None
                raise IllegalActionError(
                    f"{who} fights on only with a card of the led rank ({_rank(self.led)}) or a "
                    f"wild, not {format_card(card)}", "fight-card")
            if self._king_barred(card):
                raise self._why_not(p, card)
            return
        if card not in self._playable(p):
            raise self._why_not(p, card)

    def apply(self, action: object) -> Action:
        """Check and apply ``action``; return it (as appended to the history).

        An action taken from this moment's own legal list (the very object, as bots and
        interfaces pass it back) is known to be legal and is not checked again.
        """
        listed = self._listed
        a = next((x for x in listed if x is action), None) if listed is not None else None
        if a is None:
            self.verify(action)
            assert isinstance(action, Play | Dark | Stop | Say)
            a = action
        self._do(a)
        return a

    def resolve(self, decisions: Sequence[Any]) -> Any | None:
        """One seat acts at a time: its decision, if it came."""
        t = self.turn
        return next((a for a in decisions if getattr(a, "player", None) == t), None)

    def view(self, player: object) -> Any:
        """What ``player`` may know now."""
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalActionError(f"there is no seat {player!r} at this table", "bad-player")
        return view_of(self, player)

    def returns(self) -> list[Fraction]:
        """Each seat's result of the hand: its side's card points less the mean of the other
        sides' (Ristiklappi: win 1, draw 0, honourable loss -1, dishonourable -2, likewise)."""
        r = self.result
        if r is None:
            return [Fraction(0)] * self.n
        values = [Fraction(v) for v in (_klappi_values(r) if r.clean is not None else r.points)]
        k = len(values)
        total = sum(values)
        return [values[s] - (total - values[s]) / (k - 1) for s in self.side_of]

    def format(self, action: Any) -> str:
        """The action in record notation."""
        return format_action(action, self.names)

    def parse(self, text: str) -> Action:
        """An action from record notation."""
        return parse_action(text, self.names)

    def outcome(self) -> Outcome:
        """How the finished hand went, for statistics."""
        r = self.result
        if r is None:
            raise IllegalActionError("the hand is not over", "deal-not-over")
        tags: dict[str, tuple[int, ...]] = {
            "every trick": next((self.sides[s] for s, t in enumerate(r.tricks)
                                 if t == sum(r.tricks)), ()),
            "hola": self.sides[r.hola] if r.hola is not None else ()}
        if r.clean is not None:
            tags["dirty"] = tuple(q for s, c in enumerate(r.clean) if not c for q in self.sides[s])
        return Outcome(r.outcome or "played", tuple(q for s in r.winners for q in self.sides[s]),
                       self.dealer, len(self.taken), tags)

    # -- the rules ----------------------------------------------------------------------------

    def _fights(self, card: int) -> bool:
        rank = rank_of(card)
        return rank == self.led or rank in self.rules.wilds

    def _may_dark(self) -> bool:
        return self.rules.play_in_dark and bool(self.stock)

    def _lead_barred(self, player: int, card: int) -> bool:
        """The lead limit: no lead of the rank ``player`` led in each of the last ``lead_limit``
        tricks, unless every card in their hand is of that rank."""
        limit = self.rules.lead_limit
        if self.trick or limit is None or len(self.leads) < limit:
            return False
        rank = rank_of(card)
        if any(lead != (player, rank) for lead in self.leads[-limit:]):
            return False
        return any(rank_of(c) != rank for c in self.hands[player])

    def _king_barred(self, card: int) -> bool:
        """Ristiklappi: the last king stays in hand through the first phase's tricks."""
        return self.rules.phases and rank_of(card) == KING and self.phase1 and \
            self.kings_played >= self.kings - 1

    def _playable(self, player: int) -> list[int]:
        hand = _distinct(self.hands[player])
        allowed = [c for c in hand
                   if not self._lead_barred(player, c) and not self._king_barred(c)]
        if allowed or self._may_dark():
            return allowed
        return hand  # nothing else to play: the bars give way

    def _fight_cards(self, player: int) -> list[int]:
        return [c for c in _distinct(self.hands[player])
                if self._fights(c) and not self._king_barred(c)]

    def _why_not(self, player: int, card: int) -> IllegalActionError:
        who, rank = self.names[player], rank_of(card)
        if self._king_barred(card):
            return IllegalActionError(
                f"{who} may not play the last king ({format_card(card)}) from hand in a "
                "first-phase trick: the other kings have been played", "fourth-king")
        return IllegalActionError(
            f"{who} has led {_rank(rank)} in each of the last {self.rules.lead_limit} tricks and "
            f"may not lead it again while holding another rank", "lead-limit")

    def _can_play(self, seat: int) -> bool:
        return bool(self.hands[seat]) or self._may_dark()

    def _start_trick(self, leader: int) -> None:
        order = [(leader + i) % self.n for i in range(self.n)]
        self.queue = [q for q in order if self._can_play(q)]
        self.trick = []
        self.led = None
        self.deciding = False
        self.signals = []
        self.signaled = False
        self.phase1 = bool(self.stock)
        if not self.queue:
            self._finish()
            return
        self.leader = self.winner = self.queue[0]

    def _do(self, action: Action) -> None:
        self._listed = None
        self.history.append(action)
        if isinstance(action, Say):
            self.signaled = True
            self.signals.append((action.player, action.word))
            return
        self.signaled = False
        if isinstance(action, Stop):
            self._end_trick()
            return
        p = action.player
        if isinstance(action, Dark):
            card = self.stock.pop()
            self.darks += (card,)
        else:
            card = action.card
            self.hands[p].remove(card)
        self._lay(p, card, isinstance(action, Dark))

    def _lay(self, p: int, card: int, dark: bool) -> None:
        rank = rank_of(card)
        if rank == KING:
            self.kings_played += 1
        if not self.trick:
            self.led = rank
            self.winner = p
            self.leads += ((p, rank),)
        elif rank == self.led or rank in self.rules.wilds:
            self.winner = p
        self.trick.append((p, card, dark))
        if self.deciding:  # the leader fought on: everyone else plays once more
            self.deciding = False
            order = [(p + i) % self.n for i in range(1, self.n)]
            self.queue = [q for q in order if self._can_play(q)]
        else:
            self.queue.pop(0)
        if not self.queue:
            self._after_round()

    def _after_round(self) -> None:
        rules, leader = self.rules, self.leader
        others = any(self._can_play(q) for q in range(self.n) if q != leader)
        if rules.fighting and others and (self.winner != leader
                                          or rules.leader_may_continue == "always") \
                and self._fight_cards(leader):
            self.deciding = True
            return
        self._end_trick()

    def _end_trick(self) -> None:
        winner = self.winner
        side = self.side_of[winner]
        cards = tuple(c for _, c, _ in self.trick)
        self.captured = put(self.captured, side, self.captured[side] + cards)
        self.taken += (cards,)
        self.tricks = put(self.tricks, side, self.tricks[side] + 1)
        self.last_winner = winner
        if self.rules.phases:
            ranks = {rank_of(c) for c in cards}
            if self.phase1 and QUEEN in ranks:
                self.dirty = put(self.dirty, side, True)
            if not self.phase1 and KING in ranks and QUEEN not in ranks:
                self.cleaned = put(self.cleaned, side, True)
        self._draw(winner)
        self._start_trick(winner)

    def _draw(self, first: int) -> None:
        if not self.stock:
            return
        size = self.rules.hand_size
        order = [(first + i) % self.n for i in range(self.n)]
        needs = {q: max(0, size - len(self.hands[q])) for q in order}
        needing = [q for q in order if needs[q]]
        if not needing:
            return
        short = sum(needs.values()) > len(self.stock)
        if short:  # each draws as many as all can equally
            share = len(self.stock) // len(needing)
            needs = {q: min(v, share) for q, v in needs.items()}
        for q in needing:
            for _ in range(needs[q]):
                self.hands[q].append(self.stock.pop())
        if short and self.stock:  # what is left goes with the last trick
            self.leftover = list(reversed(self.stock))
            self.stock = []

    def _finish(self) -> None:
        rules = self.rules
        last = self.last_winner if self.last_winner is not None else self.leader
        last_side = self.side_of[last]
        self.captured = put(self.captured, last_side,
                            self.captured[last_side] + tuple(self.leftover))
        self.leftover = []  # with the last trick now: every card is in exactly one place
        k = len(self.sides)
        card_points = [sum(rules.points_of(c) for c in cs) for cs in self.captured]
        total_cards = sum(card_points)
        point_cards = sum(1 for c in rules.pack() if rules.points_of(c) > 0)
        hola: int | None = None
        if point_cards and rules.hola_bonus:
            for s, cs in enumerate(self.captured):
                if s == last_side and sum(1 for c in cs if rules.points_of(c) > 0) == point_cards:
                    hola = s
        points = list(card_points)
        if hola is not None:
            points[hola] *= 2
        points[last_side] += rules.last_trick
        all_tricks = sum(self.tricks)
        sweep = next((s for s in range(k) if self.tricks[s] == all_tricks), None)
        top = max(points)
        leaders = [s for s in range(k) if points[s] == top]
        unique = leaders[0] if len(leaders) == 1 else None
        game_points: list[int] | None = None
        carried = False
        clean: tuple[bool, ...] | None = None
        outcome: str | None = None
        winners: tuple[int, ...] = (unique,) if unique is not None else ()
        if rules.scoring in ("sedma", "croatian", "ristikontra"):
            game_points = [0] * k
            grand = sum(points)
            if rules.scoring == "sedma":
                got = 3 if sweep is not None else 2 if unique is not None and top == grand else 1
            elif rules.scoring == "croatian":
                got = 3 if sweep is not None else 2 if unique is not None and \
                    card_points[unique] == total_cards else 1
                if unique is None and last_side in leaders:
                    unique = last_side
            else:
                got = 2 if unique is not None and top == grand else 1
                if unique is not None and 2 * top <= grand:
                    unique = None
                carried = k == 2 and points[0] == points[1]
            if sweep is not None:
                unique = sweep
            if unique is not None:
                game_points[unique] = got * (k - 1)
            winners = (unique,) if unique is not None else ()
        elif rules.scoring == "ristiklappi":
            clean = tuple(not self.dirty[s] or self.cleaned[s] for s in range(k))
            if all(clean):
                outcome = "win" if unique is not None else "draw"
                winners = winners if unique is not None else ()
            elif any(clean):
                outcome = "win"
                winners = tuple(s for s in range(k) if clean[s])
            else:
                outcome, winners = "both-lose", ()
        if game_points is not None:
            score = tuple(game_points)
        elif clean is not None:
            score = tuple(int(s in winners) for s in range(k))
        else:
            score = tuple(points)
        self.queue = []
        self.deciding = False
        self.result = Result(tuple(points), tuple(self.tricks), last, hola,
                             None if game_points is None else tuple(game_points), carried, clean,
                             outcome, winners, score)


def _klappi_values(r: Result) -> list[int]:
    assert r.clean is not None
    values = []
    for s, clean in enumerate(r.clean):
        values.append(1 if s in r.winners else 0 if r.outcome == "draw" else
                      -1 if clean else -2)
    return values


def _shown_word(word: Any) -> str:
    """A signal as an error message shows it: quoted, and cut short when long."""
    text = repr(word)
    return text if len(text) <= 30 else text[:27] + "..."


def _distinct(hand: Sequence[int]) -> list[int]:
    return sorted(set(hand))


def _rank(rank: int) -> str:
    return "A23456789TJQK"[rank]


def _shown(state: DealState, player: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if not state.rules.partner_sees_hand or state.stock or state.teams is None:
        return ()
    side = state.sides[state.side_of[player]]
    return tuple((q, tuple(state.hands[q])) for q in side if q != player)


def view_of(state: DealState, player: int) -> View:
    """``player``'s view of ``state``, its values shared, not copied, where they are frozen."""
    return View(
        player, state.names, state.rules, state.dealer, state.sides, state.side_of,
        tuple(state.hands[player]), _shown(state, player), tuple(len(h) for h in state.hands),
        len(state.stock), len(state.leftover), tuple(state.trick), state.led, state.leader,
        state.winner, state.deciding, state.turn, tuple(state.queue), state.captured,
        state.tricks, state.taken, state.last_winner, state.leads,
        state.phase1, state.kings_played, state.dirty, state.cleaned,
        Prefix(state.history), state.darks, tuple(state.signals), state.signaled,
        tuple(state.listed(player)), state.result, state.standing, state.carry)
