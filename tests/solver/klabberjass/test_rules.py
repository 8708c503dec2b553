"""Klabberjass play rules (docs/rules-klabberjass.md): legal moves, trick winner, card points, positions.

The engine against the reference lives in ``test_engine.py``; here the
rules themselves are checked, by tables and against naive restatements of docs/rules-klabberjass.md.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import klabberjass
from solver.cards import card_str, cards_of, format_holding, mask_of, parse_card, parse_holding
from solver.errors import IllegalPlayError, NotationError, RulesError
from solver.klabberjass import (
    CLASSIC,
    PACK,
    SEED,
    Position,
    Rules,
    card_points,
    card_power,
    legal_replies,
    trick_winner,
)
from solver.reference import klabberjass_moves, klabberjass_points

PACK_CARDS = list(cards_of(PACK))
SUIT_LETTERS = "SHDC"
TRUMP_ORDER = "J9ATKQ87"  # high to low
PLAIN_ORDER = "ATKQJ987"


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def names(mask_or_cards) -> list[str]:
    items = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return sorted(card_str(c) for c in items)


# ---------------------------------------------------------------- naive restatements of the rules


def naive_legal(hand: list[str], led: str, trump: str) -> list[str]:
    """docs/rules-klabberjass.md word for word: follow suit, else trump; on a trump lead, overtrump if possible."""
    same = [c for c in hand if c[1] == led[1]]
    if led[1] == trump:
        higher = [c for c in same if TRUMP_ORDER.index(c[0]) < TRUMP_ORDER.index(led[0])]
        return sorted(higher or same or hand)
    trumps = [c for c in hand if c[1] == trump]
    return sorted(same or trumps or hand)


def naive_winner(led: str, second: str, trump: str) -> int:
    if second[1] == led[1]:
        order = TRUMP_ORDER if led[1] == trump else PLAIN_ORDER
        return int(order.index(second[0]) < order.index(led[0]))
    return int(second[1] == trump)


# ---------------------------------------------------------------- legal moves

# (trump, replier's hand, card led, legal replies)
LEGAL_TABLE = [
    # follow suit: any card of the suit led, trumps and others not allowed
    ("H", "AT7.J.9.8", "KS", "AS TS 7S"),
    ("H", "7.AJ.9.8", "AS", "7S"),  # following with a low card is fine: no duty to beat
    ("D", "Q.J.A.K", "8C", "KC"),
    # void in the suit led: must trump (any trump, no duty to beat in a plain trick)
    ("H", ".J97.A8.", "AC", "JH 9H 7H"),
    ("S", "7.AK..Q", "TD", "7S"),
    ("C", "A.K.Q.8", "JD", "QD"),
    # void with no trump: anything
    ("H", "AK..Q7.", "AC", "AS KS QD 7D"),
    ("C", "T.9.8.", "7C", "TS 9H 8D"),  # trump led, no trump at all
    # trump led: must overtrump if possible
    ("H", "A.J9Q8.K.", "AH", "JH 9H"),
    ("H", "A.JQ8.K.", "9H", "JH"),
    ("S", "J97.A..", "8S", "JS 9S"),
    ("S", "TK8..A.", "QS", "TS KS"),
    # trump led, cannot beat it: any trump
    ("H", "A.Q87.K.", "AH", "QH 8H 7H"),
    ("D", ".A.8.K", "9D", "8D"),
    # trump led, no trump left: anything
    ("H", "AK..Q7.J", "JH", "AS KS QD 7D JC"),
]


@pytest.mark.parametrize("trump, hand, led, legal", LEGAL_TABLE)
def test_legal_replies_table(trump: str, hand: str, led: str, legal: str) -> None:
    t = SUIT_LETTERS.index(trump)
    mask = parse_holding(hand)
    got = legal_replies(mask, parse_card(led), t)
    assert names(got) == sorted(legal.split())
    assert names(got) == naive_legal(names(mask), led, trump)


def _position_with_trick(trump: int, replier_hand: int, led: int, lead: int) -> Position:
    """A valid position where ``lead`` has led ``led`` and the other seat holds the hand."""
    spare = [c for c in PACK_CARDS if c != led and not replier_hand >> c & 1]
    leader_hand = mask_of(spare[: replier_hand.bit_count() - 1])
    hands = (leader_hand, replier_hand) if lead == 0 else (replier_hand, leader_hand)
    return Position(trump, lead, hands, led)


@pytest.mark.parametrize("lead", [0, 1])
@pytest.mark.parametrize("trump, hand, led, legal", LEGAL_TABLE)
def test_position_legal_moves_table(lead: int, trump: str, hand: str, led: str, legal: str) -> None:
    p = _position_with_trick(SUIT_LETTERS.index(trump), parse_holding(hand), parse_card(led), lead)
    assert p.to_move == 1 - lead
    assert names(p.legal_moves()) == sorted(legal.split())
    assert p.legal_set() == mask_of(p.legal_moves())
    # legal_moves lists spades first, high to low
    assert p.legal_moves() == list(cards_of(p.legal_set()))


@pytest.mark.parametrize("lead", [0, 1])
def test_leader_may_play_anything(lead: int) -> None:
    hand = "AJ9.K7.8.T"
    other = "KQ.AQ.7.98"
    hands = (hand, other) if lead == 0 else (other, hand)
    p = Position.parse(f"trump=H lead={'ED'[lead]} E={hands[0]} D={hands[1]}")
    assert p.to_move == lead
    assert p.legal_set() == parse_holding(hand)
    assert len(p.legal_moves()) == 7


@settings(max_examples=250)
@given(
    st.permutations(PACK_CARDS),
    st.integers(1, 9),
    st.integers(0, 3),
)
def test_legal_replies_agree_with_the_rule_as_written(order: list[int], n: int, trump: int) -> None:
    led, hand = order[0], order[1 : 1 + n]
    got = legal_replies(mask_of(hand), led, trump)
    assert names(got) == naive_legal(names(hand), card_str(led), SUIT_LETTERS[trump])
    assert got and got & ~mask_of(hand) == 0


# ---------------------------------------------------------------- trick winner

# (trump, card led, second card, winner: 0 the leader, 1 the second player)
WINNER_TABLE = [
    ("H", "AS", "7H", 1),  # a trump beats a plain card
    ("H", "7H", "AS", 0),  # a plain card never beats a trump
    ("H", "AS", "TS", 0),  # higher card of the suit led
    ("H", "TS", "AS", 1),
    ("H", "KS", "TS", 1),  # T ranks above K in a plain suit
    ("H", "JS", "QS", 1),  # plain J is below Q
    ("H", "9S", "JS", 1),
    ("H", "7S", "AD", 0),  # off-suit discard loses, even an ace
    ("H", "7S", "JD", 0),
    ("S", "7S", "AH", 0),
    ("S", "JS", "9S", 0),  # Jass is the highest trump
    ("S", "9S", "JS", 1),
    ("S", "AS", "9S", 1),  # Menel beats the trump ace
    ("S", "9S", "AS", 0),
    ("S", "QS", "8S", 0),
    ("C", "7C", "8C", 1),
    ("C", "AD", "7C", 1),  # the lowest trump beats a plain ace
    ("D", "JC", "9C", 0),  # J and 9 of a plain suit are plain cards
    ("D", "9C", "JC", 1),
]


@pytest.mark.parametrize("trump, led, second, winner", WINNER_TABLE)
def test_trick_winner_table(trump: str, led: str, second: str, winner: int) -> None:
    t = SUIT_LETTERS.index(trump)
    assert trick_winner([parse_card(led), parse_card(second)], t) == winner
    assert naive_winner(led, second, trump) == winner


@pytest.mark.parametrize("trump", range(4))
@pytest.mark.parametrize("suit", range(4))
def test_rank_order_in_trump_and_plain_suits(trump: int, suit: int) -> None:
    order = TRUMP_ORDER if suit == trump else PLAIN_ORDER
    ranked = [parse_card(r + SUIT_LETTERS[suit]) for r in order]
    powers = [card_power(c, trump) for c in ranked]
    assert powers == list(range(7, -1, -1))
    for i, high in enumerate(ranked):
        for low in ranked[i + 1 :]:
            assert trick_winner([high, low], trump) == 0, (card_str(high), card_str(low))
            assert trick_winner([low, high], trump) == 1, (card_str(low), card_str(high))


def test_trick_winner_on_every_pair_agrees_with_the_rule_as_written() -> None:
    for trump in range(4):
        for led in PACK_CARDS:
            for second in PACK_CARDS:
                if led != second:
                    expected = naive_winner(card_str(led), card_str(second), SUIT_LETTERS[trump])
                    assert trick_winner([led, second], trump) == expected


# ---------------------------------------------------------------- card points

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


@pytest.mark.parametrize("trump", range(4))
def test_card_points_of_every_card(trump: int) -> None:
    for card in PACK_CARDS:
        rank, suit = card_str(card)
        table = TRUMP_POINTS if SUIT_LETTERS.index(suit) == trump else PLAIN_POINTS
        assert card_points(card, trump) == table[rank], card_str(card)


@pytest.mark.parametrize("trump", range(4))
def test_whole_pack_is_worth_162(trump: int) -> None:
    assert sum(card_points(c, trump) for c in PACK_CARDS) == 152
    in_trump = sum(card_points(c, trump) for c in PACK_CARDS if c >> 4 == trump)
    assert in_trump == 62
    assert sum(card_points(c, trump) for c in PACK_CARDS) + SEED.last_trick == 162


# ---------------------------------------------------------------- positions: notation


@st.composite
def positions(draw) -> Position:
    """Any valid position: 0..9 cards a hand, any trump and leader, and an unfinished
    trick about half the time."""
    n = draw(st.integers(0, 9))
    order = draw(st.permutations(PACK_CARDS))
    trump = draw(st.integers(0, 3))
    lead = draw(st.integers(0, 1))
    hands = [mask_of(order[:n]), mask_of(order[n : 2 * n])]
    trick = None
    if n and draw(st.booleans()):
        trick = order[0] if lead == 0 else order[n]
        hands[lead] &= ~(1 << trick)
    return Position(trump, lead, (hands[0], hands[1]), trick)


def _respell(p: Position, rng: random.Random) -> str:
    """A non-canonical text of ``p``: fields shuffled, lower case, symbols, 10, suit first."""

    def holding(mask: int) -> str:
        parts = []
        for part in format_holding(mask).split("."):
            ranks = list(part)
            rng.shuffle(ranks)
            parts.append("".join("10" if r == "T" and rng.random() < 0.5 else r for r in ranks))
        return ".".join(parts).lower() if rng.random() < 0.5 else ".".join(parts)

    trump = rng.choice([SUIT_LETTERS[p.trump], SUIT_LETTERS[p.trump].lower(), "♠♥♦♣"[p.trump]])
    fields = [
        f"trump={trump}",
        f"lead={rng.choice(['ED'[p.lead], 'ed'[p.lead]])}",
        f"E={holding(p.hands[0])}",
        f"D={holding(p.hands[1])}",
    ]
    if p.trick is not None:
        text = card_str(p.trick)
        fields.append(f"trick={rng.choice([text, text[::-1], text.lower()])}")
    rng.shuffle(fields)
    return "  ".join(fields)


@settings(max_examples=150)
@given(positions(), st.randoms(use_true_random=False))
def test_position_round_trip(p: Position, rng: random.Random) -> None:
    text = str(p)
    q = Position.parse(text)
    assert q == p and hash(q) == hash(p)
    assert str(q) == text
    assert Position.parse(_respell(p, rng)) == p
    assert eval(repr(p), {"Position": Position}) == p
    assert ("trick=" in text) == (p.trick is not None)


def test_position_text_is_canonical() -> None:
    p = Position.parse("E=KQ... lead=d trump=♥ D=..A. trick=9s")
    assert str(p) == "trump=H lead=D E=KQ... D=..A. trick=9S"
    assert p.to_move == 0
    assert (
        str(Position.parse("lead=e trump=c E=10.9.. D=j.8..")) == "trump=C lead=E E=T.9.. D=J.8.."
    )


def test_positions_are_hashable_values() -> None:
    a = Position.parse("trump=H lead=E E=A... D=K...")
    b = Position.parse("D=K... E=a... lead=e trump=h")
    assert a == b and len({a, b}) == 1 and {a: 1}[b] == 1
    with pytest.raises(AttributeError):
        a.trump = 2  # type: ignore[misc]


# ---------------------------------------------------------------- positions: bad input

RULES_ERRORS = [
    # a card outside the 32-card pack
    ("trump=H lead=E E=2... D=A...", "2S"),
    ("trump=H lead=E E=A... D=..6.", "6D"),
    ("trump=H lead=E E=A... D=K... trick=2S", "2S"),
    # the same card in both hands
    ("trump=H lead=E E=A... D=A...", "AS"),
    ("trump=H lead=E E=AK.7.. D=Q.7..", "7H"),
    # unequal hands
    ("trump=H lead=E E=A... D=KQ...", "unequal"),
    ("trump=H lead=D E=AK... D=Q...", "unequal"),
    # more than nine cards
    ("trump=H lead=E E=AKQJT.AKQJT.. D=..AKQJT.AKQJT", "10 cards"),
    ("trump=S lead=E E=AKQJT98.AKQ.. D=..AKQJT98.AKQ trick=7S", "10 cards"),
    # the trick card is also in a hand
    ("trump=H lead=E E=... D=A... trick=AS", "also in a hand"),
    ("trump=H lead=D E=A.K.. D=... trick=KH", "also in a hand"),
    # the leader must hold one card fewer than the other hand
    ("trump=H lead=E E=... D=... trick=AS", "one card fewer"),
    ("trump=H lead=E E=K... D=Q... trick=AS", "one card fewer"),
    ("trump=H lead=D E=... D=K... trick=AS", "one card fewer"),
    ("trump=H lead=E E=KQ... D=J... trick=AS", "one card fewer"),
]


@pytest.mark.parametrize("text, named", RULES_ERRORS)
def test_validate_rules_errors(text: str, named: str) -> None:
    with pytest.raises(RulesError) as info:
        Position.parse(text)
    message = str(info.value)
    assert named in message
    assert f'"{text}"' in message  # the whole position is quoted
    assert "\n" not in message


def test_validate_rules_errors_from_the_constructor() -> None:
    two_spades = parse_card("2S")
    with pytest.raises(RulesError, match="2S"):
        Position(0, 0, (1 << two_spades, 1 << parse_card("AS")))
    with pytest.raises(RulesError, match="2S"):
        Position(0, 0, (0, 1 << parse_card("AS")), two_spades)
    with pytest.raises(RulesError, match="trump"):
        Position(4, 0, (0, 0))
    with pytest.raises(RulesError, match="leader"):
        Position(0, 2, (0, 0))


@pytest.mark.parametrize(
    "text, quoted",
    [
        ("", "empty position"),
        ("trump=H lead=E E=A...", "missing D"),
        ("trump=H lead=E E=A... D=K... foo=1", "'foo'"),
        ("trump=H lead=E E=A... D=K... E=Q...", "'E'"),
        ("trump=H lead=E E A... D=K...", "'E'"),
        ("trump=X lead=E E=A... D=K...", "'X'"),
        ("trump=H lead=Q E=A... D=K...", "'Q'"),
        ("trump=H lead=E E=A.. D=K...", "'A..'"),
        ("trump=H lead=E E=AX... D=K...", "'X'"),
        ("trump=H lead=E E=AA... D=K...", "AS twice"),
        ("trump=H lead=E E=... D=K... trick=ZZ", "'ZZ'"),
    ],
)
def test_position_notation_errors(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as info:
        Position.parse(text)
    assert quoted in str(info.value)
    if text:
        assert f'"{text}"' in str(info.value)


# ---------------------------------------------------------------- play


def test_step_completes_a_trick_and_the_winner_leads() -> None:
    p = Position.parse("trump=H lead=E E=T.7.. D=A.8..")
    q, winner, pts = p.step(parse_card("TS"))
    assert (winner, pts) == (None, 0)
    assert str(q) == "trump=H lead=E E=.7.. D=A.8.. trick=TS"
    assert q.to_move == 1
    r, winner, pts = q.step(parse_card("AS"))
    assert winner == 1 and pts == 21  # A 11 + T 10, not the last trick
    assert str(r) == "trump=H lead=D E=.7.. D=.8.."
    assert r.to_move == 1 and r.lead == 1
    s, winner, pts = r.play(parse_card("8H")).step(parse_card("7H"))
    assert winner == 1 and pts == 10  # two trumps worth nothing, last-trick bonus 10
    assert s.is_over and s.points_left() == 0
    assert s.tricks_left == 0


def test_step_last_trick_bonus_follows_the_rules() -> None:
    p = Position.parse("trump=S lead=D E=..K. D=..Q.")
    q = p.play(parse_card("QD"))
    for bonus in (0, 10, 25):
        rules = replace(SEED, last_trick=bonus)
        r, winner, pts = q.step(parse_card("KD"), rules)
        assert winner == 0 and pts == 4 + 3 + bonus
        assert r.lead == 0 and r.is_over
        assert p.points_left(rules) == 7 + bonus


def test_step_trump_wins_and_leader_of_next_trick() -> None:
    p = Position.parse("trump=C lead=E E=AT... D=..K.7")
    q, winner, pts = p.play(parse_card("AS")).step(parse_card("7C"))
    assert winner == 1 and pts == 11
    assert q.lead == 1 and q.to_move == 1 and q.trick is None


def test_points_left_counts_unfinished_trick_and_bonus() -> None:
    p = Position.parse("trump=H lead=E E=.9.. D=J.A.. trick=TS")
    assert p.points_left() == 10 + 14 + 2 + 11 + 10
    assert p.points_left(CLASSIC) == p.points_left(SEED)
    assert Position.parse("trump=H lead=E E=... D=...").points_left() == 0


@settings(max_examples=150)
@given(positions(), st.randoms(use_true_random=False))
def test_random_play_out_conserves_points(p: Position, rng: random.Random) -> None:
    """Playing legal cards to the end hands out exactly ``points_left`` in tricks won by
    the right seat, the winner of each trick leading the next."""
    total = p.points_left()
    won = 0
    while not p.is_over:
        assert p.legal_moves()
        card = rng.choice(p.legal_moves())
        led, leader = p.trick, p.lead
        q, winner, pts = p.step(card)
        if led is None:
            assert winner is None and pts == 0 and q.trick == card and q.lead == leader
        else:
            expected = (leader, 1 - leader)[trick_winner([led, card], p.trump)]
            assert winner == expected and q.lead == winner and q.trick is None
            bonus = SEED.last_trick if q.is_over else 0
            assert pts == card_points(led, p.trump) + card_points(card, p.trump) + bonus
            won += pts
        assert q.points_left() + (pts if winner is not None else 0) == p.points_left()
        p = q
    assert won == total


@pytest.mark.parametrize(
    "text, card, legal",
    [
        ("trump=H lead=E E=A... D=K...", "KS", "AS"),  # the other player's card
        ("trump=H lead=E E=A... D=K...", "QS", "AS"),  # a card nobody holds
        ("trump=H lead=E E=..98. D=AK.7.. trick=QS", "7H", "AS KS"),  # must follow suit
        ("trump=H lead=E E=..K. D=.7.A. trick=QS", "AD", "7H"),  # void: must trump
        ("trump=H lead=E E=..KQ. D=.JQ.A. trick=9H", "QH", "JH"),  # must overtrump
        ("trump=H lead=E E=.K.. D=.98.. trick=AH", "KH", "9H"),  # the leader is not to play
        ("trump=H lead=E E=... D=...", "AS", "none"),  # the play is over
    ],
)
def test_illegal_play(text: str, card: str, legal: str) -> None:
    p = Position.parse(text)
    with pytest.raises(IllegalPlayError) as info:
        p.play(parse_card(card))
    message = str(info.value)
    assert card in message and f'"{p}"' in message and f"(legal: {legal})" in message
    with pytest.raises(IllegalPlayError):
        p.step(parse_card(card))


@pytest.mark.parametrize("card", [-1, -16, 64, 100, 13, 1 << 40])
def test_illegal_play_of_a_non_card(card: int) -> None:
    p = Position.parse("trump=H lead=E E=A... D=K...")
    with pytest.raises(IllegalPlayError, match=str(card)):
        p.step(card)


# ---------------------------------------------------------------- rules presets


def test_rules_presets() -> None:
    seed, classic = Rules.preset("seed"), Rules.preset("classic")
    assert seed == Rules() == SEED and seed.name == "seed"
    assert (seed.bella, seed.dix, seed.bottom_card, seed.schmeiss) == (50, False, False, False)
    assert (seed.last_trick, seed.run3, seed.run4, seed.game) == (10, 20, 50, 500)
    assert classic == CLASSIC and classic.name == "classic"
    assert (classic.bella, classic.dix, classic.bottom_card, classic.schmeiss) == (
        20,
        True,
        True,
        True,
    )
    assert (classic.last_trick, classic.run3, classic.run4, classic.game) == (10, 20, 50, 500)
    assert seed != classic


@pytest.mark.parametrize("name", ["nonsense", "", "Seed", "CLASSIC", "custom"])
def test_unknown_rules_preset(name: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset(name)
    assert f"'{name}'" in str(info.value) and "seed, classic" in str(info.value)


# ---------------------------------------------------------------- terminal positions


@pytest.mark.parametrize("text", ["trump=H lead=E E=... D=...", "trump=C lead=D E=... D=..."])
def test_engine_and_reference_on_the_terminal_position(text: str) -> None:
    p = Position.parse(text)
    assert p.is_over and p.legal_moves() == [] and p.points_left() == 0
    result = klabberjass.solve(p, moves=True)
    assert result.points == (0, 0) and result.best is None and result.pv == ()
    assert result.moves == {}
    assert result.to_json() == {"points": {"E": 0, "D": 0}, "best": None, "pv": [], "moves": {}}
    assert klabberjass.value(p) == 0
    assert klabberjass.values([p, p]) == [0, 0]
    assert klabberjass.move_values(p) == {}
    assert klabberjass_points(p) == (0, 0)
    assert klabberjass_moves(p) == {}


def test_engine_and_reference_on_the_last_card() -> None:
    p = Position.parse("trump=H lead=E E=... D=.7.. trick=AS")  # D must trump the ace
    assert p.legal_moves() == [parse_card("7H")]
    result = klabberjass.solve(p, moves=True)
    assert result.points == klabberjass_points(p) == (0, 21)
    assert result.pv == (parse_card("7H"),)
    assert result.moves == klabberjass_moves(p) == {parse_card("7H"): 21}
