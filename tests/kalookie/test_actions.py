"""Action notation: every form of the spec reads and writes back the same."""

from __future__ import annotations

import pytest

from hoola.core.errors import NotationError
from hoola.games.kalookie.actions import Add, Swap, Take, format_action, parse_action
from hoola.games.kalookie.cards import format_tokens, parse_tokens

NAMES = ["A", "B", "C_3", "long-name"]


@pytest.mark.parametrize("text", [
    "B draw", "B take", "B meld 9s 9h JK", "B meld 9s JK=Ts JK=Js", "B add Ts on m2",
    "B add JK=Ts on m12", "B add Ts on 9s", "B swap 4s for JK on m3",
    "B swap Th Tc for JK on m2", "B discard Kd", "B warn", "C_3 buy-in", "long-name retire",
    "A swap-upcard Kd",
])
def test_notation_round_trips(text: str) -> None:
    assert format_action(parse_action(text, NAMES), NAMES) == text


def test_reading_is_forgiving_where_it_is_safe() -> None:
    assert format_action(parse_action("B MELD 10h 10s jk  # a set", NAMES), NAMES) == \
        "B meld Th Ts JK"
    assert parse_action("B take Kd", NAMES) == Take(1, parse_tokens("Kd")[0])
    assert parse_action("B add ♠T on M2", NAMES) == Add(1, parse_tokens("Ts")[0], meld_id=2)
    assert parse_action("B swap 4s for jk on 5s", NAMES) == Swap(1, (3,), on=4)


@pytest.mark.parametrize(("text", "code", "words"), [
    ("B", "bad-action", "write a player's name and a verb"),
    ("Z draw", "unknown-player", "no player is named 'Z'"),
    ("B fly", "bad-action", "expected one of"),
    ("B draw 9s", "bad-action", "takes no arguments"),
    ("B discard 1x", "bad-card", "cannot read card '1x'"),
    ("B add Ts on JK", "bad-action", "natural card"),
    ("B add Ts on m0", "bad-action", "name the meld as m<number>"),
    ("B add Ts on m" + "9" * 5000, "bad-action", "(m1 to m999999)"),
    ("B meld 9s Ts=Js", "bad-card", "only a joker"),
    ("B meld JK=JK", "bad-card", "natural card"),
    ("B swap 4s for JK m3", "bad-action", "expected one of"),
])
def test_unreadable_actions_say_why(text: str, code: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, NAMES)
    assert info.value.code == code and words in info.value.message


def test_name_with_newline_is_no_name() -> None:
    with pytest.raises(NotationError):
        parse_action("B\n draw", ["B\n"])
    assert format_tokens(parse_tokens("jk=10h ♣a")) == "JK=Th Ac"
