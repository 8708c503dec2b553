"""The study runner: determinism whatever the parallelism, Parquet chunks that open in
pandas, resume after kill -9, extension, verified chunks, validation before writing,
the folder lock, killed workers, lazy work lists, and a real Dask cluster on loopback."""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from analysis.cli.main import main  # noqa: E402
from analysis.studies import (  # noqa: E402
    LOCK,
    MANIFEST,
    OLD_MANIFEST,
    StudyError,
    chunk_path,
    iter_chunks,
    read_manifest,
    read_study,
    run_study,
)
from solver.cards import SUITS, card_str, parse_holding  # noqa: E402
from tests.cli.helpers import assert_one_error_line  # noqa: E402

STUDY = "klabberjass-bidding"
DEALS, SIZE = 120, 30


@pytest.fixture
def cli(capsys):
    """``cli(*argv)``: ``main(argv)``'s status and what it printed (out, err)."""

    def run(*argv: str) -> tuple[int, str, str]:
        status = main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return run


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
    m = read_manifest(tmp_path, files=True)
    assert (m["study"], m["seed"], m["deals"], m["chunk_size"], m["chunks"]) == (
        STUDY,
        3,
        10,
        5,
        2,
    )
    assert m["params"] == {"rules": "seed"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        MANIFEST,
        "chunk-000000.parquet",
        "chunk-000001.parquet",
    ]
    for i in (0, 1):
        record = m["files"][chunk_path(tmp_path, i).name]
        data = chunk_path(tmp_path, i).read_bytes()
        assert record["bytes"] == len(data) and record["deals"] == record["rows"] == 5
        assert record["sha256"] == hashlib.sha256(data).hexdigest()


def test_folder_reads_with_pandas_read_parquet(tmp_path, reference):
    import pandas as pd

    run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    df = pd.read_parquet(tmp_path).sort_values("deal", ignore_index=True)
    assert df.equals(reference)


def test_old_manifest_name_is_read_and_renamed_on_resume(tmp_path, reference):
    """A folder of an earlier version (manifest.json, no chunk records) still reads,
    and resuming it keeps its chunks and renames the manifest."""
    run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    m = read_manifest(tmp_path)
    old = {k: m[k] for k in ("study", "params", "seed", "deals", "chunk_size", "chunks")}
    (tmp_path / OLD_MANIFEST).write_text(json.dumps({"format": 1, **old}))
    (tmp_path / MANIFEST).unlink()
    assert read_manifest(tmp_path)["deals"] == DEALS
    assert read_study(tmp_path).equals(reference)
    again = run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    assert again.computed == 0
    assert not (tmp_path / OLD_MANIFEST).exists()
    assert len(read_manifest(tmp_path, files=True)["files"]) == DEALS // SIZE
    assert read_study(tmp_path).equals(reference)


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
    before = tmp_path.stat().st_mtime_ns
    with pytest.raises(StudyError, match="not empty"):
        run_study(STUDY, 10, 1, tmp_path, workers=1, progress=False)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    assert tmp_path.stat().st_mtime_ns == before  # not even a lock file came and went


