"""``tricklab bid``: the expected net of each bid from one hand, with the play model named
(real play, PIMC, by default; ``--play dd`` double dummy)."""

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
    status, out, err = cli(
        "bid", "klabberjass", KJ_VIEW, "--samples", "6", "--seed", "3", "--json", "--play", "dd"
    )
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
    status, out, _ = cli("bid", "klabberjass", KJ_VIEW, "--samples", "20", "--play", "dd")
    assert status == 0
    assert "double dummy" in out and "you take ♦ D" in out and "D names ♥ H" in out
    assert cli("bid", "klabberjass", KJ_VIEW, "--samples", "20", "--play", "dd") == (
        status,
        out,
        "",
    )


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
    status, out, _ = cli("bid", "carabin", view, "--samples", "8", "--json", "--play", "dd")
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
        ("klabberjass", "seat=E hand=AT7.KJ turn=QD", "six cards"),
        ("klabberjass", "seat=E hand=AT7.KJ9.. turn=KH", "turn-up"),
        ("klabberjass", "seat=X hand=AT7.KJ9.. turn=QD", "invalid seat 'X'"),
        ("klabberjass", "hand=AT7.KJ9.. turn=QD", "seat"),
        ("klabberjass", "seat=E hand=AT2.KJ9.. turn=QD", "2S"),
        ("klabberjass", "seat=E hand=AT7.KJ9.... turn=QD", "'AT7.KJ9....'"),
        ("klabberjass", "seat=E hand=A.T.7.K.J9 turn=QD", "at most four suits"),
        ("klabberjass", "seat=E hand=AX7.KJ9 turn=QD", "invalid rank 'X' in holding 'AX7.KJ9'"),
        ("klabberjass", "seat=E hand=AA7.KJ9 turn=QD", "card AS twice in holding 'AA7.KJ9'"),
        ("carabin", "players=3 seat=4 hand=AKQJ.../T987... turn=2C", "seat"),
        ("carabin", "players=3 seat=1 hand=AKQ.../T987... turn=2C", "four"),
        ("carabin", "players=3 seat=1 hand=AKQ/T987 turn=2C", "four"),
        ("carabin", "players=3 seat=1 hand=AKQJ/T987.6.5.4.3 turn=2C", "at most four suits"),
        ("carabin", "players=3 seat=1 hand=AKQJ/T98X turn=2C", "invalid rank 'X'"),
        ("carabin", "players=3 seat=1 hand=AKQJ/AT98 turn=2C", "four different cards"),
        ("carabin", "players=3 seat=1 hand=AKQJ turn=2C", "<left holding>/<right holding>"),
    ],
)
def test_bad_views(cli, game: str, view: str, named: str) -> None:
    status, out, err = cli("bid", game, view, "--samples", "2")
    assert_one_error_line(status, out, err, named, view)


def test_the_issue_command_a_hand_without_its_empty_last_suits(cli) -> None:
    """``hand=AT7.KJ9`` is ``hand=AT7.KJ9..``: the suits not written are void."""
    short = "seat=E turn=QD hand=AT7.KJ9"
    status, out, err = cli("bid", "klabberjass", short, "--json", "--samples", "10")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["view"] == KJ_VIEW and report["play"] == "pimc" and report["worlds"] == 20
    assert set(report) == {
        *("view", "rules", "play", "worlds", "samples", "seed", "options", "scorecard")
    }
    assert report["samples"] == 10 and all(o["n"] == 10 for o in report["options"].values())
    assert set(report["options"]["take"]) == {"mean", "low", "high", "n"}
    assert cli("bid", "klabberjass", KJ_VIEW, "--json", "--samples", "10") == (status, out, "")


@pytest.mark.parametrize("hand", ["AT7.KJ9", "AT7.KJ9.", "at7.kj9..", "7TA.9JK"])
def test_klabberjass_short_hands_read_as_the_full_holding(hand: str) -> None:
    assert str(BidView.parse(f"seat=E hand={hand} turn=QD")) == KJ_VIEW


