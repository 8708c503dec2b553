"""``tricklab bench``: every benchmark reports its figures; bad options are refused."""

from __future__ import annotations

import json

import pytest

from .helpers import assert_one_error_line, json_lines

BENCH_KEYS = {
    "deals",
    "seed",
    "engine_solves_per_second",
    "engine_median_ms",
    "engine_mean_ms",
    "engine_max_ms",
    "batch_us_per_position",
    "single_call_us_per_position",
    "reference_deals",
    "reference_median_ms",
    "speedup_median_same_deals",
}


def test_bench_json(cli) -> None:
    argv = ["bench", "klabberjass", "--deals", "3", "--seed", "1", "--reference-deals", "1"]
    status, out, err = cli(*argv, "--json")
    assert status == 0 and err == ""
    (report,) = json_lines(out)
    assert BENCH_KEYS <= set(report), BENCH_KEYS - set(report)
    assert report["deals"] == 3 and report["seed"] == 1 and report["reference_deals"] == 1
    for key in BENCH_KEYS - {"deals", "seed", "reference_deals"}:
        assert isinstance(report[key], int | float) and report[key] > 0, key
    assert report["engine_max_ms"] >= report["engine_median_ms"]


def test_bench_readable_without_reference(cli) -> None:
    argv = ["bench", "klabberjass", "--deals", "3", "--seed", "2", "--reference-deals", "0"]
    status, out, err = cli(*argv)
    assert status == 0 and err == ""
    assert "3 random full 9-card deals (seed 2)" in out
    assert "solves/s" in out and "median" in out
    assert "reference" not in out


def test_bench_table(cli) -> None:
    code, out, _ = cli(
        "bench", "klabberjass", "--what", "table", "--deals", "5", "--seed", "1", "--json"
    )
    report = json.loads(out)
    assert code == 0 and report["what"] == "table" and report["deals"] == 5
    assert 0 < report["median_ms"] <= report["max_ms"]
    code, out, _ = cli("bench", "klabberjass", "--what", "table", "--deals", "3")
    assert code == 0 and "median" in out
    code, _, err = cli("bench", "klabberjass", "--what", "table", "--deals", "0")
    assert code == 2 and "--deals" in err


def test_bench_tree_and_advice(cli):
    for what in ("tree", "advice"):
        status, out, _ = cli("bench", "klabberjass", "--what", what, "--deals", "1", "--json")
        assert status == 0 and json.loads(out)["median_s"] > 0


REALPLAY_KEYS = {
    "what",
    "deals",
    "seed",
    "rules",
    "samples",
    "persist",
    "shared_play",
    "rows",
    "contracts",
    "median_ms",
    "mean_ms",
    "max_ms",
    "deals_per_second",
    "cpu_ms_per_contract",
    "cpu_deals_per_second",
    "decisions_per_contract",
    "searches_per_contract",
    "nodes_per_contract",
}


def test_bench_realplay_json_has_the_figures(cli):
    argv = ["bench", "klabberjass", "--what", "realplay", "--deals", "2", "--seed", "3"]
    status, out, err = cli(*argv, "--json")
    assert status == 0 and err == ""
    (report,) = json_lines(out)
    assert set(report) == REALPLAY_KEYS
    assert report["what"] == "realplay" and report["deals"] == 2 and report["seed"] == 3
    assert report["rules"] == "seed" and report["samples"] == 20
    assert report["contracts"] == report["rows"] == 16  # 4 trumps x 2 bidders a deal
    assert 0 < report["median_ms"] <= report["max_ms"]
    assert 0 < report["mean_ms"] <= report["max_ms"]
    for key in ("deals_per_second", "cpu_ms_per_contract", "cpu_deals_per_second"):
        assert report[key] > 0, key
    # a contract is 18 cards; the last is forced, so at most 17 decisions are searched
    assert 0 < report["decisions_per_contract"] <= 17
    assert report["searches_per_contract"] >= 2 * report["decisions_per_contract"]
    assert report["nodes_per_contract"] > 0


