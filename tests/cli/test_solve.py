"""``tricklab solve``: answers, batch mode, readable output, bad positions, Ctrl-C."""

from __future__ import annotations

import io
import json
import re
import sys
import time

import pytest

from analysis.cli import solve as solve_cli
from analysis.cli.main import main
from solver import klabberjass
from solver.carabin import Deal as CarabinDeal
from solver.cards import card_str
from solver.klabberjass import Position
from solver.reference import klabberjass_moves, klabberjass_points

from ..processes import interrupt_cli
from .helpers import DATA, Terminal, assert_one_error_line, json_lines

SIMPLE = "trump=H lead=E E=A... D=K..."
TWO_TRICKS = "trump=H lead=E E=A.7.. D=T.J.."  # 7H is best: D overtrumps, E takes TS later
UNFINISHED = "trump=H lead=E E=A... D=T.J.. trick=7H"
TERMINAL = "trump=H lead=E E=... D=..."
POS = "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."


# ---------------------------------------------------------------- klabberjass --json


def test_solve_json_exact(cli) -> None:
    status, out, err = cli("solve", "klabberjass", SIMPLE, "--json")
    assert status == 0 and err == ""
    assert json_lines(out) == [{"points": {"E": 25, "D": 0}, "best": "AS", "pv": ["AS", "KS"]}]
    assert out == '{"points": {"E": 25, "D": 0}, "best": "AS", "pv": ["AS", "KS"]}\n'


def test_solve_json_two_tricks(cli) -> None:
    status, out, _ = cli("solve", "klabberjass", TWO_TRICKS, "--json")
    assert status == 0
    assert json_lines(out) == [
        {"points": {"E": 31, "D": 20}, "best": "7H", "pv": ["7H", "JH", "TS", "AS"]}
    ]


def test_solve_json_unfinished_trick_and_any_spelling(cli) -> None:
    spelled = "trick=h7 D=10.j.. E=a... lead=e trump=♥"
    status, out, _ = cli("solve", "klabberjass", spelled, "--json", "--moves")
    assert status == 0
    assert json_lines(out) == [
        {"points": {"E": 31, "D": 20}, "best": "JH", "pv": ["JH", "TS", "AS"], "moves": {"JH": 20}}
    ]


def test_solve_json_terminal_position(cli) -> None:
    status, out, _ = cli("solve", "klabberjass", TERMINAL, "--json")
    assert status == 0
    assert json_lines(out) == [{"points": {"E": 0, "D": 0}, "best": None, "pv": []}]


def test_solve_moves(cli) -> None:
    status, out, _ = cli("solve", "klabberjass", TWO_TRICKS, "--json", "--moves")
    assert status == 0
    (answer,) = json_lines(out)
    assert answer["moves"] == {"AS": 21, "7H": 31}
    p = Position.parse(TWO_TRICKS)
    assert answer["moves"] == {card_str(c): v for c, v in klabberjass_moves(p).items()}
    assert answer["points"]["E"] == max(answer["moves"].values()) == klabberjass_points(p)[0]


def test_solve_moves_for_the_dealer(cli) -> None:
    """Per-card values are the mover's points, here D's."""
    text = "trump=S lead=D E=AK.7.. D=..AT.8"
    status, out, _ = cli("solve", "klabberjass", text, "--json", "--moves")
    assert status == 0
    (answer,) = json_lines(out)
    p = Position.parse(text)
    assert answer["moves"] == {card_str(c): v for c, v in klabberjass_moves(p).items()}
    assert answer["points"] == dict(zip("ED", klabberjass_points(p), strict=True))
    assert answer["points"]["D"] == max(answer["moves"].values())


def test_solve_with_classic_rules_and_table_size(cli) -> None:
    status, out, _ = cli(
        "solve", "klabberjass", SIMPLE, "--json", "--rules", "classic", "--tt-mb", "1"
    )
    assert status == 0
    assert json_lines(out)[0]["points"] == {"E": 25, "D": 0}


# ---------------------------------------------------------------- klabberjass batch mode


