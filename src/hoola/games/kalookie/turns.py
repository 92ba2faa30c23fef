"""What a turn has done so far, and what it still owes before it may end with a discard.

A :class:`Turn` is replaced, never changed, so views share it freely. The obligations are those
of rulings 5 (an initial meld begun must be completed), 7 (a released joker must be laid), 8 (a
discard taken before the initial meld binds the player to make it; Scarne's meld-at-once binds
them to lay the card) and 9 (a card must stay for the discard).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from hoola.games.kalookie.melds import Meld
from hoola.games.kalookie.rules import Rules
from hoola.games.kalookie.solver import UNLIMITED, Goal, Slot

__all__ = ["Turn", "slots_for"]


class Turn(NamedTuple):
    """The current turn's bookkeeping.

    ``value``: points laid toward the initial meld this turn (builds too when they count);
    ``made``: a new meld was laid; ``laid``: ids of melds laid this turn (they grow freely);
    ``ends``: ``(meld id, cards built at the low end, at the high end)`` this turn;
    ``must_open``: the discard was taken before the initial meld; ``must_lay``: the taken card
    still to be laid (meld-at-once); ``loose``: released jokers still to be laid; ``laid_any``:
    anything laid this turn; ``opened_before``: the initial meld was made in an earlier turn.
    """

    opened_before: bool = False
    value: int = 0
    made: bool = False
    laid: tuple[int, ...] = ()
    ends: tuple[tuple[int, int, int], ...] = ()
    must_open: bool = False
    must_lay: int | None = None
    loose: int = 0
    laid_any: bool = False

    def built(self, meld_id: int) -> tuple[int, int]:
        """Cards built this turn at the low and the high end of run ``meld_id``."""
        for i, low, high in self.ends:
            if i == meld_id:
                return low, high
        return 0, 0

    def with_build(self, meld_id: int, end: str) -> Turn:
        """This turn with one more card built at ``end`` of meld ``meld_id``."""
        low, high = self.built(meld_id)
        low, high = (low + 1, high) if end == "low" else (low, high + 1) if end == "high" \
            else (low, high)
        ends = (*(e for e in self.ends if e[0] != meld_id), (meld_id, low, high))
        return Turn(self.opened_before, self.value, self.made, self.laid, ends, self.must_open,
                    self.must_lay, self.loose, True)

    def opening(self, opened: bool) -> bool:
        """Whether an initial meld is under way and not yet complete this turn."""
        return not opened and (self.laid_any or self.must_open)

    def goal(self, rules: Rules, opened: bool, min_left: int) -> Goal:
        """What the rest of this turn must achieve (``opened``: the initial meld is made)."""
        under_way = self.opening(opened)
        need = max(rules.initial_meld - self.value, 0) if under_way else 0
        counts = rules.initial_counts_builds and not opened
        return Goal(need=need, builds_count=counts, made=self.made,
                    need_meld=under_way and counts and not self.made,
                    must_lay=self.must_lay, loose=self.loose, min_left=min_left)


def slots_for(melds: Sequence[Meld], turn: Turn, rules: Rules) -> list[Slot]:
    """The table's melds as places to build this turn, with the run build limit (ruling 6)."""
    out: list[Slot] = []
    for meld in melds:
        if meld.kind != "run" or meld.id in turn.laid or rules.run_build_limit == "none":
            out.append(_slot(meld, UNLIMITED, UNLIMITED, UNLIMITED))
            continue
        low, high = turn.built(meld.id)
        if rules.run_build_limit == "two-per-end":
            out.append(_slot(meld, 2 - low, 2 - high, UNLIMITED))
        else:
            out.append(_slot(meld, UNLIMITED, UNLIMITED, 2 - low - high))
    return out


# The slots made, by the meld's id() and the caps (the slot holds the meld, so the id is not
# reused while it is here): a table changes a meld at a time, and the checks of one listing
# ask for the same slots again and again (a frozen value is slow to make, compiled or not).
_SLOTS: Final[dict[tuple[int, int, int, int], Slot]] = {}


def _slot(meld: Meld, low_cap: int, high_cap: int, total_cap: int) -> Slot:
    key = (id(meld), low_cap, high_cap, total_cap)
    got = _SLOTS.get(key)
    if got is not None and got.meld is meld:
        return got
    if len(_SLOTS) >= 4096:  # bounded: the melds of hands long over
        _SLOTS.clear()
    slot = _SLOTS[key] = Slot(meld, low_cap, high_cap, total_cap)
    return slot
