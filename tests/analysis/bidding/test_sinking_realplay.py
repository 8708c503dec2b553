"""The ``klabberjass-sinking-realplay`` study (analysis.bidding.sinking_realplay): cases
replay alone, double-dummy play on both sides gives the deal table's option nets, the
Bella decision fires when the bidder plays his second K/Q of trump and agrees with a
recomputation, bad parameters are one clear error, and the summary matches values
computed here another way."""

from __future__ import annotations

import json
import random

import numpy as np
import pandas as pd
import pytest

from analysis.bidding.sinking import option_nets
from analysis.bidding.sinking_realplay import (
    COLUMNS,
    SHARED,
    BellaDecision,
    case_seed,
    clustered_mean,
    fit_threshold,
    main,
    play_case,
    reach_probabilities,
    read_comparison,
    rule_sentence,
    sinking_realplay_chunk,
    sinking_realplay_tables,
)
from analysis.play import DoubleDummy, Pimc, hidden_of, play_deal
from analysis.studies import StudyError, chunk_rng, read_study, run_study
from solver.errors import RulesError
from solver.klabberjass import SEED, engine
from solver.klabberjass._core import sample_hands
from solver.klabberjass.deal import Deal, has_bella, runs, sequence_points
from solver.klabberjass.position import Position
from solver.klabberjass.rules import points_of
from solver.klabberjass.table import engine_solver

PARAMS = {"rules": "seed", "samples": 4, "sink_samples": 4}


def _cases(seeds):
    for s in seeds:
        deal = Deal.random(s)
        for b in (0, 1):
            for t in range(4):
                if runs(deal.hands[b]) or has_bella(deal.hands[b], t):
                    yield s, deal, b, t


def test_the_chunk_is_deterministic_and_a_case_replays_alone():
    a = sinking_realplay_chunk(random.Random(3), 40, 4, PARAMS)
    b = sinking_realplay_chunk(random.Random(3), 40, 4, PARAMS)
    assert a == b and sorted(a) == sorted(COLUMNS) and len(a["deal"]) > 0
    assert a != sinking_realplay_chunk(random.Random(4), 40, 4, PARAMS)
    rng = random.Random(3)
    seeds = [rng.getrandbits(64) for _ in range(4)]
    k = len(a["deal"]) - 1  # the last case, computed on its own
    i = a["deal"][k] - 40
    bidder, trump = a["bidder"][k], a["trump"][k]
    row = play_case(
        Deal.random(seeds[i]), bidder, trump, case_seed(seeds[i], bidder, trump), PARAMS
    )
    assert all(row[c] == a[c][k] for c in row)


def test_double_dummy_play_gives_the_option_nets_of_the_dd_card_points():
    """With double dummy for the "pimc" columns, every net is ``option_nets`` on the
    engine's card points, and hiding the runs is worth nothing."""
    checked = bella_seen = 0
    for s, deal, b, t in _cases(range(25)):
        row = play_case(deal, b, t, case_seed(s, b, t), PARAMS, policy=lambda _s: DoubleDummy())
        e = engine_solver([(deal.hands[0], deal.hands[1], t)], SEED)[0]
        cp = (e, points_of(deal.hands[0] | deal.hands[1], t) + 10 - e)
        nets = option_nets(
            b,
            t,
            cp,
            (runs(deal.hands[0]), runs(deal.hands[1])),
            (has_bella(deal.hands[0], t), has_bella(deal.hands[1], t)),
            SEED,
        )
        full = (1 << len(runs(deal.hands[b]))) - 1
        bella = has_bella(deal.hands[b], t)
        assert row["dd_cp"] == row["pimc_cp_declare"] == row["pimc_cp_sink"] == cp[b]
        assert row["hide_value"] == 0
        for kind in ("dd", "pimc"):
            assert row[f"{kind}_all"] == nets[(full, bella)][0]
            assert row[f"{kind}_none"] == nets[(0, False)][0]
            assert row[f"{kind}_declare"] == nets[(full, row[f"{kind}_bella_declare"])][0]
            assert row[f"{kind}_sink"] == nets[(0, row[f"{kind}_bella_sink"])][0]
            assert row[f"{kind}_info"] == row[f"{kind}_sink" if row["sinks"] else f"{kind}_declare"]
        assert row["dd_best"] == max(v[0] for v in nets.values())
        checked += 1
        bella_seen += bella
    assert checked > 30 and bella_seen > 5


