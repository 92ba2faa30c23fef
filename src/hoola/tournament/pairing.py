"""Who sits with whom: Blackpool's tables of four, even splits, and Swiss tables of players of
equal score who have not met.

>>> blackpool_sizes(10), blackpool_sizes(16), even_sizes(7, 4)
([4, 3, 3], [4, 4, 4, 4], [4, 3])
>>> met = {("A", "B"): 1}
>>> swiss_tables(["A", "B", "C", "D"], 2, met)
[['A', 'C'], ['B', 'D']]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from hoola.tournament.events import TournamentError

__all__ = ["blackpool_sizes", "even_sizes", "pair_key", "repeats", "swiss_tables"]

Met = Mapping[tuple[str, str], int]


def blackpool_sizes(entrants: int) -> list[int]:
    """Tables of four, with the fewest tables of three needed (ruling 16): 9 is 3+3+3."""
    threes = (4 - entrants % 4) % 4
    fours = (entrants - 3 * threes) // 4
    if fours < 0:
        raise TournamentError(f"{entrants} players cannot sit at tables of three and four",
                              "bad-entrants")
    return [4] * fours + [3] * threes


def even_sizes(players: int, most: int) -> list[int]:
    """``players`` at the fewest tables of at most ``most``, their sizes as even as can be."""
    tables = -(-players // most)
    return [players // tables + (1 if i < players % tables else 0) for i in range(tables)]


def pair_key(a: str, b: str) -> tuple[str, str]:
    """The key of a pair of players in a table of meetings."""
    return (a, b) if a < b else (b, a)


def repeats(table: Sequence[str], met: Met) -> int:
    """How many pairs at ``table`` have met before."""
    return sum(met.get(pair_key(a, b), 0) for a, b in combinations(table, 2))


def _spread(table: Sequence[str], rank: Mapping[str, int]) -> int:
    places = [rank[p] for p in table]
    return max(places) - min(places)


def swiss_tables(order: Sequence[str], size: int, met: Met) -> list[list[str]]:
    """``order`` (best first, a multiple of ``size`` long) at tables of ``size``: players next
    in order together, avoiding pairs that have met as far as possible.

    Tables are filled in order, each seat taking the best-placed player who has met the fewest
    already seated; then, where players meet again, pairs of players swap between tables while
    that lowers the meetings repeated, or, with as many, brings tables nearer in order.
    """
    if len(order) % size:
        raise TournamentError(f"{len(order)} players do not fill tables of {size}", "bad-pairing")
    rank = {p: i for i, p in enumerate(order)}
    left = list(order)
    tables: list[list[str]] = []
    while left:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(range(len(left)), key=lambda i: (
                sum(met.get(pair_key(left[i], p), 0) for p in table), i))
            table.append(left.pop(best))
        tables.append(table)

    def cost(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
        return repeats(a, met) + repeats(b, met), _spread(a, rank) + _spread(b, rank)

    for _ in range(20):
        improved = False
        # Only tables where players meet again are worth a swap: most rounds have none.
        for i, j in ((i, j) for i, j in combinations(range(len(tables)), 2)
                     if repeats(tables[i], met) or repeats(tables[j], met)):
            for x in range(size):
                for y in range(size):
                    a, b = tables[i], tables[j]
                    before = cost(a, b)
                    a2, b2 = a[:], b[:]
                    a2[x], b2[y] = b[y], a[x]
                    if cost(a2, b2) < before:
                        tables[i], tables[j] = a2, b2
                        improved = True
        if not improved:
            break
    return [sorted(t, key=rank.__getitem__) for t in tables]
