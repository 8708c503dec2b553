"""The study runner: determinism whatever the parallelism, Parquet chunks, resume after
kill -9, refusal of a foreign folder, and a real Dask cluster on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from analysis.cli.main import main  # noqa: E402
from analysis.studies import (  # noqa: E402
    MANIFEST,
    StudyError,
    chunk_path,
    read_manifest,
    read_study,
    run_study,
)

STUDY = "klabberjass-bidding"
DEALS, SIZE = 120, 30


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The study run in this process, one chunk after another."""
    out = tmp_path_factory.mktemp("ref")
    run_study(STUDY, DEALS, 7, out, workers=1, progress=False, chunk_size=SIZE)
    return read_study(out)


def test_rows_are_complete_and_in_order(reference):
    assert list(reference["deal"]) == list(range(DEALS))
    # every deal is a real deal: 9 cards each, all distinct, with the turn-up
    for e6, e3, d6, d3, turn in reference[["e6", "e3", "d6", "d3", "turn"]].itertuples(index=False):
        cards = [e6, e3, d6, d3, 1 << turn]
        assert sum(int(c).bit_count() for c in cards) == 19
        assert int(e6 | e3 | d6 | d3 | (1 << turn)).bit_count() == 19


def test_same_rows_with_two_processes(tmp_path, reference):
    run = run_study(STUDY, DEALS, 7, tmp_path, workers=2, progress=False, chunk_size=SIZE)
    assert run.computed == run.chunks == DEALS // SIZE
    assert read_study(tmp_path).equals(reference)


def test_other_seed_other_rows(tmp_path, reference):
    run_study(STUDY, DEALS, 8, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    assert not read_study(tmp_path)[["e6", "d6"]].equals(reference[["e6", "d6"]])


def test_manifest_names_study_and_parameters(tmp_path):
    run_study(STUDY, 10, 3, tmp_path, workers=1, progress=False, chunk_size=5)
    m = read_manifest(tmp_path)
    assert (m["study"], m["seed"], m["deals"], m["chunk_size"], m["chunks"]) == (
        STUDY,
        3,
        10,
        5,
        2,
    )
    assert m["params"] == {"rules": "seed"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "chunk-000000.parquet",
        "chunk-000001.parquet",
        MANIFEST,
    ]


def test_rerun_computes_nothing_and_resumes_a_missing_chunk(tmp_path, reference):
    run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    again = run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    assert again.computed == 0
    chunk_path(tmp_path, 2).unlink()
    (tmp_path / ".chunk-000003.parquet.tmp-99999").write_bytes(b"half a file")
    resumed = run_study(STUDY, DEALS, 7, tmp_path, workers=2, progress=False, chunk_size=SIZE)
    assert resumed.computed == 1
    assert not list(tmp_path.glob(".*tmp*"))
    assert read_study(tmp_path).equals(reference)


@pytest.mark.parametrize(
    "change",
    [
        {"seed": 8},
        {"deals": DEALS + 1},
        {"chunk_size": SIZE + 1},
        {"params": {"rules": "classic"}},
        {"name": "klabberjass-sinking"},
    ],
)
def test_refuses_a_folder_of_another_study(tmp_path, change):
    run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    args = {"name": STUDY, "deals": DEALS, "seed": 7, "chunk_size": SIZE, **change}
    with pytest.raises(StudyError, match="another study"):
        run_study(out=tmp_path, workers=1, progress=False, **args)
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


def test_refuses_a_folder_that_is_not_a_study(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(StudyError, match="not empty"):
        run_study(STUDY, 10, 1, tmp_path, workers=1, progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_bad_names_and_parameters(tmp_path):
    with pytest.raises(StudyError, match="unknown study 'nope'"):
        run_study("nope", 10, 1, tmp_path)
    with pytest.raises(StudyError, match="no parameter 'colour'"):
        run_study(STUDY, 10, 1, tmp_path, params={"colour": "red"})
    with pytest.raises(StudyError, match="at least 1"):
        run_study(STUDY, 0, 1, tmp_path)


def test_cli_runs_lists_and_refuses(tmp_path, capsys):
    assert main(["study", "--list"]) == 0
    assert STUDY in capsys.readouterr().out
    out = tmp_path / "s"
    argv = ["study", STUDY, "--deals", "20", "--seed", "3", "--out", str(out), "--workers", "1"]
    assert main([*argv, "--chunk-size", "10"]) == 0
    cap = capsys.readouterr()
    assert "2 chunks" in cap.out and "ETA" in cap.err and "20/20 deals" in cap.err
    assert main([*argv, "--chunk-size", "10", "--seed", "4"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another study" in err[0] and "seed 3" in err[0]


def _cmd(out: Path, deals: int, size: int, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "analysis.cli.main",
        "study",
        STUDY,
        "--deals",
        str(deals),
        "--seed",
        "11",
        "--out",
        str(out),
        "--chunk-size",
        str(size),
        "--quiet",
        *extra,
    ]


def test_kill_9_then_resume(tmp_path):
    """A study killed with SIGKILL mid-way keeps its whole chunks and finishes on rerun."""
    out, deals, size = tmp_path / "k", 3000, 50
    proc = subprocess.Popen(_cmd(out, deals, size, "--workers", "2"), start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(list(out.glob("chunk-*.parquet"))) < 3:
            assert proc.poll() is None, "the study ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the study and its worker processes
        proc.wait()
    partial = read_study(out)
    assert 0 < len(partial) < deals and len(partial) % size == 0
    done = subprocess.run(_cmd(out, deals, size, "--workers", "2"), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "already there" in done.stdout
    resumed = read_study(out)
    assert list(resumed["deal"]) == list(range(deals))
    # the same rows as an uninterrupted run
    fresh = tmp_path / "fresh"
    run_study(STUDY, deals, 11, fresh, workers=2, progress=False, chunk_size=size)
    assert resumed.equals(read_study(fresh))


def test_unreachable_scheduler_is_a_quick_clear_error(tmp_path):
    t0 = time.monotonic()
    done = subprocess.run(
        _cmd(tmp_path / "x", 10, 5, "--scheduler", "tcp://127.0.0.1:9"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - t0 < 20
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in lines[0]
    assert done.stdout == ""


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        processes=True,
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    ) as c:
        yield c


def test_dask_cluster_gives_the_local_rows(tmp_path, cluster, reference):
    run = run_study(
        STUDY,
        DEALS,
        7,
        tmp_path,
        scheduler=cluster.scheduler_address,
        progress=False,
        chunk_size=SIZE,
    )
    assert run.computed == DEALS // SIZE
    assert read_study(tmp_path).equals(reference)


def test_dask_lost_worker_chunk_is_redone(tmp_path, cluster):
    """SIGKILL a worker while chunks run: its chunks are redone, none lost or doubled."""
    from distributed import Client

    deals, size = 1600, 50
    with Client(cluster.scheduler_address, set_as_default=False) as client:
        pids = list(client.run(os.getpid).values())
    out = tmp_path / "dask"

    def kill_one():
        deadline = time.monotonic() + 60
        while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_one)
    killer.start()
    run_study(
        STUDY,
        deals,
        5,
        out,
        scheduler=cluster.scheduler_address,
        progress=False,
        chunk_size=size,
    )
    killer.join()
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)
    local = tmp_path / "local"
    run_study(STUDY, deals, 5, local, workers=1, progress=False, chunk_size=size)
    assert read_study(out).equals(read_study(local))
