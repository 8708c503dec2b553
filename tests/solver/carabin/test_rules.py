"""Carabin rules: notation, trick winner, points, play, deals, bidding, scoring, game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solver.carabin import (
    Bidding,
    Call,
    Contract,
    Deal,
    Match,
    Position,
    Rules,
    beats,
    card_points,
    contract_made,
    next_hand,
    score_deal,
    trick_winner,
)
from solver.cards import card_str, parse_card
from solver.errors import IllegalBidError, IllegalPlayError, NotationError, RulesError

DATA = Path(__file__).resolve().parents[2] / "data"


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


# ------------------------------------------------------------------- card rules
@pytest.mark.parametrize(
    "card, points",
    [("AS", 4), ("KH", 3), ("QD", 2), ("JC", 0), ("TS", 0), ("9H", 0), ("2D", 0)],
)
def test_card_points(card, points):
    assert card_points(parse_card(card)) == points


@pytest.mark.parametrize(
    "trick, trump, winner",
    [
        ("TH AS KH 2D", "D", 3),  # the only trump wins
        ("TH AS KH", "C", 2),  # no trump: highest of the suit led
        ("TH AS 9H", "C", 0),  # a discard never wins, however high
        ("2S 3S 4S", "S", 2),  # trump led
        ("2S AH 3S", "H", 1),  # a low trump beats the suit led
        ("2H AH 3S", "S", 2),
        ("5C 4C 3C 2C 6D", "H", 0),
        ("5C 4C KH QH 6D AH", "H", 5),  # six players, highest trump
        ("7D", "S", 0),
    ],
)
def test_trick_winner(trick, trump, winner):
    assert trick_winner(cards(trick), "SHDC".index(trump)) == winner


def test_beats_is_consistent_with_trick_winner():
    rng = random.Random(5)
    pack = [s * 16 + r for s in range(4) for r in range(13)]
    for _ in range(500):
        a, b = rng.sample(pack, 2)
        trump = rng.randrange(4)
        assert trick_winner([a, b], trump) == int(beats(b, a, trump))


def test_empty_trick_has_no_winner():
    with pytest.raises(RulesError):
        trick_winner([], 0)


@pytest.mark.parametrize(
    "order, hand, left, expected",
    [
        ("alternate", 0, 0b11, 1),
        ("alternate", 1, 0b11, 0),
        ("alternate", 1, 0b00, 0),
        ("left_then_right", 0, 0b11, 0),
        ("left_then_right", 0, 0b10, 1),
        ("left_then_right", 1, 0b10, 1),
    ],
)
def test_next_hand(order, hand, left, expected):
    assert next_hand(order, hand, left) == expected


# ------------------------------------------------------------------- positions
def golden_positions() -> list[str]:
    lines = (DATA / "carabin-positions.jsonl").read_text().splitlines()
    return [json.loads(line)["position"] for line in lines]


def test_golden_positions_round_trip():
    for text in golden_positions():
        p = Position.parse(text)
        assert str(p) == text
        assert Position.parse(str(p)) == p
        assert hash(p) == hash(Position.parse(text))


def test_parse_accepts_any_field_order_and_lower_case():
    p = Position.parse("next=r 2=.../.3.. lead=1 bidder=0 trump=s 1=.../K... 0=.../A...")
    assert str(p) == "trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3.."
    assert p.players == 3 and p.to_move == 1


def test_left_then_right_round_trip():
    text = (
        "trump=S bidder=0 lead=0 next=R 0=.../A2... 1=.../K3... 2=.../Q4... order=left_then_right"
    )
    p = Position.parse(text)
    assert p.trick_order == "left_then_right"
    assert str(p) == text


def test_legal_moves_are_the_whole_hand_in_use():
    p = Position.parse("trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.")
    assert [card_str(c) for c in p.legal_moves()] == ["KS", "JS"]
    p = p.play(parse_card("JS"))
    assert [card_str(c) for c in p.legal_moves()] == ["QS", "AD"]  # no duty to follow
    assert p.to_move == 2


def test_play_a_trick_alternates_hands():
    p = Position.parse("trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.")
    p, w, pts = p.step(parse_card("KS"))
    assert (w, pts) == (None, 0)
    p, w, pts = p.step(parse_card("AD"))
    p, w, pts = p.step(parse_card("5H"))  # seat 0 trumps
    assert (w, pts) == (0, 7)
    assert p.lead == 0 and p.hand == 1 and not p.trick
    assert str(p) == "trump=H bidder=2 lead=0 next=R 0=...J/6.J.. 1=J.../A4... 2=Q.../..K8."
    assert p.tricks_left == 3


def test_play_to_the_end_left_then_right():
    p = Position.parse(
        "trump=C bidder=0 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5... order=left_then_right"
    )
    seen = []
    while not p.is_over:
        seen.append(p.hand)
        p = p.play(p.legal_moves()[0])
    assert seen == [0, 0, 0, 1, 1, 1]
    assert p.hand == 1


def test_illegal_play():
    p = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
    with pytest.raises(IllegalPlayError, match="'AS' may not be played"):
        p.play(parse_card("AS"))


def test_points_left_counts_the_trick():
    p = Position.parse(
        "trump=D bidder=2 lead=2 next=R 0=..4./..K. 1=...3/.8.T. 2=.J../.2.. trick=7H,AS"
    )
    assert p.points_left() == 7
    assert p.points_in_hands() == 3


BAD_POSITIONS = [
    ("trump=S bidder=0 lead=0 next=L 0=A.../K... 1=2.../3...", RulesError, "3 to 6 players"),
    (
        "trump=S bidder=0 lead=0 next=L " + " ".join(f"{s}=.../..." for s in range(7)),
        RulesError,
        "3 to 6 players",
    ),
    ("trump=S bidder=0 lead=0 next=L 0=A.../K... 2=2.../3... 3=4.../5...", RulesError, "seats"),
    ("trump=S bidder=0 lead=0 next=L 0=A.../K... 1=A.../3... 2=4.../5...", RulesError, "AS"),
    ("trump=S bidder=0 lead=0 next=L 0=A.../A... 1=2.../3... 2=4.../5...", RulesError, "AS"),
    (
        "trump=S bidder=0 lead=0 next=L 0=AK.../Q... 1=2.../3... 2=4.../5...",
        RulesError,
        "hand sizes",
    ),
    (
        "trump=S bidder=0 lead=0 next=R 0=A.../K... 1=2.../3... 2=4.../5...",
        RulesError,
        "hand sizes",
    ),
    (
        "trump=S bidder=0 lead=0 next=L 0=AKQJT.../... 1=2.../3... 2=4.../5...",
        RulesError,
        "at most 4",
    ),
    (
        "trump=S bidder=0 lead=0 next=L 0=Q.../K... 1=2.../3... 2=4.../5... trick=AS",
        RulesError,
        "hand sizes",
    ),
    (
        "trump=S bidder=0 lead=0 next=L 0=.../K... 1=.../3... 2=.../5... trick=AS,2S,4S",
        RulesError,
        "impossible trick",
    ),
    (
        "trump=S bidder=0 lead=0 next=L 0=.../K... 1=2.../3... 2=4.../5... trick=KS",
        RulesError,
        "KS",
    ),
    (
        "trump=S bidder=0 lead=1 next=L 0=A.../K... 1=.../3... 2=4.../5... trick=2S,7S",
        RulesError,
        "hand sizes",
    ),
    ("trump=S bidder=9 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5...", NotationError, "'9'"),
    ("trump=X bidder=0 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5...", NotationError, "'X'"),
    ("trump=S bidder=0 lead=0 next=M 0=A.../K... 1=2.../3... 2=4.../5...", NotationError, "'M'"),
    (
        "trump=S bidder=0 lead=0 next=L 0=A...K... 1=2.../3... 2=4.../5...",
        NotationError,
        "A...K...",
    ),
    ("trump=S bidder=0 lead=0 next=L 0=AX.../K... 1=2.../3... 2=4.../5...", NotationError, "'X'"),
    ("trump=S bidder=0 lead=0 0=A.../K... 1=2.../3... 2=4.../5...", NotationError, "missing next"),
    (
        "trump=S bidder=0 lead=0 next=L foo=1 0=A.../K... 1=2.../3... 2=4.../5...",
        NotationError,
        "foo",
    ),
    (
        "trump=S bidder=0 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5... order=x",
        RulesError,
        "'x'",
    ),
    ("", NotationError, "empty"),
]


@pytest.mark.parametrize("text, error, fragment", BAD_POSITIONS)
def test_bad_positions(text, error, fragment):
    with pytest.raises(error, match=None) as info:
        Position.parse(text)
    assert fragment in str(info.value)


def test_left_then_right_needs_empty_left_hands_in_r_tricks():
    with pytest.raises(RulesError, match="empty L hands"):
        Position.parse(
            "trump=S bidder=0 lead=0 next=R 0=2.../A... 1=3.../K... 2=4.../Q... order=left_then_right"
        )


def test_constructor_validates():
    with pytest.raises(RulesError):
        Position(0, 0, 0, 0, ((1, 2), (4, 8)))
    with pytest.raises(RulesError):
        Position(5, 0, 0, 0, ((1, 2), (4, 8), (16, 32)))


def test_rules_validate():
    assert Rules(players=6, trick_order="left_then_right").players == 6
    with pytest.raises(RulesError, match="players"):
        Rules(players=2)
    with pytest.raises(RulesError, match="trick order"):
        Rules(trick_order="zigzag")


# ------------------------------------------------------------------- deals
def test_golden_deals_round_trip():
    for line in (DATA / "carabin-deals.jsonl").read_text().splitlines():
        text = json.loads(line)["deal"]
        d = Deal.parse(text)
        assert str(d) == text
        assert d.points_in_play == json.loads(line)["points_in_play"]


def test_deal_fixed_fields_round_trip():
    text = "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=QS trump=H bidder=2"
    d = Deal.parse(text)
    assert (d.trump, d.bidder) == (1, 2)
    assert str(d) == text


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_dealt_deals_as_the_game_does(players):
    d = Deal.random(players=players, seed=11)
    assert d == Deal.random(players=players, seed=11)
    assert d != Deal.random(players=players, seed=12)
    held = 0
    for left, right in d.hands:
        assert left.bit_count() == right.bit_count() == 4
        held |= left | right
    assert held.bit_count() == 8 * players
    assert not held >> d.turn & 1
    assert 52 - 8 * players - 1 == 51 - 8 * players  # the rest stay out of play
    assert Deal.parse(str(d)) == d


def test_dealt_order_is_right_then_left_seat_by_seat_turn_ninth():
    rng = random.Random(3)
    pack = [s * 16 + r for s in range(4) for r in range(13)]
    rng.shuffle(pack)
    d = Deal.random(players=4, seed=3)
    assert d.hands[0][1] == sum(1 << c for c in pack[0:4])  # right hand first
    assert d.hands[0][0] == sum(1 << c for c in pack[4:8])
    assert d.turn == pack[8]
    assert d.hands[1][1] == sum(1 << c for c in pack[9:13])


BAD_DEALS = [
    ("0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 turn=QS", RulesError, "3 to 6 players"),
    ("0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T", NotationError, "missing turn"),
    ("0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=AS", RulesError, "AS"),
    ("0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..86/6.T8..T turn=QS", RulesError, "3 cards"),
    ("0=A9.3.5./KT.7.A. 1=4.4.Q.3/A..K2.9 2=.2..864/6.T8..T turn=QS", RulesError, "AS"),
    (
        "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=QS bidder=3",
        NotationError,
        "'3'",
    ),
    ("0=A9.3.5. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=QS", NotationError, "left holding"),
]


@pytest.mark.parametrize("text, error, fragment", BAD_DEALS)
def test_bad_deals(text, error, fragment):
    with pytest.raises(error) as info:
        Deal.parse(text)
    assert fragment in str(info.value)


def test_deal_position_starts_with_seat_0_on_left_hands():
    d = Deal.random(players=4, seed=1)
    p = d.position(bidder=2, trump=3)
    assert (p.lead, p.hand, p.to_move, p.bidder, p.trump) == (0, 0, 0, 2, 3)
    assert p.tricks_left == 8


# ------------------------------------------------------------------- bidding
def run(players: int, turn: str, calls: str) -> Bidding:
    b = Bidding(players, "SHDC".index(turn))
    for c in calls.split(","):
        b = b.call(c.strip())
    return b


@pytest.mark.parametrize(
    "players, calls, contract",
    [
        (4, "take,pass,pass,pass", Contract(0, 0)),
        (4, "pass,take,pass,pass", Contract(1, 0)),
        (4, "pass,take,chelem", Contract(2, 0, True)),
        (4, "chelem", Contract(0, 0, True)),
        (3, "pass,pass,take", Contract(2, 0)),
        (3, "pass,pass,pass,H,pass,pass", Contract(0, 1)),
        (3, "pass,pass,pass,pass,D,pass", Contract(1, 2)),
        (3, "pass,pass,pass,pass,pass,chelem C", Contract(2, 3, True)),
        (4, "pass,pass,pass,pass,H,chelem D", Contract(1, 2, True)),
        (3, "pass,pass,pass,pass,pass,pass", None),
    ],
)
def test_bidding_outcomes(players, calls, contract):
    b = run(players, "S", calls)
    assert b.is_over
    assert b.contract == contract
    assert b.legal_calls() == []


def test_bidding_legal_calls():
    b = Bidding(4, 0)
    assert [str(c) for c in b.legal_calls()] == ["pass", "take", "chelem"]
    b = b.call("take")
    assert b.to_speak == 1
    assert [str(c) for c in b.legal_calls()] == ["pass", "chelem"]
    b = run(3, "S", "pass,pass,pass")
    assert b.round == 2 and b.to_speak == 0
    assert [str(c) for c in b.legal_calls()] == [
        "pass",
        "H",
        "D",
        "C",
        "chelem H",
        "chelem D",
        "chelem C",
    ]
    b = b.call("D")
    assert [str(c) for c in b.legal_calls()] == ["pass", "chelem H", "chelem D", "chelem C"]


@pytest.mark.parametrize(
    "calls, bad",
    [
        ("take", "take"),  # a second take
        ("pass,pass,pass", "S"),  # naming the turn-up suit in round 2
        ("pass,pass,pass", "chelem S"),
        ("pass,pass,pass", "take"),
        ("", "H"),  # naming in round 1
        ("chelem", "pass"),  # over
    ],
)
def test_illegal_calls(calls, bad):
    b = Bidding(3, 0)
    for c in filter(None, calls.split(",")):
        b = b.call(c)
    with pytest.raises(IllegalBidError, match="not allowed"):
        b.call(bad)


def test_bad_call_text():
    with pytest.raises(NotationError, match="invalid call"):
        Call.parse("double")


# ------------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    "points, total, made", [(9, 18, False), (10, 18, True), (0, 0, False), (17, 33, True)]
)
def test_contract_made(points, total, made):
    assert contract_made(points, total) is made


@pytest.mark.parametrize(
    "players, contract, made, score",
    [
        (4, Contract(1, 0), True, (0, 1, 0, 0)),
        (4, Contract(1, 0), False, (1, 0, 1, 1)),
        (5, Contract(4, 2, True), True, (0, 0, 0, 0, 2)),
        (5, Contract(4, 2, True), False, (2, 2, 2, 2, 0)),
        (3, None, False, (0, 0, 0)),
    ],
)
def test_deal_score(players, contract, made, score):
    assert score_deal(players, contract, made) == score


def test_game_to_ten_rotates_the_deal():
    g = Match(Rules(players=3))
    assert g.dealer == 2 and g.player_of(0) == 0
    g = g.record(Contract(0, 0), made=True)  # player 0 scores; player 0 deals next
    assert g.scores == (1, 0, 0) and g.dealer == 0 and g.player_of(0) == 1
    g = g.record(None)  # all passed: nobody scores, the next player deals
    assert g.scores == (1, 0, 0) and g.dealer == 1
    while not g.is_over:
        g = g.record(Contract(0, 1, chelem=True), made=False)  # seat 0 fails a chelem
    assert max(g.scores) >= 10
    assert g.winners and all(g.scores[p] == max(g.scores) for p in g.winners)
    with pytest.raises(RulesError, match="over"):
        g.record(None)


def test_left_then_right_refuses_an_l_trick_with_the_l_hands_empty():
    """Once the L hands are empty the R tricks follow: an L trick to play with empty L
    hands and cards left in the R hands cannot arise."""
    r_trick = (
        "trump=S bidder=0 lead=0 next=R order=left_then_right 0=.../A... 1=.../K... 2=.../.3.."
    )
    assert Position.parse(r_trick).legal_moves() == [parse_card("AS")]
    with pytest.raises(RulesError, match="R tricks follow"):
        Position.parse(r_trick.replace("next=R", "next=L"))