def _score(big_b: int, big_o: int) -> int:
    if big_b > big_o:
        return big_b - big_o
    if big_b < big_o:
        return -(big_b + big_o)
    return -big_o


@pytest.mark.parametrize("declare", [True, False])
def test_bella_is_decided_at_the_second_king_or_queen_from_the_bidders_worlds(declare):
    """The hook fires once, when the bidder plays his second K/Q of trump, and its
    choice is the better mean net over the same worlds, recomputed here with the
    engine's move values and the scoring table of the rules."""
    fired = 0
    for s, deal, b, t in _cases(range(40)):
        if not has_bella(deal.hands[b], t):
            continue
        own_runs = runs(deal.hands[b])
        subset = (1 << len(own_runs)) - 1 if declare else 0
        hook = BellaDecision(deal.hands, b, t, subset, 6, 99 + s, SEED)
        seen = []

        def observe(state, card, hook=hook, seen=seen):
            before = hook.announced
            hook.observe(state, card)
            if before is None and hook.announced is not None:
                seen.append((state.position, list(state.played), card, hidden_of(state)))

        policy = Pimc(4, seed=s)
        play_deal(deal.hands, t, deal.turn, (policy, policy), on_card=observe)
        assert hook.announced is not None and len(seen) == 1
        pos, played, card, hidden = seen[0]
        kq = deal.hands[b] & (0b11 << (16 * t + 10))
        assert pos.to_move == b and card in (16 * t + 10, 16 * t + 11)
        assert kq & ~(1 << card) & sum(1 << c for c in played)  # the other one is out
        # recompute: points so far, then each world's rest by the engine's move values
        so_far = [0, 0]
        p = Position(t, 0, deal.hands)
        for c in played:
            p, w, got = p.step(c, SEED)
            if w is not None:
                so_far[w] += got
        mean = {True: 0.0, False: 0.0}
        opp_played = sum(1 << c for c in played) & ~deal.hands[b]
        for drawn in sample_hands(hidden.pool, hidden.need, 6, 99 + s):
            hands = [0, 0]
            hands[b], hands[1 - b] = pos.hands[b], hidden.known | drawn
            world = Position(t, pos.lead, (hands[0], hands[1]), pos.trick)
            mine = engine.move_values(world, SEED)[card]
            left = world.points_left(SEED)
            cp = [0, 0]
            cp[b], cp[1 - b] = so_far[b] + mine, so_far[1 - b] + left - mine
            opp_hand = hidden.known | drawn | opp_played
            declared = [[], []]
            declared[b] = own_runs if declare else []
            declared[1 - b] = runs(opp_hand)
            seq = sequence_points(declared[0], declared[1], t, SEED)
            opp_bella = 50 if has_bella(opp_hand, t) else 0
            for yes in (True, False):
                big_b = cp[b] + seq[b] + (50 if yes else 0)
                mean[yes] += _score(big_b, cp[1 - b] + seq[1 - b] + opp_bella) / 6
        assert hook.worlds_net == pytest.approx((mean[True], mean[False]))
        assert hook.announced == (mean[True] >= mean[False])
        fired += 1
    assert fired >= 5


