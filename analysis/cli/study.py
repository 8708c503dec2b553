"""``tricklab study``: list the studies or run one (see :mod:`analysis.studies`)."""

from __future__ import annotations

import argparse
import sys

from analysis.studies import STUDIES, StudyError, run_study


def _params(pairs: list[str] | None) -> dict[str, str]:
    out = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            raise StudyError(f"invalid --param '{pair}' (expected NAME=VALUE)")
        out[key] = value
    return out


def study(args: argparse.Namespace) -> int:
    """Run ``tricklab study``; returns the exit status."""
    if args.list or not args.name:
        if not args.list:
            raise StudyError("name a study to run, or --list to see them")
        for s in STUDIES.values():
            params = " ".join(f"{k}={v}" for k, v in s.params.items()) or "-"
            print(f"{s.name:22} {s.description}")
            print(f"{'':22} parameters: {params}; {s.chunk_size} deals a chunk")
        return 0
    if args.deals is None:
        raise StudyError("--deals is required")
    if args.out is None:
        raise StudyError("--out is required")
    params = _params(args.param)
    if args.rules is not None:
        params["rules"] = args.rules
    run = run_study(
        args.name,
        deals=args.deals,
        seed=args.seed,
        out=args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        params=params,
        progress=not args.quiet,
        chunk_size=args.chunk_size,
    )
    print(
        f"{args.name}: {run.chunks} chunks in {run.out} ({run.computed} computed now, "
        f"{run.chunks - run.computed} already there); {run.deals_computed} deals in "
        f"{run.seconds:.1f} s ({run.deals_per_second:.0f} deals/s)",
        file=sys.stdout,
    )
    return 0
