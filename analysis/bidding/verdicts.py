"""What real play makes of a double-dummy claim: verdicts by fixed rules on intervals.

A notebook that puts a double-dummy (clairvoyant) figure beside its real-play
counterpart says of each double-dummy claim whether real play *keeps*, *changes* or
*withdraws* it. The words come from these rules, applied to the published 95 %
intervals, never written by hand:

- a **direction** (a difference or a net whose sign is the claim,
  :func:`sign_verdict`): kept when the real-play interval lies wholly on the
  double-dummy figure's side of 0, changed when it lies wholly on the other side,
  withdrawn when it holds 0;
- a **level** (a make rate, :func:`level_verdict`): kept when the paired difference
  real play minus double dummy holds 0, changed when it lies clear of 0;
- several **seeds** (:func:`seeds_verdict`): the common verdict, else each seed's.
"""

from __future__ import annotations


def sign_verdict(dd_estimate: float, low: float, high: float) -> str:
    """What real play makes of a double-dummy *direction* (a difference or a net whose
    sign is the claim), from the real-play 95 % interval ``[low, high]`` of the same
    figure: ``kept`` when it lies wholly on the double-dummy figure's side of 0,
    ``changed`` when it lies wholly on the other side (the direction reverses),
    ``withdrawn`` when it holds 0 (real play does not show the direction).

    >>> sign_verdict(0.5, 0.1, 0.3), sign_verdict(0.5, -0.3, -0.1), sign_verdict(-1, -0.2, 0.1)
    ('kept', 'changed', 'withdrawn')
    """
    if low > 0 or high < 0:
        return "kept" if (low > 0) == (dd_estimate > 0) else "changed"
    return "withdrawn"


def level_verdict(low: float, high: float) -> str:
    """What real play makes of a double-dummy *level* (a make rate), from the 95 %
    interval of the paired difference PIMC − DD on the same contracts: ``kept`` when it
    holds 0, ``changed`` when it lies clear of 0.

    >>> level_verdict(-0.02, 0.03), level_verdict(0.1, 0.3)
    ('kept', 'changed')
    """
    return "changed" if low > 0 or high < 0 else "kept"


def seeds_verdict(verdicts: dict[int, str]) -> str:
    """One verdict from the verdicts of several seeds: the common one when every seed
    gives it, else the seeds of each (``changed on seeds 1, 2, withdrawn on seed 3``).

    >>> seeds_verdict({1: "kept", 2: "kept"})
    'kept'
    >>> seeds_verdict({3: "withdrawn", 1: "changed", 2: "changed"})
    'changed on seeds 1, 2, withdrawn on seed 3'
    """
    if len(set(verdicts.values())) == 1:
        return next(iter(verdicts.values()))
    groups: dict[str, list[int]] = {}
    for seed, v in sorted(verdicts.items()):
        groups.setdefault(v, []).append(seed)
    return ", ".join(
        f"{v} on seed{'s' if len(ss) > 1 else ''} {', '.join(map(str, ss))}"
        for v, ss in groups.items()
    )


__all__ = ["level_verdict", "seeds_verdict", "sign_verdict"]
