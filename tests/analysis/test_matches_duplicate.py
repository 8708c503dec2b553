"""Duplicate matches: both legs (every seating) see the same cards, swapping the
policies mirrors the result, the summaries agree with a plain recomputation, and bad
parameters are one clear error."""

from __future__ import annotations

import random

import pytest

from analysis import matches
from analysis.matches import (
    KLABBERJASS_POLICIES,
    CarabinBoards,
    DealRecord,
    KlabberjassBoards,
    carabin_duplicate_summary,
    carabin_match,
    carabin_matches_chunk,
    carabin_seatings,
    clustered_mean,
    deal_scores,
    klabberjass_deal,
    klabberjass_duplicate_summary,
    klabberjass_matches_chunk,
    klabberjass_pair,
    t_interval,
)
from solver.klabberjass.deal import Deal

pd = pytest.importorskip("pandas")
P = KLABBERJASS_POLICIES


def recording(inner=None):
    """A deal function that records, per call, the cards, the turn-up, the policy at E
    and the first number of the deal's random stream; ``inner`` plays the deal (default:
    E scores 260 when E plays thumb, else D scores 100, so legs differ in length)."""
    seen = []

    def deal_fn(deal, policies, rng, **kwargs):
        state = rng.getstate()
        seen.append((deal.hands, deal.turn, policies[0].name, rng.random()))
        rng.setstate(state)
        if inner is not None:
            return inner(deal, policies, rng, **kwargs)
        score = (260, 0) if policies[0].name == "thumb" else (0, 100)
        return DealRecord(score, 0, 0, False, "made")

    return deal_fn, seen


def test_both_legs_are_dealt_the_same_cards_even_when_their_lengths_differ():
    fn0, seen0 = recording()
    fn1, seen1 = recording()
    seed = 12345
    leg0 = matches.klabberjass_match(
        P["thumb"], P["always"], random.Random(0), 0, fn0, boards=KlabberjassBoards(seed)
    )
    leg1 = matches.klabberjass_match(
        P["thumb"], P["always"], random.Random(0), 1, fn1, boards=KlabberjassBoards(seed)
    )
    # thumb: leg 0 260, +100, +260 -> 3 deals; leg 1 100, +260, +100, +260 -> 4 deals
    assert (leg0.deals, leg1.deals) == (3, 4)
    # the cards of deal k, made independently: the k-th pair of 64-bit numbers
    rng = random.Random(seed)
    expected = []
    for _ in range(4):
        cards, stream = rng.getrandbits(64), rng.getrandbits(64)
        d = Deal.random(cards)
        expected.append((d.hands, d.turn, random.Random(stream).random()))
    assert [(h, t, r) for h, t, _, r in seen0] == expected[:3]
    assert [(h, t, r) for h, t, _, r in seen1] == expected
    # the policies holding E's cards are swapped between the legs, deal by deal
    assert [s[2] for s in seen0] == ["thumb", "always", "thumb"]
    assert [s[2] for s in seen1] == ["always", "thumb", "always", "thumb"]
    # the deals differ from each other (a stream that repeated one deal would pass above)
    assert len({h for h, _, _, _ in seen1}) == 4


def test_pair_with_real_play_deals_identical_cards_in_both_legs():
    fn0, seen0 = recording(klabberjass_deal)
    fn1, seen1 = recording(klabberjass_deal)
    kw = {"play": "dd", "sink_samples": 2}
    legs = (
        matches.klabberjass_match(
            P["derived"], P["thumb"], random.Random(0), 0, fn0, boards=KlabberjassBoards(3), **kw
        ),
        matches.klabberjass_match(
            P["derived"], P["thumb"], random.Random(0), 1, fn1, boards=KlabberjassBoards(3), **kw
        ),
    )
    common = min(leg.deals for leg in legs)
    assert [s[:2] for s in seen0[:common]] == [s[:2] for s in seen1[:common]]
    assert legs == klabberjass_pair(P["derived"], P["thumb"], 3, **kw)