def test_batch_one_json_line_per_input_line_in_order(cli, monkeypatch) -> None:
    lines = [SIMPLE, TWO_TRICKS, UNFINISHED, TERMINAL]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, err = cli("solve", "klabberjass", "-", "--json")
    assert status == 0 and err == ""
    expected = [
        klabberjass.solve(Position.parse(t)).to_json() for t in (SIMPLE, TWO_TRICKS, UNFINISHED)
    ]
    expected.append({"points": {"E": 0, "D": 0}, "best": None, "pv": []})
    assert json_lines(out) == expected
    assert expected[0]["points"] == {"E": 25, "D": 0}
    assert expected[1]["points"] == expected[2]["points"] == {"E": 31, "D": 20}


def test_batch_blank_lines_get_an_error_line_each(cli, monkeypatch) -> None:
    lines = [SIMPLE, "", TWO_TRICKS, "   "]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, err = cli("solve", "klabberjass", "-", "--json")
    answers = json_lines(out)
    assert status == 2 and len(answers) == 4
    assert answers[0]["points"] == {"E": 25, "D": 0}
    assert answers[2]["points"] == {"E": 31, "D": 20}
    assert answers[1]["line"] == 2 and "blank" in answers[1]["error"]
    assert answers[3]["line"] == 4 and "blank" in answers[3]["error"]
    assert err.count("\n") == 2 and "line 2" in err and "line 4" in err


