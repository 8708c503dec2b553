"""``tricklab tree``: node-link JSON, every line to a depth, the readable summary."""

from __future__ import annotations

import json

import pytest

POS = "trump=H lead=E E=A.7.. D=K.8.."


def test_tree_json_is_node_link(cli):
    status, out, err = cli("tree", "klabberjass", POS, "--json")
    data = json.loads(out)
    assert status == 0 and err == ""
    assert data["graph"]["root"] == POS
    root = next(n for n in data["nodes"] if n["id"] == POS)
    assert root["value"] == {"E": 25, "D": 0}
    assert [link["card"] for link in data["edges"] if link["source"] == POS] == ["7H"]


def test_tree_all_to_a_depth_marks_losses(cli):
    status, out, _ = cli("tree", "klabberjass", POS, "--json", "--all", "--depth", "1")
    links = {link["card"]: link for link in json.loads(out)["edges"]}
    assert status == 0
    assert (links["AS"]["loss"], links["AS"]["optimal"]) == (10, False)
    assert (links["7H"]["loss"], links["7H"]["optimal"]) == (0, True)


def test_tree_readable_names_the_critical_card(cli):
    status, out, _ = cli("tree", "klabberjass", POS)
    assert status == 0 and "E must play 7H" in out


def test_carabin_tree(cli):
    pos = "trump=S bidder=0 lead=1 next=L 0=A.../K... 1=Q.../2... 2=3.../.4.."
    status, out, _ = cli("tree", "carabin", pos, "--json")
    data = json.loads(out)
    assert status == 0 and data["graph"]["sides"] == ["bidder", "others"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["tree", "klabberjass", POS, "--depth", "2"], "--depth goes with --all"),
        (["tree", "klabberjass", POS, "--all"], "--all needs --depth"),
        (
            ["tree", "klabberjass", "trump=H lead=E E=A.7.. D=K.8..", "--max-nodes", "2"],
            "more than 2",
        ),
        (["tree", "klabberjass", POS, "--max-nodes", "0"], "--max-nodes 0"),
    ],
)
def test_bad_input_one_line_exit_2(cli, argv, words):
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert words in err
