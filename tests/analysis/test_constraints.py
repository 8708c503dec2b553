"""Constrained dealing: every deal satisfies what was declared, checked by hand here."""

from __future__ import annotations

import time

import pytest

from analysis.constraints import (
    HasSequence,
    Holds,
    Lacks,
    PointRange,
    SuitCount,
    UnsatisfiableError,
    bella,
    carabin_spec,
    klabberjass_spec,
    sample_deals,
    void,
)
from solver.cards import card_count, cards_of, parse_card
from solver.errors import RulesError
from solver.klabberjass import PACK, card_points


def suit_len(mask: int, suit: int) -> int:
    return card_count(mask & (0xFFFF << (16 * suit)))


def test_unconstrained_deals_have_the_right_shape():
    spec = klabberjass_spec(cards=9, trump=0)
    for deal in sample_deals(spec, [], count=20, seed=1):
        assert card_count(deal["E"]) == card_count(deal["D"]) == 9
        assert not deal["E"] & deal["D"]
        assert not (deal["E"] | deal["D"]) & ~PACK


def test_klabberjass_constraints_hold_in_every_deal():
    trump = 1
    ks, qs = parse_card("KH"), parse_card("QH")
    cons = [
        bella("E", trump),
        void("D", 0),
        Holds("D", (parse_card("JH"),)),
        Lacks("E", (parse_card("AS"), parse_card("AD"))),
        HasSequence("D", 3, suit=3),
        PointRange("E", 30, 60),
    ]
    spec = klabberjass_spec(cards=6, trump=trump)
    deals = sample_deals(spec, cons, count=12, seed=4)
    for deal in deals:
        e, d = deal["E"], deal["D"]
        assert e >> ks & 1 and e >> qs & 1
        assert suit_len(d, 0) == 0
        assert d >> parse_card("JH") & 1
        assert not e >> parse_card("AS") & 1 and not e >> parse_card("AD") & 1
        clubs = [c & 15 for c in cards_of(d) if c >> 4 == 3]
        assert any({r, r - 1, r - 2} <= set(clubs) for r in clubs)
        assert 30 <= sum(card_points(c, trump) for c in cards_of(e)) <= 60
    assert len({tuple(sorted(d.items())) for d in deals}) > 6  # varied by the seed


def test_carabin_groups_and_counts():
    spec = carabin_spec(players=4)
    cons = [SuitCount("0", 2, 5, 8), SuitCount("1L", 1, 0, 0), PointRange("*", 30)]
    for deal in sample_deals(spec, cons, count=5, seed=9):
        assert suit_len(deal["0L"] | deal["0R"], 2) >= 5
        assert suit_len(deal["1L"], 1) == 0
        pts = {12: 4, 11: 3, 10: 2}
        total = sum(pts.get(c & 15, 0) for h in deal.values() for c in cards_of(h))
        assert total >= 30
        assert all(card_count(h) == 4 for h in deal.values())


def test_same_seed_same_deals():
    spec = klabberjass_spec(cards=5, trump=2)
    cons = [bella("D", 2), SuitCount("E", 2, 2, 3)]
    assert sample_deals(spec, cons, 4, seed=3) == sample_deals(spec, cons, 4, seed=3)
    assert sample_deals(spec, cons, 4, seed=3) != sample_deals(spec, cons, 4, seed=5)


@pytest.mark.parametrize(
    "cons",
    [
        [SuitCount("E", 0, 5, 9)],  # E has four cards
        [bella("E", 1), bella("D", 1)],  # one queen of hearts
        # eight hearts between the hands, but not the seven: only seven are left
        [SuitCount("E", 1, 4), SuitCount("D", 1, 4), Lacks("*", (parse_card("7H"),))],
        [PointRange("*", 200)],
        [HasSequence("E", 4, suit=0), void("E", 0)],
    ],
)
def test_unsatisfiable_constraints_fail_quickly(cons):
    spec = klabberjass_spec(cards=4, trump=1)
    start = time.perf_counter()
    with pytest.raises(UnsatisfiableError, match="no deal satisfies"):
        sample_deals(spec, cons, count=1, seed=1)
    assert time.perf_counter() - start < 5


def test_unknown_hand_is_an_error():
    with pytest.raises(RulesError, match="unknown hand 'N'"):
        sample_deals(klabberjass_spec(4), [void("N", 0)], count=1, seed=1)


def test_tight_constraints_use_cp_sat_and_still_hold():
    # every spade to E: rejection sampling essentially never finds it
    spec = klabberjass_spec(cards=8, trump=0)
    spades = tuple(c for c in cards_of(PACK) if c >> 4 == 0)
    cons = [Holds("E", spades)]
    for deal in sample_deals(spec, cons, count=3, seed=2, tries=20):
        assert suit_len(deal["E"], 0) == 8
