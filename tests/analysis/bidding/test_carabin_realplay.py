"""The carabin-realplay study: Carabin contracts double dummy and by PIMC on every seat."""

from __future__ import annotations

import math
import random
import statistics

import pandas as pd
import pytest

from analysis.bidding import carabin_realplay
from analysis.bidding.carabin import (
    CarabinBidView,
    auction,
    carabin_features,
    contract_result,
    evaluate_bids,
    sample_deals,
    seat_net,
    thumb_policy,
)
from analysis.bidding.carabin_realplay import (
    BID_TIME_LIMIT,
    STUDY_COLUMNS,
    by_seat,
    evaluate_bids_pimc,
    fit_and_measure,
    make_rates,
    realplay_chunk,
    realplay_params,
    realplay_tables,
)
from analysis.play import CarabinPimc, CarabinState, play_carabin
from solver.carabin import Contract, Deal
from solver.errors import RulesError

PARAMS = {"players": 3, "samples": 3}


@pytest.fixture(scope="module")
def chunk() -> dict[str, list]:
    return realplay_chunk(random.Random(11), 20, 6, PARAMS)


def _deals_and_seeds(seed: int, count: int, players: int) -> list[tuple[Deal, int]]:
    """The deals and play seeds of a chunk, drawn as its docstring says."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deal = Deal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        out.append((deal, rng.getrandbits(64)))
    return out


def test_the_chunk_is_deterministic_for_a_seed(chunk):
    assert realplay_chunk(random.Random(11), 20, 6, PARAMS) == chunk
    assert sorted(chunk) == sorted(STUDY_COLUMNS)
    assert chunk["deal"] == list(range(20, 26))
    other = realplay_chunk(random.Random(12), 20, 6, PARAMS)
    assert other["cards"] != chunk["cards"]


def test_the_deal_auction_and_features_columns(chunk):
    for i, (deal, _) in enumerate(_deals_and_seeds(11, 6, 3)):
        assert chunk["cards"][i] == str(deal) and Deal.parse(chunk["cards"][i]) == deal
        contract = auction(deal, thumb_policy)
        if contract is None:
            assert chunk["bidder"][i] == -1 and chunk["round"][i] == 0
        else:
            assert (chunk["bidder"][i], chunk["trump"][i]) == (contract.bidder, contract.trump)
            assert chunk["round"][i] == (1 if contract.trump == deal.turn >> 4 else 2)
            feats = carabin_features(*deal.hands[contract.bidder], contract.trump)
            assert chunk["trumps"][i] == feats[0] and chunk["trump_ace"][i] == feats[5]
        seat = (20 + i) % 3
        assert chunk["probe_seat"][i] == seat
        feats = carabin_features(*deal.hands[seat], deal.turn >> 4)
        assert (chunk["probe_trumps"][i], chunk["probe_honours"][i]) == feats[:2]


def test_double_dummy_columns_are_contract_result(chunk):
    for i, (deal, _) in enumerate(_deals_and_seeds(11, 6, 3)):
        if chunk["bidder"][i] >= 0:
            made, chelem = contract_result(deal, chunk["bidder"][i], chunk["trump"][i])
            assert (chunk["dd_made"][i], chunk["dd_chelem"][i]) == (made, chelem)
        made, chelem = contract_result(deal, chunk["probe_seat"][i], deal.turn >> 4)
        assert (chunk["probe_dd_made"][i], chunk["probe_dd_chelem"][i]) == (made, chelem)


def _replay(deal: Deal, contract: Contract, play_seed: int, samples: int) -> bool:
    """One contract played alone by PIMC on every seat, worlds from the deal's play seed
    and the contract (the study's documented seeding)."""
    key = f"carabin-realplay:{play_seed}:{contract.bidder}:{contract.trump}:{int(contract.chelem)}"
    policy = CarabinPimc(samples, seed=random.Random(key))
    return play_carabin(deal, contract, [policy] * deal.players).made


def test_pimc_columns_are_play_carabin_replayed_alone(chunk):
    checked = 0
    for i, (deal, play_seed) in enumerate(_deals_and_seeds(11, 6, 3)):
        ts = deal.turn >> 4
        probe = Contract(chunk["probe_seat"][i], ts)
        assert chunk["probe_pimc_made"][i] == _replay(deal, probe, play_seed, 3)
        slam = Contract(probe.bidder, ts, True)
        assert chunk["probe_pimc_chelem"][i] == _replay(deal, slam, play_seed, 3)
        if chunk["bidder"][i] >= 0:
            c = Contract(chunk["bidder"][i], chunk["trump"][i])
            assert chunk["pimc_made"][i] == _replay(deal, c, play_seed, 3)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("players", [3, 4])
def test_pimc_bid_evaluation_plays_the_same_worlds_on_every_seat(players):
    """The bid options by PIMC: the worlds of the double-dummy evaluation, each contract
    (and its chelem) replayed alone by PIMC from the world's play seed."""
    view = CarabinBidView.parse(f"players={players} seat=1 hand=AKQ2.../7.9.2.3 turn=5S")
    calls: list[tuple[int, int]] = []
    values = evaluate_bids_pimc(
        view, 3, seed=4, play_samples=3, progress=lambda *a: calls.append(a)
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert values == evaluate_bids_pimc(view, 3, seed=4, play_samples=3)
    assert set(values) == set(evaluate_bids(view, 3, seed=4))
    rng = random.Random(4)
    worlds = sample_deals(view, 3, rng)
    seeds = [rng.getrandbits(64) for _ in worlds]
    ts = view.turn >> 4
    for t in range(4):
        made = [_replay(w, Contract(1, t), s, 3) for w, s in zip(worlds, seeds, strict=True)]
        slam = [_replay(w, Contract(1, t, True), s, 3) for w, s in zip(worlds, seeds, strict=True)]
        chelem = "chelem" if t == ts else f"chelem {'SHDC'[t]}"
        take = "take" if t == ts else f"name {'SHDC'[t]}"
        assert values[take].net.mean == pytest.approx(statistics.mean(1 if m else -1 for m in made))
        assert values[take].chelem.mean == pytest.approx(statistics.mean(slam))
        assert values[chelem].net.mean == pytest.approx(
            statistics.mean(2 if c else -2 for c in slam)
        )
    nets = []
    for w, s in zip(worlds, seeds, strict=True):
        contract = auction(w, thumb_policy, skip=1)
        ok = contract is not None and _replay(w, contract, s, 3)
        nets.append(0.0 if contract is None else seat_net(players, 1, contract, ok))
    assert values["pass"].net.mean == pytest.approx(statistics.mean(nets))


def test_pimc_bid_evaluation_cuts_searches_at_five_and_six_players(monkeypatch):
    limits = set()

    def fake(deal, contract, play_seed, samples, time_limit, trick_order):
        limits.add(time_limit)
        return False, False, 0

    monkeypatch.setattr(carabin_realplay, "pimc_played", fake)
    for players, limit in ((4, None), (5, BID_TIME_LIMIT), (6, BID_TIME_LIMIT)):
        limits.clear()
        view = CarabinBidView.parse(f"players={players} seat=0 hand=AKQ2.../7.9.2.3 turn=5S")
        evaluate_bids_pimc(view, 2, seed=1)
        assert limits == {limit}
    evaluate_bids_pimc(view, 2, seed=1, time_limit=2.0)
    assert limits == {BID_TIME_LIMIT, 2.0}
    with pytest.raises(RulesError, match="samples"):
        evaluate_bids_pimc(view, 0)


def test_pimc_differs_from_double_dummy_somewhere():
    cols = realplay_chunk(random.Random(5), 0, 12, PARAMS)
    pairs = list(zip(cols["probe_dd_made"], cols["probe_pimc_made"], strict=True))
    pairs += list(zip(cols["dd_made"], cols["pimc_made"], strict=True))
    assert any(a != b for a, b in pairs)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 7}, "invalid number of players"),
        ({"samples": 0}, "invalid samples 0"),
        ({"policy": "bold"}, "invalid policy 'bold'"),
        ({"trick_order": "zigzag"}, "invalid trick_order 'zigzag'"),
        ({"time_limit": -1}, "invalid time_limit -1"),
    ],
)
def test_bad_params_are_one_clear_error(params, message):
    with pytest.raises(RulesError, match=message):
        realplay_params(params)


