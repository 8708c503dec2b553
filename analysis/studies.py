"""The study runner: many random deals, in chunks, on local cores or a Dask cluster.

A *study* is a named function that turns one chunk of random deals into rows (a dict
of equal-length columns). The runner (:func:`run_study`) splits ``deals`` into chunks
of a fixed size, runs the chunks not yet done, and writes each one as a Parquet file
in the output folder as soon as it arrives. The folder reads with
``pandas.read_parquet(folder)`` or :func:`read_study` (docs/data.md describes the
columns of every study).

Guarantees (docs/cli.md ``study``):

- **Determinism.** Chunk ``i`` draws its deals from a generator seeded by
  ``(study, seed, i)`` only (:func:`chunk_rng`), and the chunk size is fixed by the
  study (recorded in the manifest), so the rows are the same whatever the number of
  workers, their order, or the cluster.
- **Validated first.** The study, its parameters and every count are checked before
  anything is written: a bad argument leaves the folder as it was.
- **Atomic, verified chunks, resume.** A chunk is written to a temporary file in the
  folder and renamed into place (``os.replace``), so a chunk file exists whole or not
  at all, even after ``kill -9``; its size and SHA-256 go into the manifest. Running
  the same command again checks every chunk present (a truncated, empty or damaged
  one is computed again, with one line on stderr), skips the good ones and removes
  stale temporary files. Only this process writes files; workers return rows.
- **One study per folder, extended on demand.** ``_manifest.json`` names the study,
  its parameters, the seed and the chunk size. A folder whose manifest differs in any
  of these (or that holds other files and no manifest) is refused, not overwritten.
  A larger ``deals`` with the same study, parameters, seed and chunk size continues
  the study: the chunks present are kept and the new ones computed. The manifest's
  name starts with ``_`` so that Parquet readers skip it; folders written with the
  older name ``manifest.json`` are read, and renamed when resumed.
- **One run at a time.** A run holds a lock in the folder (``.tricklab.lock``); a
  second run on the same folder is refused while the first is alive. The lock of a
  process that died is taken over.
- **Workers that die.** A local worker process that dies (killed, out of memory)
  loses only the chunks out at that moment: a fresh pool computes them again, one at
  a time, and a chunk whose worker keeps dying stops the study with an error. With
  ``scheduler="tcp://HOST:PORT"`` the chunks are Dask tasks and Dask reschedules the
  task of a lost worker on another; since only the client writes, the chunk is then
  written once. An unreachable scheduler, or an address where something else
  listens, is a :class:`StudyError` within ``connect_timeout`` seconds.
- **Lazy work list.** Chunks are generated as they are handed out, a few per worker
  at a time, so memory does not grow with ``deals``.

>>> print(*sorted(STUDIES))
carabin-bidding carabin-matches carabin-realplay carabin-realplay-name klabberjass-bidding klabberjass-matches klabberjass-realplay klabberjass-sinking klabberjass-sinking-realplay
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import math
import os
import random
import socket
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from solver.errors import TricklabError

#: The manifest of a study folder (``_``: Parquet readers skip it).
MANIFEST = "_manifest.json"
#: The manifest's name in folders written by earlier versions (still read).
OLD_MANIFEST = "manifest.json"
#: The lock file of a running study.
LOCK = ".tricklab.lock"
FORMAT = 2
#: Largest number of deals (the ``deal`` column is a 64-bit integer).
MAX_DEALS = 2**63 - 1
#: Times a chunk may lose its worker process before the study gives up.
MAX_WORKER_DEATHS = 3

#: A chunk function: (rng, first deal index, number of deals, params) -> columns.
ChunkFn = Callable[[random.Random, int, int, dict[str, Any]], dict[str, list]]
#: A parameter check: the value (text or default) -> the value to use.
Check = Callable[[Any], Any]


class StudyError(TricklabError):
    """A study that cannot run: unknown name or parameter, a foreign or unwritable
    output folder, a folder in use, no scheduler."""


class _Invalid(Exception):
    """A parameter value a check refuses (the message says what was expected)."""


# ------------------------------------------------------------------ parameter checks


def _integer(least: int, most: int | None = None) -> Check:
    expected = (
        f"expected an integer from {least} to {most}"
        if most is not None
        else f"expected an integer at least {least}"
    )

    def check(value: Any) -> int:
        if isinstance(value, bool):
            raise _Invalid(expected)
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise _Invalid(expected) from None
        if number < least or (most is not None and number > most):
            raise _Invalid(expected)
        return number

    return check


def _seconds(value: Any) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise _Invalid("expected seconds, 0 or more (0: no limit)") from None
    if isinstance(value, bool) or not 0 <= number < math.inf:
        raise _Invalid("expected seconds, 0 or more (0: no limit)")
    return number


def _choice(*names: str, aliases: dict[str, str] | None = None) -> Check:
    def check(value: Any) -> str:
        text = str(value)
        text = (aliases or {}).get(text, text)
        if text not in names:
            raise _Invalid(f"expected {' or '.join(names)}")
        return text

    return check


def _name_list(*names: str) -> Check:
    def check(value: Any) -> str:
        items = [s.strip() for s in str(value).split(",")]
        if not items or any(s not in names for s in items):
            raise _Invalid(f"expected a comma-separated list of {', '.join(names)}")
        return ",".join(items)

    return check


def _plays(value: Any) -> str:
    text = str(value)
    items = [x.strip() for x in text.split(",")]
    if text != "same" and any(x not in ("pimc", "alphamu") for x in items):
        raise _Invalid("expected same or a comma-separated list of pimc, alphamu")
    return text if text == "same" else ",".join(items)


_RULES = _choice("seed", "classic")
_TRICK_ORDER = _choice("alternate", "left_then_right", aliases={"seed": "alternate"})
_PLAYERS = _integer(3, 6)
_COUNT = _integer(1)
#: Match studies: one match at a time, or duplicate (the same deals, policies swapped).
_FORMAT = _choice("single", "duplicate")


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
        checks: for each parameter, the function that reads and checks its value.
        readable: for :func:`read_study` ``readable=True``, the kind of each column
            shown as text (``hand``, ``card``, ``suit``, ``seat``, ``result``).
    """

    name: str
    description: str
    function: str
    chunk_size: int
    params: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, Check] = field(default_factory=dict)
    readable: dict[str, str] = field(default_factory=dict)

    def chunk_function(self) -> ChunkFn:
        module, _, name = self.function.partition(":")
        return getattr(import_module(module), name)