@pytest.mark.parametrize("play", ["dd", "pimc"])
def test_swapping_a_and_b_gives_the_mirror_result(play):
    kw = {"play": play, "samples": 2, "sink_samples": 2}
    ab = klabberjass_pair(P["derived"], P["thumb"], 77, **kw)
    ba = klabberjass_pair(P["thumb"], P["derived"], 77, **kw)
    # B first in (b, a) sits as B did in the second leg of (a, b): the same match
    for x, y in ((ab[0], ba[1]), (ab[1], ba[0])):
        assert x.records == y.records
        assert x.totals == y.totals[::-1] and x.winner == 1 - y.winner
    assert deal_scores(ab[0], 0) == [s[::-1] for s in deal_scores(ba[1], 1)]


def test_swapped_study_summary_is_the_mirror_image():
    params = {"play": "dd", "sink_samples": 2, "format": "duplicate"}
    ab = pd.DataFrame(klabberjass_matches_chunk(random.Random(4), 0, 6, params))
    ba = pd.DataFrame(
        klabberjass_matches_chunk(random.Random(4), 0, 6, {**params, "a": "thumb", "b": "derived"})
    )
    assert list(ab["leg"]) == [0, 1] * 6 and list(ab["a_first_seat"]) == [0, 1] * 6
    sa, sb = klabberjass_duplicate_summary(ab), klabberjass_duplicate_summary(ba)
    for name in ("pair_difference", "deal_difference"):
        assert sa[name]["estimate"] == pytest.approx(-sb[name]["estimate"])
        assert sa[name]["low"] == pytest.approx(-sb[name]["high"])
    assert sa["a_wins"] + sb["a_wins"] == 12


def test_klabberjass_duplicate_summary_on_a_synthetic_frame():
    # three pairs: A wins both legs / leg 0 only / neither
    rows = []
    legs = [
        ((1, 1), (10, 4, 3), (12, 6, 3)),
        ((1, 0), (20, 0, 2), (5, 15, 2)),
        ((0, 0), (0, 30, 4), (8, 16, 4)),
    ]
    for m, (wins, l0, l1) in enumerate(legs):
        for leg, (w, (ca, cb, n)) in enumerate(zip(wins, (l0, l1), strict=True)):
            rows.append(
                dict(
                    match=m, a="x", b="y", a_first_seat=leg, deals=n + 1, total_a=ca + 5,
                    total_b=cb, a_wins=bool(w), a_bids=1, b_bids=1, a_made=1, b_made=0,
                    a_sank=0, b_sank=0, leg=leg, common_deals=n, common_a=ca, common_b=cb,
                )
            )  # fmt: skip
    s = klabberjass_duplicate_summary(pd.DataFrame(rows))
    assert s["pairs"] == 3 and s["a_wins"] == 3 and s["a_win_rate"]["estimate"] == 0.5
    assert s["pair_difference"]["estimate"] == pytest.approx(0.0)  # d = 1, 0, -1
    assert s["pair_difference"]["contains_null"] and s["pair_difference"]["null"] == 0
    # per pair: ((10-4)+(12-6))/2 = 6 over 3 deals, ((20-0)+(5-15))/2 = 5 over 2,
    # ((0-30)+(8-16))/2 = -19 over 4: (6 + 5 - 19) / 9
    assert s["deal_difference"]["estimate"] == pytest.approx(-8 / 9)
    assert s["deal_difference"]["deals"] == 9
    assert s["deal_difference_one_leg"]["estimate"] == pytest.approx((11 + 25 - 25) / 12)
    assert [x["estimate"] for x in s["by_leg"]] == pytest.approx([2 / 3, 1 / 3])


