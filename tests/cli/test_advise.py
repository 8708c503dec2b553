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


CARABIN_VIEW = "players=3 seat=1 bidder=0 trump=H turn=2C hand=AKQ6.../T987... played=5H"


def test_advise_carabin_alphamu_json(cli):
    """Carabin αμ advice: a share of worlds won per card (the coalition wants the
    contract failed here), the best card first; depth 1 is PIMC on the same worlds."""
    from analysis.carabin_alphamu import CarabinAlphaMu, decide_view
    from analysis.play import carabin_classes
    from solver.carabin import View
    from solver.carabin import engine as carabin_engine
    from solver.cards import card_str

    argv = ["advise", "carabin", CARABIN_VIEW, "--method", "alphamu", "--samples", "6"]
    status, out, _ = cli(*argv, "--seed", "3", "--json")
    data = json.loads(out)
    assert status == 0 and data["method"] == "alphamu" and data["wants"] == "failed"
    shares = [m["share"] for m in data["moves"].values()]
    assert shares == sorted(shares, reverse=True) and data["best"] == next(iter(data["moves"]))
    assert all(0 <= x <= 1 for x in shares)
    status, out, _ = cli(*argv, "--seed", "3", "--depth", "1", "--json")
    one = json.loads(out)
    view = View.parse(CARABIN_VIEW)
    d = decide_view(view, CarabinAlphaMu(6, 1, seed=3), every=True)
    worlds = list(d.worlds)
    inf = view.inference()
    cands = [k[0] for k in carabin_classes(inf.position, inf.pool)]
    # PIMC's totals: the worlds where the contract fails after each card (the trick
    # is still unfinished after it, no trick won yet: the bidder needs half the points
    # in play of the world, plus one, from there)
    assert view.tricks_won() == ((0, 0), True)
    for c, v in zip(cands, d.values, strict=True):
        fails = sum(not carabin_engine.make(w.play(c), w.points_left() // 2 + 1) for w in worlds)
        assert v == fails
        assert one["moves"][card_str(c)]["worlds_won"] == v


def test_advise_carabin_alphamu_readable(cli):
    status, out, _ = cli("advise", "carabin", CARABIN_VIEW, "--method", "alphamu",
                         "--samples", "4", "--seed", "1")  # fmt: skip
    assert status == 0 and out.startswith("alphamu advice for ") and "best: " in out
    assert "contract is failed" in out


def test_the_help_states_the_alphamu_budget():
    from analysis import alphamu
    from analysis.cli import advise

    assert (advise.ALPHAMU_WORLDS, advise.ALPHAMU_DEPTH, advise.ALPHAMU_MAX_WORLDS) == (
        alphamu.DEFAULT_WORLDS,
        alphamu.DEFAULT_DEPTH,
        alphamu.MAX_WORLDS,
    )