def test_bad_names_and_parameters(tmp_path):
    with pytest.raises(StudyError, match="unknown study 'nope'"):
        run_study("nope", 10, 1, tmp_path)
    with pytest.raises(StudyError, match="no parameter 'colour'"):
        run_study(STUDY, 10, 1, tmp_path, params={"colour": "red"})
    with pytest.raises(StudyError, match="at least 1"):
        run_study(STUDY, 0, 1, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_cli_runs_lists_and_refuses(tmp_path, capsys):
    assert main(["study", "--list"]) == 0
    assert STUDY in capsys.readouterr().out
    out = tmp_path / "s"
    argv = ["study", STUDY, "--deals", "20", "--seed", "3", "--out", str(out), "--workers", "1"]
    assert main([*argv, "--chunk-size", "10", "--progress"]) == 0
    cap = capsys.readouterr()
    # the tqdm bar: count, elapsed<remaining (ETA), rate
    assert "2 chunks" in cap.out and "20/20 [" in cap.err and "deals/s]" in cap.err
    assert main([*argv, "--chunk-size", "10"]) == 0
    cap = capsys.readouterr()
    assert "0 computed now" in cap.out and cap.err == ""  # stderr is no terminal: no bar
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
    done = subprocess.run(
        _cmd(tmp_path / "x", 10, 5, "--scheduler", "tcp://127.0.0.1:9"),
        capture_output=True,
        text=True,
        timeout=60,
    )
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


@pytest.mark.parametrize(
    ("study", "deals", "params"),
    [
        ("klabberjass-realplay", 6, {"samples": 4}),
        ("carabin-realplay", 4, {"players": 3, "samples": 4}),
    ],
)
def test_dask_cluster_plays_the_real_play_studies_as_local_workers_do(
    tmp_path, cluster, study, deals, params
):
    """The card play under real information (PIMC at every seat) runs on a Dask
    cluster and gives, chunk for chunk, the rows of the local run."""
    local, remote = tmp_path / "local", tmp_path / "dask"
    run_study(study, deals, 3, local, workers=1, progress=False, chunk_size=2, params=params)
    run = run_study(
        study,
        deals,
        3,
        remote,
        scheduler=cluster.scheduler_address,
        progress=False,
        chunk_size=2,
        params=params,
    )
    assert run.computed == deals // 2
    rows = read_study(remote)
    assert len(rows) == deals and rows.equals(read_study(local))


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


# ------------------------------------------------------------------ readable rows


def _tiny(tmp_path: Path, name: str, deals: int, size: int, **params) -> Path:
    out = tmp_path / name
    run_study(name, deals, 1, out, workers=1, progress=False, chunk_size=size, params=params)
    return out


def test_readable_klabberjass_bidding(tmp_path, reference):
    out = tmp_path / "b"
    run_study(STUDY, DEALS, 7, out, workers=1, progress=False, chunk_size=SIZE)
    text = read_study(out, readable=True)
    assert list(text.columns) == list(reference.columns) and len(text) == DEALS
    for col in ("e6", "e3", "d6", "d3"):
        assert [parse_holding(h) for h in text[col]] == list(reference[col])
    for col in ("turn", "bottom"):
        assert list(text[col]) == [card_str(c) for c in reference[col]]
    words = {1: "made", 0: "tie", -1: "bate"}
    assert list(text["res_DH"]) == [words[r] for r in reference["res_DH"]]
    assert text["net_ES"].equals(reference["net_ES"])  # numbers stay numbers


def test_readable_other_studies(tmp_path):
    sinking = _tiny(tmp_path, "klabberjass-sinking", 6, 3, samples=2)
    raw, text = read_study(sinking), read_study(sinking, readable=True)
    assert len(raw) > 0
    assert list(text["bidder"]) == ["ED"[b] for b in raw["bidder"]]
    assert list(text["trump"]) == [SUITS[t] for t in raw["trump"]]
    assert text["est_margin"].equals(raw["est_margin"])

    carabin = _tiny(tmp_path, "carabin-bidding", 2, 1, players=3)
    raw, text = read_study(carabin), read_study(carabin, readable=True)
    assert [parse_holding(h) for h in text["left"]] == list(raw["left"])
    assert [parse_holding(h) for h in text["right"]] == list(raw["right"])
    assert list(text["turn"]) == [card_str(c) for c in raw["turn"]]
    assert list(text["trump"]) == [SUITS[t] for t in raw["trump"]]
    assert text["seat"].equals(raw["seat"])  # Carabin seats are numbers in the notation

    matches = _tiny(tmp_path, "klabberjass-matches", 2, 1, play="dd")
    raw, text = read_study(matches), read_study(matches, readable=True)
    assert list(text["a_first_seat"]) == ["E", "D"] == ["ED"[s] for s in raw["a_first_seat"]]

    games = _tiny(tmp_path, "carabin-matches", 1, 1, players=3)  # default policies
    assert read_study(games, readable=True).equals(read_study(games))  # nothing to convert
    assert sorted(read_study(games)["policy"]) == ["derived", "derived", "thumb"]


# ------------------------------------------------------------------ extending


def test_more_deals_continue_the_study(tmp_path):
    out = tmp_path / "grow"
    run_study(STUDY, 100, 4, out, workers=1, progress=False, chunk_size=30)
    kept = {i: chunk_path(out, i).stat().st_mtime_ns for i in range(3)}
    grown = run_study(STUDY, 150, 4, out, workers=1, progress=False, chunk_size=30)
    # chunk 3 held 10 deals and now holds 30; chunk 4 is new; chunks 0-2 are kept
    assert (grown.chunks, grown.computed, grown.deals_computed) == (5, 2, 60)
    assert {i: chunk_path(out, i).stat().st_mtime_ns for i in range(3)} == kept
    assert read_manifest(out)["deals"] == 150
    fresh = tmp_path / "fresh"
    run_study(STUDY, 150, 4, fresh, workers=1, progress=False, chunk_size=30)
    assert read_study(out).equals(read_study(fresh))
    with pytest.raises(StudyError, match="holds 150 deals"):
        run_study(STUDY, 120, 4, out, workers=1, progress=False, chunk_size=30)
    assert read_study(out).equals(read_study(fresh))


def test_cli_extends_a_study(tmp_path, cli):
    argv = ["study", STUDY, "--seed", "3", "--out", str(tmp_path), "--workers", "1"]
    assert cli(*argv, "--deals", "10", "--chunk-size", "10")[0] == 0
    status, out, err = cli(*argv, "--deals", "30", "--chunk-size", "10")
    assert status == 0 and "(2 computed now, 1 already there)" in out and err == ""


# ------------------------------------------------------------------ damaged chunks


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "zeroed":
        path.write_bytes(bytes(len(data)))
    elif how == "garbage":
        path.write_bytes(b"PAR1 not really a parquet file" * 10)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "one byte changed":
        path.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])


