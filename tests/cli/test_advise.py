"""``tricklab advise``: single-dummy advice from a view, the same for the same seed."""

from __future__ import annotations

import json

VIEW = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"


def test_advise_json(cli):
    argv = ["advise", "klabberjass", VIEW, "--samples", "30", "--seed", "2", "--json"]
    status, out, _ = cli(*argv, "--workers", "1")
    data = json.loads(out)
    assert status == 0 and data["samples"] == 30
    assert data["best"] in data["moves"]
    assert all(
        0 <= m["best_rate"] <= 1 and m["min"] <= m["mean"] <= m["max"]
        for m in data["moves"].values()
    )
    assert cli(*argv)[1] == out  # same seed, same advice


def test_advise_readable(cli):
    status, out, _ = cli("advise", "klabberjass", VIEW, "--samples", "10", "--seed", "1")
    assert status == 0
    assert out.startswith("Single-dummy advice for ") and "best: " in out


def test_bad_samples_one_line_exit_2(cli):
    status, out, err = cli("advise", "klabberjass", VIEW, "--samples", "0")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "--samples 0" in err
