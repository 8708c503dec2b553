"""Recompute chunks of a study folder with the current code and compare them with the
stored rows (the parameters as the folder's manifest records them, with any parameter
added since at the value that kept its rows: ``analysis.studies.added_params``).

    python tools/replay_chunks.py FOLDER [FOLDER ...] [--chunks 0,3] [--sank N] [--param K=V]

``--sank N``: besides ``--chunks`` (default: chunk 0), the first ``N`` chunks holding a
row where a player sank (columns ``*_sank`` of the match studies), so the check covers
the sinking decision. ``--param K=V`` replaces a parameter (to see that another value
changes the rows). Prints one line a chunk; exits 1 if any differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code

from analysis.studies import (  # noqa: E402
    added_params,
    check_params,
    chunk_path,
    get_study,
    read_manifest,
    run_chunk,
)


def replay(folder: Path, chunks: list[int], sank: int, override: dict[str, str]) -> bool:
    manifest = read_manifest(folder)
    study = get_study(manifest["study"])
    given = {**added_params(study.name), **manifest["params"], **override}
    params = check_params(study, given)
    size, deals = int(manifest["chunk_size"]), int(manifest["deals"])
    picked = list(chunks)
    if sank:
        for i in range(-(-deals // size)):
            if len(picked) >= len(chunks) + sank:
                break
            stored = pd.read_parquet(chunk_path(folder, i))
            cols = [c for c in stored.columns if c.endswith("_sank")]
            if i not in picked and cols and (stored[cols].to_numpy() > 0).any():
                picked.append(i)
    ok = True
    for i in picked:
        stored = pd.read_parquet(chunk_path(folder, i))
        count = min(size, deals - i * size)
        _, cols = run_chunk(study.name, params, manifest["seed"], i, i * size, count)
        again = pd.DataFrame(cols)[list(stored.columns)].astype(stored.dtypes.to_dict())
        same = again.reset_index(drop=True).equals(stored.reset_index(drop=True))
        sunk = {c: int(stored[c].sum()) for c in stored.columns if c.endswith("_sank")}
        print(
            f"{folder} chunk {i}: {'same rows' if same else 'DIFFERENT'} ({len(stored)} rows, {sunk})"
        )
        ok &= same
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--chunks", default="0", help="chunk indices, comma-separated")
    ap.add_argument("--sank", type=int, default=0, help="also the first N chunks with a sink")
    ap.add_argument("--param", action="append", default=[], help="K=V: replace a parameter")
    args = ap.parse_args(argv)
    chunks = [int(c) for c in args.chunks.split(",") if c]
    override = dict(p.split("=", 1) for p in args.param)
    ok = all([replay(f, chunks, args.sank, override) for f in args.folders])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
