"""Bid evaluation, the bidding equilibrium LP and the sinking study."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from analysis.bidding.equilibrium import (
    _game_matrices,
    deal_arrays,
    equilibrium_policy,
    expected_e_net,
    head_to_head,
    make_classifier,
    solve_bidding_game,
    solve_sequence_form,
    thumb_policy,
)
from analysis.bidding.klabberjass import (
    BidView,
    bidding_chunk,
    column,
    deal_of_row,
    deal_tables,
    evaluate_view,
    net_of,
    proportion,
    sample_worlds,
)
from analysis.bidding.sinking import option_nets, sinking_chunk
from solver.cards import parse_card, parse_holding
from solver.klabberjass import SEED, Rules
from solver.klabberjass.deal import Deal, has_bella, runs
from solver.klabberjass.rules import points_of

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def study():
    cols = bidding_chunk(random.Random(3), 0, 600, {"rules": "seed"})
    return pd.DataFrame(cols)


def test_bidding_rows_match_the_deal_table(study):
    for _, row in study.head(40).iterrows():
        deal = deal_of_row(row)
        from solver.klabberjass.table import deal_table

        for r in deal_table(deal):
            assert row[column("net", r.bidder, r.trump)] == net_of(r)
            assert row[column("sink", r.bidder, r.trump)] >= 0


def test_sinking_gain_is_optimal_minus_declare_all(study):
    # where sinking helps, the best declaration beats every-run-declared by exactly sink
    helped = 0
    for _, row in study.iterrows():
        deal = deal_of_row(row)
        for b in (0, 1):
            for t in range(4):
                hands = deal.hands
                e_cp = points_of(hands[0] | hands[1], t) + 10
                table = deal_tables([deal], SEED)[0]
                cp = next(r for r in table if (r.bidder, r.trump) == (b, t)).card_points
                assert cp[0] + cp[1] == e_cp
                nets = option_nets(
                    b,
                    t,
                    cp,
                    (runs(hands[0]), runs(hands[1])),
                    (has_bella(hands[0], t), has_bella(hands[1], t)),
                    SEED,
                )
                full = ((1 << len(runs(hands[b]))) - 1, has_bella(hands[b], t))
                best = max(v[0] for v in nets.values())
                assert best == row[column("net", b, t)]
                assert best - nets[full][0] == row[column("sink", b, t)]
                helped += row[column("sink", b, t)] > 0
        if helped >= 5:
            break
    assert helped >= 5


def test_sampled_worlds_are_consistent_and_uniform():
    view = BidView(1, parse_holding("A8.J9..87"), parse_card("7H"))
    worlds = sample_worlds(view, 2000, random.Random(1))
    ace_clubs = parse_card("AC")
    with_opp = 0
    for w in worlds:
        assert w.first[1] == view.hand and w.turn == view.turn
        with_opp += w.first[0] >> ace_clubs & 1
    # 6 of the 25 unseen cards are in the opponent's first six
    assert abs(with_opp / 2000 - 6 / 25) < 0.04


def test_evaluate_view_strong_and_weak_hands():
    strong = BidView(0, parse_holding(".JT9AKQ.."), parse_card("7H"))
    est = evaluate_view(strong, samples=30, seed=2)
    assert est["take"].n == 30 and est["take"].low > 0
    assert est["take"].low <= est["take"].mean <= est["take"].high
    assert set(est) >= {"take", "name S", "name D", "name C", "opp take"}
    weak = BidView(0, parse_holding("87.8.87.7"), parse_card("AH"))
    assert evaluate_view(weak, samples=30, seed=2)["take"].high < 0


def _pure_plans(k):
    """Every pure plan of a side: per class take (0), pass-name (1), pass-pass (2)."""
    for choice in itertools.product(range(3), repeat=k):
        x = np.zeros(1 + 4 * k)
        x[0] = 1
        for c, a in enumerate(choice):
            x[1 + 4 * c + (0 if a == 0 else 1)] = 1
            if a:
                x[3 + 4 * c if a == 1 else 4 + 4 * c] = 1
        yield x


def test_sequence_form_lp_matches_the_normal_form_game():
    from ortools.linear_solver import pywraplp

    rng = np.random.default_rng(5)
    k = 2
    prob = rng.random((k, k))
    prob /= prob.sum()
    mean = rng.normal(0, 30, (k, k, 4))
    a, m, rhs = _game_matrices(prob, mean)
    value, x, y = solve_sequence_form(a, m, rhs, m, rhs)
    # the same game in normal form (3^k pure plans a side), solved as a matrix game
    xs, ys = list(_pure_plans(k)), list(_pure_plans(k))
    payoff = np.array([[xi @ a @ yj for yj in ys] for xi in xs])
    solver = pywraplp.Solver.CreateSolver("GLOP")
    p = [solver.NumVar(0, 1, f"p{i}") for i in range(len(xs))]
    v = solver.NumVar(-1e9, 1e9, "v")
    solver.Add(sum(p) == 1)
    for j in range(len(ys)):
        solver.Add(v <= sum(float(payoff[i, j]) * p[i] for i in range(len(xs))))
    solver.Maximize(v)
    assert solver.Solve() == pywraplp.Solver.OPTIMAL
    assert value == pytest.approx(v.solution_value(), abs=1e-6)
    # the plans are valid and neither side can do better against the other
    assert np.allclose(m @ x, rhs) and np.allclose(m @ y, rhs)
    assert max(xi @ a @ y for xi in xs) == pytest.approx(value, abs=1e-6)
    assert min(x @ a @ yj for yj in ys) == pytest.approx(value, abs=1e-6)


def test_equilibrium_has_no_profitable_class_deviation(study):
    arrays = deal_arrays(study)
    classifier = make_classifier(arrays, 3, 2)
    eq = solve_bidding_game(arrays, classifier)
    for p in (eq.e_take, eq.d_take, eq.e_name, eq.d_name):
        assert ((p > -1e-9) & (p < 1 + 1e-9)).all()
    pol = equilibrium_policy(eq)
    # E's equilibrium value: no other E policy does better against D's equilibrium
    d_eq = pol(arrays, classifier)
    eq_value = expected_e_net(arrays, d_eq, d_eq).mean()
    assert eq_value == pytest.approx(eq.value, abs=1e-6)
    # no class-by-class deviation of E's does better against D's equilibrium
    from analysis.bidding.equilibrium import Decisions

    cls = classifier.classify(arrays)[0]
    for c in range(classifier.classes):
        for take, name in ((0, 0), (0, 1), (1, 0)):
            sel = cls[:, 0] == c
            dev = Decisions(d_eq.take.copy(), d_eq.name.copy(), d_eq.suit)
            dev.take[sel, 0], dev.name[sel, 0] = take, name
            assert expected_e_net(arrays, dev, d_eq).mean() <= eq_value + 1e-6
    same = head_to_head(arrays, classifier, thumb_policy, thumb_policy)
    assert same[0] == pytest.approx(0.0)


def test_thumb_rule_reads_jass_and_menel():
    deal = Deal.parse("E=J98.A..AK/T.7.Q. D=A.KQ.98.8/..T.QJ turn=7S")
    df = pd.DataFrame(
        [
            {
                "deal": 0,
                "e6": deal.first[0],
                "d6": deal.first[1],
                "turn": deal.turn,
                **{column("net", b, t): 0 for b in (0, 1) for t in range(4)},
            }
        ]
    )
    arrays = deal_arrays(df)
    dec = thumb_policy(arrays, None)
    assert dec.take[0, 0] == 1  # E: Jass with two more spades
    assert dec.take[0, 1] == 0  # D: one spade


def test_sinking_chunk_is_consistent():
    cols = sinking_chunk(random.Random(4), 0, 12, {"rules": "seed", "samples": 6})
    df = pd.DataFrame(cols)
    assert len(df) > 0
    assert (df.dd_best >= df.dd_all).all() and (df.dd_best >= df.dd_none).all()
    assert (df.dd_best >= df.view).all()
    assert ((df.est_bate >= 0) & (df.est_bate <= 1)).all()
    assert (df.declarable > 0).all()
    again = pd.DataFrame(sinking_chunk(random.Random(4), 0, 12, {"rules": "seed", "samples": 6}))
    assert df.equals(again)


def test_classic_rules_table_study_runs():
    cols = bidding_chunk(random.Random(9), 0, 30, {"rules": "classic"})
    deals = [deal_of_row(r) for r in pd.DataFrame(cols).to_dict("records")]
    tables = deal_tables(deals, Rules.preset("classic"))
    for i, table in enumerate(tables):
        for r in table:
            assert cols[column("net", r.bidder, r.trump)][i] == net_of(r)


def test_fast_tables_equal_the_deal_tables_and_random_hands_equal_deal_random():
    from analysis.bidding.klabberjass import (
        RESULT_CODE,
        _random_hands,
        declare_all_net,
        fast_tables,
    )

    rng = random.Random(21)
    deals = []
    for _ in range(400):
        seed = rng.getrandbits(64)
        e6, e3, d6, d3, turn, bottom = _random_hands(seed)
        deal = Deal.random(seed)
        assert deal == Deal((e6 | e3, d6 | d3), turn, (e6, d6), bottom)
        deals.append(deal)
    fast = fast_tables([d.hands for d in deals], SEED)
    with_runs = 0
    for deal, table, row in zip(deals, deal_tables(deals, SEED), fast, strict=True):
        with_runs += bool(runs(deal.hands[0]) or runs(deal.hands[1]))
        for r in table:
            net, res, sink = row[4 * r.bidder + r.trump]
            assert net == net_of(r)
            assert res == RESULT_CODE[r.result]
            assert sink == net - declare_all_net(r, deal.hands, SEED)
    assert with_runs > 100  # the general path (sequences to compare) was exercised
    with pytest.raises(ValueError):
        fast_tables([deals[0].hands], Rules.preset("classic"))


@pytest.mark.parametrize("n", [1, 7, 60, 1037])
def test_proportion_bounds_are_exact_at_none_and_all(n):
    # the Wilson bounds at 0 or n successes are 0 and 1 exactly, not ±1e-18
    none, every = proportion(0, n), proportion(n, n)
    assert none.low == 0.0 and none.high > 0.0
    assert every.high == 1.0 and every.low < 1.0
    inner = proportion(1, n + 1)
    assert 0.0 < inner.low < inner.mean < inner.high < 1.0
