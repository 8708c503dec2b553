"""``tricklab demo``: a built-in deal of either game, its table and the card play."""

from __future__ import annotations

import re


def test_demo_prints_a_solved_deal(cli) -> None:
    status, out, err = cli("demo")
    assert status == 0 and err == ""
    best = re.search(r"Best contract: ([ED]) takes (\S)", out)
    points = re.search(r"Double-dummy points from here: E (\d+), D (\d+)", out)
    assert best and points and "Best card: " in out
    bidder, suit = best.group(1), best.group(2)
    # the card play agrees with the table row of the best contract
    row = re.search(rf"^\s+{suit} \w\s+{bidder}\s+(\d+)-(\d+)\s", out, re.M)
    assert row, out
    assert row.groups() == points.groups()
    line = re.search(r"Optimal line: (.*)", out)
    assert line and len(line.group(1).split(" | ")) == 9


def test_demo_for_klabberjass_explicitly(cli) -> None:
    status, out, _ = cli("demo", "klabberjass")
    assert status == 0 and "Best card: " in out


def test_demo_carabin(cli) -> None:
    status, out, err = cli("demo", "carabin")
    assert status == 0 and err == ""
    best = re.search(r"Best contract: seat (\d) takes (\S) \((made|not made), (\d+) of", out)
    points = re.search(r"Double-dummy points from here: bidder (\d+), others (\d+)", out)
    assert best and points, out
    bidder, suit, _, taken = best.groups()
    # the card play agrees with the table row of the best contract
    assert re.search(rf"^\s+{bidder}\s+{suit} \w\s+{taken}\s", out, re.M), out
    assert points.group(1) == taken
    line = re.search(r"Optimal line: (.*)", out)
    assert line, out
    tricks = line.group(1).split(" | ")
    assert len(tricks) == 8  # four tricks of left hands, four of right hands
    assert {len(t.split()) for t in tricks} == {3}  # the built-in deal has three players