@pytest.mark.parametrize(
    "hand, full",
    [
        ("AKQJ/T987", "AKQJ.../T987..."),
        ("AKQJ.../T987", "AKQJ.../T987..."),
        (".AKQJ/..T9.87", ".AKQJ../..T9.87"),
        ("A.K.Q.J/T987", "A.K.Q.J/T987..."),
    ],
)
def test_carabin_short_hands_read_as_the_full_holdings(hand: str, full: str) -> None:
    from analysis.bidding.carabin import CarabinBidView

    view = CarabinBidView.parse(f"players=3 seat=1 hand={hand} turn=2C")
    assert str(view) == f"players=3 seat=1 hand={full} turn=2C"


@pytest.mark.parametrize(
    "argv",
    [
        ("solve", "klabberjass", "trump=H lead=E E=A.7 D=K.8.."),
        ("deal", "carabin", "0=AKQJ/T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H"),
        ("advise", "klabberjass", "seat=E trump=H turn=QD hand=AT7.KJ9.7 played="),
    ],
)
def test_positions_deals_and_play_views_still_need_four_suits(cli, argv) -> None:
    assert_one_error_line(*cli(*argv), "expected four suits")


def test_players_fills_a_carabin_view_without_players(cli) -> None:
    view = "seat=1 hand=AKQJ/T987 turn=2C"
    for extra, players in (((), 4), (("--players", "3"), 3)):
        args = ("bid", "carabin", view, "--samples", "2", "--play", "dd", "--json", *extra)
        status, out, err = cli(*args)
        assert (status, err) == (0, "")
        assert json.loads(out)["view"] == f"players={players} seat=1 hand=AKQJ.../T987... turn=2C"
    # the same number in the view and the option is fine
    given = "players=3 seat=1 hand=AKQJ/T987 turn=2C"
    args = ("bid", "carabin", given, "--samples", "2", "--play", "dd", "--json")
    assert cli(*args, "--players", "3") == cli(*args)


def test_players_contradicting_the_view_is_one_error_naming_both(cli) -> None:
    view = "players=3 seat=1 hand=AKQJ.../T987... turn=2C"
    status, out, err = cli("bid", "carabin", view, "--players", "4")
    assert_one_error_line(status, out, err, "--players 4", "players=3", view)


@pytest.mark.parametrize("players", ["2", "3"])
def test_players_for_klabberjass_is_one_error_about_klabberjass(cli, players) -> None:
    status, out, err = cli("bid", "klabberjass", KJ_VIEW, "--players", players)
    assert_one_error_line(status, out, err, f"--players {players}", "klabberjass", "two")
    assert "Carabin" not in err and "view" not in err


def test_klabberjass_pimc_play_is_named_and_is_the_sampled_deals_played_by_pimc(cli) -> None:
    from analysis.bidding.realplay import evaluate_view_pimc

    args = ("bid", "klabberjass", KJ_VIEW, "--samples", "6", "--seed", "3", "--json")
    status, out, err = cli(*args, "--play", "pimc", "--worlds", "4")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["play"] == "pimc" and report["worlds"] == 4 and report["samples"] == 6
    assert cli(*args, "--worlds", "4") == (status, out, "")  # pimc is the default
    dd = json.loads(cli(*args, "--play", "dd")[1])
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


def test_worlds_without_pimc_play_is_refused(cli) -> None:
    for game, view in (("klabberjass", KJ_VIEW), ("carabin", "seat=1 hand=AKQJ/T987 turn=2C")):
        status, out, err = cli("bid", game, view, "--samples", "2", "--play", "dd", "--worlds", "4")
        assert_one_error_line(status, out, err, "--play pimc")
    status, out, err = cli("bid", "klabberjass", KJ_VIEW, "--play", "pimc", "--worlds", "0")
    assert_one_error_line(status, out, err, "--worlds")