def test_bad_study_params_are_refused_before_anything_is_written(tmp_path):
    from analysis.studies import StudyError, run_study

    for params, message in (
        ({"players": 7}, "invalid players '7' for study carabin-realplay"),
        ({"time_limit": "soon"}, "invalid time_limit 'soon'"),
        ({"policy": "bold"}, "invalid policy 'bold'"),
        ({"worlds": 3}, "has no parameter 'worlds'"),
    ):
        out = tmp_path / "bad"
        with pytest.raises(StudyError, match=message):
            run_study("carabin-realplay", 2, 1, out, workers=1, params=params)
        assert not out.exists()


def test_a_time_limit_leaves_searches_undecided_and_still_plays_a_legal_card():
    deal = Deal.random(3, players=4)
    pos = deal.position(bidder=1, trump=deal.turn >> 4)
    state = CarabinState(pos, deal.turn, False, deal.points_in_play)
    policy = CarabinPimc(4, seed=1, time_limit=1e-9)
    card = policy.choose(state)
    assert pos.legal_set() >> card & 1
    assert policy.stats.undecided > 0
    with pytest.raises(RulesError, match="invalid time_limit 0"):
        CarabinPimc(4, time_limit=0)


# ---------------------------------------------------------------- the summary


def _wilson(k: int, n: int) -> tuple[float, float]:
    p, z = k / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _synthetic() -> pd.DataFrame:
    rng = random.Random(4)
    rows = []
    for seed in (1, 2):
        for d in range(40):
            dd = rng.random() < 0.2
            rows.append(
                {
                    "deal": d,
                    "players": 3 + d % 2,
                    "seed": seed,
                    "turn": 16 * (d % 4),
                    "bidder": -1 if d % 5 == 0 else d % 3,
                    "dd_made": dd,
                    "dd_chelem": False,
                    "pimc_made": dd or rng.random() < 0.4,
                    "pimc_chelem": d == 7,
                    "undecided": d % 3,
                    "probe_seat": d % 3,
                    "probe_thumb": d % 4 < 2,
                    "probe_trumps": rng.randrange(0, 6),
                    "probe_honours": rng.randrange(0, 3),
                    "probe_side_aces": rng.randrange(0, 3),
                    "probe_side_kings": rng.randrange(0, 3),
                    "probe_split": rng.randrange(0, 3),
                    "probe_trump_ace": rng.randrange(0, 2),
                    "probe_dd_made": rng.random() < 0.3,
                    "probe_dd_chelem": False,
                    "probe_pimc_made": rng.random() < 0.5,
                    "probe_pimc_chelem": False,
                    "probe_undecided": 0,
                }
            )
    return pd.DataFrame(rows)


