"""Unit tests for hoola.games.hoola.actions: the action notation, both ways, and its errors."""

from __future__ import annotations

import pytest

from hoola.core.cards import JOKER, parse_card, parse_cards
from hoola.core.errors import HoolaError, NotationError
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

NAMES = ["A", "B", "Cho_1", "d-2"]


def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


@pytest.mark.parametrize(("text", "action"), [
    ("A draw", Draw(0)),
    ("B take 9d with 9s 9h", Take(1, c("9d"), cs("9s 9h"))),
    ("B take 7h for blast", Take(1, c("7h"), purpose="blast")),
    ("B take 7h for sevens", Take(1, c("7h"), purpose="sevens")),
    ("Cho_1 meld 3c 4c 5c", NewMeld(2, cs("3c 4c 5c"))),
    ("Cho_1 meld 7d", NewMeld(2, cs("7d"))),
    ("d-2 add 6c on 4c", Add(3, c("6c"), on=c("4c"))),
    ("d-2 add 6c on m2", Add(3, c("6c"), meld_id=2)),
    ("A discard Kd", Discard(0, c("Kd"))),
    ("A knock", Knock(0)),
    ("A blast", Blast(0)),
    ("B sevens", Sevens(1)),
    ("Cho_1 play", Play(2)),
    ("d-2 drop", Drop(3)),
    # jokers
    ("A meld 6h 7h JK=8h", NewMeld(0, (c("6h"), c("7h"), JOKER), c("8h"))),
    ("A meld 9s 9h JK", NewMeld(0, (c("9s"), c("9h"), JOKER))),
    ("B take 9d with 9s JK", Take(1, c("9d"), (c("9s"), JOKER))),
    ("B take 8d with 7d JK=9d", Take(1, c("8d"), (c("7d"), JOKER), c("9d"))),
    ("A add JK=8h on 7h", Add(0, JOKER, on=c("7h"), joker_as=c("8h"))),
    ("A add JK on m1", Add(0, JOKER, meld_id=1)),
    ("A discard JK", Discard(0, JOKER)),
])
def test_parse_and_format_round_trip(text: str, action: Action) -> None:
    parsed = parse_action(text, NAMES)
    assert parsed == action
    assert type(parsed) is type(action)
    assert format_action(parsed, NAMES) == text


@pytest.mark.parametrize(("verb", "cls"), [
    ("draw", Draw), ("take", Take), ("meld", NewMeld), ("add", Add), ("discard", Discard),
    ("knock", Knock), ("blast", Blast), ("sevens", Sevens), ("play", Play), ("drop", Drop),
])
def test_verbs(verb: str, cls: type[Action]) -> None:
    assert _example(cls).verb == verb


def _example(cls: type[Action]) -> Action:
    if cls is Take:
        return Take(0, 1, (2, 3))
    if cls is NewMeld:
        return NewMeld(0, (1, 2, 3))
    if cls in (Add, Discard):
        return cls(0, 1)  # type: ignore[call-arg]
    return cls(0)


@pytest.mark.parametrize(("text", "canonical"), [
    ("B TAKE 9D WITH 9S 9H", "B take 9d with 9s 9h"),
    ("A Draw", "A draw"),
    ("A meld 10c Jc ♣Q", "A meld Tc Jc Qc"),
    ("A meld 6h 7h jk=8♥", "A meld 6h 7h JK=8h"),
    ("A add 6c ON M3", "A add 6c on m3"),
    ("A add 6c on 4C", "A add 6c on 4c"),
    ("B take 7h FOR Blast", "B take 7h for blast"),
    ("  A   discard   Kd  ", "A discard Kd"),
    ("A discard Kd   # the highest card", "A discard Kd"),
    ("A knock#early", "A knock"),
])
def test_input_is_lenient_output_canonical(text: str, canonical: str) -> None:
    assert format_action(parse_action(text, NAMES), NAMES) == canonical


def test_names_are_case_sensitive_seats_by_position() -> None:
    assert parse_action("d-2 draw", NAMES).player == 3
    assert parse_action("Cho_1 draw", NAMES).player == 2
    with pytest.raises(NotationError) as info:
        parse_action("a draw", NAMES)
    assert info.value.code == "unknown-player"


@pytest.mark.parametrize(("text", "code"), [
    ("E draw", "unknown-player"),
    ("Nobody knock", "unknown-player"),
    ("A", "bad-action"),
    ("", "bad-action"),
    ("# just a comment", "bad-action"),
    ("A fly", "bad-action"),
    ("A pass", "bad-action"),
    ("A draw 7h", "bad-action"),
    ("A knock now", "bad-action"),
    ("A discard", "bad-action"),
    ("A discard 7h 8h", "bad-action"),
    ("A meld", "bad-action"),
    ("A add 6c", "bad-action"),
    ("A add 6c to 4c", "bad-action"),
    ("A add 6c on JK", "bad-action"),
    ("A add 6c on mx", "bad-card"),
    ("B take 9d", "bad-action"),
    ("B take 9d with 9s", "bad-action"),
    ("B take 9d with 9s 9h 9c", "bad-action"),
    ("B take 9d for knock", "bad-action"),
    ("A meld 5h=6h 7h 8h", "bad-action"),
    ("A meld JK=6h JK=7h 8h", "bad-action"),
    ("A meld JK=JK 7h 8h", "bad-action"),
    ("A discard 1x", "bad-card"),
    ("A meld 3c 4c 5x", "bad-card"),
    ("B take 9z with 9s 9h", "bad-card"),
    ("A add 6c on 4q", "bad-card"),
    ("A meld JK=8z 6h 7h", "bad-card"),
])
def test_bad_input_errors_have_codes(text: str, code: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text, NAMES)
    assert info.value.code == code
    assert isinstance(info.value, HoolaError)
    assert info.value.message  # one sentence naming the input


def test_bad_card_message_names_the_action() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("A discard 1x", NAMES)
    assert "'A discard 1x'" in info.value.message
    assert "'1x'" in info.value.message


def test_actions_are_frozen_values() -> None:
    a = parse_action("A meld 3c 4c 5c", NAMES)
    with pytest.raises(AttributeError):
        a.player = 1  # type: ignore[misc]
    assert a == NewMeld(0, cs("3c 4c 5c"))
    assert hash(a) == hash(NewMeld(0, cs("3c 4c 5c")))
    assert Draw(0) != Draw(0, c("5s"))


def test_drawn_card_is_not_written() -> None:
    assert format_action(Draw(1, c("5s")), NAMES) == "B draw"


def test_take_with_joker_named_round_trip_keeps_face() -> None:
    a = parse_action("B take 8d with JK=9d 7d", NAMES)
    assert a == Take(1, c("8d"), (JOKER, c("7d")), c("9d"))
    assert format_action(a, NAMES) == "B take 8d with JK=9d 7d"