def test_interval_helpers():
    e = t_interval([0.0, 1.0, -1.0, 0.0])
    assert e.mean == 0 and e.low < 0 < e.high and e.n == 4
    # equal deals everywhere: no spread; one cluster off: the interval widens
    assert clustered_mean([4, 8, 12], [1, 2, 3]).high == pytest.approx(4)
    wide = clustered_mean([4, 8, 0], [1, 2, 3])
    assert wide.low < wide.mean < wide.high and wide.mean == pytest.approx(12 / 6)


def test_carabin_seatings_cover_every_rotation():
    s3 = carabin_seatings(["d", "t"], 3)
    assert len(s3) == 6 and len(set(s3)) == 6
    for p in range(3):  # each policy sits at each player in half of the seatings
        assert sum(s[p] == "d" for s in s3) == 3
    assert carabin_seatings(["d", "t"], 4) == [tuple("dtdt"), tuple("tdtd")]
    assert len(carabin_seatings(["d", "t"], 5)) == 10
    assert carabin_seatings(["d"], 3) == [("d", "d", "d")]


def test_carabin_games_of_a_set_see_the_same_deals(monkeypatch):
    from analysis.bidding.carabin import POLICIES

    seen: list[list[str]] = []
    real = matches.auction_bidding

    def spy(deal, policies):
        seen[-1].append(str(deal))
        return real(deal, policies)

    monkeypatch.setattr(matches, "auction_bidding", spy)
    makers = {k: POLICIES[k]() for k in ("derived", "thumb")}
    games = []
    for seating in carabin_seatings(["derived", "thumb"], 3):
        seen.append([])
        games.append(
            carabin_match(
                [makers[x] for x in seating], random.Random(0), boards=CarabinBoards(9, 3)
            )
        )
    lengths = [g.deals for g in games]
    for k in range(min(lengths)):
        assert len({deals[k] for deals in seen}) == 1
    boards = CarabinBoards(9, 3)
    assert seen[0] == [str(boards.deal(k)) for k in range(lengths[0])]
    assert len(set(seen[0])) == lengths[0]


def test_carabin_swapping_policy_order_mirrors_the_seatings():
    params = {"players": 3, "play": "dd", "format": "duplicate"}
    a = pd.DataFrame(carabin_matches_chunk(random.Random(3), 0, 2, params))
    b = pd.DataFrame(
        carabin_matches_chunk(random.Random(3), 0, 2, {**params, "policies": "thumb,derived"})
    )

    def by_pattern(df):
        pattern = df.groupby(["match", "seating"])["policy"].transform(",".join)
        return df.assign(pattern=pattern).set_index(["match", "pattern", "player"])["win"]

    wa, wb = by_pattern(a).sort_index(), by_pattern(b).sort_index()
    assert wa.index.equals(wb.index) and (wa == wb).all()
    sa, sb = carabin_duplicate_summary(a), carabin_duplicate_summary(b)
    da, db = sa["difference"], sb["difference"]
    assert da["estimate"] == pytest.approx(-db["estimate"])


