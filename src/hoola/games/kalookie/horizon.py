"""A horizon for Kalookie's search: playouts that stop a few turns on, their position scored by
weights fitted to how expert-played hands end.

A playout to the end of a hand is long (a two-player hand runs some 20 turns) and its return is
all or nothing: who goes out first. :class:`Horizon` is a guessed hand that the search plays only
``stop`` turns deep; it is then scored in the deal's own stakes, each seat by what its hand is
worth (:func:`features`: how far it is from out, through the expert's planner) against the
others', with the weights :data:`WORTH` that :func:`fit_worth` finds by least squares on
expert-played hands. The returns sum to zero like the deal's.

>>> from hoola.games.kalookie.rules import Rules
>>> from hoola.games.kalookie.state import DealState
>>> s = DealState.new(Rules.preset("british"), 2, seed=3)
>>> h = horizon(s, 0)
>>> h.is_over, sum(h.returns()) == 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import cast

from hoola.core.fit import least_squares
from hoola.games.kalookie.cards import JOKER
from hoola.games.kalookie.expert_plan import plan_lays
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.state import DealState
from hoola.games.kalookie.turns import Turn, slots_for

__all__ = ["DEAD_CAP", "WORTH", "Horizon", "features", "fit_worth", "horizon", "worth_of"]

DEAD_CAP = 8  # deadwood counts from here on are all "far from out"

WORTH: dict[tuple[str, int], tuple[float, ...]] = {
    ("british", 2): (0.943, 1.014, 0.479, 0.65, 0.441, 0.263, 0.247, 0.147, -0.099, 0.086,
                     0.123, 0.048),
    ("british", 3): (3.195, 2.126, 1.553, 1.388, 1.038, 0.895, 0.688, 0.477, -0.204, 0.195,
                     0.244, 0.095),
    ("british", 4): (2.607, 2.316, 1.609, 1.502, 1.007, 0.762, 0.696, 0.465, -0.162, -0.042,
                     0.397, 0.112),
}
"""The horizon's weights per (preset, players), in :func:`features`' order: deadwood 0 to 7
(against more), opened, could open, jokers, moves next. ``fit_worth("british", 400, N)`` for N of
2, 3 and 4, exactly (about 10 to 20 CPU seconds each). Other presets and table
sizes have none and play to the end of the hand."""


def features(state: DealState, seat: int) -> list[float]:
    """What ``seat``'s hand says about its chance to go out first, as numbers: one per deadwood
    count below :data:`DEAD_CAP` (cards its melds and builds would leave, the expert's planner
    ignoring the initial meld), whether it has opened, could open now, jokers held, and whether
    it moves next."""
    rules = state.rules
    counts = state.hands[seat]
    opened = state.opened[seat]
    turn = Turn(opened_before=opened)
    slots = tuple(slots_for(state.melds, turn, rules)) if opened else ()
    naturals = tuple(counts[:52])
    jokers = counts[JOKER]
    plan = plan_lays(naturals, jokers, 0, slots, rules, opened=opened, need=rules.initial_meld,
                     structure=True)
    dead = len(plan.left) if plan is not None else sum(naturals)
    row = [0.0] * DEAD_CAP
    if dead < DEAD_CAP:
        row[dead] = 1.0
    if opened:
        can_open = 1.0
    else:
        ready = plan_lays(naturals, jokers, 0, (), rules, opened=False,
                          need=rules.initial_meld, require=True)
        can_open = 1.0 if ready is not None and ready.lays else 0.0
    moves = 1.0 if state.current == seat and state.phase == "play" else 0.0
    return [*row, float(opened), can_open, float(jokers), moves]


def worth_of(rules: Rules, players: int) -> tuple[float, ...] | None:
    """The fitted weights for ``rules`` at ``players`` (None: none fitted, play to the end)."""
    return WORTH.get((rules.preset_name, players))


class Horizon(DealState):
    """A guessed hand that the search plays only until ``stop`` turns have begun (draws and
    takes in the history): it is then over for the search, and its returns are each seat's
    fitted worth against the others' (see the module)."""

    stop: int
    weights: tuple[float, ...]

    @property
    def is_over(self) -> bool:
        """Over at the end of the hand, or at a turn's start once ``stop`` turns have begun."""
        if self.phase == "over":
            return True
        return self.phase == "play" and not self.drawn and self.warner is None \
            and self.turns_begun() >= self.stop

    def copy(self) -> Horizon:
        """An independent copy, still stopping at the horizon."""
        other = _blank()
        self.copy_into(other)
        other.stop = self.stop
        other.weights = self.weights
        return other

    def returns(self) -> list[Fraction]:
        """The hand's stakes once over; at the horizon each seat's fitted worth less the mean of
        the others' (stakes, summing to zero)."""
        if self.result is not None:
            return DealState.returns(self)
        # Worths rounded to thousandths, then exact: the returns sum to zero exactly.
        values = [Fraction(round(1000 * _worth(self.weights, features(self, q))), 1000)
                  for q in range(self.n)]
        total = sum(values, Fraction(0))
        k = self.n - 1
        return [v - (total - v) / k for v in values]


def _worth(weights: Sequence[float], row: Sequence[float]) -> float:
    # A float start: compiled by mypyc, sum() from the int 0 is typed to stay an int.
    return sum((w * x for w, x in zip(weights, row, strict=True)), 0.0)


def horizon(state: DealState, turns: int, weights: Sequence[float] | None = None) -> Horizon:
    """``state`` (a guessed hand; not changed) as a :class:`Horizon` that stops once ``turns``
    more turns have begun, scored by ``weights`` (default: the fitted ones, or zeros)."""
    if weights is None:
        weights = worth_of(state.rules, state.n) or (0.0,) * (DEAD_CAP + 4)
    h = _blank()
    state.copy_into(h)
    h.stop = state.turns_begun() + turns
    h.weights = tuple(weights)
    return h


def _blank() -> Horizon:
    """An empty Horizon to copy a hand into (DealState's ``__new__`` is typed to return a
    DealState, and compiled code checks what it is given)."""
    return cast(Horizon, Horizon.__new__(Horizon))


def fit_worth(preset: str, deals: int = 300, players: int = 2,
              every: int = 1) -> tuple[float, ...]:
    """The weights that best predict, by least squares, each seat's stakes at the end of an
    expert-played hand of ``preset`` from :func:`features` at the start of every ``every``-th
    turn: the seat's features less the mean of the others' (hands seeded 10000 on)."""
    from hoola.games.kalookie.expert import ExpertBot  # a tool for tuning, seldom run

    rules = Rules.preset(preset)
    bot = ExpertBot()
    rows: list[tuple[list[float], float]] = []
    for seed in range(deals):
        state = DealState.new(rules, players, seed=10000 + seed)
        marks: list[list[list[float]]] = []
        turn = -1
        while not state.is_over:
            if state.phase == "play" and not state.drawn and state.warner is None:
                begun = state.turns_begun()
                if begun != turn:
                    turn = begun
                    if begun % every == 0:
                        marks.append([features(state, q) for q in range(players)])
            actor = min(state.actors())
            action = bot.act(state.view(actor))
            chosen = state.resolve([action] if action is not None else [])
            assert chosen is not None  # the expert always acts where it must
            state.apply(chosen)
        final = [float(r) for r in state.returns()]
        for xs in marks:
            for q in range(players):
                others = [xs[o] for o in range(players) if o != q]
                diff = [x - sum(o[j] for o in others) / len(others)
                        for j, x in enumerate(xs[q])]
                rows.append((diff, final[q]))
    return tuple(round(c, 3) for c in least_squares(rows, len(rows[0][0])))