def test_classic_rules_reach_the_contracts_of_the_classic_scorecard(tmp_path):
    from analysis.bidding.scorecard import load
    from analysis.bidding.sinking_realplay import scorecard_auction
    from solver.klabberjass import Rules

    run_study("klabberjass-sinking-realplay", 6, 4, tmp_path / "c", workers=1,
              progress=False, params={"rules": "classic", "samples": 4,
                                      "sink_samples": 4})  # fmt: skip
    df = read_study(tmp_path / "c")
    assert len(df) > 0 and set(df["reach"]) <= {0.0, 1.0}
    assert (df["reach"] == df["reached"].astype(float)).all()
    # the classic run values score the runs (a run of four is worth 50)
    classic = Rules.preset("classic")
    rng = chunk_rng("klabberjass-sinking-realplay", 4, 0)
    seeds = [rng.getrandbits(64) for _ in range(6)]
    for row in df.itertuples():
        deal = Deal.random(seeds[row.deal])
        drawn = scorecard_auction(deal, "classic")
        assert row.reached == (drawn == (row.bidder, row.trump))
        own = runs(deal.hands[row.bidder])
        assert row.run_points == sum(r.value(classic) for r in own)
    # the auction is the two seats bidding by the classic scorecard
    card = load(rules="classic")
    deal = Deal.random(seeds[0])
    e = card.advise(0, deal.first[0], deal.turn)
    if e["take"]["bid"]:
        assert scorecard_auction(deal, "classic") == (0, deal.turn >> 4)


def test_bad_input_is_one_clear_error(tmp_path):
    with pytest.raises(StudyError, match="invalid rules 'schmeiss'"):
        run_study("klabberjass-sinking-realplay", 2, 1, tmp_path / "a", workers=1,
                  progress=False, params={"rules": "schmeiss"})  # fmt: skip
    with pytest.raises(StudyError, match="invalid samples '0'"):
        run_study("klabberjass-sinking-realplay", 2, 1, tmp_path / "b", workers=1,
                  progress=False, params={"samples": 0})  # fmt: skip
    deal = Deal.random(0)
    nothing = next(
        (b, t)
        for b in (0, 1)
        for t in range(4)
        if not runs(deal.hands[b]) and not has_bella(deal.hands[b], t)
    )
    with pytest.raises(RulesError, match="holds no sequence and no Bella"):
        play_case(deal, *nothing, "x", PARAMS)
    with pytest.raises(RulesError, match="holds no Bella"):
        BellaDecision(deal.hands, nothing[0], nothing[1], 0, 4, 1)
    with pytest.raises(RulesError, match="invalid samples 0"):
        BellaDecision(deal.hands, 0, 0, 0, 0, 1)


def test_bad_play_is_one_clear_error_quoting_it(tmp_path):
    with pytest.raises(StudyError, match="invalid play 'minimax' .*expected pimc or alphamu"):
        run_study("klabberjass-sinking-realplay", 2, 1, tmp_path / "a", workers=1,
                  progress=False, params={"play": "minimax"})  # fmt: skip
    with pytest.raises(StudyError, match="invalid depth '0'"):
        run_study("klabberjass-sinking-realplay", 2, 1, tmp_path / "b", workers=1,
                  progress=False, params={"play": "alphamu", "depth": 0})  # fmt: skip
    deal, b, t = next((d, b, t) for _s, d, b, t in _cases(range(20)))
    with pytest.raises(RulesError, match="invalid play 'minimax'"):
        play_case(deal, b, t, "x", {**PARAMS, "play": "minimax"})


TINY = {"samples": 4, "sink_samples": 4}


@pytest.fixture(scope="module")
def both_plays(tmp_path_factory):
    """Tiny studies of seed 5 (6 deals) with play=pimc and play=alphamu: the folders."""
    root = tmp_path_factory.mktemp("plays")
    for play in ("pimc", "alphamu"):
        run_study("klabberjass-sinking-realplay", 6, 5, root / play, workers=1,
                  progress=False, params={**TINY, "play": play, "depth": 2})  # fmt: skip
    return root


