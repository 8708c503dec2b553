"""Carabin at every table size on the command line: ``tree``, ``review``, ``advise``,
``puzzles`` and ``bench --what tree|advice`` at 3 to 6 players, within a budget."""

from __future__ import annotations

import json
import random

import pytest

from solver import carabin
from solver.cards import SUITS, card_str, format_holding
from solver.games import get_game
from tests.cli.helpers import assert_one_error_line


def _played(players: int, seed: int, cards: int):
    """A random deal (bidder 1, turn-up suit trump) and ``cards`` cards played at random:
    the deal with its contract, the line, the position reached and its view."""
    rng = random.Random(seed)
    deal = carabin.Deal.random(players=players, rng=rng)
    trump = deal.turn >> 4
    p = deal.position(bidder=1, trump=trump)
    line = []
    for _ in range(cards):
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    me = p.to_move
    view = (
        f"players={players} seat={me} bidder=1 trump={SUITS[trump]} turn={card_str(deal.turn)} "
        f"hand={format_holding(p.hands[me][0])}/{format_holding(p.hands[me][1])} "
        f"played={','.join(map(card_str, line))}"
    )
    return f"{deal} trump={SUITS[trump]} bidder=1", [card_str(c) for c in line], p, view


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tree_late_in_a_deal(cli, players):
    _, _, p, _ = _played(players, players, 5 * players)
    status, out, err = cli("tree", "carabin", str(p), "--json", "--time-limit", "60")
    assert status == 0 and err == ""
    data = json.loads(out)
    root = next(n for n in data["nodes"] if n["id"] == str(p))
    assert root["value"]["bidder"] == carabin.value(p)


def test_tree_of_a_random_deal(cli):
    status, out, err = cli("tree", "carabin", "--random", "--seed", "3", "--all", "--depth", "2")
    deal = get_game("carabin").random_deal(3)
    root = deal.position(bidder=0, trump=deal.turn >> 4)
    assert status == 0 and err == ""
    assert out.startswith(f"Trick tree of {root} (every legal line to 2 cards)")


@pytest.mark.parametrize("players", ["5", "6"])
def test_tree_of_a_whole_deal_of_many_players_stops_at_the_time_limit(cli, players):
    argv = ["tree", "carabin", "--random", "--seed", "1", "--players", players]
    status, out, err = cli(*argv, "--time-limit", "0.3")
    assert_one_error_line(status, out, err, "within the time limit (0.3 s;", "positions so far")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["tree", "carabin", "trump=S", "--random"], ["either a position or --random"]),
        (["tree", "carabin", "--seed", "2"], ["--seed goes with --random"]),
        (["tree", "carabin", "--players", "5"], ["--players goes with --random"]),
        (["tree", "carabin"], ["no position given"]),
        (["tree", "carabin", "--random", "--players", "7"], ["invalid --players 7"]),
    ],
)
def test_tree_bad_input(cli, argv, named):
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, *named)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_review_late_in_a_deal(cli, players):
    _, _, start, _ = _played(players, players, 4 * players)
    rng = random.Random(players)
    cards, p = [], start
    for _ in range(players + 1):
        cards.append(rng.choice(p.legal_moves()))
        p = p.play(cards[-1])
    status, out, err = cli(
        "review", "carabin", str(start), "--play", " ".join(map(card_str, cards)), "--json"
    )
    assert status == 0 and err == ""
    assert [row["card"] for row in json.loads(out)["plays"]] == [card_str(c) for c in cards]


def test_review_of_a_whole_deal_of_six_within_a_time_limit(cli):
    # a limit no search can meet: the first search stops at once
    deal, line, _, _ = _played(6, 1, 7)
    status, out, err = cli(
        "review", "carabin", deal, "--play", " ".join(line), "--time-limit", "0.000001"
    )
    assert_one_error_line(status, out, err, "not finished within the time limit (1e-06 s;")


def test_review_checks_the_whole_line_before_searching(cli):
    deal, line, _, _ = _played(6, 1, 7)
    status, out, err = cli("review", "carabin", deal, "--play", " ".join([*line, line[0]]))
    assert_one_error_line(status, out, err, f"card 8 {line[0]}", "may not be played")


@pytest.mark.parametrize("players", [5, 6])
def test_advise_at_many_players(cli, players):
    _, _, _, view = _played(players, players, 6 * players)
    status, out, err = cli("advise", "carabin", view, "--samples", "20", "--seed", "1", "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["samples"] == 20


def test_advise_at_the_first_trick_of_six_within_a_time_limit(cli):
    _, _, _, view = _played(6, 2, 3)
    status, out, err = cli(
        "advise", "carabin", view, "--samples", "200", "--seed", "1", "--time-limit", "1"
    )
    if status == 0:  # some worlds solved: the note says how many
        assert "rests on" in err
    else:
        assert_one_error_line(status, out, err, "no world was solved within the time limit")


@pytest.mark.parametrize("players", ["5", "6"])
def test_puzzles_at_many_players(cli, players):
    argv = ["puzzles", "generate", "carabin", "--players", players, "--count", "1", "--seed", "1"]
    status, out, _ = cli(*argv, "--json", "--time-limit", "60")
    puzzle = json.loads(out)
    assert status == 0 and puzzle["game"] == "carabin"
    assert len(carabin.Position.parse(puzzle["position"]).hands) == int(players)


def test_puzzles_time_limit_keeps_what_was_found(cli):
    argv = ["puzzles", "generate", "carabin", "--players", "6", "--cards", "6", "--count", "3"]
    status, out, err = cli(*argv, "--seed", "2", "--json", "--time-limit", "0.2")
    assert status == 1
    assert "puzzles within the time limit (0.2 s" in err and err.count("\n") == 1
    assert len(out.splitlines()) < 3


@pytest.mark.parametrize("what", ["tree", "advice"])
def test_bench_carabin_tree_and_advice(cli, what):
    argv = ["bench", "carabin", "--what", what, "--players", "4", "--deals", "2", "--json"]
    status, out, _ = cli(*argv, "--tricks", "3")
    report = json.loads(out)
    assert status == 0
    assert (report["what"], report["players"], report["deals"], report["tricks"]) == (
        what,
        4,
        2,
        3,
    )
    assert report["max_s"] >= report["median_s"] > 0
    if what == "tree":
        assert report["max_nodes"] >= report["median_nodes"] > 1
    else:
        assert report["median_worlds"] == 200


def test_bench_carabin_tree_counts_the_trees_over_the_time_limit(cli):
    argv = ["bench", "carabin", "--what", "tree", "--players", "5", "--deals", "1"]
    status, out, _ = cli(*argv, "--tricks", "8", "--time-limit", "0.2", "--json")
    report = json.loads(out)
    assert status == 0 and report["over_limit"] == 1 and report["time_limit_s"] == 0.2
    status, out, _ = cli(*argv, "--tricks", "8", "--time-limit", "0.2")
    assert status == 0 and "1 of 1 ran out of the 0.2 s limit" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["bench", "klabberjass", "--what", "tree", "--tricks", "3"], ["--tricks goes with"]),
        (["bench", "carabin", "--what", "exact", "--tricks", "3"], ["--tricks goes with"]),
        (["bench", "carabin", "--what", "tree", "--tricks", "9"], ["invalid --tricks 9"]),
    ],
)
def test_bench_tricks_bad_input(cli, argv, named):
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, *named)
