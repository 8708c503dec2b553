"""``tricklab review``: the loss of every card played, from a position or a deal."""

from __future__ import annotations

import json

import pytest

POS = "trump=H lead=E E=A.7.. D=K.8.."


def test_review_json(cli):
    status, out, _ = cli("review", "klabberjass", POS, "--play", "AS KS 7H 8H", "--json")
    plays = json.loads(out)["plays"]
    assert status == 0
    assert [(p["card"], p["loss"], p["best"]) for p in plays] == [
        ("AS", 10, ["7H"]),
        ("KS", 0, ["KS"]),
        ("7H", 0, ["7H"]),
        ("8H", 0, ["8H"]),
    ]


def test_review_of_a_deal_with_trump(cli):
    deal = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"
    status, out, _ = cli("review", "klabberjass", deal, "--play", "AS 8S", "--json")
    assert status == 0 and len(json.loads(out)["plays"]) == 2


def test_carabin_review(cli):
    pos = "trump=S bidder=0 lead=1 next=L 0=A.../K... 1=Q.../2... 2=3.../.4.."
    status, out, _ = cli("review", "carabin", pos, "--play", "QS", "--json")
    assert status == 0 and json.loads(out)["plays"][0]["seat"] == "1"


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
        (["review", "carabin", "0=A.../K... 1=.../Q... turn=2C", "--play", "AS"], "0="),
        (["review", "klabberjass", POS, "--play", "AS", "KS"], "put it in quotes"),
    ],
)
def test_bad_input_one_line_exit_2(cli, argv, words):
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert words in err