def test_carabin_per_seating_tables_on_a_synthetic_frame():
    rng = random.Random(1)
    seatings = carabin_seatings(["d", "t"], 3)
    rows = []
    for m in range(4):
        for j, seating in enumerate(seatings):
            winners = rng.choice([[0], [1], [2], [0, 2], [0, 1, 2]])
            for p in range(3):
                win = 1 / len(winners) if p in winners else 0.0
                rows.append(
                    dict(match=m, seating=j, player=p, policy=seating[p], score=10 * (win > 0),
                         win=win, bids=1, made=int(win > 0), deals=5)
                )  # fmt: skip
    s = carabin_duplicate_summary(pd.DataFrame(rows))
    assert s["seatings"] == [",".join(x) for x in seatings] and s["sets"] == 4

    def mean(xs):
        return sum(xs) / len(xs)

    cell = {(r["seating"], r["player"]): r for r in s["by_seating"]}
    for j, seating in enumerate(seatings):
        for p in range(3):
            wins = [r["win"] for r in rows if r["seating"] == j and r["player"] == p]
            assert cell[j, p]["estimate"] == pytest.approx(mean(wins))
            assert cell[j, p]["policy"] == seating[p]
        assert sum(cell[j, p]["estimate"] for p in range(3)) == pytest.approx(1.0)
    seat = {(r["policy"], r["player"]): r for r in s["by_seat"]}
    for name in "dt":
        for p in range(3):
            per_set = [
                mean([r["win"] for r in rows if r["match"] == m and r["player"] == p
                      and r["policy"] == name])
                for m in range(4)
            ]  # fmt: skip
            assert seat[name, p]["estimate"] == pytest.approx(mean(per_set))
    overall = {r["policy"]: r for r in s["overall"]}
    for name in "dt":
        per_set = [
            mean([r["win"] for r in rows if r["match"] == m and r["policy"] == name])
            for m in range(4)
        ]
        assert overall[name]["estimate"] == pytest.approx(mean(per_set))
    # every game's wins sum to 1 and each policy holds 9 of its 18 seats: the two
    # per-seat means add to 2/3 in every set
    assert overall["d"]["estimate"] + overall["t"]["estimate"] == pytest.approx(2 / 3)
    diff = s["difference"]["estimate"]
    assert diff == pytest.approx(overall["d"]["estimate"] - overall["t"]["estimate"])


