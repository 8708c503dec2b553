"""Carabin bid evaluation: the study against the exact deal table, uniform bidding-time
worlds, sampled values against the deal table of the same worlds, policies, auction."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from analysis.bidding.carabin import (
    CarabinBidView,
    DerivedPolicy,
    LogisticRule,
    always_policy,
    auction,
    carabin_chunk,
    contract_result,
    deal_of_rows,
    evaluate_bids,
    features_frame,
    fit_rule,
    sample_deals,
    seat_net,
    thumb_policy,
)
from analysis.studies import run_chunk
from solver.carabin import Call, Contract, Deal
from solver.carabin.table import deal_table
from solver.cards import SUITS, parse_card
from solver.errors import NotationError, RulesError

pd = pytest.importorskip("pandas")


def test_chunk_matches_the_exact_deal_table():
    cols = carabin_chunk(random.Random(2), 10, 3, {"players": 3})
    df = pd.DataFrame(cols)
    assert len(df) == 3 * 3 * 4
    assert sorted(df["deal"].unique()) == [10, 11, 12]
    for _, rows in df.groupby("deal"):
        deal = deal_of_rows(rows)
        table = deal_table(deal).to_json()
        assert set(rows["in_play"]) == {table["points_in_play"]}
        exact = {(r["bidder"], r["trump"]): r for r in table["table"]}
        for r in rows.to_dict("records"):
            want = exact[(r["seat"], SUITS[r["trump"]])]
            assert (r["made"], r["chelem"]) == (want["made"], want["chelem"])


def test_contract_result_on_a_four_player_deal_with_a_chelem():
    deal = Deal.parse(
        "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. 3=..AKQJ./..T98.J turn=6H"
    )
    table = deal_table(deal).to_json()
    for row in table["table"]:
        got = contract_result(deal, row["bidder"], SUITS.index(row["trump"]))
        assert got == (row["made"], row["chelem"])
    assert contract_result(deal, 0, 0) == (True, True)


def test_chunk_is_deterministic_by_seed():
    a = run_chunk("carabin-bidding", {"players": 3}, 5, 0, 0, 2)
    b = run_chunk("carabin-bidding", {"players": 3}, 5, 0, 0, 2)
    c = run_chunk("carabin-bidding", {"players": 3}, 6, 0, 0, 2)
    assert a == b
    assert a[1]["left"] != c[1]["left"]


def test_view_parse_and_errors():
    v = CarabinBidView.parse("players=5 seat=4 hand=A.K.Q.J/2.3.4.5 turn=AC")
    assert (v.players, v.seat, v.turn) == (5, 4, parse_card("AC"))
    assert str(CarabinBidView.parse(str(v))) == str(v)
    with pytest.raises(NotationError, match="players"):
        CarabinBidView.parse("players=x seat=0 hand=A.K.Q.J/2.3.4.5 turn=AC")
    with pytest.raises(RulesError, match="turn-up"):
        CarabinBidView.parse("players=4 seat=0 hand=A.K.Q.J/2.3.4.5 turn=AS")
    with pytest.raises(NotationError, match="seat"):
        CarabinBidView.parse("players=3 seat=3 hand=A.K.Q.J/2.3.4.5 turn=AC")
    with pytest.raises(RulesError):
        CarabinBidView.parse("players=7 seat=0 hand=A.K.Q.J/2.3.4.5 turn=AC")


def test_sampled_deals_respect_the_view_and_are_uniform():
    view = CarabinBidView.parse("players=4 seat=1 hand=AKQJ.../T987... turn=2C")
    worlds = sample_deals(view, 2000, random.Random(4))
    probe = parse_card("AH")
    where: Counter = Counter()
    for d in worlds:
        assert d.hands[1] == view.hand and d.turn == view.turn and d.players == 4
        slot = next(((s, k) for s in range(4) for k in (0, 1) if d.hands[s][k] >> probe & 1), "out")
        where[slot] += 1
    # 43 unseen cards: 24 in the six hidden hands (4 each), 19 out of play
    slots = [(s, k) for s in (0, 2, 3) for k in (0, 1)]
    expected = {**{s: 2000 * 4 / 43 for s in slots}, "out": 2000 * 19 / 43}
    chi2 = sum((where[k] - e) ** 2 / e for k, e in expected.items())
    assert set(where) <= set(expected)
    assert chi2 < 22.5  # 6 degrees of freedom: p < 0.001 beyond this


def test_evaluation_equals_the_deal_table_of_the_same_worlds():
    view = CarabinBidView.parse("players=3 seat=2 hand=AK3.A../Q4..K.2 turn=9S")
    result = evaluate_bids(view, samples=6, seed=3)
    worlds = sample_deals(view, 6, random.Random(3))
    made = {t: 0 for t in range(4)}
    chelem = {t: 0 for t in range(4)}
    for d in worlds:
        for row in deal_table(d).to_json()["table"]:
            if row["bidder"] == 2:
                t = SUITS.index(row["trump"])
                made[t] += row["made"]
                chelem[t] += row["chelem"]
    assert result["take"].made.mean == made[0] / 6
    assert result["take"].net.mean == pytest.approx((2 * made[0] - 6) / 6)
    assert result["chelem"].made.mean == chelem[0] / 6
    for t in (1, 2, 3):
        assert result[f"name {SUITS[t]}"].made.mean == made[t] / 6
        assert result[f"chelem {SUITS[t]}"].net.mean == pytest.approx((4 * chelem[t] - 12) / 6)
    assert result["take"].net.low <= result["take"].net.mean <= result["take"].net.high
    calls: list[tuple[int, int]] = []
    assert evaluate_bids(view, samples=6, seed=3, progress=lambda *a: calls.append(a)) == result
    assert calls == [(k, 6) for k in range(1, 7)]
    with pytest.raises(RulesError):
        evaluate_bids(view, samples=0)


def test_pass_value_follows_the_others_policy():
    view = CarabinBidView.parse("players=3 seat=0 hand=2345.../.2345.. turn=6S")
    # the others always pass: passing is worth exactly 0
    r = evaluate_bids(view, samples=4, seed=1, policy=lambda v, rnd, st: Call("pass"))
    assert r["pass"].net.mean == 0 and r["pass"].made.n == 0
    # seat 1 always takes: the viewer gains 1/2 when he fails, loses 1/2 when he makes
    r = evaluate_bids(view, samples=8, seed=1, policy=always_policy)
    worlds = sample_deals(view, 8, random.Random(1))
    nets = [seat_net(3, 0, Contract(1, 0), contract_result(d, 1, 0)[0]) for d in worlds]
    assert r["pass"].net.mean == pytest.approx(sum(nets) / 8)
    assert {round(x, 6) for x in nets} <= {0.5, -0.5}


def test_seat_net_sums_to_zero_and_matches_the_scores():
    for n in (3, 4, 5, 6):
        for contract in (Contract(1, 2), Contract(0, 1, True), None):
            for made in (True, False):
                nets = [seat_net(n, s, contract, made) for s in range(n)]
                assert sum(nets) == pytest.approx(0)
    assert seat_net(5, 2, Contract(2, 0), False) == -1
    assert seat_net(5, 3, Contract(2, 0, True), False) == pytest.approx(2 - 6 / 4)


def test_auction_with_simple_policies():
    deal = Deal.parse("0=2345.../.2345.. 1=AKQJ.../.AKQJ.. 2=..AKQJ./...AKQJ turn=6S")
    assert auction(deal, always_policy) == Contract(0, 0)
    # thumb: seat 0 has no spade honour with 4 trumps? he has 4 small spades: he takes
    assert auction(deal, thumb_policy) == Contract(0, 0)
    # seat 1 answers a take with a chelem
    chelem_after_take = [
        always_policy,
        lambda v, rnd, st: Call("chelem") if st else Call("pass"),
        always_policy,
    ]
    assert auction(deal, chelem_after_take) == Contract(1, 0, True)
    # nobody bids in round 1; seat 2 names diamonds in round 2
    nobody = lambda v, rnd, st: Call("pass")  # noqa: E731
    names_d = lambda v, rnd, st: Call("name", 2) if rnd == 2 else Call("pass")  # noqa: E731
    assert auction(deal, [nobody, nobody, names_d]) == Contract(2, 2)
    assert auction(deal, nobody) is None
    # an illegal call counts as a pass
    assert auction(deal, lambda v, rnd, st: Call("name", 0)) is None
    # the skipped seat passes whatever its policy
    assert auction(deal, always_policy, skip=0) == Contract(1, 0)


def test_fit_rule_and_derived_policy():
    frame = features_frame(pd.DataFrame(carabin_chunk(random.Random(8), 0, 12, {"players": 3})))
    assert set(frame["round"]) == {1, 2}
    assert (frame["net"].abs() == 1).all()
    rule = fit_rule(frame)
    assert set(rule.made) == {"3-1", "3-2"} and rule.deals == {"3": 12}
    again = LogisticRule.from_json(rule.to_json())
    assert again == rule
    strong = CarabinBidView.parse("players=3 seat=0 hand=AKQJ.../T98.A.. turn=3S")
    weak = CarabinBidView.parse("players=3 seat=0 hand=2.3.4.5/6.7.8.9 turn=TS")
    p_strong, _ = rule.probabilities(strong, 0)
    p_weak, _ = rule.probabilities(weak, 0)
    assert p_strong > p_weak
    policy = DerivedPolicy(rule)
    assert policy(weak, 1, None) == Call("pass")
    assert policy(strong, 1, None) in (Call("take"), Call("chelem"))


def test_the_net_interval_is_the_interval_of_the_hands_values():
    from analysis.bidding.carabin import net_interval
    from analysis.bidding.klabberjass import Estimate

    for values in ([1, -1, 0, 0, 1, 1, -1, 0], [0] * 5, [-1] * 3 + [0] * 7, [1, 0]):
        want = Estimate.of(values)
        got = net_interval(len(values), sum(v != 0 for v in values), sum(values))
        assert got.mean == pytest.approx(want.mean)
        assert got.low == pytest.approx(want.low) and got.high == pytest.approx(want.high)


def test_the_published_policy_intervals_come_from_the_tables_counts():
    from pathlib import Path

    import pandas as pd

    from analysis.bidding.carabin import net_interval

    root = Path(__file__).resolve().parents[3]
    p = pd.read_csv(root / "data/studies/carabin-bidding/policies.csv")
    for r in p.itertuples():
        bids, net = round(r.bid_rate * r.hands), round(r.net_per_hand * r.hands)
        e = net_interval(r.hands, bids, net)
        assert (r.net_low, r.net_high) == pytest.approx((e.low, e.high), abs=5e-4)
        assert r.net_low <= r.net_per_hand <= r.net_high