def test_make_rates_of_a_synthetic_frame():
    df = _synthetic()
    table = make_rates(df)
    for (n, seed), part in df.groupby(["players", "seed"]):
        bid = [r for r in part.to_dict("records") if r["bidder"] >= 0]
        dd = [int(r["dd_made"]) for r in bid]
        pm = [int(r["pimc_made"]) for r in bid]
        row = table[(table["players"] == n) & (table["seed"] == seed) & (table["set"] == "auction")]
        assert len(row) == 1
        row = row.iloc[0]
        assert row["contracts"] == len(bid) and row["dd_made"] == sum(dd)
        assert row["dd_rate"] == pytest.approx(sum(dd) / len(bid))
        assert row["pimc_rate"] == pytest.approx(sum(pm) / len(bid))
        assert (row["pimc_low"], row["pimc_high"]) == pytest.approx(_wilson(sum(pm), len(bid)))
        diffs = [b - a for a, b in zip(dd, pm, strict=True)]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        mean = statistics.mean(diffs)
        assert (row["diff"], row["diff_low"], row["diff_high"]) == pytest.approx(
            (mean, mean - half, mean + half)
        )
        assert row["undecided"] == sum(r["undecided"] for r in bid)
        probe = table[(table["players"] == n) & (table["seed"] == seed) & (table["set"] == "probe")]
        assert probe.iloc[0]["contracts"] == len(part)
        assert probe.iloc[0]["pimc_made"] == int(part["probe_pimc_made"].sum())
        thumb = table[
            (table["players"] == n) & (table["seed"] == seed) & (table["set"] == "probe_thumb")
        ]
        assert thumb.iloc[0]["contracts"] == int(part["probe_thumb"].sum())


