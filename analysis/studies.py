"""The study runner: many random deals, in chunks, on local cores or a Dask cluster.

A *study* is a named function that turns one chunk of random deals into rows (a dict
of equal-length columns). The runner (:func:`run_study`) splits ``deals`` into chunks
of a fixed size, runs the chunks not yet done, and writes each one as a Parquet file
in the output folder as soon as it arrives.

Guarantees (docs/cli.md ``study``):

- **Determinism.** Chunk ``i`` draws its deals from a generator seeded by
  ``(study, seed, i)`` only (:func:`chunk_rng`), and the chunk size is fixed by the
  study (recorded in the manifest), so the rows are the same whatever the number of
  workers, their order, or the cluster.
- **Atomic chunks, resume.** A chunk is written to a temporary file in the folder and
  renamed into place (``os.replace``), so a chunk file exists whole or not at all,
  even after ``kill -9``. Running the same command again skips the chunks present and
  removes stale temporary files. Only this process writes files; workers return rows.
- **One study per folder.** ``manifest.json`` names the study, its parameters, the
  seed, the number of deals and the chunk size. A folder whose manifest differs in
  any of these (or that holds other files and no manifest) is refused, not
  overwritten.
- **Cluster.** With ``scheduler="tcp://HOST:PORT"`` the chunks are Dask tasks. An
  unreachable scheduler is a :class:`StudyError` within ``connect_timeout`` seconds.
  A task whose worker dies is rescheduled by Dask on another worker; since only the
  client writes, the chunk is then written once.

>>> sorted(STUDIES)
['carabin-bidding', 'carabin-matches', 'klabberjass-bidding', 'klabberjass-matches', 'klabberjass-sinking']
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, TextIO

from solver.errors import TricklabError

MANIFEST = "manifest.json"
FORMAT = 1

#: A chunk function: (rng, first deal index, number of deals, params) -> columns.
ChunkFn = Callable[[random.Random, int, int, dict[str, Any]], dict[str, list]]


class StudyError(TricklabError):
    """A study that cannot run: unknown name, foreign output folder, no scheduler."""


@dataclass(frozen=True)
class Study:
    """A registered study.

    Attributes:
        name: the name on the command line.
        description: one line for ``tricklab study --list``.
        function: ``module:function`` of the chunk function (imported where it runs,
            so that Dask workers and spawned processes find it by name).
        chunk_size: deals per chunk (part of the manifest: it fixes the rows).
        params: the parameters and their defaults.
    """

    name: str
    description: str
    function: str
    chunk_size: int
    params: dict[str, Any] = field(default_factory=dict)

    def chunk_function(self) -> ChunkFn:
        module, _, name = self.function.partition(":")
        return getattr(import_module(module), name)


STUDIES: dict[str, Study] = {
    s.name: s
    for s in (
        Study(
            "klabberjass-bidding",
            "Klabberjass: full double-dummy table of random deals (every bidder and trump), "
            "with the value of sinking; the raw material of bidding and sinking studies",
            "analysis.bidding.klabberjass:bidding_chunk",
            500,
            {"rules": "seed"},
        ),
        Study(
            "klabberjass-sinking",
            "Klabberjass: for bidders holding sequences or Bella, declare-or-sink decided "
            "double-dummy, always declaring, and from the bidder's own view by sampling",
            "analysis.bidding.sinking:sinking_chunk",
            50,
            {"rules": "seed", "samples": 24},
        ),
        Study(
            "carabin-bidding",
            "Carabin: for every seat and trump of random deals, whether the contract is made "
            "and whether a chelem is made (double dummy: make probe and all-tricks search)",
            "analysis.bidding.carabin:carabin_chunk",
            10,
            {"players": 4, "trick_order": "alternate"},
        ),
        Study(
            "klabberjass-matches",
            "Klabberjass: matches to 500 between policy a and policy b (derived, "
            "derived-declare, thumb, always), card play by PIMC or double dummy; a row a match "
            "(--deals counts matches)",
            "analysis.matches:klabberjass_matches_chunk",
            10,
            {
                "a": "derived",
                "b": "thumb",
                "play": "pimc",
                "samples": 6,
                "sink_samples": 12,
                "rules": "seed",
            },
        ),
        Study(
            "carabin-matches",
            "Carabin: games to 10 between bidding policies (derived, thumb, always) dealt "
            "to the players in turn, seats rotated; a row per match and player (--deals counts "
            "matches)",
            "analysis.matches:carabin_matches_chunk",
            10,
            {"players": 4, "policies": "derived,thumb", "play": "dd", "samples": 4},
        ),
    )
}


def get_study(name: str) -> Study:
    """The registered study called ``name``.

    Raises:
        StudyError: no such study (the message lists the known ones).
    """
    try:
        return STUDIES[name]
    except KeyError:
        raise StudyError(f"unknown study '{name}' (known: {', '.join(sorted(STUDIES))})") from None


def chunk_rng(study: str, seed: int, chunk: int) -> random.Random:
    """The random generator of one chunk: a function of (study, seed, chunk) only.

    >>> chunk_rng("x", 1, 2).random() == chunk_rng("x", 1, 2).random()
    True
    """
    # str seeds are hashed with SHA-512 by random.Random: stable across processes
    return random.Random(f"tricklab-study:{study}:{seed}:{chunk}")


def run_chunk(name: str, params: dict[str, Any], seed: int, chunk: int, start: int, count: int):
    """Compute one chunk's columns (runs in a worker process or on a Dask worker)."""
    study = get_study(name)
    cols = study.chunk_function()(chunk_rng(name, seed, chunk), start, count, params)
    return chunk, cols