_KLABBERJASS_CONTRACTS = [f"res_{b}{t}" for b in "ED" for t in "SHDC"]

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
            {"rules": _RULES},
            {
                "e6": "hand",
                "e3": "hand",
                "d6": "hand",
                "d3": "hand",
                "turn": "card",
                "bottom": "card",
                **{c: "result" for c in _KLABBERJASS_CONTRACTS},
            },
        ),
        Study(
            "klabberjass-sinking",
            "Klabberjass: for bidders holding sequences or Bella, declare-or-sink decided "
            "double-dummy, always declaring, and from the bidder's own view by sampling",
            "analysis.bidding.sinking:sinking_chunk",
            50,
            {"rules": "seed", "samples": 24},
            {"rules": _RULES, "samples": _COUNT},
            {"bidder": "seat", "trump": "suit"},
        ),
        Study(
            "klabberjass-sinking-realplay",
            "Klabberjass: for bidders holding sequences or Bella, declare or sink the runs "
            "played by PIMC on both sides, or by alphamu (play=, depth=), and double dummy, "
            "Bella decided when played, flagged by how likely the derived auction (classic "
            "rules: the classic scorecard's) reaches the contract",
            "analysis.bidding.sinking_realplay:sinking_realplay_chunk",
            20,
            {"rules": "seed", "samples": 20, "sink_samples": 20, "play": "pimc", "depth": 2},
            {
                "rules": _RULES,
                "samples": _COUNT,
                "sink_samples": _COUNT,
                "play": _choice("pimc", "alphamu"),
                "depth": _COUNT,
            },
            {"bidder": "seat", "trump": "suit"},
        ),
        Study(
            "carabin-bidding",
            "Carabin: for every seat and trump of random deals, whether the contract is made "
            "and whether a chelem is made (double dummy: make probe and all-tricks search)",
            "analysis.bidding.carabin:carabin_chunk",
            10,
            {"players": 4, "trick_order": "alternate"},
            {"players": _PLAYERS, "trick_order": _TRICK_ORDER},
            {"trump": "suit", "turn": "card", "left": "hand", "right": "hand"},
        ),
        Study(
            "klabberjass-matches",
            "Klabberjass: matches to 500 between policy a and policy b (derived, "
            "derived-declare, scorecard, thumb, always), card play by PIMC, alphamu (depth=) or "
            "double dummy, or per player (play_a=, play_b=); "
            "derived declares as the real-play sinking study finds (sinking=realplay) or by "
            "the withdrawn margin threshold (sinking=margin); a row a match, or with "
            "format=duplicate two legs on the same deals, policies swapped (--deals counts "
            "matches or pairs)",
            "analysis.matches:klabberjass_matches_chunk",
            10,
            {
                "a": "derived",
                "b": "thumb",
                "play": "pimc",
                "samples": 6,
                "sink_samples": 12,
                "rules": "seed",
                "format": "single",
                "inference": "none",
                "sinking": "realplay",
                "depth": 2,
                "play_a": "same",
                "play_b": "same",
            },
            {
                "a": _choice("derived", "derived-declare", "scorecard", "thumb", "always"),
                "b": _choice("derived", "derived-declare", "scorecard", "thumb", "always"),
                "play": _choice("pimc", "dd", "alphamu"),
                "depth": _COUNT,
                "play_a": _choice("same", "pimc", "alphamu"),
                "play_b": _choice("same", "pimc", "alphamu"),
                "samples": _COUNT,
                "sink_samples": _COUNT,
                "rules": _choice("seed"),  # the matches simulate the seed rules only
                "format": _FORMAT,
                "inference": _choice("none", "a", "b", "both"),
                "sinking": _choice("realplay", "margin"),
            },
            {"a_first_seat": "seat"},
        ),
        Study(
            "carabin-matches",
            "Carabin: games to 10 between bidding policies (derived, realplay, realplay-name, thumb, "
            "always) dealt "
            "to the players in turn, seats rotated, or with format=duplicate every seating on the "
            "same deals; inference=a/b/both: those players read the auction in PIMC card play; "
            "card play dd, pimc or alphamu (depth=), or per policy entry (plays=alphamu,pimc,…); "
            "a row per game and player (--deals counts matches or sets)",
            "analysis.matches:carabin_matches_chunk",
            10,
            {
                "players": 4,
                "policies": "derived,thumb",
                "play": "dd",
                "samples": 4,
                "format": "single",
                "inference": "none",
                "max_deals": 500,
                "plays": "same",
                "depth": 2,
                "alphamu_samples": 0,
                "time_limit": 0.0,
            },
            {
                "players": _PLAYERS,
                "policies": _name_list("derived", "realplay", "realplay-name", "thumb", "always"),
                "play": _choice("dd", "pimc", "alphamu"),
                "samples": _COUNT,
                "format": _FORMAT,
                "inference": _choice("none", "a", "b", "both"),
                "max_deals": _COUNT,
                "plays": _plays,
                "depth": _COUNT,
                "alphamu_samples": _integer(0),
                "time_limit": _seconds,
            },
        ),
        Study(
            "carabin-realplay",
            "Carabin: a row a random deal: the contract the auction reaches (policy) and a "
            "probe (seat deal % players takes the turn-up suit), each made or not and chelem "
            "or not, double dummy and by PIMC on every seat (samples worlds a decision)",
            "analysis.bidding.carabin_realplay:realplay_chunk",
            10,
            {
                "players": 4,
                "samples": 20,
                "policy": "thumb",
                "trick_order": "alternate",
                "time_limit": 0.0,
            },
            {
                "players": _PLAYERS,
                "samples": _COUNT,
                "policy": _choice("thumb", "derived", "realplay", "always"),
                "trick_order": _TRICK_ORDER,
                "time_limit": _seconds,
            },
            {"turn": "card"},
        ),
        Study(
            "carabin-realplay-name",
            "Carabin: a row a random deal (the deals of carabin-realplay): seat deal % players "
            "names his longest suit other than the turn-up suit (round 2), whatever his hand; "
            "made or not double dummy and by PIMC on every seat (samples worlds a decision)",
            "analysis.bidding.carabin_naming:naming_chunk",
            10,
            {"players": 4, "samples": 20, "trick_order": "alternate", "time_limit": 0.0},
            {
                "players": _PLAYERS,
                "samples": _COUNT,
                "trick_order": _TRICK_ORDER,
                "time_limit": _seconds,
            },
            {"turn": "card", "trump": "suit"},
        ),
        Study(
            "klabberjass-realplay",
            "Klabberjass: every contract of random deals played double dummy and by PIMC on "
            "both sides (samples worlds a decision), the same declarations: the bias of "
            "double-dummy play",
            "analysis.bidding.realplay:realplay_chunk",
            50,
            {"rules": "seed", "samples": 20, "play_seed": "row"},
            {"rules": _RULES, "samples": _COUNT, "play_seed": _choice("row", "shared")},
            {
                "e6": "hand",
                "e3": "hand",
                "d6": "hand",
                "d3": "hand",
                "turn": "card",
                "bottom": "card",
                **{f"{m}_{c}": "result" for m in ("dd", "pimc") for c in _KLABBERJASS_CONTRACTS},
            },
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


def check_params(study: Study, params: dict[str, Any] | None) -> dict[str, Any]:
    """The study's parameters: its defaults overridden by ``params``, each checked.

    >>> check_params(get_study("klabberjass-sinking"), {"samples": "8"})
    {'rules': 'seed', 'samples': 8}

    Raises:
        StudyError: a parameter the study does not have, or a value it does not take
            (``invalid samples '0' for study klabberjass-sinking (expected an integer
            at least 1)``).
    """
    merged = dict(study.params)
    for key, value in (params or {}).items():
        if key not in study.params:
            known = ", ".join(study.params) or "none"
            raise StudyError(f"study {study.name} has no parameter '{key}' (parameters: {known})")
        merged[key] = value
    for key, value in merged.items():
        check = study.checks.get(key)
        if check is None:
            merged[key] = type(study.params[key])(value)
            continue
        try:
            merged[key] = check(value)
        except _Invalid as err:
            raise StudyError(f"invalid {key} '{value}' for study {study.name} ({err})") from None
    return merged


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


def chunk_count(deals: int, size: int) -> int:
    """The number of chunks of ``deals`` deals, ``size`` a chunk."""
    return -(-deals // size)


def chunk_deals(chunk: int, deals: int, size: int) -> int:
    """The deals of chunk ``chunk`` (the last one may be short)."""
    return min(size, deals - chunk * size)


def iter_chunks(deals: int, size: int, skip: set[int] | frozenset[int] = frozenset()):
    """The chunks still to compute, ``(chunk, first deal, deals)``, made as they are
    asked for: the work list of a huge study takes no memory.

    >>> work = iter_chunks(10**12, 500, skip={0})
    >>> next(work), next(work)
    ((1, 500, 500), (2, 1000, 500))
    >>> list(iter_chunks(1200, 500))
    [(0, 0, 500), (1, 500, 500), (2, 1000, 200)]
    """
    for i in range(chunk_count(deals, size)):
        if i not in skip:
            yield i, i * size, chunk_deals(i, deals, size)


# ------------------------------------------------------------------ the folder

_IDENTITY = ("study", "params", "seed", "chunk_size")
#: Parameters added to a study after folders were written without them; their value
#: here keeps the rows as they were, so an older manifest lacking one is read with it.
_ADDED_PARAMS: dict[str, dict[str, Any]] = {
    "klabberjass-matches": {
        "format": "single",
        "inference": "none",
        "sinking": "margin",
        "depth": 2,
        "play_a": "same",
        "play_b": "same",
    },
    "carabin-matches": {
        "format": "single",
        "inference": "none",
        "max_deals": 500,
        "plays": "same",
        "depth": 2,
        "alphamu_samples": 0,
        "time_limit": 0.0,
    },
    "klabberjass-realplay": {"play_seed": "row"},
    "klabberjass-sinking-realplay": {"play": "pimc", "depth": 2},
}


def added_params(study: str) -> dict[str, Any]:
    """The parameters added to ``study`` after folders were written without them, with
    the value that keeps those folders' rows (see :data:`_ADDED_PARAMS`).

    >>> added_params("klabberjass-matches")["sinking"]
    'margin'
    """
    return dict(_ADDED_PARAMS.get(study, {}))


def _manifest(study: Study, params: dict[str, Any], seed: int, deals: int, size: int) -> dict:
    return {
        "format": FORMAT,
        "study": study.name,
        "params": params,
        "seed": seed,
        "chunk_size": size,
        "deals": deals,
        "chunks": chunk_count(deals, size),
        "files": {},
    }


def manifest_path(out: str | Path) -> Path | None:
    """The manifest file of a study folder (new name first), or None."""
    for name in (MANIFEST, OLD_MANIFEST):
        path = Path(out) / name
        if path.is_file():
            return path
    return None


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    _fsync_dir(path.parent)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _chunk_index(path: Path) -> int | None:
    name = path.name
    if not (name.startswith("chunk-") and name.endswith(".parquet")):
        return None
    digits = name[len("chunk-") : -len(".parquet")]
    return int(digits) if digits.isdigit() else None


def _chunk_files(out: Path) -> list[tuple[int, Path]]:
    found = [(_chunk_index(p), p) for p in out.glob("chunk-*.parquet")]
    return sorted((i, p) for i, p in found if i is not None)


def _problem(path: Path, record: dict | None) -> str | None:
    """What is wrong with a chunk file (None: it is whole)."""
    try:
        size = path.stat().st_size
    except OSError as err:
        return f"unreadable ({err.strerror})"
    if size == 0:
        return "empty"
    if record is not None:
        if size != record.get("bytes"):
            return f"{size} bytes instead of {record.get('bytes')}"
        try:
            digest = _sha256(path)
        except OSError as err:
            return f"unreadable ({err.strerror})"
        if digest != record.get("sha256"):
            return "checksum differs"
        return None
    # a chunk written before its record (or by an older version): it must decode
    import pyarrow.parquet as pq

    try:
        pq.read_table(path)
    except Exception:  # noqa: BLE001 - any failure to decode is a damaged file
        return "not a readable Parquet file"
    return None


class _Folder:
    """An output folder held by this run: its lock, manifest and chunk records."""

    def __init__(self, out: Path, log: Callable[[str], None]):
        self.out, self.log = out, log
        self.lock_fd: int | None = None
        self.manifest: dict[str, Any] = {}
        self.saved_at = 0.0
        self.dirty = False

    # -- lock

    def lock(self) -> None:
        path = self.out / LOCK
        for _ in range(10):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as err:
                raise StudyError(f"cannot write in {self.out} ({err.strerror})") from None
            if not self._flock(fd, path):
                os.close(fd)
                raise StudyError(
                    f"{self.out} is in use by another study run{self._holder(path)}; "
                    "wait for it to finish or choose another --out"
                )
            try:  # the file may have been removed by its last holder meanwhile
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
                self.lock_fd = fd
                return
            os.close(fd)
        raise StudyError(f"cannot lock {self.out} (its lock file keeps changing)")

    @staticmethod
    def _holder(path: Path) -> str:
        with contextlib.suppress(OSError, ValueError, IndexError):
            return f" (pid {int(path.read_text().split()[0])})"
        return ""

    @staticmethod
    def _flock(fd: int, path: Path) -> bool:
        """Take the lock; False if a live process holds it."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: the pid in the file decides
            return not _alive(_Folder._pid(path))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError as err:
            if err.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                return False
            # a file system without locks: the pid in the file decides
            return not _alive(_Folder._pid(path))

    @staticmethod
    def _pid(path: Path) -> int | None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            return int(path.read_text().split()[0])
        return None

    def unlock(self) -> None:
        if self.lock_fd is None:
            return
        with contextlib.suppress(OSError):
            (self.out / LOCK).unlink()
        os.close(self.lock_fd)
        self.lock_fd = None

    # -- manifest

    def save(self, force: bool = True) -> None:
        """Write the manifest (at most once a second unless ``force``)."""
        if not force and (not self.dirty or time.monotonic() - self.saved_at < 1.0):
            return
        text = json.dumps(self.manifest, indent=1) + "\n"
        try:
            _write_atomic(self.out / MANIFEST, text.encode())
        except OSError as err:
            raise StudyError(f"cannot write {self.out / MANIFEST} ({err.strerror})") from None
        self.saved_at, self.dirty = time.monotonic(), False

    def record(self, chunk: int, deals: int, rows: int, data: bytes) -> None:
        self.manifest["files"][chunk_path(self.out, chunk).name] = {
            "deals": deals,
            "rows": rows,
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        self.dirty = True


def _alive(pid: int | None) -> bool:
    if pid is None or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _check_out(out: Path) -> None:
    """Refuse an output path that cannot be a study folder, before writing anything."""
    if out.exists() and not out.is_dir():
        raise StudyError(f"--out '{out}' is a file, not a folder; choose another --out")
    parent = out
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise StudyError(f"--out '{out}': '{parent}' is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise StudyError(f"cannot write in '{parent}' (permission denied); choose another --out")


def prepare_folder(
    out: Path, manifest: dict[str, Any], log: Callable[[str], None] | None = None
) -> _Folder:
    """Lock, check or create the output folder and check the chunks already there.

    Returns the locked folder; ``folder.manifest["files"]`` names the good chunks.
    Damaged chunks are removed (and named in one line through ``log``).

    Raises:
        StudyError: the folder holds another study (or anything but a study), is
            in use by another run, or cannot be written.
    """
    log = log or _stderr_line
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise StudyError(f"cannot create the folder '{out}' ({err.strerror})") from None
    _refuse_foreign(out)  # before the lock file: a foreign folder is left as it was
    folder = _Folder(out, log)
    folder.lock()
    try:
        _adopt(folder, manifest)
    except BaseException:
        folder.unlock()
        raise
    return folder


def _refuse_foreign(out: Path) -> None:
    if manifest_path(out) is not None:
        return
    others = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    if others:
        raise StudyError(
            f"{out} is not empty and holds no study manifest ({others[0]}, ...); "
            "refusing to write there, choose another --out"
        )


def _adopt(folder: _Folder, manifest: dict[str, Any]) -> None:
    out = folder.out
    path = manifest_path(out)
    if path is None:
        _refuse_foreign(out)
        folder.manifest = manifest
        folder.save()
        return
    try:
        old = json.loads(path.read_text())
        if not isinstance(old, dict):
            raise ValueError(old)
    except (ValueError, OSError):
        raise StudyError(f"{path} is not a study manifest; refusing to use {out}") from None
    old_params = old.get("params")
    if isinstance(old_params, dict) and old.get("study") in _ADDED_PARAMS:
        old = {**old, "params": {**added_params(str(old["study"])), **old_params}}
    diffs = [
        f"{k} {old.get(k)!r} (asked: {manifest[k]!r})"
        for k in _IDENTITY
        if old.get(k) != manifest[k]
    ]
    if diffs:
        raise StudyError(
            f"{out} holds another study's results ({old.get('study')}: "
            f"{'; '.join(diffs)}); refusing to overwrite it, choose another --out"
        )
    old_deals = int(old.get("deals", 0))
    if manifest["deals"] < old_deals:
        raise StudyError(
            f"{out} holds {old_deals} deals of this study; --deals {manifest['deals']} "
            f"would drop some: ask for {old_deals} or more to resume or extend it"
        )
    size = manifest["chunk_size"]
    records: dict[str, Any] = old["files"] if isinstance(old.get("files"), dict) else {}
    for stale in [*out.glob(".chunk-*.tmp-*"), *out.glob(f".{MANIFEST}.tmp-*")]:
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    files, damaged = {}, []
    for i, p in _chunk_files(out):
        record = records.get(p.name)
        if not isinstance(record, dict):
            record = None
        problem = _problem(p, record) if i < chunk_count(old_deals, size) else "beyond the study"
        if problem is not None:
            damaged.append(f"{p.name} {problem}")
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
            continue
        if record is None:  # computed for the deals the manifest had
            import pyarrow.parquet as pq

            record = {
                "deals": chunk_deals(i, old_deals, size),
                "rows": pq.read_metadata(p).num_rows,
                "bytes": p.stat().st_size,
                "sha256": _sha256(p),
            }
        if record.get("deals") != chunk_deals(i, manifest["deals"], size):
            # the short last chunk of a study now extended: computed again, longer
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
            continue
        files[p.name] = record
    if damaged:
        shown = ", ".join(damaged[:3]) + (
            f" and {len(damaged) - 3} more" if len(damaged) > 3 else ""
        )
        folder.log(
            f"tricklab: {len(damaged)} damaged chunk{'s' if len(damaged) > 1 else ''} "
            f"in {out} will be computed again: {shown}"
        )
    folder.manifest = {**manifest, "files": files}
    folder.save()
    if path.name == OLD_MANIFEST:
        path.unlink()


def _stderr_line(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _chunk_bytes(columns: dict[str, list]) -> tuple[bytes, int]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(columns)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes(), table.num_rows


def write_chunk(out: Path, chunk: int, columns: dict[str, list]) -> bytes:
    """Write one chunk's columns as Parquet, atomically (temporary file, then rename).

    Returns the bytes written (their size and SHA-256 go into the manifest).
    """
    data, _ = _chunk_bytes(columns)
    _write_atomic(chunk_path(out, chunk), data)
    return data


def read_manifest(out: str | Path, files: bool = False) -> dict[str, Any]:
    """The manifest of a study folder (``_manifest.json``, or ``manifest.json`` of
    folders written by earlier versions): study, params, seed, chunk_size, deals and
    chunks; with ``files``, also the record (deals, rows, bytes, sha256) of each chunk.

    Raises:
        StudyError: not a study folder.
    """
    path = manifest_path(out)
    if path is None:
        raise StudyError(f"{out} is not a study folder (no {MANIFEST})")
    try:
        manifest = json.loads(path.read_text())
    except ValueError:
        raise StudyError(f"{path} is not a study manifest") from None
    if not files and isinstance(manifest, dict):
        manifest.pop("files", None)
    return manifest


def read_study(out: str | Path, columns: list[str] | None = None, readable: bool = False):
    """The rows of a study folder as a pandas DataFrame, in deal order.

    Args:
        out: the study folder.
        columns: read only these columns.
        readable: cards as text (``AS``), card sets as holdings (``AJ9.K7..T87``),
            suits as letters (``S H D C``), Klabberjass seats as ``E``/``D`` and
            contract results as ``made``/``tie``/``bate`` (docs/data.md).

    Raises:
        StudyError: not a study folder.
    """
    import pandas as pd
    import pyarrow.parquet as pq

    manifest = read_manifest(out)
    files = [p for _, p in _chunk_files(Path(out))]
    if not files:
        return pd.DataFrame()
    frames = [pq.read_table(f, columns=columns).to_pandas() for f in files]
    df = pd.concat(frames, ignore_index=True)
    if readable:
        df = readable_columns(df, str(manifest.get("study")))
    return df


_RESULT_WORDS = {1: "made", 0: "tie", -1: "bate"}


def readable_columns(df, study: str):
    """A copy of a study's rows with cards, card sets, suits, seats and results as
    text (see :func:`read_study`); works on ``pandas.read_parquet(folder)`` too.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"bidder": [1], "trump": [2], "view": [4]})
    >>> readable_columns(df, "klabberjass-sinking").to_dict("records")
    [{'bidder': 'D', 'trump': 'D', 'view': 4}]

    Raises:
        StudyError: an unknown study.
    """
    from solver.cards import SUITS, card_str, format_holding

    kinds = get_study(study).readable
    seats = "ED"
    convert: dict[str, Callable[[Any], str]] = {
        "hand": lambda v: format_holding(int(v)),
        "card": lambda v: card_str(int(v)),
        "suit": lambda v: SUITS[int(v)],
        "seat": lambda v: seats[int(v)],
        "result": lambda v: _RESULT_WORDS[int(v)],
    }
    out = df.copy()
    for name, kind in kinds.items():
        if name in out.columns:
            out[name] = out[name].map(convert[kind]).astype("string")
    return out


# ------------------------------------------------------------------ progress


def _in_notebook() -> bool:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None  # type: ignore[attr-defined]
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def _progress_bar(progress: bool | None, total: int, done: int, label: str, stream: TextIO):
    """A tqdm bar (rate, ETA) or None: ``progress`` None shows it when ``stream`` is a
    terminal or in Jupyter."""
    if progress is None:
        progress = bool(getattr(stream, "isatty", lambda: False)()) or _in_notebook()
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(
        total=total,
        initial=done,
        desc=label,
        unit=" deals",
        file=stream,
        dynamic_ncols=True,
        smoothing=0.1,
        mininterval=0.2,
    )


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


def run_study(
    name: str,
    deals: int,
    seed: int,
    out: str | Path,
    workers: int | None = None,
    scheduler: str | None = None,
    params: dict[str, Any] | None = None,
    progress: bool | None = None,
    connect_timeout: float = 5.0,
    chunk_size: int | None = None,
    log: Callable[[str], None] | None = None,
) -> StudyRun:
    """Run a study into ``out`` (resuming or extending it if begun there); see the
    module docstring.

    Args:
        name: a registered study (:data:`STUDIES`).
        deals: number of random deals.
        seed: the study seed.
        out: output folder.
        workers: local processes (default: every core); ignored with a scheduler.
        scheduler: ``tcp://HOST:PORT`` of a Dask scheduler, or None to run locally.
        params: study parameters (see ``tricklab study --list``).
        progress: a progress bar on stderr (tqdm); None: only when stderr is a
            terminal or in Jupyter.
        connect_timeout: seconds to reach the scheduler and hear it answer.
        chunk_size: deals a chunk (default: the study's); the rows depend on it, so it
            is part of the manifest.
        log: where the one-line notes go (default: stderr), e.g. damaged chunks.

    Raises:
        StudyError: unknown study or parameter, a count out of range, a foreign,
            busy or unwritable folder, no scheduler.
    """
    study = get_study(name)
    if isinstance(deals, bool) or not 1 <= deals <= MAX_DEALS:
        raise StudyError(f"invalid --deals {deals} (at least 1, at most {MAX_DEALS})")
    merged = check_params(study, params)
    size = chunk_size or study.chunk_size
    if size < 1:
        raise StudyError(f"invalid --chunk-size {size} (at least 1)")
    if workers is not None and workers < 1:
        raise StudyError(f"invalid --workers {workers} (at least 1)")
    log = log or _stderr_line
    out = Path(out)
    _check_out(out)
    manifest = _manifest(study, merged, seed, deals, size)
    client = _connect(scheduler, connect_timeout) if scheduler else None
    try:
        folder = prepare_folder(out, manifest, log)
        try:
            return _compute(folder, name, merged, seed, deals, size, workers, client, progress)
        finally:
            with contextlib.suppress(StudyError):
                folder.save(force=folder.dirty)
            folder.unlock()
    finally:
        if client is not None:
            client.close()


def _compute(folder, name, params, seed, deals, size, workers, client, progress) -> StudyRun:
    out = folder.out
    done = {i for i in map(_chunk_index, map(Path, folder.manifest["files"])) if i is not None}
    todo = iter_chunks(deals, size, done)
    already = sum(chunk_deals(i, deals, size) for i in done)
    bar = _progress_bar(progress, deals, already, name, sys.stderr)
    t0 = time.perf_counter()
    computed = computed_deals = 0

    def note(text: str) -> None:  # a line on stderr, under the bar rather than through it
        if bar is None:
            folder.log(text)
            return
        with bar.external_write_mode(file=sys.stderr):
            folder.log(text)

    results = (
        _run_dask(client, name, params, seed, todo)
        if client is not None
        else _run_local(name, params, seed, todo, workers, note)
    )
    try:
        with contextlib.closing(results):  # type: ignore[type-var]
            for chunk, cols in results:
                n = chunk_deals(chunk, deals, size)
                try:
                    data, rows = _chunk_bytes(cols)
                    _write_atomic(chunk_path(out, chunk), data)
                except OSError as err:
                    raise StudyError(
                        f"cannot write {chunk_path(out, chunk)} ({err.strerror})"
                    ) from None
                folder.record(chunk, n, rows, data)
                folder.save(force=False)
                computed += 1
                computed_deals += n
                if bar is not None:
                    bar.update(n)
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - t0
    return StudyRun(out, chunk_count(deals, size), computed, computed_deals, seconds)


def _run_local(
    name: str,
    params: dict[str, Any],
    seed: int,
    todo: Iterator[tuple[int, int, int]],
    workers: int | None,
    log: Callable[[str], None],
) -> Iterator[tuple[int, dict]]:
    """The chunks' results, computed in this process (one worker) or in a pool of
    spawned processes, at most two chunks a worker handed out at a time.

    A worker process that dies breaks the pool: the chunks out at that moment are
    computed again in a new pool, one at a time, so that a chunk that kills its worker
    is known; one that does so MAX_WORKER_DEATHS times is an error, not an endless loop.
    """
    workers = max(1, workers or os.cpu_count() or 1)
    if workers == 1:
        for job in todo:
            yield run_chunk(name, params, seed, *job)
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    # spawn: workers start clean (no inherited threads from pyarrow or the caller)
    ctx = multiprocessing.get_context("spawn")

    def new_pool() -> ProcessPoolExecutor:
        return ProcessPoolExecutor(workers, mp_context=ctx)

    Job = tuple[int, int, int]
    pool = new_pool()
    pending: dict[Future, Job] = {}
    suspects: deque[Job] = deque()  # out when a worker died: run alone, one at a time
    again: deque[Job] = deque()  # not yet run when the pool broke
    deaths: dict[int, int] = {}

    def next_job() -> Job | None:
        if suspects:
            return None if pending else suspects.popleft()
        if len(pending) >= 2 * workers:
            return None
        return again.popleft() if again else next(todo, None)

    try:
        while True:
            broken = False
            while True:
                alone = bool(suspects)
                nxt = next_job()
                if nxt is None:
                    break
                try:
                    pending[pool.submit(run_chunk, name, params, seed, *nxt)] = nxt
                except BrokenProcessPool:  # broke before this chunk went out
                    (suspects if alone else again).appendleft(nxt)
                    broken = True
                    break
            lost: list[Job] = []
            if not broken:
                if not pending:
                    pool.shutdown(wait=True)
                    return
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    job = pending.pop(future)
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        lost.append(job)
                        continue
                    yield result
                if not lost:
                    continue
            # the pool is broken: every chunk still out is lost; keep those that finished
            for future, job in list(pending.items()):
                result = None
                if future.done():
                    with contextlib.suppress(BaseException):
                        result = future.result()
                if result is not None:
                    yield result
                else:  # lost (or failed: computed again, and any error raised then)
                    lost.append(job)
            pending.clear()
            _kill_pool(pool)
            if len(lost) == 1:  # it ran alone: its worker died under it
                chunk = lost[0][0]
                deaths[chunk] = deaths.get(chunk, 0) + 1
                if deaths[chunk] >= MAX_WORKER_DEATHS:
                    raise StudyError(
                        f"the worker process computing chunk {chunk} died {deaths[chunk]} "
                        "times (out of memory?); the chunks written are kept, run again to "
                        "resume"
                    )
            log(
                f"tricklab: a worker process died; {len(lost)} chunk"
                f"{'s' if len(lost) != 1 else ''} will be computed again"
            )
            suspects.extend(sorted(lost))
            pool = new_pool()
    finally:
        _kill_pool(pool)


def _kill_pool(pool) -> None:
    """Stop a process pool now: queued chunks cancelled, its processes killed."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.kill()
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)