def test_alphamu_play_fills_the_columns_on_the_same_cases(both_plays):
    """``play=alphamu``: αμ on both sides for the real-play columns. The cases, the
    bidder's decisions before the play and the double-dummy columns are those of
    ``play=pimc`` on the same seed (only the card play differs), hide_value is the
    bidder's card points sinking minus declaring, and a case replays alone with
    :class:`analysis.alphamu.AlphaMu` as its policy."""
    from analysis.alphamu import AlphaMu

    a, p = read_study(both_plays / "alphamu"), read_study(both_plays / "pimc")
    assert list(a.columns) == list(COLUMNS) and len(a) > 0
    same = [c for c in COLUMNS if not c.startswith("pimc_") and c != "hide_value"]
    assert tuple(same) == SHARED
    pd.testing.assert_frame_equal(a[same], p[same])
    assert (a["hide_value"] == a["pimc_cp_sink"] - a["pimc_cp_declare"]).all()
    real = [c for c in COLUMNS if c.startswith("pimc_cp")]
    assert not a[real].equals(p[real])  # the card play is another one
    rng = chunk_rng("klabberjass-sinking-realplay", 5, 0)
    seeds = [rng.getrandbits(64) for _ in range(6)]
    k = len(a) - 1
    i, bidder, trump = (int(a[c].iloc[k]) for c in ("deal", "bidder", "trump"))
    row = play_case(
        Deal.random(seeds[i]), bidder, trump, case_seed(seeds[i], bidder, trump),
        {**PARAMS, **TINY},
        policy=lambda text: AlphaMu(4, 2, seed=random.Random(text)),
    )  # fmt: skip
    assert all(row[c] == a[c].iloc[k] for c in row)


def test_the_comparison_gives_the_means_computed_here(both_plays, tmp_path, capsys):
    """``--compare``: per measure, αμ's mean, PIMC's and their paired difference over
    the contracts with runs, as computed here from the rows (reached: weighted by
    reach); the tables round-trip through the files."""
    dirs = [str(both_plays / "alphamu"), str(both_plays / "pimc")]
    assert main(["--compare", *dirs, str(tmp_path / "out")]) == 0
    capsys.readouterr()
    got = read_comparison(tmp_path / "out")
    t = got["table"]
    a, p = read_study(dirs[0]), read_study(dirs[1])
    held = a["run_points"] > 0
    a, p = a[held], p[held]
    cols = {
        "hide_value": lambda df: df["hide_value"],
        "sink_over_declare": lambda df: df["pimc_sink"] - df["pimc_declare"],
        "info_over_declare": lambda df: df["pimc_info"] - df["pimc_declare"],
    }
    for what, col in cols.items():
        for cases in ("reached", "all"):
            w = a["reach"].clip(0, 1) if cases == "reached" else a["reach"] * 0 + 1
            expect = {
                "alphamu": (w * col(a)).sum() / w.sum(),
                "pimc": (w * col(p)).sum() / w.sum(),
            }
            expect["alphamu minus pimc"] = expect["alphamu"] - expect["pimc"]
            for play, value in expect.items():
                row = t[(t["seed"] == "5") & (t["cases"] == cases) & (t["what"] == what)
                        & (t["play"] == play)]  # fmt: skip
                assert len(row) == 1
                assert row["mean"].iloc[0] == pytest.approx(value, abs=1e-3)
    assert [m["params"]["play"] for m in got["studies"]] == ["alphamu", "pimc"]
    assert all(m["deals"] == 6 for m in got["studies"])
    assert "--param play=alphamu --param depth=2" in got["regenerate"][0]


def test_the_comparison_refuses_studies_that_do_not_pair(both_plays, tmp_path, capsys):
    a = str(both_plays / "alphamu")
    assert main(["--compare", a, str(tmp_path / "out")]) == 2
    assert "seed 5 needs one study with play=alphamu and one with play=pimc" in (
        capsys.readouterr().err
    )
    assert main(["--compare", a, a, str(tmp_path / "out")]) == 2
    assert "two studies with play=alphamu for seed 5" in capsys.readouterr().err
    run_study("klabberjass-sinking-realplay", 2, 5, tmp_path / "other", workers=1,
              progress=False, params={"samples": 2, "sink_samples": 4})  # fmt: skip
    assert main(["--compare", a, str(tmp_path / "other"), str(tmp_path / "out")]) == 2
    assert "differ in more than play" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_folder_written_before_play_was_a_parameter_resumes_as_pimc(tmp_path):
    """A manifest without ``play`` and ``depth`` (written before they existed) is read
    as ``play=pimc``: the study extends it, and its rows are those of a fresh run."""
    params = {"samples": 2, "sink_samples": 2}
    run_study("klabberjass-sinking-realplay", 2, 3, tmp_path / "old", workers=1,
              progress=False, params=params, chunk_size=2)  # fmt: skip
    path = tmp_path / "old" / "_manifest.json"
    man = json.loads(path.read_text())
    assert man["params"].pop("play") == "pimc" and man["params"].pop("depth") == 2
    path.write_text(json.dumps(man))
    run_study("klabberjass-sinking-realplay", 4, 3, tmp_path / "old", workers=1,
              progress=False, params=params, chunk_size=2)  # fmt: skip
    run_study("klabberjass-sinking-realplay", 4, 3, tmp_path / "new", workers=1,
              progress=False, params={**params, "play": "pimc"}, chunk_size=2)  # fmt: skip
    pd.testing.assert_frame_equal(read_study(tmp_path / "old"), read_study(tmp_path / "new"))


