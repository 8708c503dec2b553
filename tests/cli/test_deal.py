"""``tricklab deal``: the deal tables of both games, golden files, random deals, bad input."""

from __future__ import annotations

import io
import json
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from analysis.cli.common import Progress
from solver.carabin import Deal as CarabinDeal
from solver.carabin.table import deal_table
from solver.errors import UsageError
from solver.klabberjass.deal import Deal

from ..processes import interrupt_cli
from .helpers import DATA, Terminal

GOLDEN = DATA / "klabberjass-deals.jsonl"
DEAL = "E=Q9.9.AJ7./K.7..9 D=J7.J8.K.7/.T.9.8 turn=8S"


def golden(rules: str) -> list[dict]:
    rows = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    return [g for g in rows if g["rules"] == rules]


# ---------------------------------------------------------------- klabberjass


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_json_matches_golden(cli, rules: str) -> None:
    for g in golden(rules)[:5]:
        code, out, err = cli("deal", "klabberjass", g["deal"], "--json", "--rules", rules)
        assert (code, err) == (0, "")
        got = json.loads(out)
        assert (got["deal"], got["rules"]) == (g["deal"], rules)
        pairs = zip(got["table"], g["table"], strict=True)
        assert [{k: row[k] for k in want} for row, want in pairs] == g["table"]


def test_json_fixed_contract_and_extra_keys(cli) -> None:
    code, out, _ = cli("deal", "klabberjass", DEAL + " trump=S bidder=E", "--json")
    (row,) = json.loads(out)["table"]
    # E = KQ9.97.AJ7.9 holds K and Q of spades: 39 + Bella 50 = 89 against 41
    assert row == {
        "bidder": "E",
        "trump": "S",
        "card_points": {"E": 39, "D": 41},
        "score": {"E": 89, "D": 41},
        "result": "made",
        "sequences": {"E": 0, "D": 0},
        "bella": {"E": 50, "D": 0},
        "declared": {"E": {"runs": [], "bella": True}, "D": {"runs": [], "bella": False}},
        "dix": None,
    }


def test_json_key_order(cli) -> None:
    code, out, _ = cli("deal", "klabberjass", DEAL + " trump=S bidder=E", "--json")
    assert code == 0 and out.startswith('{"deal": "' + DEAL)
    assert list(json.loads(out)) == ["deal", "rules", "table"]


def test_readable_table(cli) -> None:
    code, out, err = cli("deal", "klabberjass", DEAL)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"Deal {DEAL}  (rules: seed)"
    assert "Score E-D" in out and "Bidder declares" in out
    rows = [line for line in lines if line.startswith("  ♠ S")]
    assert len(rows) == 2
    assert rows[0].split()[2:7] == ["E", "39-41", "0-0", "50-0", "-"]
    assert "89-41" in rows[0] and "made" in rows[0] and "Bella" in rows[0]
    assert "130-0" in rows[1] and "bate" in rows[1]


def test_readable_shows_sinking_and_dix(cli) -> None:
    deal = "E=9.KJ.98.7/Q.9.T. D=AK7.Q.K7./T.T7.. turn=QD trump=D bidder=E"
    code, out, _ = cli("deal", "klabberjass", deal, "--rules", "classic")
    (line,) = [x for x in out.splitlines() if x.startswith("  ♦ D")]
    # D takes the dix, E sinks his trump run T98 and goes bate: D scores 108
    assert line.split()[2:] == ["E", "41-47", "0-0", "0-20", "D", "0-108", "bate", "-", "T98D"]


def test_random_deal(cli) -> None:
    code, out, _ = cli("deal", "klabberjass", "--random", "--seed", "5", "--json")
    first = json.loads(out)
    assert first["deal"] == str(Deal.random(5)) and len(first["table"]) == 8
    _, again, _ = cli("deal", "klabberjass", "--random", "--seed", "5", "--json")
    assert again == out
    code, out, _ = cli("deal", "klabberjass", "--random")
    assert code == 0 and out.startswith("Deal E=")


def test_batch_from_stdin(cli, monkeypatch) -> None:
    deals = [g["deal"] for g in golden("classic")[:3]]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(deals) + "\n"))
    code, out, _ = cli("deal", "klabberjass", "-", "--json", "--rules", "classic")
    lines = out.splitlines()
    assert code == 0 and [json.loads(x)["deal"] for x in lines] == deals


