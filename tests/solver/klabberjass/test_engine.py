"""The compiled Klabberjass engine against the reference minimax and the golden file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import klabberjass
from solver.cards import cards_of
from solver.klabberjass import CLASSIC, PACK, SEED, Position
from solver.klabberjass import _core as _klabberjass
from solver.reference import klabberjass_moves, klabberjass_points

DATA = Path(__file__).resolve().parents[2] / "data"
PACK_CARDS = list(cards_of(PACK))


@st.composite
def positions(draw, max_cards: int = 5) -> Position:
    """Any legal position: 1..max_cards cards a hand, any trump and leader, and an
    unfinished trick half of the time."""
    n = draw(st.integers(1, max_cards))
    with_trick = draw(st.booleans())
    cards = draw(st.permutations(PACK_CARDS))[: 2 * n]
    lead = draw(st.integers(0, 1))
    trump = draw(st.integers(0, 3))
    hands = [sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n : 2 * n])]
    trick = None
    if with_trick:
        trick = cards[n] if lead == 1 else cards[0]
        hands[lead] &= ~(1 << trick)
    return Position(trump, lead, (hands[0], hands[1]), trick)


def _check(position: Position) -> None:
    e, d = klabberjass_points(position)
    result = klabberjass.solve(position, moves=True)
    assert result.points == (e, d), str(position)
    assert result.moves == klabberjass_moves(position), str(position)
    assert klabberjass.value(position) == e


@settings(max_examples=400)
@given(positions(max_cards=5))
def test_engine_matches_reference(position: Position) -> None:
    _check(position)


@settings(max_examples=25)
@given(positions(max_cards=6))
def test_engine_matches_reference_six_cards(position: Position) -> None:
    _check(position)


def test_engine_matches_reference_every_trump_and_leader() -> None:
    rng = random.Random(5)
    for trump in range(4):
        for lead in range(2):
            for with_trick in (False, True):
                cards = rng.sample(PACK_CARDS, 8)
                hands = [sum(1 << c for c in cards[:4]), sum(1 << c for c in cards[4:])]
                trick = None
                if with_trick:
                    trick = cards[0] if lead == 0 else cards[4]
                    hands[lead] &= ~(1 << trick)
                _check(Position(trump, lead, (hands[0], hands[1]), trick))


def test_principal_variation_is_legal_and_scores_the_value() -> None:
    rng = random.Random(11)
    for _ in range(40):
        cards = rng.sample(PACK_CARDS, 18)
        p = Position(
            rng.randrange(4),
            rng.randrange(2),
            (sum(1 << c for c in cards[:9]), sum(1 << c for c in cards[9:])),
        )
        result = klabberjass.solve(p)
        won = [0, 0]
        q = p
        for card in result.pv:
            q, winner, pts = q.step(card)
            if winner is not None:
                won[winner] += pts
        assert q.is_over
        assert tuple(won) == result.points
        assert result.best == result.pv[0]
        assert sum(result.points) == p.points_left()


def test_move_values_agree_with_value() -> None:
    rng = random.Random(3)
    for _ in range(30):
        cards = rng.sample(PACK_CARDS, 18)
        p = Position(
            rng.randrange(4), 0, (sum(1 << c for c in cards[:9]), sum(1 << c for c in cards[9:]))
        )
        moves = klabberjass.move_values(p)
        assert set(moves) == set(p.legal_moves())
        assert max(moves.values()) == klabberjass.value(p)


def test_batch_equals_single_solves_and_small_table() -> None:
    rng = random.Random(8)
    ps = []
    for _ in range(60):
        cards = rng.sample(PACK_CARDS, 18)
        ps.append(
            Position(
                rng.randrange(4),
                rng.randrange(2),
                (sum(1 << c for c in cards[:9]), sum(1 << c for c in cards[9:])),
            )
        )
    batch = klabberjass.values(ps)
    small = _klabberjass.Core(1)
    assert batch == [small.value(p.hands[0], p.hands[1], p.trump, p.lead, -1, 10) for p in ps]
    assert batch == [klabberjass.value(p) for p in ps]
    # reference on a few of them (full deals are slow in pure Python)
    for p, v in list(zip(ps, batch, strict=True))[:2]:
        assert klabberjass_points(p)[0] == v


def test_last_trick_bonus_comes_from_rules() -> None:
    p = Position.parse("trump=H lead=E E=A... D=K...")
    assert klabberjass.solve(p, SEED).points == (25, 0)
    assert klabberjass.solve(p, CLASSIC).points == (25, 0)


def test_finished_position_scores_nothing() -> None:
    p = Position.parse("trump=S lead=D E=... D=...")
    result = klabberjass.solve(p, moves=True)
    assert (
        result.points == (0, 0) and result.best is None and result.pv == () and result.moves == {}
    )


def test_golden_positions() -> None:
    rows = [
        json.loads(line) for line in (DATA / "klabberjass-positions.jsonl").read_text().splitlines()
    ]
    assert len(rows) == 300
    for row in rows:
        result = klabberjass.solve(Position.parse(row["position"]), moves=True).to_json()
        assert result["points"] == row["points"], row["position"]
        assert result["moves"] == row["moves"], row["position"]


def test_table_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1 MB"):
        _klabberjass.Core(0)


def test_json_names_cards_and_follows_the_first_optimal_card() -> None:
    # E leads QH (first optimal card in suit order); D, void in hearts, must trump with TC,
    # then leads 8S and E, void in spades and clubs, throws KD: D takes 3+10+0+4+10 = 27.
    r = klabberjass.solve(Position.parse("trump=C lead=E E=.Q.K. D=8...T"), moves=True).to_json()
    assert r == {
        "points": {"E": 0, "D": 27},
        "best": "QH",
        "pv": ["QH", "TC", "8S", "KD"],
        "moves": {"QH": 0, "KD": 0},
    }