def chunk_path(out: Path, chunk: int) -> Path:
    """The Parquet file of one chunk."""
    return out / f"chunk-{chunk:06d}.parquet"


def _chunk_ranges(deals: int, size: int) -> list[tuple[int, int, int]]:
    return [(i, s, min(size, deals - s)) for i, s in enumerate(range(0, deals, size))]


# ------------------------------------------------------------------ the folder


def _manifest(
    study: Study, params: dict[str, Any], seed: int, deals: int, chunk_size: int
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "study": study.name,
        "params": params,
        "seed": seed,
        "deals": deals,
        "chunk_size": chunk_size,
        "chunks": len(_chunk_ranges(deals, chunk_size)),
    }


def _write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def prepare_folder(out: Path, manifest: dict[str, Any]) -> set[int]:
    """Check or create the output folder; returns the chunks already finished.

    Raises:
        StudyError: the folder holds another study (or anything but a study).
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / MANIFEST
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except ValueError:
            raise StudyError(f"{path} is not a study manifest; refusing to use {out}") from None
        if old != manifest:
            diffs = [
                f"{k} {old.get(k)!r} (asked: {manifest[k]!r})"
                for k in manifest
                if old.get(k) != manifest[k]
            ]
            raise StudyError(
                f"{out} holds another study's results ({old.get('study')}: "
                f"{'; '.join(diffs)}); refusing to overwrite it, choose another --out"
            )
    else:
        others = [p.name for p in out.iterdir() if not p.name.startswith(".")]
        if others:
            raise StudyError(
                f"{out} is not empty and holds no study manifest ({others[0]}, ...); "
                "refusing to write there, choose another --out"
            )
        text = json.dumps(manifest, indent=2) + "\n"

        def write(p: Path) -> None:
            p.write_text(text)

        _write_atomic(path, write)
    for stale in out.glob(".chunk-*.tmp-*"):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    done = set()
    for p in out.glob("chunk-*.parquet"):
        with contextlib.suppress(ValueError):
            done.add(int(p.stem.split("-")[1]))
    return done


def write_chunk(out: Path, chunk: int, columns: dict[str, list]) -> None:
    """Write one chunk's columns as Parquet, atomically (temporary file, then rename)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(columns)
    _write_atomic(chunk_path(out, chunk), lambda p: pq.write_table(table, p))


def read_study(out: str | Path, columns: list[str] | None = None):
    """The rows of a study folder as a pandas DataFrame, in deal order.

    Raises:
        StudyError: not a study folder.
    """
    import pandas as pd
    import pyarrow.parquet as pq

    out = Path(out)
    if not (out / MANIFEST).exists():
        raise StudyError(f"{out} is not a study folder (no {MANIFEST})")
    files = sorted(out.glob("chunk-*.parquet"))
    if not files:
        return pd.DataFrame()
    frames = [pq.read_table(f, columns=columns).to_pandas() for f in files]
    return pd.concat(frames, ignore_index=True)


def read_manifest(out: str | Path) -> dict[str, Any]:
    """The manifest of a study folder."""
    return json.loads((Path(out) / MANIFEST).read_text())


# ------------------------------------------------------------------ progress


