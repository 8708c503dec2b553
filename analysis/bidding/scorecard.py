"""The Klabberjass bidding rule as a point count a player can use at the table.

Count points for what the hand holds in a suit (the Jass, the Menel, each trump, each
side ace ...), once for the turn-up suit and once for the best other suit; bid when the
count reaches the seat's mark. The points are the weights of the linear estimate of
the contract's net (fitted on real-play payoffs), rounded to whole numbers; the four
marks (E takes, D takes after E passed, E names, D names) are fitted on the training
deals, each seat's against the other seat's equilibrium strategy.

>>> card = Scorecard({1: (40, 18, 7, 4, 20, 26, 14, 67, 29, 1), 2: (39, 18, 4, 2, 23, 24, 13, 67, 28, 0)},
...                  {"E take": 104, "D take": 96, "E name": 100, "D name": 110})
>>> card.count((1, 1, 0, 0, 3, 1, 0, 0, 0, 0), 1)  # Jass, Menel, three trumps, a side ace
144
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.bidding.klabberjass import FEATURES

if TYPE_CHECKING:
    from analysis.bidding.equilibrium import DealArrays, Decisions, Policy
    from analysis.bidding.realplay_tables import Fitted

#: The published scorecards, one per seed (written by ``analysis.bidding.realplay_tables``
#: to ``data/studies/klabberjass-realplay/scorecard.json`` and to this copy, which ships
#: with the package; a test checks they are the same).
SCORECARD = Path(__file__).resolve().parent / "scorecard.json"

MARKS = ("E take", "D take", "E name", "D name")

#: How each feature reads on the card.
LABELS = {
    "jass": "the Jass (trump J)",
    "menel": "the Menel (trump 9)",
    "trump_ace": "the trump ace",
    "trump_ten": "the trump ten",
    "trumps": "each trump",
    "side_aces": "each side ace",
    "side_tens": "each side ten",
    "bella": "Bella (trump K and Q)",
    "run": "a run of three or more",
    "turn_up_value": "each card point of the turn-up (when taking it)",
}


@dataclass(frozen=True)
class Scorecard:
    """Whole-number points per feature (per round: 1 the turn-up suit, 2 another
    suit) and the four marks."""

    weights: dict[int, tuple[int, ...]]
    marks: dict[str, int]

    def count(self, features: tuple[int, ...] | list[int], round_: int) -> int:
        """The count of a hand's features (:func:`analysis.bidding.klabberjass.hand_features`)."""
        return int(sum(w * x for w, x in zip(self.weights[round_], features, strict=True)))

    def counts(self, arrays: DealArrays) -> np.ndarray:
        """counts[i, s, t]: seat ``s``'s count for trump ``t`` in deal ``i``."""
        f = arrays.features.astype(np.int64)
        c1 = f @ np.asarray(self.weights[1], dtype=np.int64)
        c2 = f @ np.asarray(self.weights[2], dtype=np.int64)
        first = arrays.turn_suit[:, None, None] == np.arange(4)[None, None, :]
        return np.where(first, c1, c2)

    def decisions(self, arrays: DealArrays) -> Decisions:
        """What the card says on every deal, for both seats."""
        from analysis.bidding.equilibrium import Decisions

        c = self.counts(arrays).astype(float)
        n = len(arrays)
        i = np.arange(n)
        ts = arrays.turn_suit
        first = c[i, :, ts]  # (n, 2)
        other = c.copy()
        other[i, :, ts] = -np.inf
        suit = other.argmax(axis=2)
        second = np.take_along_axis(other, suit[:, :, None], axis=2)[:, :, 0]
        take = np.stack(
            [first[:, 0] >= self.marks["E take"], first[:, 1] >= self.marks["D take"]], axis=1
        ).astype(float)
        name = np.stack(
            [second[:, 0] >= self.marks["E name"], second[:, 1] >= self.marks["D name"]], axis=1
        ).astype(float)
        return Decisions(take, name, suit)

    @property
    def policy(self) -> Policy:
        """The card as a policy of :mod:`analysis.bidding.equilibrium`."""

        def policy(arrays: DealArrays, _classifier: Any) -> Decisions:
            return self.decisions(arrays)

        return policy

    def words(self) -> str:
        """The card in one paragraph."""

        def items(rnd: int) -> str:
            ws = sorted(zip(FEATURES, self.weights[rnd], strict=True), key=lambda t: -abs(t[1]))
            return ", ".join(f"{w:+d} for {LABELS[f]}" for f, w in ws if w)

        m = self.marks
        return (
            f"For the turn-up suit count {items(1)}. E takes at {m['E take']} or more; "
            f"after E passed, D takes at {m['D take']} or more. "
            f"In round 2 count each other suit: {items(2)}; name the suit with the "
            f"highest count if it reaches {m['E name']} (E) or {m['D name']} (D)."
        )

    def advise(self, seat: int, hand6: int, turn: int) -> dict[str, Any]:
        """What the card says for ``seat`` (0 E, 1 D) holding ``hand6`` with ``turn``
        turned up: the count of the turn-up suit and of the best other suit, the marks,
        and whether to bid in each round (D's marks apply after E passed)."""
        from analysis.bidding.klabberjass import hand_features

        who = "ED"[seat]
        ts = turn >> 4
        take = self.count(hand_features(hand6, ts, turn), 1)
        others = {t: self.count(hand_features(hand6, t, turn), 2) for t in range(4) if t != ts}
        best = max(others, key=lambda t: (others[t], -t))
        return {
            "take": {
                "suit": ts,
                "count": take,
                "mark": self.marks[f"{who} take"],
                "bid": take >= self.marks[f"{who} take"],
            },
            "name": {
                "suit": best,
                "count": others[best],
                "mark": self.marks[f"{who} name"],
                "bid": others[best] >= self.marks[f"{who} name"],
            },
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "weights": {str(k): list(v) for k, v in self.weights.items()},
            "marks": dict(self.marks),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Scorecard:
        if list(d["features"]) != list(FEATURES):
            raise ValueError(f"scorecard features {d['features']} are not {list(FEATURES)}")
        return cls(
            {int(k): tuple(int(x) for x in v) for k, v in d["weights"].items()}, dict(d["marks"])
        )


def load(path: str | Path = SCORECARD, seed: int | None = None, rules: str = "seed") -> Scorecard:
    """The published scorecard for ``rules`` (its first seed, or ``seed``)."""
    data = json.loads(Path(path).read_text())
    for c in data["scorecards"]:
        if c.get("rules", "seed") == rules and (seed is None or c.get("seed") == seed):
            return Scorecard.from_dict(c)
    raise ValueError(f"no scorecard for {rules} rules, seed {seed} in {path}")


def fit_scorecard(train: DealArrays, fitted: Fitted) -> Scorecard:
    """Round the equilibrium's linear estimate to whole points and fit each mark on the
    training deals: E's marks maximise E's net against D's equilibrium strategy, D's
    minimise it against E's (two rounds of coordinate search over every count seen)."""
    from analysis.bidding.equilibrium import Decisions, equilibrium_policy, expected_e_net

    est = fitted.classifier.est
    weights = {r: tuple(int(round(w)) for w in est.coef[r]) for r in (1, 2)}
    eq = equilibrium_policy(fitted.eq)(train, fitted.classifier)
    marks = {m: 0 for m in MARKS}
    card = Scorecard(weights, marks)
    counts = card.counts(train)
    candidates = np.unique(counts)
    for _ in range(2):
        for mark in MARKS:
            seat = 0 if mark.startswith("E") else 1
            best_v, best_t = None, 0
            for t in candidates[:: max(1, len(candidates) // 200)]:
                trial = Scorecard(weights, {**card.marks, mark: int(t)})
                d = trial.decisions(train)
                mine = Decisions(d.take, d.name, d.suit)
                e, dd = (mine, eq) if seat == 0 else (eq, mine)
                v = float(expected_e_net(train, e, dd).mean()) * (1 if seat == 0 else -1)
                if best_v is None or v > best_v:
                    best_v, best_t = v, int(t)
            card = Scorecard(weights, {**card.marks, mark: best_t})
    return card


__all__ = ["MARKS", "SCORECARD", "Scorecard", "fit_scorecard", "load"]
