"""``tricklab advise``: single-dummy advice from a view, the same for the same seed."""

from __future__ import annotations

import json

import pytest

VIEW = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"


def test_advise_json(cli):
    argv = ["advise", "klabberjass", VIEW, "--samples", "30", "--seed", "2", "--json"]
    status, out, _ = cli(*argv, "--workers", "1")
    data = json.loads(out)
    assert status == 0 and data["samples"] == 30
    assert data["best"] in data["moves"]
    assert all(
        0 <= m["best_rate"] <= 1 and m["min"] <= m["mean"] <= m["max"]
        for m in data["moves"].values()
    )
    assert cli(*argv)[1] == out  # same seed, same advice


def test_advise_readable(cli):
    status, out, _ = cli("advise", "klabberjass", VIEW, "--samples", "10", "--seed", "1")
    assert status == 0
    assert out.startswith("Single-dummy advice for ") and "best: " in out


def test_bad_samples_one_line_exit_2(cli):
    status, out, err = cli("advise", "klabberjass", VIEW, "--samples", "0")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--samples 0" in err


def test_advise_alphamu_json(cli):
    argv = ["advise", "klabberjass", VIEW, "--method", "alphamu", "--depth", "2", "--seed", "4"]
    status, out, _ = cli(*argv, "--samples", "12", "--json")
    data = json.loads(out)
    assert status == 0 and data["method"] == "alphamu" and data["depth"] == 2
    assert data["samples"] == 12 and data["best"] in data["moves"]
    best = data["moves"][data["best"]]["total"]
    assert all(
        m["total"] <= best and m["mean"] == round(m["total"] / 12, 4)
        for m in data["moves"].values()
    )
    assert cli(*argv, "--samples", "12", "--json")[1] == out  # same seed, same advice


def test_advise_alphamu_depth_one_is_pimc_on_its_worlds(cli):
    """At depth 1 every card's total is PIMC's over the same worlds (the view's draw)."""
    import random

    from analysis.alphamu import hidden_of_view
    from analysis.play import classes
    from solver.klabberjass import SEED, View, engine
    from solver.klabberjass._core import sample_hands

    status, out, _ = cli(
        "advise", "klabberjass", VIEW, "--method", "alphamu", "--depth", "1", "--seed", "5",
        "--samples", "15", "--json",
    )  # fmt: skip
    data = json.loads(out)
    p, hidden = hidden_of_view(View.parse(VIEW))
    ks = classes(p, hidden)
    worlds = sample_hands(hidden.pool, hidden.need, 15, random.Random(5).getrandbits(64))
    _, sums, _, _ = engine.core(8).pimc(
        p.hands[0], hidden.known, hidden.pool, hidden.need, 15, 0, p.trump, p.lead, -1,
        SEED.last_trick, [k[0] for k in ks], exact=True, worlds=worlds,
    )  # fmt: skip
    from solver.cards import card_str

    assert {c: data["moves"][card_str(k[0])]["total"] for c, k in enumerate(ks)} == dict(
        enumerate(sums)
    )


def test_advise_alphamu_readable(cli):
    status, out, _ = cli("advise", "klabberjass", VIEW, "--method", "alphamu", "--seed", "1")
    assert status == 0
    assert out.startswith("alphamu advice for ") and "best: " in out and "depth 2" in out


def test_advise_alphamu_time_limit(cli):
    status, out, err = cli(
        "advise", "klabberjass", "seat=E trump=H turn=QD hand=AT7.KJ9.7.A8 played=",
        "--method", "alphamu", "--depth", "9", "--time-limit", "0.01", "--json",
    )  # fmt: skip
    assert status == 0 and json.loads(out)["depth"] < 9
    assert "ran out" in err


@pytest.mark.parametrize(
    ("options", "quoted"),
    [
        (["--method", "alphamux"], "'alphamux'"),
        (["--method", "alphamu", "--depth", "0"], "--depth 0"),
        (["--method", "alphamu", "--depth", "x"], "--depth 'x'"),
        (["--depth", "2"], "--depth 2"),
        (["--method", "alphamu", "--workers", "2"], "--workers 2"),
        (["--method", "alphamu", "--samples", "1001"], "--samples 1001"),
    ],
)
def test_advise_bad_method_options_one_line_exit_2(cli, options, quoted):
    status, out, err = cli("advise", "klabberjass", VIEW, *options)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert quoted in err


def test_advise_alphamu_is_for_klabberjass(cli):
    view = "players=4 seat=1 bidder=0 trump=H turn=2C hand=AKQJ.../T987... played=5H"
    status, out, err = cli("advise", "carabin", view, "--method", "alphamu")
    assert status == 2 and out == "" and "alphamu is for klabberjass" in err


def test_the_help_states_the_alphamu_budget():
    from analysis import alphamu
    from analysis.cli import advise

    assert (advise.ALPHAMU_WORLDS, advise.ALPHAMU_DEPTH, advise.ALPHAMU_MAX_WORLDS) == (
        alphamu.DEFAULT_WORLDS,
        alphamu.DEFAULT_DEPTH,
        alphamu.MAX_WORLDS,
    )
