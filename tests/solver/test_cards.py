"""Cards, holdings, card lists and key=value fields: every accepted form, the canonical
output, round trips, and every kind of bad input (docs/notation.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from solver.cards import (
    PACK52,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    card_count,
    card_str,
    cards_of,
    format_holding,
    make_card,
    mask_of,
    parse_card,
    parse_card_list,
    parse_fields,
    parse_holding,
    parse_suit,
    rank_of,
    suit_mask,
    suit_of,
)
from solver.errors import IllegalPlayError, NotationError, RulesError, TricklabError

ALL_CARDS = [make_card(s, r) for s in range(4) for r in range(13)]


# ---------------------------------------------------------------- card values


def test_card_ints_are_suit_times_16_plus_rank() -> None:
    assert parse_card("2S") == 0
    assert parse_card("AS") == 12
    assert parse_card("2H") == 16
    assert parse_card("JH") == 16 + 9
    assert parse_card("AC") == 3 * 16 + 12
    for card in ALL_CARDS:
        assert make_card(suit_of(card), rank_of(card)) == card
        assert suit_mask(suit_of(card)) >> card & 1


def test_pack52_and_suit_masks() -> None:
    assert card_count(PACK52) == 52
    assert mask_of(ALL_CARDS) == PACK52
    assert sum(suit_mask(s) for s in range(4)) == PACK52
    for s in range(4):
        assert card_count(suit_mask(s)) == 13
        for t in range(s + 1, 4):
            assert suit_mask(s) & suit_mask(t) == 0


def test_cards_of_is_spades_first_high_to_low() -> None:
    mask = mask_of(parse_card(t) for t in ["2C", "AS", "7S", "KH", "TD", "AC"])
    assert [card_str(c) for c in cards_of(mask)] == ["AS", "7S", "KH", "TD", "AC", "2C"]
    assert list(cards_of(0)) == []
    assert card_count(mask) == 6


def test_card_str_is_rank_then_suit_for_every_card() -> None:
    texts = [card_str(c) for c in ALL_CARDS]
    assert len(set(texts)) == 52
    for card, text in zip(ALL_CARDS, texts, strict=True):
        assert text == RANKS[rank_of(card)] + SUITS[suit_of(card)]
        assert parse_card(text) == card


# ---------------------------------------------------------------- accepted card forms


def _card_forms(rank: str, suit: int) -> list[str]:
    """Every spelling of one card the notation accepts."""
    letter, symbol = SUITS[suit], SUIT_SYMBOLS[suit]
    ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
    suits = [letter, letter.lower(), symbol]
    forms = []
    for r in ranks:
        for s in suits:
            forms += [r + s, s + r]
    return forms


@pytest.mark.parametrize("card", ALL_CARDS, ids=[card_str(c) for c in ALL_CARDS])
def test_every_accepted_form_of_every_card(card: int) -> None:
    rank, suit = RANKS[rank_of(card)], suit_of(card)
    forms = _card_forms(rank, suit)
    assert len(forms) >= 12
    for text in forms:
        assert parse_card(text) == card, text
        assert parse_card(f"  {text} ") == card, text
        assert card_str(parse_card(text)) == rank + SUITS[suit]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("JH", "JH"),
        ("HJ", "JH"),
        ("jh", "JH"),
        ("hj", "JH"),
        ("J♥", "JH"),
        ("♥J", "JH"),
        ("10h", "TH"),
        ("H10", "TH"),
        ("♠10", "TS"),
        ("10♣", "TC"),
        ("tc", "TC"),
        ("qd", "QD"),
        ("♦q", "QD"),
        ("2c", "2C"),
        ("a♠", "AS"),
    ],
)
def test_card_forms_table(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize(
    "text, suit",
    [("S", 0), ("h", 1), ("D", 2), ("c", 3), ("♠", 0), ("♥", 1), ("♦", 2), ("♣", 3)],
)
def test_parse_suit(text: str, suit: int) -> None:
    assert parse_suit(text) == suit


# ---------------------------------------------------------------- holdings


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("AJ9.K7..T87", "AJ9.K7..T87"),
        ("9ja.7k..78t", "AJ9.K7..T87"),
        ("A..10 8.K", "A..T8.K"),
        ("10987...", "T987..."),
        ("...", "..."),
        ("...2", "...2"),
        ("23456789TJQKA...", "AKQJT98765432..."),
        (" AK.Q.J.T ", "AK.Q.J.T"),
        ("A10.10.10.10", "AT.T.T.T"),
    ],
)
def test_holding_accepted_forms_and_canonical_output(text: str, canonical: str) -> None:
    assert format_holding(parse_holding(text)) == canonical


def test_holding_suits_are_in_spades_hearts_diamonds_clubs_order() -> None:
    mask = parse_holding("A.K.Q.J")
    assert [card_str(c) for c in cards_of(mask)] == ["AS", "KH", "QD", "JC"]
    assert parse_holding("...") == 0
    assert format_holding(0) == "..."
    assert format_holding(PACK52) == ".".join(["AKQJT98765432"] * 4)


masks = st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=52).map(mask_of)


@settings(max_examples=200)
@given(masks)
def test_holding_round_trip(mask: int) -> None:
    text = format_holding(mask)
    assert parse_holding(text) == mask
    assert format_holding(parse_holding(text)) == text
    assert text.count(".") == 3


@settings(max_examples=200)
@given(masks)
def test_short_holding_leaves_out_the_void_suits_after_the_last_card(mask: int) -> None:
    """``short=True`` (a bidding view's hand): the trailing void suits may be left out,
    and the holding reads the same; without it, four suits are required."""
    text = format_holding(mask)
    trimmed = text.rstrip(".")
    for dots in range(text.count(".") - trimmed.count(".") + 1):
        assert parse_holding(trimmed + "." * dots, short=True) == mask
    assert parse_holding(text, short=True) == mask
    if trimmed.count(".") < 3:
        with pytest.raises(NotationError, match="expected four suits"):
            parse_holding(trimmed)


@pytest.mark.parametrize(
    "text, message",
    [
        ("A.K.Q.J.T", "invalid holding 'A.K.Q.J.T' .*expected at most four suits"),
        ("AT7.KJ9....", "expected at most four suits"),
        ("AX7.KJ9", "invalid rank 'X' in holding 'AX7.KJ9'"),
        ("AA7.KJ9", "card AS twice in holding 'AA7.KJ9'"),
        ("A.KK", "card KH twice in holding 'A.KK'"),
    ],
)
def test_short_holding_stays_strict_otherwise(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_holding(text, short=True)


@settings(max_examples=100)
@given(masks, st.randoms(use_true_random=False))
def test_non_canonical_holding_reads_the_same(mask: int, rng: random.Random) -> None:
    """Shuffled ranks, lower case and ``10`` spell the same holding."""
    suits = format_holding(mask).split(".")
    spelled = []
    for part in suits:
        ranks = list(part)
        rng.shuffle(ranks)
        ranks = ["10" if r == "T" and rng.random() < 0.5 else r for r in ranks]
        ranks = [r.lower() if rng.random() < 0.5 else r for r in ranks]
        spelled.append("".join(ranks))
    assert parse_holding(".".join(spelled)) == mask


@settings(max_examples=100)
@given(st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=20))
def test_card_list_round_trip_keeps_order(cards: list[int]) -> None:
    assert parse_card_list(" ".join(card_str(c) for c in cards)) == cards
    assert parse_card_list(",".join(card_str(c) for c in cards), sep=",") == cards


def test_card_list_accepts_every_card_form_and_extra_spaces() -> None:
    assert [card_str(c) for c in parse_card_list("  AS   h10 ♦q  7c ")] == ["AS", "TH", "QD", "7C"]
    assert parse_card_list("") == []


# ---------------------------------------------------------------- fields


def test_fields_in_any_order() -> None:
    keys = ["trump", "lead", "E", "D"]
    a = parse_fields("trump=H lead=E E=A... D=K...", keys, keys)
    b = parse_fields("D=K...   E=A... lead=E trump=H", keys, keys)
    assert a == b == {"trump": "H", "lead": "E", "E": "A...", "D": "K..."}


def test_optional_field_may_be_left_out() -> None:
    fields = parse_fields("trump=H", ["trump", "trick"], ["trump"])
    assert fields == {"trump": "H"}


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call, quoted",
    [
        # cards: bad rank, bad suit, wrong length, nothing
        (lambda: parse_card("XH"), "'XH'"),
        (lambda: parse_card("1H"), "'1H'"),
        (lambda: parse_card("AX"), "'AX'"),
        (lambda: parse_card("A"), "'A'"),
        (lambda: parse_card("10"), "'10'"),
        (lambda: parse_card("AHS"), "'AHS'"),
        (lambda: parse_card("HH"), "'HH'"),
        (lambda: parse_card(""), "''"),
        (lambda: parse_suit("X"), "'X'"),
        (lambda: parse_suit(""), "''"),
        # holdings: bad rank, too few or too many dots, a card twice, empty
        (lambda: parse_holding("AXK..."), "'X'"),
        (lambda: parse_holding("AXK..."), "'AXK...'"),
        (lambda: parse_holding("A1..."), "'A1...'"),
        (lambda: parse_holding("AKQ.JT9.87"), "'AKQ.JT9.87'"),
        (lambda: parse_holding("AKQ"), "'AKQ'"),
        (lambda: parse_holding("A.K.Q.J.T"), "'A.K.Q.J.T'"),
        (lambda: parse_holding("...."), "'....'"),
        (lambda: parse_holding("AKA..."), "'AKA...'"),
        (lambda: parse_holding("T10..."), "'T10...'"),
        (lambda: parse_holding(".Kk.."), "'.Kk..'"),
        (lambda: parse_holding(""), "''"),
        # card lists quote the bad card and the list
        (lambda: parse_card_list("AS ZZ 7C"), "'ZZ'"),
        (lambda: parse_card_list("AS ZZ 7C"), '"AS ZZ 7C"'),
        # fields: no '=', unknown key, repeated key, missing key
        (lambda: parse_fields("trump=H E", ["trump", "E"]), "'E'"),
        (lambda: parse_fields("=H", ["trump"]), "'=H'"),
        (lambda: parse_fields("trump=H foo=1", ["trump"]), "'foo'"),
        (lambda: parse_fields("trump=H foo=1", ["trump"]), '"trump=H foo=1"'),
        (lambda: parse_fields("trump=H trump=S", ["trump"]), "'trump'"),
        (lambda: parse_fields("trump=H trump=S", ["trump"]), '"trump=H trump=S"'),
        (lambda: parse_fields("trump=H", ["trump", "lead"], ["trump", "lead"]), "lead"),
        (lambda: parse_fields("trump=H", ["trump", "lead"], ["trump", "lead"]), '"trump=H"'),
    ],
)
def test_bad_input_raises_notation_error_quoting_the_text(call, quoted: str) -> None:
    with pytest.raises(NotationError) as info:
        call()
    assert quoted in str(info.value)


def test_bad_input_messages_say_what_was_expected() -> None:
    with pytest.raises(NotationError, match=r"ranks are 2-9 T J Q K A"):
        parse_card("XH")
    with pytest.raises(NotationError, match=r"suits are S H D C"):
        parse_suit("X")
    with pytest.raises(NotationError, match=r"ranks are 2-9 T J Q K A"):
        parse_holding("AXK...")
    with pytest.raises(NotationError, match=r"four suits separated by dots"):
        parse_holding("AKQ.JT9.87")
    with pytest.raises(NotationError, match=r"card AS twice"):
        parse_holding("AKA...")
    with pytest.raises(NotationError, match=r"card TS twice"):
        parse_holding("T10...")
    with pytest.raises(NotationError, match=r"expected key=value"):
        parse_fields("trump=H E", ["trump", "E"])
    with pytest.raises(NotationError, match=r"unknown key 'foo'.*trump, lead"):
        parse_fields("trump=H foo=1", ["trump", "lead"])
    with pytest.raises(NotationError, match=r"given twice"):
        parse_fields("trump=H trump=S", ["trump"])
    with pytest.raises(NotationError, match=r"missing lead, E in"):
        parse_fields("trump=H", ["trump", "lead", "E"], ["trump", "lead", "E"])


@pytest.mark.parametrize("text", ["", "   ", "\t\n"])
def test_empty_fields_text(text: str) -> None:
    with pytest.raises(NotationError, match=r"empty deal \(expected key=value fields: a b\)"):
        parse_fields(text, ["a", "b"], what="deal")


def test_context_is_quoted_when_given() -> None:
    line = "trump=H lead=E E=A... D=K... trick=XH"
    with pytest.raises(NotationError) as info:
        parse_card("XH", line)
    assert "'XH'" in str(info.value) and f'"{line}"' in str(info.value)
    with pytest.raises(NotationError) as info:
        parse_holding("AX...", line)
    assert "'AX...'" in str(info.value) and f'"{line}"' in str(info.value)
    with pytest.raises(NotationError) as info:
        parse_suit("Z", line)
    assert "'Z'" in str(info.value) and f'"{line}"' in str(info.value)


# ---------------------------------------------------------------- error hierarchy


@pytest.mark.parametrize("error", [NotationError, IllegalPlayError, RulesError])
def test_error_hierarchy(error: type) -> None:
    assert issubclass(error, TricklabError)
    assert issubclass(error, ValueError)
    assert getattr(solver, error.__name__) is error
    with pytest.raises(ValueError):
        raise error("x")


def test_error_kinds_are_distinct() -> None:
    kinds = [NotationError, IllegalPlayError, RulesError]
    for a in kinds:
        for b in kinds:
            assert issubclass(a, b) == (a is b)