class Progress:
    """A one-line progress bar with rate and ETA, redrawn at most 5 times a second."""

    def __init__(self, total: int, label: str, done: int = 0, stream: TextIO | None = None):
        self.total, self.label, self.done = total, label, done
        self.start_done = done
        self.stream = stream if stream is not None else sys.stderr
        self.t0 = time.monotonic()
        self.last = 0.0
        self.draw(force=True)

    def update(self, n: int) -> None:
        self.done += n
        self.draw()

    def rate(self) -> float:
        elapsed = time.monotonic() - self.t0
        return (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < 0.2 and self.done < self.total:
            return
        self.last = now
        frac = self.done / self.total if self.total else 1.0
        width = 24
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        rate = self.rate()
        eta = (self.total - self.done) / rate if rate > 0 else None
        eta_text = time.strftime("%H:%M:%S", time.gmtime(eta)) if eta is not None else "--:--:--"
        self.stream.write(
            f"\r{self.label} {frac:4.0%} |{bar}| {self.done}/{self.total} deals "
            f"{rate:7.0f}/s ETA {eta_text}"
        )
        self.stream.flush()

    def close(self) -> None:
        self.draw(force=True)
        self.stream.write("\n")
        self.stream.flush()


# ------------------------------------------------------------------ running


@dataclass
class StudyRun:
    """What :func:`run_study` did.

    Attributes:
        out: the output folder.
        chunks: chunks in the study.
        computed: chunks computed by this run (the others were already there).
        deals_computed: deals in the chunks computed now.
        seconds: wall time of the computation.
    """

    out: Path
    chunks: int
    computed: int
    deals_computed: int
    seconds: float

    @property
    def deals_per_second(self) -> float:
        return self.deals_computed / self.seconds if self.seconds > 0 else 0.0


def check_params(study: Study, params: dict[str, Any] | None) -> dict[str, Any]:
    """The study's parameters: its defaults overridden by ``params``.

    Raises:
        StudyError: a parameter the study does not have.
    """
    merged = dict(study.params)
    for key, value in (params or {}).items():
        if key not in study.params:
            known = ", ".join(study.params) or "none"
            raise StudyError(f"study {study.name} has no parameter '{key}' (parameters: {known})")
        merged[key] = type(study.params[key])(value)
    return merged


def run_study(
    name: str,
    deals: int,
    seed: int,
    out: str | Path,
    workers: int | None = None,
    scheduler: str | None = None,
    params: dict[str, Any] | None = None,
    progress: bool = True,
    connect_timeout: float = 5.0,
    chunk_size: int | None = None,
) -> StudyRun:
    """Run a study into ``out`` (resuming it if begun there); see the module docstring.

    Args:
        name: a registered study (:data:`STUDIES`).
        deals: number of random deals.
        seed: the study seed.
        out: output folder.
        workers: local processes (default: every core); ignored with a scheduler.
        scheduler: ``tcp://HOST:PORT`` of a Dask scheduler, or None to run locally.
        params: study parameters (see ``tricklab study --list``).
        progress: draw a progress bar on stderr.
        connect_timeout: seconds to wait for the scheduler.
        chunk_size: deals a chunk (default: the study's); the rows depend on it, so it
            is part of the manifest.

    Raises:
        StudyError: unknown study or parameter, a foreign folder, no scheduler.
    """
    study = get_study(name)
    if deals < 1:
        raise StudyError(f"--deals must be at least 1 (got {deals})")
    merged = check_params(study, params)
    size = chunk_size or study.chunk_size
    if size < 1:
        raise StudyError(f"--chunk-size must be at least 1 (got {size})")
    out = Path(out)
    ranges = _chunk_ranges(deals, size)
    manifest = _manifest(study, merged, seed, deals, size)
    client = _connect(scheduler, connect_timeout) if scheduler else None
    try:
        done = prepare_folder(out, manifest)
        todo = [r for r in ranges if r[0] not in done]
        count = {i: n for i, _, n in ranges}
        bar = (
            Progress(deals, name, done=sum(count[i] for i in done if i in count))
            if progress
            else None
        )
        t0 = time.perf_counter()
        results = (
            _run_dask(client, name, merged, seed, todo)
            if client is not None
            else _run_local(name, merged, seed, todo, workers)
        )
        computed = 0
        for chunk, cols in results:
            write_chunk(out, chunk, cols)
            computed += 1
            if bar:
                bar.update(count[chunk])
        seconds = time.perf_counter() - t0
        if bar:
            bar.close()
    finally:
        if client is not None:
            client.close()
    return StudyRun(out, len(ranges), computed, sum(n for _, _, n in todo), seconds)


def _run_local(
    name: str,
    params: dict[str, Any],
    seed: int,
    todo: list[tuple[int, int, int]],
    workers: int | None,
) -> Iterator[tuple[int, dict]]:
    workers = max(1, min(workers or os.cpu_count() or 1, len(todo) or 1))
    args = [(name, params, seed, i, s, n) for i, s, n in todo]
    if workers == 1:
        for a in args:
            yield run_chunk(*a)
        return
    import multiprocessing

    # spawn: workers start clean (no inherited threads from pyarrow or the caller)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(_star_run_chunk, args)


def _star_run_chunk(args: tuple) -> tuple[int, dict]:
    return run_chunk(*args)


def _connect(address: str, timeout: float):
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is a dev dependency
        raise StudyError("--scheduler needs dask[distributed]") from None
    if not address.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
        raise StudyError(f"invalid scheduler address '{address}' (expected tcp://HOST:PORT)")
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise StudyError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({err})"
        ) from None


def _run_dask(
    client, name: str, params: dict[str, Any], seed: int, todo: list[tuple[int, int, int]]
) -> Iterable[tuple[int, dict]]:
    from distributed import as_completed

    futures = [
        client.submit(run_chunk, name, params, seed, i, s, n, pure=False, retries=2)
        for i, s, n in todo
    ]
    for future in as_completed(futures, loop=client.loop):
        yield future.result()