@pytest.mark.parametrize(
    "argv, quoted",
    [
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.K turn=7C"], "D=8.QT8.9.8/..A.K"),  # 8 cards
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=AS"], "turn-up AS"),  # AS in E's hand
        (["E=AKT9.K.K8.AJ D=8.QT8.A9.KJ8 turn=7C"], "JC"),  # JC twice
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", "--rules", "modern"], "'modern'"),
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", "--random"], "not both"),
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", "--seed", "3"], "--random"),
        ([], "no deal"),
        (["E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C foo=1"], "'foo'"),
        (["--random", "--players", "3"], "two"),
    ],
)
def test_bad_input_exits_2(cli, argv: list[str], quoted: str) -> None:
    code, out, err = cli("deal", "klabberjass", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tricklab: error:") and quoted in err


def test_bad_batch_line_gets_an_error_line(cli, monkeypatch) -> None:
    good = golden("seed")[0]["deal"]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{good}\n{good} turn=7C\n{good}\n"))
    code, out, err = cli("deal", "klabberjass", "-", "--json")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(answers) == 3 and answers[0] == answers[2]
    assert answers[1]["line"] == 2 and "turn" in answers[1]["error"]
    assert "line 2" in err and err.count("\n") == 1


# ---------------------------------------------------------------- carabin


def test_carabin_json_matches_golden(cli):
    for line in (DATA / "carabin-deals.jsonl").read_text().splitlines():
        g = json.loads(line)
        code, out, _ = cli("deal", "carabin", g["deal"], "--json")
        assert code == 0
        assert json.loads(out) == {"points_in_play": g["points_in_play"], "table": g["table"]}


def test_carabin_readable(cli):
    g = json.loads((DATA / "carabin-deals.jsonl").read_text().splitlines()[1])
    code, out, _ = cli("deal", "carabin", g["deal"])
    assert code == 0
    assert "Points in play: 18" in out
    rows = [x for x in out.splitlines() if x.strip().startswith(("0 ", "1 ", "2 "))]
    hands = [x for x in rows if " L " in x and " R " in x]
    assert (len(hands), len(rows) - len(hands)) == (3, 12)


def test_carabin_random_is_seeded(cli):
    code, out, _ = cli("deal", "carabin", "--random", "--seed", "9", "--players", "3", "--json")
    assert code == 0
    first = json.loads(out)
    assert first["deal"] == str(CarabinDeal.random(players=3, seed=9))
    assert len(first["table"]) == 12
    _, again, _ = cli("deal", "carabin", "--random", "--seed", "9", "--players", "3", "--json")
    assert json.loads(again) == first
    assert list(first) == ["deal", "points_in_play", "table"]


def test_carabin_left_then_right(cli):
    g = json.loads((DATA / "carabin-deals.jsonl").read_text().splitlines()[0])
    code, out, _ = cli(
        "deal",
        "carabin",
        g["deal"] + " bidder=0 trump=S",
        "--json",
        "--rules",
        "left_then_right",
    )
    assert code == 0
    assert len(json.loads(out)["table"]) == 1


CARABIN_BAD = [
    ["deal", "carabin"],
    ["deal", "carabin", "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 turn=QS"],
    ["deal", "carabin", "0=A9.3.5./KT.7.A. 1=4.4.Q.3/2..K2.9 2=.2..864/6.T8..T turn=AS"],
    ["deal", "carabin", "--random", "--players", "7"],
    ["deal", "carabin", "--random", "--players", "2"],
    ["deal", "carabin", "--random", "--workers", "0"],
    ["deal", "klabberjass", "--random", "--workers", "x"],
]


@pytest.mark.parametrize("argv", CARABIN_BAD)
def test_carabin_bad_input_exits_2_with_one_line(cli, argv):
    code, out, err = cli(*argv)
    assert code == 2
    assert out == ""
    assert err.startswith("tricklab: error: ") and err.count("\n") == 1


def test_carabin_table_reports_progress_before_and_after_every_row():
    calls: list[tuple[int, int]] = []
    deal = CarabinDeal.random(seed=3, players=3)
    deal_table(deal, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, 12) for i in range(13)]


def test_progress_ticks_through_a_long_row(monkeypatch):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress("deal", after=0.02, ticking=True)
    progress(3, 24)
    time.sleep(0.3)  # one slow row: no count arrives meanwhile
    progress.done()
    shown = err.getvalue()
    # redrawn with the seconds elapsed while nothing was counted
    assert len(re.findall(r"\rdeal: 3/24 rows, \d+ s\033\[K", shown)) >= 2
    assert shown.endswith("\r\033[K")  # and cleared at the end