def test_rates_by_seat_per_seed_and_seeds_together():
    df = _synthetic()
    table = by_seat(df)
    for (n, seat), part in df[df["bidder"] >= 0].groupby(["players", "bidder"]):
        rows = table.query(f"set == 'auction' and players == {n} and seat == {seat}")
        assert sorted(rows["seed"]) == [0, 1, 2]
        both = rows[rows["seed"] == 0].iloc[0]
        assert both["contracts"] == len(part)
        assert both["pimc_rate"] == pytest.approx(part["pimc_made"].mean())
        assert rows[rows["seed"] != 0]["contracts"].sum() == len(part)
    probes = table.query("set == 'probe' and seed == 0")
    assert probes["contracts"].sum() == len(df)


def test_the_summary_counts_and_the_held_out_rule():
    df = _synthetic()
    for f in ("trumps", "honours", "side_aces", "side_kings", "split", "trump_ace"):
        df[f] = 0
    tables = realplay_tables([df[df["seed"] == 1], df[df["seed"] == 2]])
    for n, part in df.groupby("players"):
        s = tables["summary"][str(n)]
        bid = part[part["bidder"] >= 0]
        assert s["auction_made_pimc"] == int(bid["pimc_made"].sum())
        assert s["auction_made_dd"] == int(bid["dd_made"].sum())
        assert s["deals"] == {"1": 20, "2": 20} and s["bar_met"] is False
        rule = tables["rule"]["players"][str(n)]
        assert (rule["train_hands"], rule["test_hands"]) == (20, 20)
        # the count rule measured on seed 2 only
        held = part[part["seed"] == 2]
        bids = held["probe_trumps"] + held["probe_honours"] >= rule["count"]
        made = held["probe_pimc_made"]
        net = ((made[bids] * 2 - 1).sum()) / len(held)
        assert rule["measured"]["count"]["net"] == pytest.approx(net)
        assert str(n) in s["sentence"]
    assert tables["rule"]["split"] == "fitted on seed 1, measured on seed(s) 2"


def test_the_replication_fits_on_the_second_seed_and_measures_on_the_first():
    from analysis.bidding.carabin_realplay import replication

    df = _synthetic()
    for f in ("trumps", "honours", "side_aces", "side_kings", "split", "trump_ace"):
        df[f] = 0
    again = replication([df[df["seed"] == 1], df[df["seed"] == 2]])
    assert (again["fitted_on_seed"], again["measured_on_seed"]) == (2, 1)
    swapped = fit_and_measure(df[df["seed"] == 2], df[df["seed"] == 1])
    assert again["players"] == swapped["players"]
    for n, part in df.groupby("players"):
        rule = again["players"][str(n)]
        held = part[part["seed"] == 1]  # measured on seed 1's hands
        bids = held["probe_trumps"] + held["probe_honours"] >= rule["count"]
        net = ((held["probe_pimc_made"][bids] * 2 - 1).sum()) / len(held)
        assert rule["measured"]["count"]["net"] == pytest.approx(net)
    with pytest.raises(ValueError, match="two seeds"):
        replication([df[df["seed"] == 1]])