@pytest.mark.parametrize("how", ["truncated", "zeroed", "garbage", "empty", "one byte changed"])
def test_damaged_chunk_is_recomputed_with_one_line(tmp_path, reference, cli, how):
    argv = ["study", STUDY, "--deals", str(DEALS), "--seed", "7", "--out", str(tmp_path)]
    argv += ["--chunk-size", str(SIZE), "--workers", "1"]
    assert cli(*argv)[0] == 0
    _damage(chunk_path(tmp_path, 1), how)
    status, out, err = cli(*argv)
    assert status == 0 and "(1 computed now, 3 already there)" in out
    lines = err.splitlines()
    assert len(lines) == 1 and "1 damaged chunk" in lines[0] and "chunk-000001.parquet" in lines[0]
    assert read_study(tmp_path).equals(reference)
    assert cli(*argv)[2] == ""  # now whole: nothing to say


def test_unrecorded_chunks_are_checked_by_reading_them(tmp_path, reference, cli):
    """A chunk without a record (killed before the manifest caught up) is kept if it
    reads as Parquet, computed again if not."""
    run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    m = read_manifest(tmp_path, files=True)
    m["files"] = {}
    (tmp_path / MANIFEST).write_text(json.dumps(m))
    _damage(chunk_path(tmp_path, 2), "truncated")
    argv = ["study", STUDY, "--deals", str(DEALS), "--seed", "7", "--out", str(tmp_path)]
    status, out, err = cli(*argv, "--chunk-size", str(SIZE), "--workers", "1")
    assert status == 0 and "(1 computed now, 3 already there)" in out
    assert "chunk-000002.parquet not a readable Parquet file" in err and err.count("\n") == 1
    records = read_manifest(tmp_path, files=True)["files"]
    assert len(records) == 4 and {r["rows"] for r in records.values()} == {SIZE}
    assert read_study(tmp_path).equals(reference)


# ------------------------------------------------------------------ validation first


