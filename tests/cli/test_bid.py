"""``tricklab bid``: the expected net of each bid from one hand, with the play model named."""

from __future__ import annotations

import json
import random

import pytest

from analysis.bidding.klabberjass import BidView, net_of, sample_worlds
from solver import klabberjass
from solver.cards import SUITS

from .helpers import assert_one_error_line

KJ_VIEW = "seat=E hand=AT7.KJ9.. turn=QD"


def test_klabberjass_options_are_the_sampled_deal_tables(cli) -> None:
    status, out, err = cli("bid", "klabberjass", KJ_VIEW, "--samples", "6", "--seed", "3", "--json")
    report = json.loads(out)
    assert (status, err) == (0, "")
    assert report["play"] == "double-dummy" and report["samples"] == 6
    # recompute from the deals drawn: the net of each contract for E, averaged
    view = BidView.parse(KJ_VIEW)
    nets: dict[str, list[int]] = {}
    for deal in sample_worlds(view, 6, random.Random(3)):
        assert deal.hands[0] & view.hand == view.hand and deal.turn == view.turn
        for row in klabberjass.deal_table(deal):
            what = "take" if row.trump == view.turn >> 4 else f"name {SUITS[row.trump]}"
            key = what if row.bidder == 0 else f"opp {what}"
            nets.setdefault(key, []).append(net_of(row) if row.bidder == 0 else -net_of(row))
    assert set(report["options"]) == set(nets) and len(nets) == 8
    for key, values in nets.items():
        assert report["options"][key]["mean"] == pytest.approx(sum(values) / 6, abs=1e-3)
        assert report["options"][key]["n"] == 6
        assert report["options"][key]["low"] <= report["options"][key]["mean"]


def test_klabberjass_readable_names_the_play_model(cli) -> None:
    status, out, _ = cli("bid", "klabberjass", KJ_VIEW, "--samples", "20")
    assert status == 0
    assert "double dummy" in out and "you take ♦ D" in out and "D names ♥ H" in out
    assert cli("bid", "klabberjass", KJ_VIEW, "--samples", "20") == (status, out, "")


@pytest.mark.parametrize("view", [KJ_VIEW, "seat=D hand=J9A.A.T.7 turn=KS"])
def test_klabberjass_shows_the_scorecard_count_of_the_hand(cli, view) -> None:
    from analysis.bidding.klabberjass import hand_features
    from analysis.bidding.scorecard import load

    status, out, _ = cli("bid", "klabberjass", view, "--samples", "2", "--json")
    card = json.loads(out)["scorecard"]
    v = BidView.parse(view)
    sc = load()
    who = "ED"[v.seat]
    ts = v.turn >> 4
    assert card["take"]["suit"] == SUITS[ts]
    assert card["take"]["count"] == sc.count(hand_features(v.hand, ts, v.turn), 1)
    assert card["take"]["bid"] == (card["take"]["count"] >= sc.marks[f"{who} take"])
    others = {t: sc.count(hand_features(v.hand, t, v.turn), 2) for t in range(4) if t != ts}
    assert card["name"]["count"] == max(others.values())
    assert card["name"]["suit"] in [
        SUITS[t] for t, c in others.items() if c == max(others.values())
    ]
    assert card["name"]["mark"] == sc.marks[f"{who} name"]
    status, text, _ = cli("bid", "klabberjass", view, "--samples", "2")
    assert f"count {card['take']['count']}, mark {card['take']['mark']}" in text


def test_carabin_options(cli) -> None:
    view = "players=3 seat=1 hand=AKQJ.../T987... turn=2C"
    status, out, _ = cli("bid", "carabin", view, "--samples", "8", "--json")
    options = json.loads(out)["options"]
    assert status == 0
    assert {"take", "chelem", "pass", "name S", "chelem S"} <= set(options)
    # four spades in each hand, nothing else: spades are made, every other suit fails
    assert options["name S"]["mean"] == 1.0 and options["name H"]["mean"] == -1.0
    assert 0 <= options["pass"]["made"]["mean"] <= 1