def test_progress_stays_off_a_pipe(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress("deal", after=0.0, ticking=True)
    progress(3, 24)
    time.sleep(0.05)
    progress.done()
    assert err.getvalue() == ""


# ---------------------------------------------------------------- workers


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_carabin_rows_in_threads_are_the_rows_of_one_thread(players, seed):
    deal = CarabinDeal.random(seed=seed, players=players)
    one = deal_table(deal).to_json()
    calls: list[tuple[int, int]] = []
    two = deal_table(deal, workers=2, progress=lambda d, t: calls.append((d, t)))
    assert two.to_json() == one
    assert calls == [(i, 4 * players) for i in range(4 * players + 1)]


def test_carabin_rows_in_threads_under_a_time_limit_contain_the_exact_values():
    deal = CarabinDeal.random(seed=5, players=4)
    exact = deal_table(deal)
    bounded = deal_table(deal, workers=2, time_limit=0.05)
    for row, ref in zip(bounded, exact, strict=True):
        lo, hi = row.bounds or (row.points, row.points)
        assert lo <= ref.points <= hi
        assert row.made in (None, ref.made)


@pytest.mark.parametrize("workers", [0, 1.5, True, "2"])
def test_carabin_table_refuses_bad_workers(workers):
    with pytest.raises(UsageError, match="workers"):
        deal_table(CarabinDeal.random(seed=1, players=3), workers=workers)


def test_search_contexts_are_the_threads_own():
    from solver.carabin import engine

    main = engine.core()
    with ThreadPoolExecutor(max_workers=1) as pool:
        other, again = pool.submit(lambda: (engine.core(), engine.core())).result()
    assert other is again and other is not main and engine.core() is main


def test_cli_workers_give_the_same_table(cli):
    args = ("deal", "carabin", "--random", "--seed", "4", "--players", "4", "--json")
    code1, out1, _ = cli(*args, "--workers", "1")
    code2, out2, _ = cli(*args, "--workers", "2")
    assert code1 == code2 == 0 and json.loads(out1) == json.loads(out2)
    assert len(json.loads(out2)["table"]) == 16


def test_ctrl_c_stops_every_worker_of_a_long_table():
    # seed 3 at six players has rows of minutes: both threads are deep in searches
    args = ["deal", "carabin", "--random", "--seed", "3", "--players", "6", "--workers", "2"]
    code, out, err, seconds = interrupt_cli(args, cpu=4.0)
    assert seconds < 5  # moments, with room for a loaded machine
    assert code == 130
    assert out == "" and "interrupted" in err


def test_a_later_pass_keeps_what_an_earlier_one_proved_of_a_row():
    from solver.carabin.table import TableRow, _row_within

    deal = CarabinDeal.random(seed=5, players=4)
    exact = {(r.bidder, r.trump): r for r in deal_table(deal)}
    total = deal.points_in_play
    for (bidder, trump), ref in list(exact.items())[:6]:
        start = deal.position(bidder=bidder, trump=trump)
        lo, hi = max(0, ref.points - 2), min(total, ref.points + 3)
        earlier = TableRow(bidder, trump, lo, ref.made, None, bounds=(lo, hi))
        again = _row_within(start, bidder, trump, total, 0.0, None, earlier)  # no time at all
        assert again.bounds == (lo, hi) or (again.exact and again.points == ref.points)
        assert again.made == ref.made
        given = _row_within(start, bidder, trump, total, 30.0, None, earlier)
        assert given.exact and given.points == ref.points and given.chelem == ref.chelem


def test_progress_in_a_log_writes_plain_lines_now_and_then(monkeypatch):
    err = io.StringIO()  # not a terminal: a log file
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress("deal", after=0.0, ticking=True, quiet_every=0.05)
    progress(3, 24)
    time.sleep(0.3)
    progress.done()
    lines = err.getvalue().splitlines(keepends=True)
    assert len(lines) >= 2
    assert all(re.fullmatch(r"deal: 3/24 rows, \d+ s\n", line) for line in lines)
    assert "\r" not in err.getvalue() and "\033" not in err.getvalue()


def test_progress_says_what_a_job_is_doing_before_any_count(monkeypatch):
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    progress = Progress("solve", after=0.02, ticking=True)
    progress.say("searching")
    time.sleep(0.2)
    progress.done()
    assert re.search(r"\rsolve: searching, \d+ s\033\[K", err.getvalue())
    assert err.getvalue().endswith("\r\033[K")
