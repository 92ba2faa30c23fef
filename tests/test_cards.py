"""Unit tests for hoola.core.cards: notation, canonical order, masks and errors."""

from __future__ import annotations

import pytest

from hoola.core.cards import (
    DECK,
    JOKER,
    RANKS,
    SUITS,
    bits,
    card_mask,
    format_card,
    format_cards,
    is_joker,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from hoola.core.errors import HoolaError, NotationError


@pytest.mark.parametrize(("text", "rank", "suit"), [
    ("As", 0, 0), ("7s", 6, 0), ("Ks", 12, 0), ("Ah", 0, 1), ("9d", 8, 2), ("Qc", 11, 3),
    ("Th", 9, 1), ("10h", 9, 1), ("10c", 9, 3), ("td", 9, 2),
    ("qS", 11, 0), ("KD", 12, 2), ("jh", 10, 1),
    ("7♠", 6, 0), ("7♥", 6, 1), ("7♦", 6, 2), ("7♣", 6, 3),
    ("♠q", 11, 0), ("♥10", 9, 1), ("♣A", 0, 3),
    ("7♤", 6, 0), ("7♡", 6, 1), ("7♢", 6, 2), ("7♧", 6, 3),
    ("  8c  ", 7, 3),
])
def test_parse_card_ranks_suits_case_and_symbols(text: str, rank: int, suit: int) -> None:
    card = parse_card(text)
    assert card == suit * 13 + rank
    assert rank_of(card) == rank
    assert suit_of(card) == suit


@pytest.mark.parametrize("text", ["JK", "jk", "Jk", "joker", "*"])
def test_parse_joker(text: str) -> None:
    assert parse_card(text) == JOKER == 52
    assert is_joker(parse_card(text))


@pytest.mark.parametrize("text", ["", "x", "7", "11s", "Kx", "0s", "JKs", "jk=7h", "7sh", "s",
                                  "Zs", "14c"])
def test_parse_card_errors_have_code(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(text)
    assert info.value.code == "bad-card"
    assert isinstance(info.value, HoolaError)
    assert isinstance(info.value, ValueError)
    assert repr(text.strip()) in info.value.message


def test_format_card_canonical_names() -> None:
    assert format_card(parse_card("10h")) == "Th"
    assert format_card(parse_card("♠q")) == "Qs"
    assert format_card(parse_card("ad")) == "Ad"
    assert format_card(JOKER) == "JK"
    assert format_card(0) == "As"
    assert format_card(51) == "Kc"


@pytest.mark.parametrize("bad", [-1, 53, 100])
def test_format_card_out_of_range(bad: int) -> None:
    with pytest.raises(NotationError) as info:
        format_card(bad)
    assert info.value.code == "bad-card"


@pytest.mark.parametrize("bad", [-1, 53])
def test_format_cards_refuses_non_cards(bad: int) -> None:
    with pytest.raises(NotationError):
        format_cards([bad])


def test_every_card_round_trips() -> None:
    for card in [*DECK, JOKER]:
        assert parse_card(format_card(card)) == card
        assert parse_card(format_card(card).lower()) == card


def test_canonical_order_is_integer_order() -> None:
    names = format_cards([*DECK, JOKER]).split()
    assert names[:13] == [r + "s" for r in RANKS]
    assert names[13] == "Ah" and names[26] == "Ad" and names[39] == "Ac"
    assert names[-1] == "JK"
    assert SUITS == "shdc"
    assert RANKS == "A23456789TJQK"
    # suits s, h, d, c; A..K within a suit; jokers last
    cards = parse_cards("Kc JK 2h As Ad Ts")
    assert format_cards(sorted(cards)) == "As Ts 2h Ad Kc JK"


def test_make_card() -> None:
    assert make_card(6, 1) == parse_card("7h")
    assert make_card(0, 3) == parse_card("Ac")
    assert make_card(12, 0) == parse_card("Ks")


def test_parse_cards_string_and_iterable() -> None:
    assert parse_cards("2c JK As") == [40, JOKER, 0]
    assert parse_cards(["2c", "jk", "10s"]) == [40, JOKER, 9]
    assert parse_cards("") == []
    assert parse_cards("  7s\t8s \n 9s ") == [6, 7, 8]
    assert format_cards(parse_cards("2c JK As")) == "2c JK As"


def test_parse_cards_error_names_the_bad_word() -> None:
    with pytest.raises(NotationError) as info:
        parse_cards("7s 8x 9s")
    assert info.value.code == "bad-card"
    assert "'8x'" in info.value.message


def test_card_mask_and_bits() -> None:
    cards = parse_cards("Kc 7h As JK")
    mask = card_mask(cards)
    assert mask == (1 << 51) | (1 << 19) | (1 << 0)
    assert list(bits(mask)) == [0, 19, 51]  # canonical order, joker left out
    assert card_mask([JOKER, JOKER]) == 0
    assert card_mask([]) == 0
    assert list(bits(0)) == []
    assert card_mask(parse_cards("As As")) == 1
    full = card_mask(DECK)
    assert full == (1 << 52) - 1
    assert list(bits(full)) == list(DECK)
