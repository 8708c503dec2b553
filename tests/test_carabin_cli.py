"""The Carabin command line: solve, deal, bench, batch mode, bad input, Ctrl-C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis.cli.main import main
from solver.carabin import Deal
from solver.cards import suit_of

DATA = Path(__file__).parent / "data"
POS = "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."


def run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json(capsys):
    code, out, err = run(capsys, "solve", "carabin", POS, "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "points": {"bidder": 0, "others": 16},
        "best": "JS",
        "all_tricks": False,
    }


def test_solve_moves_json(capsys):
    code, out, _ = run(capsys, "solve", "carabin", POS, "--json", "--moves")
    assert code == 0
    assert json.loads(out)["moves"] == {"JS": 16, "KS": 16}


def test_solve_readable(capsys):
    code, out, _ = run(capsys, "solve", "carabin", POS, "--moves")
    assert code == 0
    assert "bidder 0, others 16" in out
    assert "Best card: JS" in out
    assert "JS 16  KS 16" in out
    assert "To play: seat 1, L hand" in out


def test_solve_batch_one_line_each_in_order(capsys, monkeypatch):
    lines = (DATA / "carabin-positions.jsonl").read_text().splitlines()[:25]
    golden = [json.loads(line) for line in lines]
    stdin = "\n".join(g["position"] for g in golden) + "\n\n"
    code, out, err = run(
        capsys, "solve", "carabin", "-", "--json", "--moves", stdin=stdin, monkeypatch=monkeypatch
    )
    assert (code, err) == (0, "")
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(golden)
    for a, g in zip(answers, golden, strict=True):
        assert (a["points"], a["all_tricks"], a["moves"]) == (
            g["points"],
            g["all_tricks"],
            g["moves"],
        )


def test_batch_with_a_bad_line_prints_only_the_error(capsys, monkeypatch):
    stdin = POS + "\ntrump=H bidder=2 lead=1\n"
    code, out, err = run(
        capsys, "solve", "carabin", "-", "--json", stdin=stdin, monkeypatch=monkeypatch
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "line 2" in err


def test_deal_json_matches_golden(capsys):
    for line in (DATA / "carabin-deals.jsonl").read_text().splitlines():
        g = json.loads(line)
        code, out, _ = run(capsys, "deal", "carabin", g["deal"], "--json")
        assert code == 0
        assert json.loads(out) == {"points_in_play": g["points_in_play"], "table": g["table"]}


def test_deal_readable(capsys):
    g = json.loads((DATA / "carabin-deals.jsonl").read_text().splitlines()[1])
    code, out, _ = run(capsys, "deal", "carabin", g["deal"])
    assert code == 0
    assert "Points in play: 18" in out
    assert len([x for x in out.splitlines() if x.strip().startswith(("0 ", "1 ", "2 "))]) == 12


def test_deal_random_is_seeded(capsys):
    code, out, _ = run(
        capsys, "deal", "carabin", "--random", "--seed", "9", "--players", "3", "--json"
    )
    assert code == 0
    first = json.loads(out)
    assert first["deal"] == str(Deal.random(players=3, seed=9))
    assert len(first["table"]) == 12
    _, again, _ = run(
        capsys, "deal", "carabin", "--random", "--seed", "9", "--players", "3", "--json"
    )
    assert json.loads(again) == first


def test_deal_left_then_right(capsys):
    g = json.loads((DATA / "carabin-deals.jsonl").read_text().splitlines()[0])
    code, out, _ = run(
        capsys,
        "deal",
        "carabin",
        g["deal"] + " bidder=0 trump=S",
        "--json",
        "--rules",
        "left_then_right",
    )
    assert code == 0
    assert len(json.loads(out)["table"]) == 1


def test_bench_json(capsys):
    code, out, _ = run(
        capsys,
        "bench",
        "carabin",
        "--players",
        "3",
        "--deals",
        "3",
        "--seed",
        "2",
        "--reference-deals",
        "5",
        "--what",
        "exact,make,chelem",
        "--json",
    )
    assert code == 0
    report = json.loads(out)
    assert report["players"] == 3 and report["deals"] == 3
    for k in ("exact", "make", "chelem"):
        assert report[k]["max_ms"] >= report[k]["median_ms"] >= 0
    assert report["reference"] == {"positions": 5, "disagreements": 0}


def test_bench_readable(capsys):
    code, out, _ = run(capsys, "bench", "carabin", "--players", "6", "--deals", "2")
    assert code == 0
    assert "make/fail probe" in out and "6 players" in out


BAD = [
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
    ["deal", "carabin"],
    ["deal", "carabin", "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 turn=QS"],
    ["deal", "carabin", "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=AS"],
    ["deal", "carabin", "--random", "--players", "7"],
    ["deal", "carabin", "--random", "--players", "2"],
    ["bench", "carabin", "--players", "9", "--deals", "1"],
    ["bench", "carabin", "--players", "4", "--deals", "0"],
    ["bench", "carabin", "--players", "4", "--deals", "1", "--what", "speed"],
]


@pytest.mark.parametrize("argv", BAD)
def test_bad_input_exits_2_with_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("tricklab: error: ") and err.count("\n") == 1


def test_ctrl_c_interrupts_a_long_solve():
    d = Deal.random(players=5, seed=0)
    position = str(d.position(bidder=2, trump=suit_of(d.turn)))  # takes seconds to solve exactly
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from analysis.cli.main import main; sys.exit(main(sys.argv[1:]))",
            "solve",
            "carabin",
            position,
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    time.sleep(1.5)  # imports done, deep in the search
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert time.perf_counter() - t0 < 2
    assert proc.returncode == 130
    assert out == "" and "interrupted" in err