def test_reach_probabilities_are_a_distribution_over_contracts():
    for s in range(30):
        r = reach_probabilities(Deal.random(s))
        # the rule's stored probabilities carry float rounding (1 - p may be -2e-16)
        assert all(-1e-12 <= v <= 1 + 1e-12 for v in r.values())
        assert sum(r.values()) <= 1 + 1e-12
    # the probability of a contract is the share of drawn auctions that reach it
    from analysis.matches import KLABBERJASS_POLICIES, klabberjass_auction

    deal = Deal.random(4)
    derived = KLABBERJASS_POLICIES["derived"]
    rng = random.Random(0)
    n = 4000
    drawn = [klabberjass_auction(deal, (derived, derived), rng) for _ in range(n)]
    for contract, p in reach_probabilities(deal).items():
        share = drawn.count(contract) / n
        assert abs(share - p) <= 4 * np.sqrt(max(p * (1 - p), 1e-4) / n) + 1e-9, contract


# ---------------------------------------------------------------------- the summary


def test_clustered_mean_matches_a_per_deal_computation():
    rng = np.random.default_rng(5)
    n = 300
    deal = rng.integers(0, 80, n)
    x = rng.normal(2, 10, n) + deal % 7
    w = rng.uniform(0, 1, n) * (rng.uniform(size=n) > 0.3)
    mean, lo, hi, k = clustered_mean(x, deal, w)
    df = pd.DataFrame({"d": deal, "wx": w * x, "w": w})[w > 0]
    per = df.groupby("d")[["wx", "w"]].sum()
    m = per["wx"].sum() / per["w"].sum()
    resid = per["wx"] - m * per["w"]
    g = len(per)
    se = np.sqrt(g / (g - 1) * (resid**2).sum()) / per["w"].sum()
    assert k == g and mean == pytest.approx(m)
    assert (lo, hi) == pytest.approx((m - 1.96 * se, m + 1.96 * se))
    # one row a deal, unweighted: the usual interval of a mean
    y = rng.normal(0, 3, 50)
    mean, lo, hi, _ = clustered_mean(y, np.arange(50))
    half = 1.96 * y.std(ddof=1) / np.sqrt(50)
    assert (lo, hi) == pytest.approx((y.mean() - half, y.mean() + half))