def test_bench_realplay_counts_are_those_of_the_study_play(cli):
    """Decisions searched are fixed by the deals and seeds, not by timing: the same
    command gives the same counts, and they are what the study's own play searches."""
    import random

    from analysis.bidding.klabberjass import deal_tables
    from analysis.bidding.realplay import pimc_policy, played_row, realplay_deals
    from solver.klabberjass import SEED

    argv = ["bench", "klabberjass", "--what", "realplay", "--deals", "1", "--seed", "8", "--json"]
    report = json.loads(cli(*argv)[1])
    _, deals, seeds = realplay_deals(random.Random(8), 1)
    (table,) = deal_tables(deals, SEED)
    decisions = 0
    for j, row in enumerate(table):
        policy = pimc_policy(20, seeds[0], j)
        played_row(deals[0], row, (policy, policy), SEED)
        decisions += policy.stats.decisions
    assert report["decisions_per_contract"] == round(decisions / len(table), 2)
    assert json.loads(cli(*argv)[1])["decisions_per_contract"] == report["decisions_per_contract"]


def test_bench_pimc_with_and_without_persistent_worlds(cli):
    argv = ["bench", "klabberjass", "--what", "pimc", "--deals", "2", "--seed", "4", "--json"]
    reports = []
    for extra in ([], ["--persist"]):
        status, out, err = cli(*argv, *extra)
        assert status == 0 and err == ""
        (report,) = json_lines(out)
        assert report["what"] == "pimc" and report["persist"] == bool(extra)
        assert 0 < report["median_ms"] <= report["max_ms"] and report["cpu_ms_per_contract"] > 0
        assert 0 < report["decisions_per_contract"] <= 17 and report["nodes_per_contract"] > 0
        reports.append(report)
    # the same cards are searched on other worlds: the same first decision, other nodes
    assert reports[0]["nodes_per_contract"] != reports[1]["nodes_per_contract"]
    status, out, _ = cli("bench", "klabberjass", "--what", "realplay", "--deals", "1", "--persist")
    assert status == 0 and "persistent worlds" in out


def test_bench_realplay_shared_play_plays_each_key_once(cli):
    """With --shared-play a deal's rows of one play key are played once: the plays
    counted are the deal's distinct keys, and the rows all of its contracts."""
    import random

    from analysis.bidding.klabberjass import deal_tables
    from analysis.bidding.realplay import play_key, realplay_deals, row_play
    from solver.klabberjass import SEED

    argv = ["bench", "klabberjass", "--what", "realplay", "--deals", "3", "--seed", "2"]
    status, out, _ = cli(*argv, "--shared-play", "--json")
    report = json.loads(out)
    assert status == 0 and report["shared_play"] and report["rows"] == 24
    _, deals, _ = realplay_deals(random.Random(2), 3)
    keys = [
        {play_key(row, row_play(deal, row, SEED)) for row in table}
        for deal, table in zip(deals, deal_tables(deals, SEED), strict=True)
    ]
    assert report["contracts"] == sum(len(k) for k in keys) < 24
    status, out, _ = cli(*argv, "--shared-play")
    assert status == 0 and f"{report['contracts']} contracts played for 24 rows" in out


@pytest.mark.parametrize("what", [["--what", "table"], ["--what", "pimc"]])
def test_bench_shared_play_goes_with_realplay(cli, what):
    status, out, err = cli("bench", "klabberjass", *what, "--deals", "1", "--shared-play")
    assert_one_error_line(status, out, err, "--shared-play")


@pytest.mark.parametrize("what", [["--what", "table"], [], ["--what", "advice"]])
def test_bench_persist_goes_with_pimc_and_realplay(cli, what):
    status, out, err = cli("bench", "klabberjass", *what, "--deals", "1", "--persist")
    assert_one_error_line(status, out, err, "--persist")


def test_bench_realplay_readable(cli):
    status, out, err = cli("bench", "klabberjass", "--what", "realplay", "--deals", "1")
    assert status == 0 and err == ""
    assert "realplay study: 1 random deals (seed 1)" in out
    assert "per played contract: median" in out and "deals/s" in out


def test_bench_carabin_json(cli):
    code, out, _ = cli(
        "bench",
        "carabin",
        "--players",
        "3",
        "--deals",
        "3",
        "--seed",
        "2",
        "--reference-deals",
        "5",
        "--what",
        "exact,make,chelem",
        "--json",
    )
    assert code == 0
    report = json.loads(out)
    assert report["players"] == 3 and report["deals"] == 3
    for k in ("exact", "make", "chelem"):
        assert report[k]["max_ms"] >= report[k]["median_ms"] >= 0
    assert report["reference"] == {"positions": 5, "disagreements": 0}


