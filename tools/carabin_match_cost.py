"""What a duplicate Carabin match with PIMC card play costs: one small run, timed.

Runs ``tricklab study carabin-matches`` in this process (one worker) for ``--sets``
duplicate sets of one policy against a field of another (``realplay,thumb,thumb…``),
every contract played by PIMC on every seat, and writes its wall time, its CPU time
(this process: less sensitive to a loaded machine than the wall time) and the
contracts played, so a sample size can be priced::

    python tools/carabin_match_cost.py 5 --sets 1 --out runs/cost5 --json cost5.json

A set is one game per seating: ``players`` games to 10. With ``--limit S`` the run is
stopped after S seconds of wall time (at the next Python instruction: a search in the
compiled core finishes first) and the measurement says so (``finished`` false), with
the contracts started until then (the last one unfinished).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from analysis import matches
from analysis.matches import study_command
from analysis.studies import read_manifest, read_study, run_study


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("players", type=int)
    ap.add_argument("--sets", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--policy", default="realplay")
    ap.add_argument("--field", default="thumb")
    ap.add_argument("--out", required=True, help="the study folder (must be new)")
    ap.add_argument("--json", required=True, help="where to write the measurement")
    ap.add_argument("--limit", type=int, default=0, help="stop after this many seconds")
    args = ap.parse_args(argv)
    if Path(args.out).exists():
        print(f"error: {args.out} exists (the run must be timed from scratch)", file=sys.stderr)
        return 2
    policies = ",".join([args.policy] + [args.field] * (args.players - 1))
    params = {
        "players": args.players,
        "policies": policies,
        "play": "pimc",
        "samples": args.samples,
        "format": "duplicate",
    }
    played = [0]
    play = matches.carabin_play_pimc

    def counted(*a, **k):
        played[0] += 1
        return play(*a, **k)

    def stop(signum, frame):
        raise TimeoutError

    matches.carabin_play_pimc = counted  # carabin_match looks it up at each contract
    signal.signal(signal.SIGALRM, stop)
    signal.alarm(args.limit)
    wall, cpu = time.perf_counter(), time.process_time()
    finished = True
    try:
        run_study("carabin-matches", args.sets, args.seed, args.out, workers=1,
                  progress=False, params=params)  # fmt: skip
    except TimeoutError:
        finished = False
    signal.alarm(0)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    result: dict = {
        "players": args.players,
        "policies": policies,
        "sets": args.sets,
        "finished": finished,
        "contracts": played[0],
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "cpu_s_per_contract": round(cpu / max(1, played[0]), 2),
    }
    if finished:
        df = read_study(args.out)
        games = df.groupby(["match", "seating"])
        assert int(df["bids"].sum()) == played[0]
        result |= {
            "games": games.ngroups,
            "deals": int(games["deals"].first().sum()),
            "cpu_s_per_set": round(cpu / args.sets, 1),
        }
    result |= {
        "study_command": study_command(args.out, read_manifest(args.out)),
        "measured_by": "python tools/carabin_match_cost.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