def test_the_realplay_policy_takes_as_the_published_rule_says():
    from analysis.bidding.carabin import POLICIES, CarabinBidView, auction
    from analysis.bidding.carabin_realplay import rule_advice
    from solver.carabin import Deal as CarabinDeal

    policy = POLICIES["realplay"]()
    takes = 0
    for players in (3, 4, 5, 6):
        for k in range(40):
            deal = CarabinDeal.random(players=players, rng=random.Random(k))
            for seat in range(players):
                left, right = deal.hands[seat]
                view = CarabinBidView(players, seat, (left, right), deal.turn)
                advice = rule_advice(players, left, right, deal.turn >> 4)
                assert str(policy(view, 1, None)) == ("take" if advice["take"] else "pass")
                assert str(policy(view, 2, None)) == "pass"
                takes += advice["take"]
            contract = auction(deal, policy)
            first = next(
                (
                    s
                    for s in range(players)
                    if rule_advice(players, *deal.hands[s], deal.turn >> 4)["take"]
                ),
                None,
            )
            assert (contract is None) == (first is None)
            if contract is not None:
                assert contract.bidder == first and contract.trump == deal.turn >> 4
    assert takes > 0


# ---------------------------------------------------------------- notebook 04's findings

ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]
NOTEBOOK = ROOT / "notebooks/04-carabin-bidding.ipynb"


@pytest.fixture(scope="module")
def published():
    from analysis.bidding.carabin_realplay import findings_tables

    return findings_tables(ROOT)


def _iv(m, lo, hi):
    return f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def test_the_findings_quote_the_published_tables(published):
    from analysis.bidding.carabin_realplay import BAR, findings
    from analysis.bidding.klabberjass import proportion

    lines = findings(published)
    text = "\n".join(lines)
    real = published["realplay"]
    assert lines[0].startswith("**Data and play models.** Real play:")
    assert real["rule"]["split"] in lines[0]
    limits = {m["params"]["players"]: float(m["params"]["time_limit"]) for m in real["studies"]}
    for n, s in real["summary"].items():
        probes = sum(s["deals"].values())
        bar = "bar met" if s["auction_made_pimc"] >= BAR else "below the bar"
        assert (
            f"{n} players: {s['auction_made_pimc']:,} of {s['auction_contracts']:,} auction "
            f"contracts made ({bar})"
        ) in text
        bar = "bar met" if s["probe_made_pimc"] >= BAR else "below the bar"
        assert f"{s['probe_made_pimc']:,} of {probes:,} probes ({bar})" in text
        if limits[int(n)]:
            assert f"{s['undecided_searches']:,} at {n} players" in text
            assert f"cut at {limits[int(n)]:g} s" in text
    rates = real["make_rates"]
    for (set_, _n), part in rates.groupby(["set", "players"]):
        if set_ == "probe_thumb":
            continue
        k = int(part["contracts"].sum())
        for model in ("pimc", "dd"):
            p = proportion(int(part[f"{model}_made"].sum()), k)
            assert (
                f"{100 * p.mean:.1f} % [{100 * p.low:.1f}, {100 * p.high:.1f}] "
                f"{'by PIMC' if model == 'pimc' else 'double dummy'}"
            ) in text
        diff = (part["pimc_made"].sum() - part["dd_made"].sum()) / k
        assert f"PIMC − DD {100 * diff:+.1f} points [" in text
    seats = real["by_seat"].query("set == 'probe' and seed == 0").sort_values("seat")
    for n, part in seats.groupby("players"):
        first, last = part.iloc[0], part.iloc[-1]
        gap = last["pimc_made"] / last["contracts"] - first["pimc_made"] / first["contracts"]
        assert f"{n} players {100 * gap:+.1f} points [" in text.split("**Seat")[1]
    for n, res in real["rule"]["players"].items():
        m, t = res["measured"]["count"], res["measured"]["thumb"]
        assert (
            f"{n} players: take with {res['count']} or more, held out on "
            f"{res['test_hands']:,} hands ({m['bids']} bids, {m['made']} made): net "
            f"{_iv(m['net'], m['net_low'], m['net_high'])} a hand against passing"
        ) in text
        assert f"the rule of thumb {_iv(t['net'], t['net_low'], t['net_high'])}" in text
    dup = published["duplicate"]
    for r in dup[
        (dup["figure"] == "difference: derived - thumb") & (dup["play"] == "pimc")
    ].itertuples():
        assert f"{_iv(r.estimate, r.low, r.high)} (seed {r.seed}, {r.n} sets)" in text
    seat = published["seating"]
    both = seat[
        (seat["seed"] == "both")
        & (seat["seating"] == "pooled")
        & (seat["measure"] == "games won a seat")
        & (seat["b"] == "thumb")
    ]
    assert len(both) == len(real["summary"])
    for r in both.itertuples():
        assert f"{r.players} players {_iv(r.estimate, r.low, r.high)} (seeds together" in text