@pytest.mark.parametrize(
    "study, extra, named",
    [
        (STUDY, ["--rules", "bogus"], "invalid rules 'bogus'"),
        ("klabberjass-sinking", ["--rules", "bogus"], "expected seed or classic"),
        ("carabin-bidding", ["--param", "players=7"], "invalid players '7'"),
        ("carabin-bidding", ["--rules", "bogus"], "invalid trick_order 'bogus'"),
        ("klabberjass-sinking", ["--param", "samples=-1"], "invalid samples '-1'"),
        ("klabberjass-sinking", ["--param", "samples=0"], "an integer at least 1"),
        ("klabberjass-sinking", ["--param", "samples=abc"], "invalid samples 'abc'"),
        ("klabberjass-matches", ["--param", "play=fast"], "expected pimc or dd"),
        ("klabberjass-matches", ["--rules", "classic"], "invalid rules 'classic'"),
        ("carabin-matches", ["--param", "policies=derived,nope"], "invalid policies"),
        ("carabin-matches", ["--param", "inference=x"], "invalid inference 'x'"),
        ("carabin-matches", ["--param", "max_deals=0"], "invalid max_deals '0'"),
        ("klabberjass-sinking", ["--param", "colour=red"], "no parameter 'colour'"),
        ("klabberjass-sinking", ["--param", "samples"], "expected NAME=VALUE"),
        (STUDY, ["--deals", "0"], "invalid --deals 0 (a whole number from 1 to"),
        (STUDY, ["--deals", "٣"], "invalid --deals '٣'"),
        (STUDY, ["--deals", "-5"], "invalid --deals -5"),
        (STUDY, ["--deals", "99999999999999999999"], "from 1 to 9223372036854775807"),
        (STUDY, ["--workers", "0"], "invalid --workers 0"),
        (STUDY, ["--chunk-size", "0"], "invalid --chunk-size 0"),
        ("nope", [], "unknown study 'nope'"),
    ],
)
def test_bad_arguments_leave_the_folder_untouched(tmp_path, cli, study, extra, named):
    new, begun = tmp_path / "new", tmp_path / "begun"
    run_study(STUDY, 10, 1, begun, workers=1, progress=False, chunk_size=5)
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in begun.iterdir()}
    for out in (new, begun):
        argv = ["study", study, "--deals", "10", "--out", str(out), "--workers", "1", *extra]
        assert_one_error_line(*cli(*argv), named)
    assert not new.exists()
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in begun.iterdir()} == before


def test_corrected_command_runs_after_a_bad_one(tmp_path, cli):
    argv = ["study", "klabberjass-sinking", "--deals", "4", "--out", str(tmp_path)]
    argv += ["--chunk-size", "2", "--workers", "1"]
    assert_one_error_line(*cli(*argv, "--param", "samples=0"), "samples")
    assert not tmp_path.exists() or list(tmp_path.iterdir()) == []
    status, out, _ = cli(*argv, "--param", "samples=2")
    assert status == 0 and "2 computed now" in out
    assert read_manifest(tmp_path)["params"] == {"rules": "seed", "samples": 2}


def test_out_that_cannot_be_a_folder(tmp_path, cli):
    file = tmp_path / "results.parquet"
    file.write_bytes(b"mine")
    argv = ["study", STUDY, "--deals", "10", "--workers", "1", "--out"]
    assert_one_error_line(*cli(*argv, str(file)), "is a file, not a folder")
    assert_one_error_line(*cli(*argv, str(file / "sub")), "is a file, not a folder")
    assert file.read_bytes() == b"mine"
    # /proc refuses new folders, even to root
    assert_one_error_line(*cli(*argv, "/proc/tricklab-study/out"), "/proc/tricklab-study")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders")
def test_out_in_a_read_only_folder(tmp_path, cli):
    tmp_path.chmod(0o500)
    try:
        argv = ["study", STUDY, "--deals", "10", "--workers", "1", "--out"]
        assert_one_error_line(*cli(*argv, str(tmp_path / "s")), "cannot write in")
    finally:
        tmp_path.chmod(0o700)


# ------------------------------------------------------------------ lock, laziness


def test_work_list_is_lazy():
    work = iter_chunks(10**12, 500)
    assert inspect.isgenerator(work)
    assert next(work) == (0, 0, 500)
    tail = iter_chunks(1001, 500, skip={0})
    assert list(tail) == [(1, 500, 500), (2, 1000, 1)]


def _wait_for_chunks(out: Path, proc: subprocess.Popen, n: int = 1) -> None:
    deadline = time.monotonic() + 120
    while len(list(out.glob("chunk-*.parquet"))) < n:
        assert proc.poll() is None, "the study ended too early"
        assert time.monotonic() < deadline, "no chunk written"
        time.sleep(0.02)


