"""``--time-limit`` on ``solve`` and ``deal``: bounds and a note when it runs out, the
same answer as without it when it does not, a clean error for a bad value."""

from __future__ import annotations

import json

import pytest

from solver import carabin

from .helpers import assert_one_error_line

SIMPLE = "trump=H lead=E E=A... D=K..."


def test_solve_within_the_limit_is_unchanged(cli) -> None:
    with_limit = cli("solve", "klabberjass", SIMPLE, "--json", "--time-limit", "30")
    assert with_limit == cli("solve", "klabberjass", SIMPLE, "--json")
    assert json.loads(with_limit[1])["points"] == {"E": 25, "D": 0}


def test_solve_carabin_out_of_time_gives_bounds_and_a_note(cli) -> None:
    start = carabin.Deal.random(seed=5, players=4).position(bidder=1, trump=2)
    # a limit that has run out before the search starts: nothing is proven
    status, out, err = cli("solve", "carabin", str(start), "--json", "--time-limit", "1e-9")
    total = start.points_left()
    assert status == 0
    assert json.loads(out) == {
        "points": {"bidder": [0, total], "others": [0, total]},
        "best": None,
        "all_tricks": None,
        "exact": False,
    }
    assert err.count("\n") == 1 and "time limit" in err and "bounds" in err


def test_solve_out_of_time_readable_shows_the_ranges_not_a_value(cli) -> None:
    """The readable answer gives the proven ranges, as the JSON does, and says so; it
    never shows a bound as if it were the value."""
    start = carabin.Deal.random(seed=5, players=4).position(bidder=1, trump=2)
    total = start.points_left()
    status, out, err = cli("solve", "carabin", str(start), "--time-limit", "1e-9")
    assert status == 0 and "time limit" in err
    line = next(x for x in out.splitlines() if x.startswith("Double-dummy points from here"))
    assert line == (
        f"Double-dummy points from here: bidder 0-{total}, others 0-{total} "
        "(proven bounds: the time limit ran out)"
    )
    status, out, _ = cli("solve", "klabberjass", SIMPLE, "--time-limit", "30")
    assert "Double-dummy points from here: E 25, D 0\n" in out


def test_deal_carabin_with_a_limit(cli) -> None:
    status, out, err = cli(
        "deal",
        "carabin",
        "--random",
        "--seed",
        "3",
        "--players",
        "3",
        "--json",
        "--time-limit",
        "20",
    )
    assert status == 0 and err == ""
    plain = cli("deal", "carabin", "--random", "--seed", "3", "--players", "3", "--json")
    assert json.loads(out) == json.loads(plain[1])


def test_deal_carabin_readable_shows_hands_threshold_and_best_contracts(cli) -> None:
    status, out, _ = cli("deal", "carabin", "--random", "--seed", "3", "--players", "3")
    assert status == 0
    lines = out.splitlines()
    assert (
        sum(line.startswith(f"  {s}  L ") and " R " in line for s in range(3) for line in lines)
        == 3
    )
    assert "a contract is made with" in out
    best = next(line for line in lines if line.startswith("Best contract for each seat: "))
    assert all(f"{s} " in best for s in range(3))


@pytest.mark.parametrize("value", ["0", "-1", "abc", "inf", "nan"])
def test_bad_time_limit(cli, value: str) -> None:
    status, out, err = cli("solve", "klabberjass", SIMPLE, "--time-limit", value)
    assert_one_error_line(status, out, err, "--time-limit", value)


def test_tree_out_of_time_is_one_clear_line(cli) -> None:
    start = carabin.Deal.random(seed=1, players=4).position(bidder=0, trump=0)
    status, out, err = cli("tree", "carabin", str(start), "--time-limit", "0.2")
    assert_one_error_line(status, out, err, "time limit (0.2 s", "positions so far")


def test_tree_within_the_limit_is_unchanged(cli) -> None:
    pos = "trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3.."
    assert cli("tree", "carabin", pos, "--json", "--time-limit", "30") == cli(
        "tree", "carabin", pos, "--json"
    )


def test_bench_carabin_counts_searches_over_the_limit(cli) -> None:
    status, out, err = cli(
        "bench",
        "carabin",
        "--players",
        "5",
        "--deals",
        "3",
        "--seed",
        "2",
        "--what",
        "exact",
        "--time-limit",
        "1e-9",
        "--json",
    )
    report = json.loads(out)
    assert status == 0 and err == ""
    assert report["exact"]["over_limit"] == 3 and report["exact"]["time_limit_s"] == 1e-9
    status, out, _ = cli(
        "bench",
        "carabin",
        "--players",
        "3",
        "--deals",
        "3",
        "--what",
        "make",
        "--time-limit",
        "60",
        "--json",
    )
    assert json.loads(out)["make"]["over_limit"] == 0


def test_advise_out_of_time_says_how_many_worlds(cli) -> None:
    view = "players=5 seat=1 bidder=0 trump=H turn=2C hand=AKQJ.../T987... played=5H"
    status, out, err = cli(
        "advise",
        "carabin",
        view,
        "--samples",
        "5000",
        "--seed",
        "1",
        "--time-limit",
        "0.3",
        "--json",
    )
    used = json.loads(out)["samples"]
    assert status == 0 and 1 <= used < 5000
    assert err == (
        "tricklab: note: the time limit (0.3 s) ran out: the advice rests on "
        f"{used} of the 5000 worlds drawn\n"
    )