@pytest.mark.parametrize(
    "game, view, named",
    [
        ("klabberjass", "seat=E hand=AT7.KJ.. turn=QD", "six cards"),
        ("klabberjass", "seat=E hand=AT7.KJ9.. turn=KH", "turn-up"),
        ("klabberjass", "seat=X hand=AT7.KJ9.. turn=QD", "invalid seat 'X'"),
        ("klabberjass", "hand=AT7.KJ9.. turn=QD", "seat"),
        ("klabberjass", "seat=E hand=AT2.KJ9.. turn=QD", "2S"),
        ("carabin", "players=3 seat=4 hand=AKQJ.../T987... turn=2C", "seat"),
        ("carabin", "players=3 seat=1 hand=AKQ.../T987... turn=2C", "four"),
    ],
)
def test_bad_views(cli, game: str, view: str, named: str) -> None:
    status, out, err = cli("bid", game, view, "--samples", "2")
    assert_one_error_line(status, out, err, named)


def test_players_option_is_refused(cli) -> None:
    status, out, err = cli(
        "bid", "carabin", "players=3 seat=1 hand=AKQJ.../T987... turn=2C", "--players", "3"
    )
    assert_one_error_line(status, out, err, "players=")


def test_klabberjass_pimc_play_is_named_and_is_the_sampled_deals_played_by_pimc(cli) -> None:
    from analysis.bidding.realplay import evaluate_view_pimc

    args = ("bid", "klabberjass", KJ_VIEW, "--samples", "6", "--seed", "3", "--json")
    status, out, err = cli(*args, "--play", "pimc", "--worlds", "4")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["play"] == "pimc" and report["worlds"] == 4 and report["samples"] == 6
    assert cli(*args, "--play", "pimc", "--worlds", "4") == (status, out, "")
    dd = json.loads(cli(*args)[1])
    assert dd["play"] == "double-dummy" and dd["worlds"] is None
    assert set(report) == set(dd) and set(report["options"]) == set(dd["options"])
    # the same deals as double dummy, each contract played by PIMC
    values = evaluate_view_pimc(BidView.parse(KJ_VIEW), 6, 3, play_samples=4)
    for key, e in values.items():
        assert report["options"][key]["mean"] == pytest.approx(e.mean, abs=1e-3)
    # 48 contracts: PIMC play cannot match double dummy's net in every option
    assert any(report["options"][k]["mean"] != dd["options"][k]["mean"] for k in values)


def test_klabberjass_pimc_readable_says_so(cli) -> None:
    status, out, _ = cli("bid", "klabberjass", KJ_VIEW, "--samples", "3", "--play", "pimc")
    assert (
        status == 0
        and "PIMC (20 worlds a decision" in out
        and "cards played double dummy" not in out
    )


@pytest.mark.parametrize(
    "game, view, extra, named",
    [
        ("klabberjass", KJ_VIEW, ("--worlds", "4"), "--play pimc"),
        ("klabberjass", KJ_VIEW, ("--play", "pimc", "--worlds", "0"), "--worlds"),
        (
            "carabin",
            "players=3 seat=1 hand=AKQJ.../T987... turn=2C",
            ("--play", "pimc"),
            "klabberjass",
        ),
    ],
)
def test_pimc_options_refused_where_they_do_not_apply(cli, game, view, extra, named) -> None:
    status, out, err = cli("bid", game, view, "--samples", "2", *extra)
    assert_one_error_line(status, out, err, named)


def test_carabin_shows_the_rule_derived_from_real_play(cli) -> None:
    from analysis.bidding.carabin import CarabinBidView, carabin_features

    view = "players=4 seat=2 hand=AKQ2.../7.9.2.3 turn=5S"
    status, out, _ = cli("bid", "carabin", view, "--samples", "2", "--json")
    rule = json.loads(out)["rule"]
    v = CarabinBidView.parse(view)
    f = carabin_features(v.hand[0], v.hand[1], v.turn >> 4)
    assert rule["count"] == f[0] + f[1] == 8  # five spades (A K Q 2 and 7) and A, K, Q
    assert rule["take"] == (rule["count"] >= rule["mark"])
    assert (
        rule["held_out_net"]["low"] <= rule["held_out_net"]["mean"] <= rule["held_out_net"]["high"]
    )
    status, text, _ = cli("bid", "carabin", view, "--samples", "2")
    assert f"trumps + trump A, K, Q = 8, take at {rule['mark']} or more" in text


def test_the_packaged_carabin_rule_is_the_published_one() -> None:
    from pathlib import Path

    from analysis.bidding.carabin_realplay import PUBLISHED, RULE_COPY

    published = Path(__file__).resolve().parents[2] / PUBLISHED / "rule.json"
    assert RULE_COPY.read_text() == published.read_text()