def test_batch_with_moves(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{TWO_TRICKS}\n{SIMPLE}"))
    status, out, _ = cli("solve", "klabberjass", "-", "--json", "--moves")
    assert status == 0
    assert [a["moves"] for a in json_lines(out)] == [{"AS": 21, "7H": 31}, {"AS": 25}]


def test_batch_readable(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n{TWO_TRICKS}\n"))
    status, out, _ = cli("solve", "klabberjass", "-")
    assert status == 0
    assert out.count("Double-dummy points from here") == 2
    assert out.index("E 25, D 0") < out.index("E 31, D 20")


def test_batch_with_a_bad_line_answers_the_others(cli, monkeypatch) -> None:
    bad = "trump=H lead=E E=AX... D=K..."
    text = f"{SIMPLE}\n{bad}\n{TWO_TRICKS}\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = cli("solve", "klabberjass", "-", "--json")
    answers = json_lines(out)
    assert status == 2 and len(answers) == 3
    assert answers[0]["points"] == {"E": 25, "D": 0}
    assert answers[2]["points"] == {"E": 31, "D": 20}
    assert set(answers[1]) == {"error", "line"} and answers[1]["line"] == 2
    assert "'X'" in answers[1]["error"] and bad in answers[1]["error"]
    assert err.count("\n") == 1 and err.startswith("tricklab: error: line 2: ")
    assert answers[1]["error"] in err


def test_batch_readable_with_a_bad_line(cli, monkeypatch) -> None:
    bad = "trump=H lead=E E=AX... D=K..."
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n{bad}\n{TWO_TRICKS}\n"))
    status, out, err = cli("solve", "klabberjass", "-")
    assert status == 2 and out.count("Double-dummy points from here") == 2
    assert err.count("\n") == 1 and "line 2" in err and "'X'" in err


def test_batch_with_an_impossible_position_in_the_middle(cli, monkeypatch) -> None:
    bad = "trump=H lead=E E=A... D=A..."
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n{bad}\n{SIMPLE}\n"))
    status, out, err = cli("solve", "klabberjass", "-", "--json")
    answers = json_lines(out)
    assert status == 2 and [a.get("line") for a in answers] == [None, 2, None]
    assert "AS" in answers[1]["error"] and "both hands" in answers[1]["error"]
    assert err.count("\n") == 1 and "line 2" in err


def test_batch_with_no_position(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status, out, err = cli("solve", "klabberjass", "-", "--json")
    assert_one_error_line(status, out, err, "no position")


def test_bad_tt_mb_in_batch_mode_prints_nothing(cli, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n"))
    status, out, err = cli("solve", "klabberjass", "-", "--json", "--tt-mb", "0")
    assert_one_error_line(status, out, err, "--tt-mb")


# ---------------------------------------------------------------- klabberjass readable output


def test_solve_readable(cli) -> None:
    status, out, err = cli("solve", "klabberjass", SIMPLE)
    assert status == 0 and err == ""
    assert "{" not in out
    assert "E 25, D 0" in out
    assert "Best card: AS" in out
    assert "AS KS" in out  # the optimal line
    assert "♠ A" in out and "♠ K" in out


def test_solve_readable_moves_and_unfinished_trick(cli) -> None:
    status, out, _ = cli("solve", "klabberjass", UNFINISHED, "--moves")
    assert status == 0
    assert "E 31, D 20" in out and "Best card: JH" in out
    assert "7H" in out  # the card already led
    assert "JH 20" in out  # the value of the only legal card


# ---------------------------------------------------------------- klabberjass bad input


@pytest.mark.parametrize(
    "argv, named",
    [
        (["solve", "klabberjass", "trump=H lead=E E=AX... D=K..."], ["'X'", "AX..."]),
        (["solve", "klabberjass", "trump=H lead=E E=A... D=K... foo=1", "--json"], ["'foo'"]),
        (["solve", "klabberjass", "trump=H lead=E E=A... D=K... lead=D", "--json"], ["'lead'"]),
        (["solve", "klabberjass", "trump=H lead=E E=A...", "--json"], ["missing D"]),
        (["solve", "klabberjass", "trump=H lead=E E A... D=K...", "--json"], ["'E'"]),
        (["solve", "klabberjass", "trump=H lead=E E=A... D=A...", "--json"], ["AS", "both"]),
        (["solve", "klabberjass", "trump=H lead=E E=A... D=KQ...", "--json"], ["unequal"]),
        (["solve", "klabberjass", "trump=H lead=E E=2... D=K...", "--json"], ["2S", "pack"]),
        (["solve", "klabberjass", "trump=H lead=E E=.. D=K...", "--json"], ["'..'"]),
        (["solve", "klabberjass", "trump=H lead=E E=... D=... trick=AS", "--json"], ["AS"]),
        (["solve", "klabberjass", "trump=H lead=E E=K... D=Q... trick=KS", "--json"], ["KS"]),
        (["solve", "klabberjass", "trump=H lead=E E=A... D=K... trick=2S", "--json"], ["2S"]),
        (["solve", "klabberjass", "trump=Z lead=E E=A... D=K...", "--json"], ["'Z'"]),
        (["solve", "klabberjass", "", "--json"], ["empty position"]),
        (["solve", "klabberjass", SIMPLE, "--rules", "nonsense"], ["'nonsense'"]),
        (["solve", "klabberjass", SIMPLE, "--tt-mb", "0"], ["--tt-mb 0"]),
        (["solve", "klabberjass", SIMPLE, "--tt-mb", "lots"], ["--tt-mb", "'lots'"]),
        (["solve", "klabberjass"], ["position"]),
    ],
)
def test_bad_input_one_line_status_2(cli, argv: list[str], named: list[str]) -> None:
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, *named)


# ---------------------------------------------------------------- carabin


def test_carabin_solve_json(cli):
    code, out, err = cli("solve", "carabin", POS, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "points": {"bidder": 0, "others": 16},
        "best": "JS",
        "all_tricks": False,
    }


def test_carabin_solve_moves_json(cli):
    code, out, _ = cli("solve", "carabin", POS, "--json", "--moves")
    assert code == 0
    assert json.loads(out)["moves"] == {"JS": 16, "KS": 16}


def test_carabin_solve_readable(cli):
    code, out, _ = cli("solve", "carabin", POS, "--moves")
    assert code == 0
    assert "bidder 0, others 16" in out
    assert "Best card: JS" in out
    assert "KS 16  JS 16" in out  # notation order: spades high to low
    assert "To play: seat 1, L hand" in out


def test_carabin_solve_under_the_trick_order_of_rules(cli):
    position = "trump=S bidder=0 lead=0 next=L 0=..53./K..2. 1=.AJ../.2.T. 2=3.K../.76.."
    _, alternate, _ = cli("solve", "carabin", position, "--json")
    _, left_first, _ = cli("solve", "carabin", position, "--json", "--rules", "left_then_right")
    _, named, _ = cli("solve", "carabin", position + " order=left_then_right", "--json")
    assert json.loads(alternate)["points"] == {"bidder": 6, "others": 4}
    assert json.loads(left_first)["points"] == {"bidder": 3, "others": 7}
    assert left_first == named


def test_carabin_batch_one_line_each_in_order(cli):
    lines = (DATA / "carabin-positions.jsonl").read_text().splitlines()[:25]
    golden = [json.loads(line) for line in lines]
    stdin = "\n".join(g["position"] for g in golden) + "\n"
    code, out, err = cli("solve", "carabin", "-", "--json", "--moves", stdin=stdin)
    assert (code, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(golden)
    for a, g in zip(answers, golden, strict=True):
        assert (a["points"], a["all_tricks"], a["moves"]) == (
            g["points"],
            g["all_tricks"],
            g["moves"],
        )


def test_carabin_batch_with_a_bad_line_answers_the_others(cli):
    stdin = POS + "\ntrump=H bidder=2 lead=1\n" + POS + "\n"
    code, out, err = cli("solve", "carabin", "-", "--json", stdin=stdin)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(answers) == 3
    assert answers[0] == answers[2] and "points" in answers[0]
    assert answers[1]["line"] == 2 and "missing" in answers[1]["error"]
    assert err.count("\n") == 1 and "line 2" in err


CARABIN_BAD = [
    ["solve", "carabin", "trump=S bidder=0 lead=0 next=L 0=A.../K... 1=2.../3..."],  # 2 players
    ["solve", "carabin", "trump=S bidder=0 lead=0 next=L 0=A.../A... 1=2.../3... 2=4.../5..."],
    ["solve", "carabin", "trump=S bidder=0 lead=0 next=L 0=AK.../Q... 1=2.../3... 2=4.../5..."],
    [
        "solve",
        "carabin",
        "trump=S bidder=0 lead=0 next=L 0=.../K... 1=.../3... 2=.../5... trick=AS,2S,4S",
    ],
    ["solve", "carabin", "trump=S bidder=0 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5... x=1"],
    ["solve", "carabin", "trump=S bidder=0 lead=0 next=L 0=AX.../K... 1=2.../3... 2=4.../5..."],
    ["solve", "carabin", POS, "--tt-mb", "0"],
    ["solve", "carabin", POS, "--rules", "classic"],
    ["solve", "carabin"],
]


@pytest.mark.parametrize("argv", CARABIN_BAD)
def test_carabin_bad_input_exits_2_with_one_line(cli, argv):
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert err.startswith("tricklab: error: ") and err.count("\n") == 1


def test_ctrl_c_interrupts_a_long_solve():
    # the slowest row of the 6-player deal table of seed 6 (bidder 5, diamonds): some 650 M
    # nodes, most of a minute of CPU, to solve exactly
    position = str(CarabinDeal.random(players=6, seed=6).position(bidder=5, trump=2))
    # imports done (about 0.5 s of CPU), deep in the search
    code, out, err, seconds = interrupt_cli(["solve", "carabin", position, "--json"], cpu=2.5)
    assert seconds < 5  # moments, with room for a loaded machine
    assert code == 130
    assert out == "" and "interrupted" in err


def test_a_long_solve_says_it_is_searching(monkeypatch):
    """A search that runs past a second shows `solve: searching, N s` on a terminal and
    clears it before the answer."""

    real = solve_cli.solve

    def slow(*args, **kwargs):
        time.sleep(1.3)
        return real(*args, **kwargs)

    err, out = Terminal(), io.StringIO()
    monkeypatch.setattr(solve_cli, "solve", slow)
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("sys.stdout", out)
    status = main(
        [
            "solve",
            "carabin",
            "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.",
            "--json",
        ]
    )
    assert status == 0 and '"points"' in out.getvalue()
    shown = err.getvalue()
    assert re.search(
        r"\rsolve: searching \(--time-limit SECONDS answers with proven bounds\), 1 s\033\[K", shown
    )
    assert shown.endswith("\r\033[K")


def test_carabin_workers_give_the_same_answer(cli) -> None:
    start = CarabinDeal.random(seed=5, players=5).position(bidder=2, trump=1)
    answers = []
    for workers in ("1", "2"):
        status, out, err = cli(
            "solve", "carabin", str(start), "--moves", "--json", "--workers", workers
        )
        assert status == 0 and err == ""
        answers.append(json_lines(out))
    assert answers[0] == answers[1] and len(answers[0][0]["moves"]) == 4


def test_carabin_bad_workers_is_one_error_line(cli) -> None:
    status, out, err = cli("solve", "carabin", POS, "--workers", "0")
    assert status == 2 and out == "" and "--workers" in err