def test_huge_study_starts_and_second_run_is_refused_then_stale_lock_taken_over(tmp_path, cli):
    """--deals 10**12 starts at once (the chunks are made as handed out); a second run
    on the folder is refused while it runs; once it is killed, its lock is taken over."""
    import pandas as pd

    out = tmp_path / "huge"
    huge = "1000000000000"
    proc = subprocess.Popen(_cmd(out, 10**12, 10, "--workers", "1"), start_new_session=True)
    try:
        _wait_for_chunks(out, proc)
        assert read_manifest(out)["deals"] == 10**12
        assert (out / LOCK).read_text().split()[0] == str(proc.pid)
        # a running study reads as a Parquet dataset (lock and temporary files skipped)
        assert len(pd.read_parquet(out)) % 10 == 0
        argv = ["study", STUDY, "--deals", huge, "--seed", "11", "--out", str(out)]
        status, stdout, err = cli(*argv, "--chunk-size", "10", "--workers", "1")
        assert_one_error_line(status, stdout, err, "is in use by another study run", str(proc.pid))
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert (out / LOCK).exists()  # left behind by the killed run
    argv[3] = "30"  # fewer deals than the folder holds: refused by the manifest check,
    status, stdout, err = cli(*argv, "--chunk-size", "10", "--workers", "1")
    assert_one_error_line(status, stdout, err, "holds 1000000000000 deals")
    assert not (out / LOCK).exists()  # which comes after the lock, taken over and released


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path, cli):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    tmp_path.joinpath(LOCK).write_text(f"{int(dead.stdout)} somehost\n")
    status, out, err = cli(
        "study", STUDY, "--deals", "10", "--out", str(tmp_path), "--workers", "1"
    )
    assert status == 0 and err == "" and "1 computed now" in out
    assert not (tmp_path / LOCK).exists()


def test_lock_is_refused_in_process_while_held(tmp_path):
    from analysis.studies import _Folder

    held = _Folder(tmp_path, print)
    held.lock()
    try:
        with pytest.raises(
            StudyError, match=f"in use by another study run \\(pid {os.getpid()}\\)"
        ):
            run_study(STUDY, 10, 1, tmp_path, workers=1, progress=False)
        assert sorted(p.name for p in tmp_path.iterdir()) == [LOCK]
    finally:
        held.unlock()
    run_study(STUDY, 10, 1, tmp_path, workers=1, progress=False)


# ------------------------------------------------------------------ a killed worker