def _synthetic(seed: int, deals: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(deals):
        for _ in range(rng.integers(1, 4)):
            m = rng.normal(0, 50)
            all_ = int(rng.normal(m, 30))
            none = all_ + int(rng.normal(-20 if m > -40 else 15, 10))
            rows.append(
                {
                    "deal": d,
                    "reach": float(rng.choice([0.0, 0.0, 0.5, 1.0])),
                    "reached": bool(rng.integers(0, 2)),
                    "run_points": int(rng.choice([0, 20, 50])),
                    "bella": bool(rng.integers(0, 2)),
                    "est_margin": m,
                    "sinks": m < -40,
                    "pimc_all": all_,
                    "pimc_none": none,
                    "pimc_declare": all_ + int(rng.integers(-5, 6)),
                    "pimc_sink": none + int(rng.integers(-5, 6)),
                    "dd_all": all_ + 3,
                    "dd_none": none + 3,
                    "dd_declare": all_ + 3,
                    "dd_sink": none + 3,
                    "dd_best": max(all_, none) + 10,
                    "hide_value": int(rng.integers(-8, 12)),
                    "pimc_bella_declare": bool(rng.integers(0, 2)),
                }
            )
    df = pd.DataFrame(rows)
    df["pimc_info"] = np.where(df["sinks"], df["pimc_sink"], df["pimc_declare"])
    df["dd_info"] = np.where(df["sinks"], df["dd_sink"], df["dd_declare"])
    return df


def test_the_summary_gives_the_values_computed_here():
    frames = [_synthetic(1), _synthetic(2)]
    mans = [{"seed": 1, "deals": 200, "params": {}}, {"seed": 2, "deals": 200, "params": {}}]
    t = sinking_realplay_tables(frames, mans)
    g = t["gains"]
    for df, seed in zip(frames, (1, 2), strict=True):
        # all contracts, PIMC, from information: a plain ratio of per-deal sums
        per = (df["pimc_info"] - df["pimc_all"]).groupby(df["deal"]).agg(["sum", "count"])
        want = per["sum"].sum() / per["count"].sum()
        got = g[(g.seed == seed) & (g.cases == "all") & (g.play == "PIMC (real play)")
                & g.way.str.startswith("from information")]  # fmt: skip
        assert got.gain.item() == pytest.approx(want) and got.deals.item() == df.deal.nunique()
        # reached contracts: weighted by reach
        w = df["reach"]
        want = (w * (df["dd_best"] - df["dd_all"])).sum() / w.sum()
        got = g[(g.seed == seed) & (g.cases == "reached") & (g.play == "clairvoyant bound")]
        assert got.gain.item() == pytest.approx(want)
        assert got.deals.item() == df.loc[w > 0, "deal"].nunique()
        # real play beside double dummy: the mean of the per-case differences
        diff = (df.pimc_none - df.pimc_all) - (df.dd_none - df.dd_all)
        got = g[(g.seed == seed) & (g.cases == "all") & (g.play == "PIMC minus double dummy")
                & (g.way == "sink everything")]  # fmt: skip
        assert got.gain.item() == pytest.approx(diff.mean())
        # hiding: cases with runs only, DD exactly 0
        h = t["hiding"]
        sub = df[df.run_points > 0]
        got = h[(h.seed == seed) & (h.cases == "all") & h.what.str.startswith("PIMC")]
        assert got["mean"].item() == pytest.approx(sub.hide_value.mean())
        dd = h[(h.seed == seed) & h.what.str.startswith("double")]
        assert (dd["mean"] == 0).all()
        # the threshold is fitted on even deals and measured on odd ones
        even = df[df.deal % 2 == 0]
        best = max(
            range(-100, 41, 5),
            key=lambda th: (
                (
                    np.where(even.est_margin < th, even.pimc_none, even.pimc_all) - even.pimc_all
                ).sum(),
                -th,
            ),
        )
        ho = t["held_out"]
        row = ho[(ho.seed == seed) & (ho.cases == "all") & (ho.play == "pimc")]
        assert row.threshold.item() == best == fit_threshold(even)
        odd = df[df.deal % 2 == 1]
        gain = np.where(odd.est_margin < best, odd.pimc_none, odd.pimc_all) - odd.pimc_all
        assert row.gain.item() == pytest.approx(gain.mean())
    assert rule_sentence(t).count(".") >= 1 and "seed 2" in rule_sentence(t)


def test_the_summary_command_refuses_other_folders(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "usage:" in capsys.readouterr().err
    assert main([str(tmp_path / "none"), str(tmp_path / "out")]) == 2
    assert "is not a study folder" in capsys.readouterr().err
    run_study("klabberjass-sinking", 2, 1, tmp_path / "old", workers=1, progress=False,
              params={"samples": 2})  # fmt: skip
    assert main([str(tmp_path / "old"), str(tmp_path / "out")]) == 2
    assert "not a klabberjass-sinking-realplay study" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_summary_command_writes_the_tables(tmp_path, capsys):
    for seed in (1, 2):
        run_study("klabberjass-sinking-realplay", 6, seed, tmp_path / f"s{seed}", workers=1,
                  progress=False, params={"samples": 2, "sink_samples": 2})  # fmt: skip
    out = tmp_path / "out"
    assert main([str(tmp_path / "s1"), str(tmp_path / "s2"), str(out)]) == 0
    from analysis.bidding.sinking_realplay import read_summary

    r = read_summary(out)
    assert [m["seed"] for m in r["studies"]] == [1, 2]
    assert r["command"].startswith("python -m analysis.bidding.sinking_realplay DIR_1 DIR_2 ")
    assert r["rule"] == capsys.readouterr().out.strip()
    assert sorted(r["gains"]["seed"].unique()) == [1, 2]


def test_play_deal_calls_on_card_before_every_card_and_plays_the_same():
    deal = Deal.random(11)
    seen = []

    def on_card(state, card):
        seen.append((len(state.played), state.position.to_move, card))

    plain = play_deal(deal.hands, 1, deal.turn, (Pimc(4, seed=3), Pimc(4, seed=4)))
    hooked = play_deal(
        deal.hands, 1, deal.turn, (Pimc(4, seed=3), Pimc(4, seed=4)), on_card=on_card
    )
    assert hooked == plain
    assert [c for _, _, c in seen] == list(plain.cards)
    assert [n for n, _, _ in seen] == list(range(18))


def _rule_tables(held_low: float, bella_low: float, runs_low: float, theta: float = -30.0):
    """Tables shaped like the summary's, with each seed's lower bound as given."""
    held = pd.DataFrame(
        [
            {
                "seed": s,
                "cases": "reached",
                "play": "pimc",
                "threshold": theta + 10 * s,
                "gain": held_low + 1,
                "low": held_low,
                "high": held_low + 2,
                "deals": 9,
                "sinks_share": 0.1,
            }
            for s in (1, 2)
        ]  # fmt: skip
    )
    ways = (
        ("from information (runs before trick 1, Bella when played)", 0.0),
        ("runs from information, over declaring them (Bella when played in both)", runs_low),
        ("declare runs, Bella when played", bella_low),
    )
    gains = pd.DataFrame(
        [
            {
                "seed": s,
                "cases": "reached",
                "play": "PIMC (real play)",
                "way": way,
                "gain": low + 1,
                "low": low,
                "high": low + 2,
                "deals": 9,
            }
            for way, low in ways
            for s in (1, 2)
        ]  # fmt: skip
    )
    return {"held_out": held, "gains": gains}


def test_the_rule_follows_the_figures_every_seed_must_agree():
    from analysis.bidding.sinking_realplay import SinkingRule, sinking_rule

    assert sinking_rule(_rule_tables(0.1, 0.1, -1)) == SinkingRule("threshold", -15.0)
    assert sinking_rule(_rule_tables(-0.1, 0.1, -1)) == SinkingRule("bella-when-played")
    assert sinking_rule(_rule_tables(-0.1, 0.1, 0.1)) == SinkingRule("declare")
    assert sinking_rule(_rule_tables(-0.1, -0.1, -1)) == SinkingRule("declare")
    # a threshold that never sinks (the lowest tried) is no threshold rule
    assert sinking_rule(_rule_tables(0.1, -0.1, -1, theta=-110)).kind == "declare"
    for low, start in ((0.1, "Declare nothing when"), (-0.1, "Always declare your")):
        assert rule_sentence(_rule_tables(low, 0.1, -1)).startswith(start)


def test_the_published_sentence_and_rule_are_computed_from_the_published_tables():
    from analysis.bidding.sinking_realplay import PUBLISHED, published_rule, read_summary

    tables = read_summary(PUBLISHED)
    assert rule_sentence(tables) == tables["rule"]
    first_words = {
        "threshold": "Declare nothing when",
        "bella-when-played": "Always declare your sequences",
        "declare": "Declare everything",
    }
    assert tables["rule"].startswith(first_words[published_rule().kind])


def test_the_classic_tables_are_the_classic_study_and_say_which_auction():
    from analysis.bidding.sinking_realplay import PUBLISHED_CLASSIC, read_summary

    tables = read_summary(PUBLISHED_CLASSIC)
    assert rule_sentence(tables) == tables["rule"]
    assert "contracts the classic scorecard auction reaches" in tables["rule"]
    assert {m["params"]["rules"] for m in tables["studies"]} == {"classic"}
    assert sorted(m["seed"] for m in tables["studies"]) == [1, 2]
    # the auction is deterministic: the weight of the reached contracts is the count drawn
    c = tables["counts"]
    assert (c["reached_weight"] == c["reached_drawn"]).all()


# ---------------------------------------------------------------- notebook 03, revisited

ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def sinking_tables():
    from analysis.bidding.equilibrium import read_tables
    from analysis.bidding.sinking_realplay import read_summary

    return (
        read_tables(ROOT / "data/studies/klabberjass-sinking"),
        read_summary(ROOT / "data/studies/klabberjass-sinking-realplay"),
    )


def _verdict(rows, sign):
    said = {
        ("kept" if (r.low > 0) == (sign > 0) else "changed")
        if (r.low > 0 or r.high < 0)
        else "withdrawn"
        for r in rows.itertuples()
    }
    return said.pop() if len(said) == 1 else None


def test_the_revisited_figures_quote_the_sinking_tables(sinking_tables):
    from analysis.bidding.sinking_realplay import revisited

    earlier, tables = sinking_tables
    lines = revisited(earlier, tables)
    text = "\n".join(lines)
    g = tables["gains"]
    pimc = g[g["play"] == "PIMC (real play)"]
    for cases in ("all", "reached"):
        part = pimc[pimc["cases"] == cases]
        for start, sign in (
            ("from information", 1),
            ("runs from information", 1),
            ("declare runs, Bella when played", 1),
            ("sink everything", -1),
        ):
            rows = part[part["way"].str.startswith(start)].sort_values("seed")
            quoted = ", ".join(
                f"{r.gain:+.2f} [{r.low:+.2f}, {r.high:+.2f}] (seed {r.seed})"
                for r in rows.itertuples()
            )
            verdict = _verdict(rows, sign)
            assert (f"{quoted}: {verdict}" if verdict else quoted) in text
    # the runs sunk from information: a gain on all contracts, nothing on reached ones
    runs = pimc[pimc["way"].str.startswith("runs from information")]
    said = lines[1]
    for cases in ("all", "reached"):
        rows = runs[runs["cases"] == cases]
        verdict = "kept" if (rows["low"] > 0).all() else "withdrawn"
        assert (rows["low"] > 0).all() or (rows["low"] <= 0).all()
        part = said.split("all contracts:")[1] if cases == "all" else said.split("reaches:")[1]
        first = part.split("sinking the runs from information ")[1]
        assert first.split(";")[0].split(" (double dummy")[0].endswith(f": {verdict}")
    held = tables["held_out"]
    for r in held[held["play"] == "pimc"].itertuples():
        assert f"held out {r.gain:+.2f} [{r.low:+.2f}, {r.high:+.2f}]" in text


def test_notebook_03_shows_exactly_the_revisited_figures(sinking_tables, monkeypatch):
    import IPython.display

    from analysis.bidding.sinking_realplay import revisited

    cells = json.loads((ROOT / "notebooks/03-when-to-sink.ipynb").read_text())["cells"]
    source = ["".join(c["source"]) for c in cells]
    (i,) = [j for j, s in enumerate(source) if "revisited(T, R)" in s]
    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda x: shown.append(x))
    exec(source[i], {"T": sinking_tables[0], "R": sinking_tables[1]})
    assert [m.data for m in shown] == ["\n".join("- " + s for s in revisited(*sinking_tables))]
    for s in source:  # no verdict written by hand
        assert not any(w in s for w in ("KEPT", "CHANGED", "MEASURED", "WITHDRAWN", "(withdrawn)"))