def _connect(address: str, timeout: float):
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is a dev dependency
        raise StudyError("--scheduler needs dask[distributed]") from None
    if not address.startswith(("tcp://", "tls://", "inproc://", "ws://", "wss://")):
        raise StudyError(f"invalid scheduler address '{address}' (expected tcp://HOST:PORT)")
    _probe(address, timeout)
    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as err:
        raise StudyError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({err})"
        ) from None


def _probe(address: str, timeout: float) -> None:
    """Check within ``timeout`` seconds, handshake included, that a Dask scheduler
    answers at ``address`` (a silent or foreign server would hang the client).

    Raises:
        StudyError: nothing answers, or not as a scheduler.
    """
    import asyncio

    from distributed.comm import connect

    async def identity() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity"})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded() -> Any:
        return await asyncio.wait_for(identity(), timeout)

    try:
        answer = asyncio.run(bounded())
    except (OSError, TimeoutError) as err:
        why = f" ({err})" if str(err) else " (no answer)"
        raise StudyError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s{why}"
        ) from None
    except Exception as err:  # noqa: BLE001 - whatever a foreign server makes the client do
        raise StudyError(
            f"no Dask scheduler at {address} (it does not speak the Dask protocol: "
            f"{type(err).__name__})"
        ) from None
    if not (isinstance(answer, dict) and answer.get("type") == "Scheduler"):
        raise StudyError(f"no Dask scheduler at {address} (it answered as something else)")


def _run_dask(
    client, name: str, params: dict[str, Any], seed: int, todo: Iterator[tuple[int, int, int]]
) -> Iterator[tuple[int, dict]]:
    """The chunks' results from the cluster, a few tasks a worker thread submitted at a
    time (Dask reschedules the task of a worker that dies)."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    threads = sum(client.nthreads().values()) or 1
    jobs: dict[str, int] = {}

    def submit(job: tuple[int, int, int]):
        future = client.submit(run_chunk, name, params, seed, *job, pure=False, retries=2)
        jobs[future.key] = job[0]
        return future

    first = [submit(job) for job in islice(todo, 2 * threads + 2)]
    running = as_completed(first, loop=client.loop)
    for future in running:
        try:
            result = future.result()
        except KilledWorker:
            raise StudyError(
                f"chunk {jobs.get(future.key)} killed every Dask worker that ran it; the "
                "chunks written are kept, run again to resume"
            ) from None
        future.release()
        yield result
        job = next(todo, None)
        if job is not None:
            running.add(submit(job))