def test_killed_local_worker_does_not_hang_the_study(tmp_path):
    """SIGKILL one worker process mid-study: the study finishes, its chunks are
    computed again, and every chunk equals the chunk of a clean run."""
    psutil = pytest.importorskip("psutil")
    import pyarrow.parquet as pq

    out, deals, size = tmp_path / "w", 3000, 50
    proc = subprocess.Popen(
        _cmd(out, deals, size, "--workers", "2"),
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _wait_for_chunks(out, proc, 2)
        workers = [
            p
            for p in psutil.Process(proc.pid).children()
            if any("spawn_main" in part for part in p.cmdline())
        ]
        assert len(workers) == 2
        workers[0].kill()
        _, err = proc.communicate(timeout=300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == 0, err
    assert "a worker process died" in err and err.count("\n") == 1
    clean = tmp_path / "clean"
    run_study(STUDY, deals, 11, clean, workers=1, progress=False, chunk_size=size)
    names = sorted(p.name for p in out.glob("chunk-*.parquet"))
    assert names == sorted(p.name for p in clean.glob("chunk-*.parquet"))
    assert len(names) == deals // size
    for name in names:
        assert pq.read_table(out / name).equals(pq.read_table(clean / name)), name


def _chunk_that_kills_its_worker(name, params, seed, chunk, start, count):
    """A chunk function whose chunk 2 kills the process computing it."""
    if chunk == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return chunk, {"deal": list(range(start, start + count))}


def test_chunk_that_always_kills_its_worker_stops_the_study(monkeypatch):
    """Not an endless loop: after the pool breaks, the chunks out are run alone, and the
    one whose worker keeps dying is named in the error."""
    from analysis import studies

    monkeypatch.setattr(studies, "run_chunk", _chunk_that_kills_its_worker)
    notes: list[str] = []
    done = []
    work = iter_chunks(60, 10)
    with pytest.raises(StudyError, match="computing chunk 2 died 3 times"):
        for chunk, _ in studies._run_local(STUDY, {}, 1, work, 2, notes.append):
            done.append(chunk)
    assert 2 not in done and {0, 1} <= set(done)
    assert notes and all("a worker process died" in n for n in notes)


# ------------------------------------------------------------------ a foreign scheduler


def test_silent_server_is_not_a_scheduler(tmp_path):
    """Something that accepts the connection and says nothing: one line, exit 2, no hang."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    port = server.getsockname()[1]
    try:
        done = subprocess.run(
            _cmd(tmp_path / "x", 10, 5, "--scheduler", f"tcp://127.0.0.1:{port}"),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.close()
        for conn in accepted:
            conn.close()
    assert accepted, "the study never connected"
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"Dask scheduler at tcp://127.0.0.1:{port}" in lines[0], lines
    assert not (tmp_path / "x").exists()


def test_server_speaking_another_protocol_is_not_a_scheduler(tmp_path):
    server = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn = server.accept()[0]
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" * 50)
                conn.close()

    threading.Thread(target=answer, daemon=True).start()
    port = server.getsockname()[1]
    try:
        done = subprocess.run(
            _cmd(tmp_path / "x", 10, 5, "--scheduler", f"tcp://127.0.0.1:{port}"),
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.close()
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"at tcp://127.0.0.1:{port}" in lines[0], lines


# ------------------------------------------------------------------ the data dictionary


def _documented_columns() -> dict[str, list[str]]:
    """The column names of each study's table in docs/data.md (``net_XY`` expanded)."""
    import re

    text = (Path(__file__).parents[2] / "docs" / "data.md").read_text()
    out: dict[str, list[str]] = {}
    for section in text.split("\n### ")[1:]:
        name = section.split("\n", 1)[0].strip()
        cols: list[str] = []
        for line in section.splitlines():
            if line.startswith("| `"):
                for col in re.findall(r"`([^`]+)`", line.split("|")[1]):
                    if col.endswith("_XY"):
                        cols += [f"{col[:-2]}{b}{t}" for b in "ED" for t in "SHDC"]
                    else:
                        cols.append(col)
        out[name] = cols
    return out


def test_data_dictionary_names_every_column_of_every_study(tmp_path):
    from analysis.studies import STUDIES

    documented = _documented_columns()
    assert sorted(documented) == sorted(STUDIES)
    small = [
        ("klabberjass-bidding", 2, {}),
        ("klabberjass-sinking", 6, {"samples": 2}),
        ("carabin-bidding", 1, {"players": 3}),
        (
            "klabberjass-matches",
            1,
            {"a": "thumb", "b": "thumb", "samples": 2, "format": "duplicate", "inference": "a"},
        ),
        (
            "carabin-matches",
            1,
            {
                "players": 3,
                "policies": "thumb,always",
                "format": "duplicate",
                "play": "pimc",
                "samples": 1,
                "inference": "a",
            },
        ),
        ("klabberjass-realplay", 1, {"samples": 2}),
        ("klabberjass-sinking-realplay", 6, {"samples": 2, "sink_samples": 2}),
        ("carabin-realplay", 1, {"players": 3, "samples": 2}),
        ("carabin-realplay-name", 1, {"players": 3, "samples": 2}),
    ]
    for name, deals, params in small:
        df = read_study(_tiny(tmp_path, name, deals, deals, **params))
        assert len(df) > 0, name
        assert sorted(df.columns) == sorted(documented[name]), name
    # format=single (the default) writes the same columns but the duplicate ones, and
    # without inference (the default) no inference counts
    only_duplicate = {"leg", "common_deals", "common_a", "common_b", "seating"}
    only_duplicate |= {"inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks"}
    for name, params in (("klabberjass-matches", {"play": "dd"}), ("carabin-matches", {})):
        df = read_study(_tiny(tmp_path / "single", name, 1, 1, **params))
        expected = set(documented[name]) - only_duplicate
        assert sorted(df.columns) == sorted(expected), name


def test_disk_full_is_one_error_and_the_study_resumes(tmp_path, reference, monkeypatch):
    """A chunk that cannot be written stops the study with one clear error; the chunks
    written before stay recorded and a rerun finishes the study."""
    import errno

    from analysis import studies

    write = studies._write_atomic
    written: list[str] = []

    def full_after_two_chunks(path: Path, data: bytes) -> None:
        if path.name.startswith("chunk-") and len(written) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(path, data)
        if path.name.startswith("chunk-"):
            written.append(path.name)

    monkeypatch.setattr(studies, "_write_atomic", full_after_two_chunks)
    with pytest.raises(StudyError, match="cannot write .*chunk-000002.parquet .No space left"):
        run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    assert sorted(read_manifest(tmp_path, files=True)["files"]) == written
    assert not (tmp_path / LOCK).exists()
    monkeypatch.setattr(studies, "_write_atomic", write)
    again = run_study(STUDY, DEALS, 7, tmp_path, workers=1, progress=False, chunk_size=SIZE)
    assert again.computed == 2
    assert read_study(tmp_path).equals(reference)
