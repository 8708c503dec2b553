"""The ``tricklab`` command line for Klabberjass (SPEC §4): solve, bench, demo, bad input."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.cli.main import main
from solver.cards import card_str
from solver.klabberjass import Position
from solver.klabberjass.engine import solve_klabberjass
from solver.reference import klabberjass_moves, klabberjass_points

SIMPLE = "trump=H lead=E E=A... D=K..."
TWO_TRICKS = "trump=H lead=E E=A.7.. D=T.J.."  # 7H is best: D overtrumps, E takes TS later
UNFINISHED = "trump=H lead=E E=A... D=T.J.. trick=7H"
TERMINAL = "trump=H lead=E E=... D=..."


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_lines(out: str) -> list[dict]:
    assert out.endswith("\n")
    return [json.loads(line) for line in out.splitlines()]


def assert_one_error_line(status: int, out: str, err: str, *named: str) -> None:
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("tricklab: error: ")
    assert "Traceback" not in err
    for text in named:
        assert text in err, (text, err)


# ---------------------------------------------------------------- solve --json


def test_solve_json_exact(capsys) -> None:
    status, out, err = run(capsys, "solve", "klabberjass", SIMPLE, "--json")
    assert status == 0 and err == ""
    assert json_lines(out) == [{"points": {"E": 25, "D": 0}, "best": "AS", "pv": ["AS", "KS"]}]
    assert out == '{"points": {"E": 25, "D": 0}, "best": "AS", "pv": ["AS", "KS"]}\n'


def test_solve_json_two_tricks(capsys) -> None:
    status, out, _ = run(capsys, "solve", "klabberjass", TWO_TRICKS, "--json")
    assert status == 0
    assert json_lines(out) == [
        {"points": {"E": 31, "D": 20}, "best": "7H", "pv": ["7H", "JH", "TS", "AS"]}
    ]


def test_solve_json_unfinished_trick_and_any_spelling(capsys) -> None:
    spelled = "trick=h7 D=10.j.. E=a... lead=e trump=♥"
    status, out, _ = run(capsys, "solve", "klabberjass", spelled, "--json", "--moves")
    assert status == 0
    assert json_lines(out) == [
        {"points": {"E": 31, "D": 20}, "best": "JH", "pv": ["JH", "TS", "AS"], "moves": {"JH": 20}}
    ]


def test_solve_json_terminal_position(capsys) -> None:
    status, out, _ = run(capsys, "solve", "klabberjass", TERMINAL, "--json")
    assert status == 0
    assert json_lines(out) == [{"points": {"E": 0, "D": 0}, "best": None, "pv": []}]


def test_solve_moves(capsys) -> None:
    status, out, _ = run(capsys, "solve", "klabberjass", TWO_TRICKS, "--json", "--moves")
    assert status == 0
    (answer,) = json_lines(out)
    assert answer["moves"] == {"AS": 21, "7H": 31}
    p = Position.parse(TWO_TRICKS)
    assert answer["moves"] == {card_str(c): v for c, v in klabberjass_moves(p).items()}
    assert answer["points"]["E"] == max(answer["moves"].values()) == klabberjass_points(p)[0]


def test_solve_moves_for_the_dealer(capsys) -> None:
    """Per-card values are the mover's points, here D's."""
    text = "trump=S lead=D E=AK.7.. D=..AT.8"
    status, out, _ = run(capsys, "solve", "klabberjass", text, "--json", "--moves")
    assert status == 0
    (answer,) = json_lines(out)
    p = Position.parse(text)
    assert answer["moves"] == {card_str(c): v for c, v in klabberjass_moves(p).items()}
    assert answer["points"] == dict(zip("ED", klabberjass_points(p), strict=True))
    assert answer["points"]["D"] == max(answer["moves"].values())


def test_solve_with_classic_rules_and_table_size(capsys) -> None:
    status, out, _ = run(
        capsys, "solve", "klabberjass", SIMPLE, "--json", "--rules", "classic", "--tt-mb", "1"
    )
    assert status == 0
    assert json_lines(out)[0]["points"] == {"E": 25, "D": 0}


# ---------------------------------------------------------------- batch mode


def test_batch_one_json_line_per_input_line_in_order(capsys, monkeypatch) -> None:
    lines = [SIMPLE, "", TWO_TRICKS, "   ", UNFINISHED, TERMINAL, ""]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, err = run(capsys, "solve", "klabberjass", "-", "--json")
    assert status == 0 and err == ""
    expected = [
        solve_klabberjass(Position.parse(t)).to_json() for t in (SIMPLE, TWO_TRICKS, UNFINISHED)
    ]
    expected.append({"points": {"E": 0, "D": 0}, "best": None, "pv": []})
    assert json_lines(out) == expected
    assert expected[0]["points"] == {"E": 25, "D": 0}
    assert expected[1]["points"] == expected[2]["points"] == {"E": 31, "D": 20}


def test_batch_with_moves(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{TWO_TRICKS}\n{SIMPLE}"))
    status, out, _ = run(capsys, "solve", "klabberjass", "-", "--json", "--moves")
    assert status == 0
    assert [a["moves"] for a in json_lines(out)] == [{"AS": 21, "7H": 31}, {"AS": 25}]


def test_batch_readable(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n\n{TWO_TRICKS}\n"))
    status, out, _ = run(capsys, "solve", "klabberjass", "-")
    assert status == 0
    assert out.count("Double-dummy points from here") == 2
    assert out.index("E 25, D 0") < out.index("E 31, D 20")


@pytest.mark.parametrize("json_flag", [["--json"], []])
def test_batch_with_a_bad_line_prints_nothing_but_the_error(capsys, monkeypatch, json_flag) -> None:
    bad = "trump=H lead=E E=AX... D=K..."
    text = f"{SIMPLE}\n\n{bad}\n{TWO_TRICKS}\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out, err = run(capsys, "solve", "klabberjass", "-", *json_flag)
    assert_one_error_line(status, out, err, "line 3", "'X'", bad)


def test_batch_with_an_impossible_position_in_the_middle(capsys, monkeypatch) -> None:
    bad = "trump=H lead=E E=A... D=A..."
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n{bad}\n{SIMPLE}\n"))
    status, out, err = run(capsys, "solve", "klabberjass", "-", "--json")
    assert_one_error_line(status, out, err, "line 2", "AS", "both hands")


def test_batch_with_no_position(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n  \n"))
    status, out, err = run(capsys, "solve", "klabberjass", "-", "--json")
    assert_one_error_line(status, out, err, "no position")


# ---------------------------------------------------------------- readable output


def test_solve_readable(capsys) -> None:
    status, out, err = run(capsys, "solve", "klabberjass", SIMPLE)
    assert status == 0 and err == ""
    assert "{" not in out
    assert "E 25, D 0" in out
    assert "Best card: AS" in out
    assert "AS KS" in out  # the optimal line
    assert "♠ A" in out and "♠ K" in out


def test_solve_readable_moves_and_unfinished_trick(capsys) -> None:
    status, out, _ = run(capsys, "solve", "klabberjass", UNFINISHED, "--moves")
    assert status == 0
    assert "E 31, D 20" in out and "Best card: JH" in out
    assert "7H" in out  # the card already led
    assert "JH 20" in out  # the value of the only legal card


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "argv, named",
    [
        # positions
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
        # the command line itself
        (["solve", "poker", SIMPLE], ["'poker'"]),
        (["frobnicate", "klabberjass", SIMPLE], ["'frobnicate'"]),
        (["solve", "klabberjass", SIMPLE, "--bogus"], ["--bogus"]),
        (["solve", "klabberjass", SIMPLE, "--rules", "nonsense"], ["'nonsense'"]),
        (["solve", "klabberjass", SIMPLE, "--tt-mb", "0"], ["--tt-mb 0"]),
        (["solve", "klabberjass", SIMPLE, "--tt-mb", "lots"], ["--tt-mb", "'lots'"]),
        (["solve", "klabberjass"], ["position"]),
        ([], ["<verb>"]),
        (["bench", "klabberjass", "--deals", "0"], ["--deals 0"]),
        (["bench", "klabberjass", "--deals", "2", "--rules", "nonsense"], ["'nonsense'"]),
    ],
)
def test_bad_input_one_line_status_2(capsys, argv: list[str], named: list[str]) -> None:
    status, out, err = run(capsys, *argv)
    assert_one_error_line(status, out, err, *named)


def test_bad_tt_mb_in_batch_mode_prints_nothing(capsys, monkeypatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{SIMPLE}\n"))
    status, out, err = run(capsys, "solve", "klabberjass", "-", "--json", "--tt-mb", "0")
    assert_one_error_line(status, out, err, "--tt-mb")


# ---------------------------------------------------------------- bench and demo

BENCH_KEYS = {
    "deals",
    "seed",
    "engine_solves_per_second",
    "engine_median_ms",
    "engine_mean_ms",
    "engine_max_ms",
    "batch_us_per_position",
    "single_call_us_per_position",
    "reference_deals",
    "reference_median_ms",
    "speedup_median_same_deals",
}


def test_bench_json(capsys) -> None:
    argv = ["bench", "klabberjass", "--deals", "3", "--seed", "1", "--reference-deals", "1"]
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0 and err == ""
    (report,) = json_lines(out)
    assert BENCH_KEYS <= set(report), BENCH_KEYS - set(report)
    assert report["deals"] == 3 and report["seed"] == 1 and report["reference_deals"] == 1
    for key in BENCH_KEYS - {"deals", "seed", "reference_deals"}:
        assert isinstance(report[key], int | float) and report[key] > 0, key
    assert report["engine_max_ms"] >= report["engine_median_ms"]


def test_bench_readable_without_reference(capsys) -> None:
    argv = ["bench", "klabberjass", "--deals", "3", "--seed", "2", "--reference-deals", "0"]
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == ""
    assert "3 random full 9-card deals (seed 2)" in out
    assert "solves/s" in out and "median" in out
    assert "reference" not in out


def test_demo_prints_a_solved_deal(capsys) -> None:
    status, out, err = run(capsys, "demo")
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


def test_demo_for_klabberjass_explicitly(capsys) -> None:
    status, out, _ = run(capsys, "demo", "klabberjass")
    assert status == 0 and "Best card: " in out


# ---------------------------------------------------------------- the installed program


def _console_script() -> str:
    beside = Path(sys.executable).with_name("tricklab")
    found = str(beside) if beside.exists() else shutil.which("tricklab")
    assert found, "the tricklab console script is not installed"
    return found


def test_console_script_entry_point() -> None:
    done = subprocess.run(
        [_console_script(), "solve", "klabberjass", SIMPLE, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == {
        "points": {"E": 25, "D": 0},
        "best": "AS",
        "pv": ["AS", "KS"],
    }


def test_console_script_bad_input() -> None:
    done = subprocess.run(
        [_console_script(), "solve", "klabberjass", "trump=H lead=E E=A... D=A...", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "both hands" in done.stderr


HEAVY = ("numpy", "networkx", "matplotlib", "pandas", "scipy", "pyarrow")


def test_solver_imports_nothing_heavy() -> None:
    code = (
        "import sys, solver, analysis.cli.main, solver.klabberjass.engine\n"
        "from analysis.cli.main import main\n"
        f"assert main(['solve', 'klabberjass', {SIMPLE!r}, '--json']) == 0\n"
        f"heavy = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout, done.stdout
