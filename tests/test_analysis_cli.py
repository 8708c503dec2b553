"""tricklab tree / review / advise through main(argv), and the notebook under nbclient."""

from __future__ import annotations

import json

import pytest

from analysis.cli.main import main

POS = "trump=H lead=E E=A.7.. D=K.8.."
VIEW = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"


def run(argv, capsys):
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_tree_json_is_node_link(capsys):
    status, out, err = run(["tree", "klabberjass", POS, "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and err == ""
    assert data["graph"]["root"] == POS
    root = next(n for n in data["nodes"] if n["id"] == POS)
    assert root["value"] == {"E": 25, "D": 0}
    assert [link["card"] for link in data["links"] if link["source"] == POS] == ["7H"]


def test_tree_all_to_a_depth_marks_losses(capsys):
    status, out, _ = run(["tree", "klabberjass", POS, "--json", "--all", "--depth", "1"], capsys)
    links = {link["card"]: link for link in json.loads(out)["links"]}
    assert status == 0
    assert (links["AS"]["loss"], links["AS"]["optimal"]) == (10, False)
    assert (links["7H"]["loss"], links["7H"]["optimal"]) == (0, True)


def test_tree_readable_names_the_critical_card(capsys):
    status, out, _ = run(["tree", "klabberjass", POS], capsys)
    assert status == 0 and "E must play 7H" in out


def test_review_json(capsys):
    status, out, _ = run(["review", "klabberjass", POS, "--play", "AS KS 7H 8H", "--json"], capsys)
    plays = json.loads(out)["plays"]
    assert status == 0
    assert [(p["card"], p["loss"], p["best"]) for p in plays] == [
        ("AS", 10, ["7H"]),
        ("KS", 0, ["KS"]),
        ("7H", 0, ["7H"]),
        ("8H", 0, ["8H"]),
    ]


def test_review_of_a_deal_with_trump(capsys):
    deal = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"
    status, out, _ = run(["review", "klabberjass", deal, "--play", "AS 8S", "--json"], capsys)
    assert status == 0 and len(json.loads(out)["plays"]) == 2


def test_advise_json(capsys):
    argv = ["advise", "klabberjass", VIEW, "--samples", "30", "--seed", "2", "--json"]
    status, out, _ = run(argv + ["--workers", "1"], capsys)
    data = json.loads(out)
    assert status == 0 and data["samples"] == 30
    assert data["best"] in data["moves"]
    assert all(
        0 <= m["best_rate"] <= 1 and m["min"] <= m["mean"] <= m["max"]
        for m in data["moves"].values()
    )
    assert run(argv, capsys)[1] == out  # same seed, same advice


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["review", "klabberjass", POS, "--play", "AS 8H"], "card 2 8H"),
        (["review", "klabberjass", POS, "--play", "AS XX"], "'XX'"),
        (["review", "klabberjass", POS, "--play", "AS KS 7H 8H 9H"], "the play is over"),
        (
            [
                "review",
                "klabberjass",
                "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C",
                "--play",
                "AS",
            ],
            "needs trump=",
        ),
        (["tree", "klabberjass", POS, "--depth", "2"], "--depth goes with --all"),
        (
            ["tree", "klabberjass", "trump=H lead=E E=A.7.. D=K.8..", "--max-nodes", "2"],
            "more than 2",
        ),
        (["advise", "klabberjass", VIEW, "--samples", "0"], "--samples 0"),
        (["review", "carabin", "0=A.../K... 1=.../Q... turn=2C", "--play", "AS"], "0="),
    ],
)
def test_bad_input_one_line_exit_2(argv, words, capsys):
    status, out, err = run(argv, capsys)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert words in err


def test_carabin_tree_and_review(capsys):
    pos = "trump=S bidder=0 lead=1 next=L 0=A.../K... 1=Q.../2... 2=3.../.4.."
    status, out, _ = run(["tree", "carabin", pos, "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["graph"]["sides"] == ["bidder", "others"]
    status, out, _ = run(["review", "carabin", pos, "--play", "QS", "--json"], capsys)
    assert status == 0 and json.loads(out)["plays"][0]["seat"] == "1"


def test_bench_tree_and_advice(capsys):
    for what in ("tree", "advice"):
        status, out, _ = run(
            ["bench", "klabberjass", "--what", what, "--deals", "1", "--json"], capsys
        )
        assert status == 0 and json.loads(out)["median_s"] > 0