def test_bench_carabin_readable(cli):
    code, out, _ = cli("bench", "carabin", "--players", "6", "--deals", "2")
    assert code == 0
    assert "make/fail probe" in out and "6 players" in out


def test_what_help_lists_the_choices(cli):
    code, out, _ = cli("bench", "--help")
    assert code == 0
    what = " ".join(out.split()).partition("--what WHAT")[2]
    for choice in ("solve", "table", "tree", "advice", "realplay", "exact", "make", "chelem"):
        assert choice in what, choice


@pytest.mark.parametrize(
    "argv, named",
    [
        (["bench", "klabberjass", "--deals", "0"], ["--deals 0"]),
        (["bench", "klabberjass", "--deals", "2", "--rules", "nonsense"], ["'nonsense'"]),
        (["bench", "klabberjass", "--deals", "1", "--what", "speed"], ["'speed'", "table"]),
        (["bench", "klabberjass", "--deals", "1", "--what", "real"], ["'real'", "realplay"]),
        (["bench", "klabberjass", "--what", "realplay", "--deals", "0"], ["--deals 0"]),
        (["bench", "klabberjass", "--what", "realplay", "--seed", "x1"], ["--seed", "x1"]),
        (
            ["bench", "klabberjass", "--what", "realplay", "--deals", "1", "--rules", "odd"],
            ["'odd'"],
        ),
        (["bench", "carabin", "--players", "9", "--deals", "1"], ["9"]),
        (["bench", "carabin", "--players", "4", "--deals", "0"], ["--deals 0"]),
        (["bench", "carabin", "--players", "4", "--deals", "1", "--what", "speed"], ["'speed'"]),
    ],
)
def test_bad_input_one_line_status_2(cli, argv: list[str], named: list[str]) -> None:
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, *named)


def test_bench_carabin_pimc_with_a_time_limit_reports_undecided_searches(cli):
    args = ["bench", "carabin", "--players", "3", "--deals", "1", "--what", "pimc", "--json"]
    code, out, _ = cli(*args)
    assert code == 0 and json.loads(out)["undecided"] == 0
    code, out, _ = cli(*args, "--time-limit", "0.000000001")
    report = json.loads(out)
    assert code == 0 and report["time_limit"] == 1e-9 and report["undecided"] > 0


def test_bench_alphamu_json_times_every_searched_decision(cli):
    """The decisions timed are those the players searched; at depth 1 (PIMC) as many as
    PIMC searches on the same deals."""
    from analysis.cli.bench import alphamu_times
    from solver.klabberjass import SEED

    status, out, _ = cli("bench", "klabberjass", "--what", "alphamu", "--deals", "2", "--json")
    data = json.loads(out)
    assert status == 0 and data["depth"] == 2 and data["worlds"] == 20
    assert data["decisions"] >= data["first_trick_decisions"] >= 2
    assert data["first_max_s"] >= data["first_median_s"] > 0
    rows = alphamu_times(2, 1, SEED, depth=1)
    assert all(r[3] == 1 for r in rows)
    status, out, _ = cli(
        "bench", "klabberjass", "--what", "alphamu", "--deals", "2", "--depth", "1", "--json"
    )
    assert json.loads(out)["decisions"] == len(rows)


def test_bench_depth_goes_with_alphamu(cli):
    status, out, err = cli("bench", "klabberjass", "--what", "pimc", "--depth", "2")
    assert status == 2 and out == "" and "--depth 2" in err


def test_bench_carabin_alphamu_json(cli):
    """Every searched decision of Carabin αμ play is timed; at depth 1 as many as the
    players searched."""
    from analysis.cli.bench import carabin_alphamu_times

    argv = ["bench", "carabin", "--players", "3", "--what", "alphamu", "--deals", "1"]
    status, out, _ = cli(*argv, "--depth", "1", "--json")
    data = json.loads(out)
    assert status == 0 and data["depth"] == 1 and data["worlds"] == 20
    assert data["decisions"] >= data["first_trick_decisions"] >= 1
    assert data["mean_depth"] == 1
    rows = carabin_alphamu_times(3, 1, 1, depth=1)
    assert len(rows) == data["decisions"] and all(r[2] == 1 for r in rows)
    status, out, _ = cli(*argv)
    assert status == 0 and "alphamu at every seat" in out and "decisions/s" in out
