"""``tricklab study``: list the studies, or run one into Parquet files (see :mod:`analysis.studies`).

A study writes its rows chunk by chunk into ``--out``; the same command run again
resumes it (checking the chunks there), a larger ``--deals`` extends it, and the same
``--seed`` gives the same rows whatever the workers or the Dask cluster
(``--scheduler``). The folder reads with ``pandas.read_parquet(DIR)`` or
``analysis.studies.read_study(DIR, readable=True)`` (cards, hands, seats and suits by
name); the columns are described in the documentation's study data page.
"""

from __future__ import annotations

import argparse
from typing import Any

from analysis.cli.common import count, require, whole
from analysis.studies import MAX_DEALS, STUDIES, StudyError, get_study, run_study
from solver.limits import max_workers

HELP = "run a strategy study into Parquet files"

#: Runnable examples, shown under ``tricklab study --help`` (and run by the tests).
EXAMPLES = (
    "tricklab study --list",
    "tricklab study klabberjass-bidding --deals 200 --seed 1 --out runs/bidding",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab study``."""
    parser.add_argument("name", nargs="?", help="the study (see --list)")
    parser.add_argument("--list", action="store_true", help="name the studies")
    parser.add_argument(
        "--deals", type=count("--deals", 1, MAX_DEALS), default=None, help="number of random deals"
    )
    parser.add_argument(
        "--seed", type=whole("--seed"), default=1, help="the study seed (default 1)"
    )
    parser.add_argument("--out", default=None, help="output folder (resumed if begun)")
    parser.add_argument(
        "--workers",
        type=count("--workers", 1, max_workers(), "four per core"),
        default=None,
        help="local processes (default: cores)",
    )
    parser.add_argument("--scheduler", default=None, help="Dask scheduler tcp://HOST:PORT")
    parser.add_argument("--param", action="append", help="study parameter NAME=VALUE")
    parser.add_argument(
        "--rules",
        default=None,
        help="Klabberjass rules preset (seed, classic), or the Carabin trick order "
        "(alternate, left_then_right)",
    )
    parser.add_argument(
        "--chunk-size",
        type=count("--chunk-size", 1, MAX_DEALS),
        default=None,
        help="deals a chunk (default: the study's)",
    )
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument(
        "--progress",
        action="store_true",
        help="show the progress bar even when stderr is not a terminal",
    )
    bar.add_argument("--quiet", action="store_true", help="no progress bar")


def _params(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise StudyError(f"invalid --param '{pair}' (expected NAME=VALUE)")
        out[key] = value
    return out


def _list() -> None:
    for s in STUDIES.values():
        params = " ".join(f"{k}={v}" for k, v in s.params.items()) or "-"
        print(f"{s.name:22} {s.description}")
        print(f"{'':22} parameters: {params}; {s.chunk_size} deals a chunk")


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab study``."""
    if args.list:
        _list()
        return 0
    if not args.name:
        raise StudyError("name a study to run, or --list to see them")
    require("pyarrow", "pandas", "tqdm")
    study = get_study(args.name)
    if args.deals is None:
        raise StudyError("--deals is required")
    if args.out is None:
        raise StudyError("--out is required")
    params = _params(args.param)
    if args.rules is not None:
        # --rules is the Klabberjass preset, or the Carabin trick order
        key = "rules" if "rules" in study.params else "trick_order"
        if key not in study.params:
            raise StudyError(f"study {study.name} takes no --rules")
        params[key] = args.rules
    done = run_study(
        args.name,
        deals=args.deals,
        seed=args.seed,
        out=args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        params=params,
        progress=False if args.quiet else (True if args.progress else None),
        chunk_size=args.chunk_size,
    )
    rate = done.deals_per_second
    # slow studies (seconds a deal) would print "0 deals/s": give the time a deal instead
    speed = f"{rate:.0f} deals/s" if rate >= 10 else f"{1 / rate:.2f} s a deal" if rate else "-"
    print(
        f"{args.name}: {done.chunks} chunks in {done.out} ({done.computed} computed now, "
        f"{done.chunks - done.computed} already there); {done.deals_computed} deals in "
        f"{done.seconds:.1f} s ({speed})"
    )
    return 0
