"""The readable Carabin deal table names each seat's best contract, and does not name
one that a time limit left undecided."""

from __future__ import annotations

from analysis.tables import table_text
from solver.carabin import Deal
from solver.carabin.table import TableRow
from solver.protocol import DealTable

DEAL = Deal.random(seed=3, players=3)


def _best_line(rows: list[TableRow]) -> str:
    text = table_text(DealTable(rows, DEAL, "carabin", {"points_in_play": DEAL.points_in_play}))
    return next(line for line in text.splitlines() if line.startswith("Best contract"))


def test_exact_rows_name_the_best_contract_of_each_seat():
    rows = [
        TableRow(0, 0, 3, False, False),
        TableRow(0, 1, 7, True, False),
        TableRow(0, 2, 9, True, False),
        TableRow(1, 0, 2, False, False),
        TableRow(1, 3, 12, True, True),
        TableRow(1, 2, 13, True, False),
    ]
    assert _best_line(rows) == (
        "Best contract for each seat: 0 ♦ D (made, 9 points); 1 ♣ C (chelem, 12 points)"
    )


def test_bounds_that_may_beat_the_best_exact_row_leave_the_choice_open():
    rows = [
        TableRow(0, 0, 0, False, False),
        TableRow(0, 1, 0, False, False, bounds=(0, 7)),  # may be 7 points
        TableRow(0, 2, 0, False, False, bounds=(0, 0)),  # ties with spades at best
        TableRow(1, 0, 5, False, False),
        TableRow(1, 1, 2, False, False, bounds=(2, 4)),  # below 5 whatever it is
    ]
    assert _best_line(rows) == (
        "Best contract for each seat: 0 ♠ S or ♥ H (undecided in the time limit: "
        "♠ S failed, 0 points; ♥ H failed, 0-7 points); 1 ♠ S (failed, 5 points)"
    )


def test_an_undecided_make_may_beat_a_failed_contract_with_more_points():
    rows = [
        TableRow(2, 0, 8, False, False),
        TableRow(2, 3, 3, None, False, bounds=(3, 20)),
    ]
    assert _best_line(rows) == (
        "Best contract for each seat: 2 ♠ S or ♣ C (undecided in the time limit: "
        "♠ S failed, 8 points; ♣ C undecided, 3-20 points)"
    )
