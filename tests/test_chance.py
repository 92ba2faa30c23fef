"""The engines' shuffle makes the standard library's permutation: a seed names the same deal."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from hoola.core.chance import shuffle


@given(st.integers(0, 2**64), st.integers(0, 160))
def test_shuffle_is_random_shuffle_draw_for_draw(seed: int, length: int) -> None:
    expected, got = list(range(length)), list(range(length))
    theirs, ours = random.Random(seed), random.Random(seed)
    theirs.shuffle(expected)
    shuffle(ours, got)
    assert got == expected
    assert ours.getstate() == theirs.getstate()  # the same draws used, none more


def test_a_generator_of_a_subclass_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(Reversing(0), cards)
    assert cards == [3, 2, 1]
