"""The compiled Carabin engine against the reference minimax and the golden files."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import TRICK_ORDERS, Deal, Position
from solver.carabin.table import deal_table
from solver.cards import card_str, suit_of
from solver.reference import carabin_all_tricks as ref_all_tricks
from solver.reference import carabin_moves, carabin_points

DATA = Path(__file__).resolve().parents[2] / "data"
PACK = [s * 16 + r for s in range(4) for r in range(13)]


@st.composite
def positions(draw, players: int) -> Position:
    """A legal position: 1 or 2 cards a hand, any trump, bidder and leader, either trick
    order, then some cards already played (often leaving an unfinished trick)."""
    m = draw(st.integers(1, 2))
    order = draw(st.sampled_from(TRICK_ORDERS))
    cards = draw(st.permutations(PACK))[: 2 * players * m]
    hands = tuple(
        (
            sum(1 << c for c in cards[2 * m * s : 2 * m * s + m]),
            sum(1 << c for c in cards[2 * m * s + m : 2 * m * s + 2 * m]),
        )
        for s in range(players)
    )
    p = Position(
        draw(st.integers(0, 3)),
        draw(st.integers(0, players - 1)),
        draw(st.integers(0, players - 1)),
        0,
        hands,
        (),
        order,
    )
    for _ in range(draw(st.integers(0, 2 * players * m - 1))):
        p = p.play(draw(st.sampled_from(p.legal_moves())))
    return p


def check_against_reference(p: Position) -> None:
    r = carabin.solve(p, moves=True)
    assert r.points == carabin_points(p), str(p)
    assert r.all_tricks == ref_all_tricks(p), str(p)
    assert r.moves == carabin_moves(p), str(p)
    side = int(p.to_move != p.bidder)
    assert r.best in r.moves and r.moves[r.best] == r.points[side]
    b = r.points[0]
    assert carabin.make(p, b) and not carabin.make(p, b + 1)


@pytest.mark.parametrize("players", [3, 4, 5])
@settings(max_examples=300)
@given(data=st.data())
def test_engine_matches_reference(players, data):
    check_against_reference(data.draw(positions(players)))


@settings(max_examples=120)
@given(data=st.data())
def test_engine_matches_reference_six_players(data):
    check_against_reference(data.draw(positions(6)))


def golden(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


def test_golden_positions():
    for g in golden("carabin-positions.jsonl"):
        r = carabin.solve(Position.parse(g["position"]), moves=True).to_json()
        assert r["points"] == g["points"], g["position"]
        assert r["all_tricks"] == g["all_tricks"], g["position"]
        assert r["moves"] == g["moves"], g["position"]


def test_golden_positions_with_the_reference():
    """The golden file and the reference agree too (both follow the written rules)."""
    for g in golden("carabin-positions.jsonl")[:60]:
        p = Position.parse(g["position"])
        assert carabin_points(p) == (g["points"]["bidder"], g["points"]["others"])
        assert {card_str(c): v for c, v in carabin_moves(p).items()} == g["moves"]


def test_golden_deals():
    for g in golden("carabin-deals.jsonl"):
        table = deal_table(Deal.parse(g["deal"])).to_json()
        assert table == {"points_in_play": g["points_in_play"], "table": g["table"]}


def test_fixed_bidder_and_trump_give_one_row():
    g = golden("carabin-deals.jsonl")[0]
    table = deal_table(Deal.parse(g["deal"] + " bidder=1 trump=D")).to_json()
    assert table["table"] == [r for r in g["table"] if r["bidder"] == 1 and r["trump"] == "D"]


def test_full_deal_play_out_is_consistent():
    """Following the engine's best cards through a 4-player deal realises its value."""
    d = Deal.random(players=4, seed=21)
    p = d.position(bidder=1, trump=suit_of(d.turn))
    value = carabin.value(p)
    got = 0
    while not p.is_over:
        r = carabin.solve(p)
        assert r.points[0] + got == value
        p, winner, pts = p.step(r.best)
        got += pts if winner == p.bidder else 0
    assert got == value


def test_small_table_gives_the_same_values():
    for seed in range(3):
        d = Deal.random(players=3, seed=seed)
        p = d.position(bidder=seed % 3, trump=suit_of(d.turn))
        big = carabin.value(p)
        assert carabin.value(p, tt_mb=1) == big
        assert carabin.core(1).tt_bytes <= 1 << 20


def test_table_survives_other_deals():
    """Entries of one deal are never used for another (ownership generations)."""
    a, b = Deal.random(players=3, seed=40), Deal.random(players=3, seed=41)
    pa, pb = a.position(bidder=0, trump=0), b.position(bidder=0, trump=0)
    va, vb = carabin.value(pa), carabin.value(pb)
    carabin.core().clear()
    assert carabin.value(pb) == vb
    assert carabin.value(pa) == va
    assert carabin.value(pb) == vb


def test_move_values_are_for_the_movers_side():
    p = Position.parse("trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.")
    assert {card_str(c): v for c, v in carabin.move_values(p).items()} == {"JS": 16, "KS": 16}


def test_finished_position():
    p = Position.parse("trump=S bidder=0 lead=0 next=L 0=.../... 1=.../... 2=.../...")
    r = carabin.solve(p, moves=True)
    assert (r.points, r.best, r.all_tricks, r.moves) == ((0, 0), None, True, {})
    assert carabin.all_tricks(p)


HARD = (5, 0, 2)  # players, seed, bidder: a 5-player deal whose exact value takes seconds


def test_stop_interrupts_a_long_search():
    n, seed, bidder = HARD
    d = Deal.random(players=n, seed=seed)
    p = d.position(bidder=bidder, trump=suit_of(d.turn))
    core = carabin.core()
    core.clear()
    timer = threading.Timer(0.3, core.stop)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        carabin.value(p)
    timer.join()
    # the context is usable afterwards
    q = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
    assert carabin.value(q) == 7