def test_the_verdicts_follow_the_real_play_intervals(published):
    from analysis.bidding.carabin_realplay import findings

    def games(tables):
        return next(x for x in findings(tables) if x.startswith("**Games to 10"))

    dup = published["duplicate"]
    pimc3 = (dup["figure"] == "difference: derived - thumb") & (dup["play"] == "pimc")
    pimc3 &= dup["players"] == 3
    # the double-dummy rule leads; every real-play interval above 0 keeps that
    above = dup.copy()
    above.loc[pimc3, ["low", "high"]] = [0.01, 0.2]
    assert "0.200] (seed 2, 80 sets) by PIMC (4 worlds a card)" in games(
        {**published, "duplicate": above}
    )
    assert games({**published, "duplicate": above}).split("; 4 players")[0].endswith(": kept")
    below = dup.copy()
    below.loc[pimc3, ["low", "high"]] = [-0.2, -0.01]
    assert games({**published, "duplicate": below}).split("; 4 players")[0].endswith(": changed")
    across = dup.copy()
    across.loc[pimc3, ["low", "high"]] = [-0.2, 0.2]
    assert games({**published, "duplicate": across}).split("; 4 players")[0].endswith(": withdrawn")
    one = dup.copy()
    one.loc[pimc3 & (dup["seed"].astype(str) == "1"), ["low", "high"]] = [-0.2, 0.2]
    one.loc[pimc3 & (dup["seed"].astype(str) == "2"), ["low", "high"]] = [0.01, 0.2]
    assert "withdrawn on seed 1, kept on seed 2" in games({**published, "duplicate": one})


def test_the_notebook_shows_exactly_the_findings(published, monkeypatch):
    import json

    import IPython.display

    from analysis.bidding.carabin_realplay import findings

    cells = json.loads(NOTEBOOK.read_text())["cells"]
    source = ["".join(c["source"]) for c in cells]
    code = [i for i, s in enumerate(source) if "carabin_realplay.findings(" in s]
    assert len(code) == 1
    (i,) = code
    assert source[i - 1].startswith("## Findings")
    sections = [j for j, s in enumerate(source) if s.startswith("## ")]
    assert sections[0] == i - 1  # the findings lead the notebook
    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda x: shown.append(x))
    exec(source[i], {"ROOT": ROOT})
    assert [m.data for m in shown] == ["\n".join("- " + s for s in findings(published))]
    # no verdict written by hand anywhere else in the notebook
    for j, s in enumerate(source):
        if j != i - 1:
            assert not any(w in s for w in ("*Kept", "*Changed", "*Withdrawn", "KEPT", "CHANGED"))


def test_the_published_replication_is_quoted_and_fitted_the_other_way(published):
    from analysis.bidding.carabin_realplay import _iv, findings

    again = published["realplay"]["replication"]
    assert (again["fitted_on_seed"], again["measured_on_seed"]) == (2, 1)
    assert sorted(again["players"]) == ["3", "4"]
    assert {m["seed"] for m in again["studies"]} == {1, 2}
    text = next(x for x in findings(published) if x.startswith("**The rule on a second seed"))
    for n, res in again["players"].items():
        c = res["measured"]["count"]
        assert f"{n} players take with {res['count']} or more" in text
        assert f"net {_iv(c['net'], c['net_low'], c['net_high'])} a hand" in text