@pytest.mark.parametrize("players", [3, 4])
def test_carabin_pimc_play_is_the_default_and_is_the_sampled_deals_played_by_pimc(
    cli, players
) -> None:
    from analysis.bidding.carabin import CarabinBidView
    from analysis.bidding.carabin_realplay import evaluate_bids_pimc

    view = f"players={players} seat=1 hand=AKQ2.../7.9.2.3 turn=5S"
    args = ("bid", "carabin", view, "--samples", "3", "--seed", "2", "--json")
    status, out, err = cli(*args, "--worlds", "4")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["play"] == "pimc" and report["worlds"] == 4 and report["samples"] == 3
    assert cli(*args, "--worlds", "4", "--play", "pimc") == (status, out, "")
    dd = json.loads(cli(*args, "--play", "dd")[1])
    assert dd["play"] == "double-dummy" and dd["worlds"] is None
    assert (
        set(report)
        == set(dd)
        == {*("view", "trick_order", "play", "worlds", "samples", "seed", "options", "rule")}
    )
    assert set(report["options"]) == set(dd["options"])
    values = evaluate_bids_pimc(CarabinBidView.parse(view), 3, 2, play_samples=4)
    for key, v in values.items():
        option = report["options"][key]
        assert option["mean"] == pytest.approx(v.net.mean, abs=1e-3)
        assert option["made"]["mean"] == pytest.approx(v.made.mean, abs=1e-3)
        assert option["chelem"]["mean"] == pytest.approx(v.chelem.mean, abs=1e-3)
        assert option["n"] == v.net.n and set(option) == {
            *("mean", "low", "high", "n", "made", "chelem")
        }
    status, text, _ = cli("bid", "carabin", view, "--samples", "3", "--worlds", "4")
    assert "cards played by PIMC at every seat (4 worlds a decision" in text
    assert "double dummy" not in text


def test_carabin_pimc_default_samples_are_fewer(cli) -> None:
    """20 deals by default with PIMC play (double dummy 50): about 0.5 s a deal at 4
    players, so the default stays interactive; the interval is wider."""
    view = "players=3 seat=1 hand=AKQJ/T987 turn=2C"
    status, out, _ = cli("bid", "carabin", view, "--worlds", "1", "--json")
    assert status == 0 and json.loads(out)["samples"] == 20


def test_carabin_shows_the_rule_derived_from_real_play(cli) -> None:
    from analysis.bidding.carabin import CarabinBidView, carabin_features

    view = "players=4 seat=2 hand=AKQ2.../7.9.2.3 turn=5S"
    status, out, _ = cli("bid", "carabin", view, "--samples", "2", "--json", "--worlds", "4")
    rule = json.loads(out)["rule"]
    v = CarabinBidView.parse(view)
    f = carabin_features(v.hand[0], v.hand[1], v.turn >> 4)
    assert rule["count"] == f[0] + f[1] == 8  # five spades (A K Q 2 and 7) and A, K, Q
    assert rule["take"] == (rule["count"] >= rule["mark"])
    assert (
        rule["held_out_net"]["low"] <= rule["held_out_net"]["mean"] <= rule["held_out_net"]["high"]
    )
    status, text, _ = cli("bid", "carabin", view, "--samples", "2", "--play", "dd")
    assert f"trumps + trump A, K, Q = 8, take at {rule['mark']} or more" in text


def test_the_packaged_carabin_rule_is_the_published_one() -> None:
    from pathlib import Path

    from analysis.bidding.carabin_realplay import PUBLISHED, RULE_COPY

    published = Path(__file__).resolve().parents[2] / PUBLISHED / "rule.json"
    assert RULE_COPY.read_text() == published.read_text()


@pytest.mark.parametrize(
    "game, view, extra",
    [
        ("klabberjass", KJ_VIEW, ()),
        ("carabin", "seat=1 hand=AKQJ/T987 turn=2C", ("--players", "3")),
    ],
)
def test_the_progress_line_counts_the_deals(cli, monkeypatch, game, view, extra) -> None:
    """The draw reports each deal played to the progress line (shown on a terminal)."""
    import analysis.cli.bid as bid

    seen: list[tuple[int, int | None]] = []

    class Recorder(bid.Progress):
        def __call__(self, done: int, total: int | None = None) -> None:
            seen.append((done, total))

    monkeypatch.setattr(bid, "Progress", Recorder)
    status, _, err = cli("bid", game, view, "--samples", "3", "--worlds", "2", *extra)
    assert (status, err) == (0, "") and seen == [(1, 3), (2, 3), (3, 3)]
