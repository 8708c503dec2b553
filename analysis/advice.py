"""Single-dummy advice by perfect-information Monte Carlo (PIMC).

The viewer does not see the other hands. PIMC draws worlds uniformly among those
consistent with his view (its game's ``view`` module), solves each world double-dummy and
averages, for each legal card, the points his side takes from here with it, and
counts how often the card is best in its world.

Double-dummy bias: each world is solved as if everybody saw every card, so the
average credits the viewer with guesses he could not make at the table and never
values a card for the information it hides or gathers; the advice is a strong,
slightly optimistic heuristic, not the single-dummy optimum.

>>> from solver import klabberjass
>>> view = klabberjass.View.parse("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D")
>>> a = advise(view, samples=20, seed=1, workers=1)
>>> a.samples, sorted(a.moves) == sorted(card_str(c) for c in view.inference().position.legal_moves())
(20, True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from solver.cards import card_str
from solver.games import Game, get_game
from solver.limits import MAX_SAMPLES, check_count, max_workers

#: Below this many worlds a process pool costs more than it saves.
MIN_WORLDS_PER_WORKER = 100


@dataclass(frozen=True)
class Advice:
    """PIMC advice for the seat to move.

    Attributes:
        view: the view advised.
        samples: number of worlds drawn.
        seed: the seed of the draw.
        worlds: number of worlds consistent with the view.
        moves: per legal card (text), ``mean`` points of the mover's side from here,
            ``best_rate`` (share of worlds where the card is optimal), ``min``, ``max``.
        best: the card with the highest mean (ties: higher best rate, then card order).
    """

    view: Any
    samples: int
    seed: int | None
    worlds: int
    moves: dict[str, dict[str, float]]
    best: str

    def to_json(self) -> dict:
        """The command line's JSON object (docs/cli.md)."""
        return {
            "moves": self.moves,
            "best": self.best,
            "samples": self.samples,
            "seed": self.seed,
            "worlds": self.worlds,
        }


#: Worlds whose child positions are solved in one batch call.
SOLVE_CHUNK = 2000


def world_values(game: Game, worlds: Sequence[Any], cards: Sequence[int]) -> list[list[int]]:
    """For each world, the points of the mover's side with each of ``cards``.

    Every (world, card) child position is solved in one batch call of the game's
    engine; the points of a trick the card completes are added for the side that wins it.
    """
    children = []
    gains = []
    for world in worlds:
        side = game.mover_side(world)
        for card in cards:
            child, winner, pts = game.step(world, card)
            children.append(child)
            won = winner is not None and game.side_of(world, winner) == side
            gains.append((pts if won else 0, side))
    values = game.values(children)
    flat = [g + v[side] for (g, side), v in zip(gains, values, strict=True)]
    k = len(cards)
    return [flat[i * k : (i + 1) * k] for i in range(len(worlds))]


def _solve_chunk(
    game_name: str, rules: Any, worlds: list[Any], cards: list[int]
) -> list[list[int]]:
    return world_values(get_game(game_name, rules), worlds, cards)


def advise(
    view: Any,
    samples: int,
    seed: int | None = None,
    workers: int | None = None,
    rules: Any = None,
) -> Advice:
    """Advise the seat to move by PIMC over ``samples`` worlds.

    Args:
        view: what the seat to move knows (:func:`solver.games.parse_view`).
        samples: number of worlds to draw (1 to ``solver.limits.MAX_SAMPLES``).
        seed: seed of the draw; the same seed gives the same worlds and advice,
            whatever the number of workers.
        workers: processes to solve in (default: every core, at most four per core);
            small jobs stay in this process.
        rules: Klabberjass rules (preset name or ``Rules``), default ``seed``.

    Returns:
        The mean points and best rate of every legal card.

    Raises:
        UsageError: ``samples`` or ``workers`` not a whole number within its bounds.
    """
    check_count(samples, "samples", 1, MAX_SAMPLES)
    if workers is not None:
        check_count(workers, "workers", 1, max_workers(), "four per core")
    game = get_game(view.game, rules)
    worlds = view.sample_worlds(samples, seed)
    cards = worlds[0].legal_moves()
    jobs = min(workers or os.cpu_count() or 1, max(1, samples // MIN_WORLDS_PER_WORKER))
    if jobs <= 1:  # in chunks, so the child positions of all worlds are never held at once
        table = [
            row
            for i in range(0, samples, SOLVE_CHUNK)
            for row in world_values(game, worlds[i : i + SOLVE_CHUNK], cards)
        ]
    else:
        size = -(-samples // jobs)
        chunks = [worlds[i : i + size] for i in range(0, samples, size)]
        rules_arg = getattr(game, "rules", None)
        with ProcessPoolExecutor(jobs) as pool:
            parts = pool.map(
                _solve_chunk,
                [game.name] * len(chunks),
                [rules_arg] * len(chunks),
                chunks,
                [cards] * len(chunks),
            )
            table = [row for part in parts for row in part]
    moves: dict[str, dict[str, float]] = {}
    best_counts = [0] * len(cards)
    for row in table:
        top = max(row)
        for i, v in enumerate(row):
            best_counts[i] += v == top
    for i, card in enumerate(cards):
        column = [row[i] for row in table]
        moves[card_str(card)] = {
            "mean": round(sum(column) / samples, 4),
            "best_rate": round(best_counts[i] / samples, 4),
            "min": min(column),
            "max": max(column),
        }
    order = sorted(
        range(len(cards)),
        key=lambda i: (-moves[card_str(cards[i])]["mean"], -best_counts[i], i),
    )
    return Advice(
        view=view,
        samples=samples,
        seed=seed,
        worlds=view.world_count(),
        moves=moves,
        best=card_str(cards[order[0]]),
    )