def test_bad_parameters_are_one_clear_error(tmp_path, capsys):
    from analysis.cli.main import main
    from analysis.studies import StudyError, run_study

    with pytest.raises(StudyError, match="invalid format 'triplicate' .*single or duplicate"):
        run_study(
            "klabberjass-matches", 2, 1, tmp_path / "k", workers=1, progress=False,
            params={"format": "triplicate"},
        )  # fmt: skip
    assert not (tmp_path / "k").exists()
    argv = ["study", "carabin-matches", "--deals", "1", "--out", str(tmp_path / "c")]
    assert main([*argv, "--param", "format=dup", "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid format 'dup'" in err[0]
    with pytest.raises(ValueError, match="unknown format 'x'"):
        klabberjass_matches_chunk(random.Random(1), 0, 1, {"format": "x"})
    with pytest.raises(ValueError, match="boards for 4 players in a game of 3"):
        carabin_match([None] * 3, random.Random(1), boards=CarabinBoards(1, 4))
    single = pd.DataFrame(klabberjass_matches_chunk(random.Random(1), 0, 1, {"play": "dd"}))
    with pytest.raises(ValueError, match="format=duplicate"):
        klabberjass_duplicate_summary(single)


def test_duplicate_summary_command_writes_json_and_csv(tmp_path, capsys):
    import csv
    import json

    from analysis.studies import run_study

    kj, cb = tmp_path / "kj", tmp_path / "cb"
    run_study("klabberjass-matches", 3, 1, kj, workers=1, progress=False,
              params={"play": "dd", "format": "duplicate", "sink_samples": 2})  # fmt: skip
    run_study("carabin-matches", 2, 1, cb, workers=1, progress=False,
              params={"players": 4, "format": "duplicate"})  # fmt: skip
    out = tmp_path / "s" / "summary"
    assert matches.main(["duplicate-summary", str(out), str(kj), str(cb)]) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["command"].startswith("python -m analysis.matches duplicate-summary")
    cmd = data["runs"][0]["command"]
    assert cmd.startswith("tricklab study klabberjass-matches --deals 3 --seed 1")
    assert "--param format=duplicate" in cmd and "--param play=dd" in cmd
    assert data["runs"][1]["study"]["params"]["players"] == 4
    with out.with_suffix(".csv").open() as fh:
        table = list(csv.DictReader(fh))
    assert len(table) == 5 + 3 and {r["seed"] for r in table} == {"1"}  # one seed: no pooling
    for r in table:
        assert float(r["low"]) <= float(r["estimate"]) <= float(r["high"])
        null = float(r["null"])
        assert r["contains_null"] == str(float(r["low"]) <= null <= float(r["high"]))
        assert null == (
            0.5 if "win_rate" in r["figure"] else 0.25 if "win per" in r["figure"] else 0
        )
    with (tmp_path / "s" / "summary-seats.csv").open() as fh:
        seats = list(csv.DictReader(fh))
    by_seating = [r for r in seats if r["table"] == "by_seating"]
    assert len(by_seating) == 2 * 4 and len(seats) == 2 * 4 + 2 * 4  # 2 seatings, 4 players
    for j in ("0", "1"):
        wins = [float(r["estimate"]) for r in by_seating if r["seating"] == j]
        assert sum(wins) == pytest.approx(1.0, abs=1e-4)
    assert matches.main(["duplicate-summary", str(out), str(tmp_path / "nothing")]) == 2
    assert "nothing" in capsys.readouterr().err


def test_a_folder_written_before_the_format_parameter_resumes(tmp_path, capsys):
    import json

    from analysis.studies import MANIFEST, StudyError, run_study

    out = tmp_path / "old"
    params = {"play": "dd", "sink_samples": 2}
    run_study("klabberjass-matches", 2, 1, out, workers=1, progress=False, params=params)
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["params"]["format"]  # as written before format existed
    (out / MANIFEST).write_text(json.dumps(manifest))
    run = run_study("klabberjass-matches", 2, 1, out, workers=1, progress=False, params=params)
    assert run.computed == 0
    with pytest.raises(StudyError, match="format"):
        run_study(
            "klabberjass-matches", 2, 1, out, workers=1, progress=False,
            params={**params, "format": "duplicate"},
        )  # fmt: skip


def test_seed_rows_compare_and_pool_two_seeds():
    from analysis.matches import seed_rows, t_quantile

    q = t_quantile(99)
    base = {"study": "s", "play": "dd", "samples": "", "players": 2, "unit": "pairs", "null": 0.0}
    rows = [
        {**base, "run": "a", "seed": 1, "figure": "f", "estimate": 0.10, "n": 100,
         "low": 0.10 - 3 * q, "high": 0.10 + 3 * q},
        {**base, "run": "b", "seed": 2, "figure": "f", "estimate": 0.30, "n": 100,
         "low": 0.30 - 4 * q, "high": 0.30 + 4 * q},
        {**base, "run": "c", "seed": 1, "figure": "g", "estimate": 1.0, "n": 9,
         "low": 0.0, "high": 2.0},  # one seed only: no row
    ]  # fmt: skip
    diff, pooled = seed_rows(rows)
    assert diff["estimate"] == pytest.approx(0.20) and pooled["estimate"] == pytest.approx(0.20)
    assert diff["high"] - diff["estimate"] == pytest.approx(1.959964 * 5, rel=1e-5)
    assert pooled["high"] - pooled["estimate"] == pytest.approx(1.959964 * 2.5, rel=1e-5)
    assert diff["contains_null"] and diff["n"] == 200 and pooled["seed"] == "both"


def _lone_frame(seed: int = 3, sets: int = 6) -> pd.DataFrame:
    """Synthetic duplicate rows of ``a`` alone against two ``b`` (3 players, three
    seatings: a in seat 0, 2, 1), with random scores, deals and wins."""
    rng = random.Random(seed)
    seatings = carabin_seatings(["a", "b", "b"], 3)
    rows = []
    for m in range(sets):
        for j, seating in enumerate(seatings):
            deals = rng.randrange(8, 20)
            winner = rng.randrange(3)
            for p, name in enumerate(seating):
                rows.append(
                    {"match": m, "seating": j, "player": p, "policy": name,
                     "score": 10 if p == winner else rng.randrange(0, 10),
                     "win": float(p == winner), "bids": 1, "made": 0, "deals": deals}
                )  # fmt: skip
    return pd.DataFrame(rows)


def test_seating_summary_compares_the_same_seat_across_seatings():
    import statistics

    from analysis.matches import carabin_seating_summary

    df = _lone_frame()
    rows = carabin_seating_summary(df)
    assert len(rows) == 2 * (3 + 1)  # two measures, three seatings and pooled
    seatings = carabin_seatings(["a", "b", "b"], 3)
    for r in rows:
        col = "win" if r["measure"] == "games won a seat" else "points"
        d = df.assign(points=df["score"] / df["deals"])
        if r["seating"] == "pooled":
            a = d[d["policy"] == "a"].groupby("match")[col].mean()
            b = d[d["policy"] == "b"].groupby("match")[col].mean()
        else:
            seat = seatings[r["seating"]].index("a")
            assert r["a_seats"] == str(seat) and r["policies"] == "/".join(seatings[r["seating"]])
            here = d[d["player"] == seat]
            a = here[here["seating"] == r["seating"]].set_index("match")[col]
            b = here[here["policy"] == "b"].groupby("match")[col].mean()  # two other seatings
        diffs = (a - b).to_list()
        half = 2.5706 * statistics.stdev(diffs) / len(diffs) ** 0.5  # t, 5 degrees of freedom
        assert r["estimate"] == pytest.approx(statistics.mean(diffs))
        assert (r["low"], r["high"]) == pytest.approx(
            (r["estimate"] - half, r["estimate"] + half), abs=1e-3
        )
        assert r["a_estimate"] == pytest.approx(a.mean()) and r["n"] == 6
        assert r["a_null"] == (pytest.approx(1 / 3) if col == "win" else "")
    wins = [r for r in rows if r["measure"] == "games won a seat" and r["seating"] != "pooled"]
    pooled = next(
        r for r in rows if r["measure"] == "games won a seat" and r["seating"] == "pooled"
    )
    assert pooled["estimate"] == pytest.approx(statistics.mean(r["estimate"] for r in wins))


def test_seating_summary_keeps_the_sets_of_two_seeds_apart():
    from analysis.matches import carabin_seating_summary

    both = pd.concat(
        [_lone_frame(3).assign(seed=1), _lone_frame(4).assign(seed=2)], ignore_index=True
    )
    rows = carabin_seating_summary(both)
    assert {r["n"] for r in rows} == {12}
    one = carabin_seating_summary(_lone_frame(3))
    assert rows[0]["estimate"] != pytest.approx(one[0]["estimate"])
    with pytest.raises(ValueError, match="two policies, not 3"):
        carabin_seating_summary(both.assign(policy=both["player"].map({0: "x", 1: "y", 2: "z"})))
    with pytest.raises(ValueError, match="format=duplicate"):
        carabin_seating_summary(both.drop(columns="seating"))


def test_seating_summary_command_pools_runs_that_differ_only_in_seed(tmp_path, capsys):
    import csv
    import json

    from analysis.studies import run_study

    params = {"players": 3, "format": "duplicate", "policies": "always,thumb,thumb"}
    for seed in (1, 2):
        run_study("carabin-matches", 2, seed, tmp_path / f"s{seed}", workers=1,
                  progress=False, params=params)  # fmt: skip
    out = tmp_path / "o" / "seating"
    argv = ["seating-summary", str(out), str(tmp_path / "s1"), str(tmp_path / "s2")]
    assert matches.main(argv) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    assert data["command"] == "python -m analysis.matches " + " ".join(argv)
    assert "--param policies=always,thumb,thumb" in data["runs"][0]["command"]
    with out.with_suffix(".csv").open() as fh:
        table = list(csv.DictReader(fh))
    assert [r["seed"] for r in table] == ["1"] * 8 + ["2"] * 8 + ["both"] * 8
    assert {r["a"] for r in table} == {"always"} and {r["n"] for r in table} == {"2", "4"}
    assert matches.main(["seating-summary", str(out), str(tmp_path / "nothing")]) == 2
    assert "nothing" in capsys.readouterr().err
