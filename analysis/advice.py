"""Single-dummy advice by perfect-information Monte Carlo (PIMC).

The viewer does not see the other hands. PIMC draws worlds uniformly among those
consistent with his view (its game's ``view`` module), solves each world double-dummy and
averages, for each legal card, the points his side takes from here with it, and
counts how often the card is best in its world.

In Carabin the score depends only on whether the contract is made and on the chelem,
so a card is ranked by the share of worlds where it makes (for the bidder) or beats
(for the others) the contract, then by the chelem (won, or stopped), then by the mean
points; Klabberjass, which scores points, ranks by the mean.

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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from solver.cards import card_str
from solver.errors import TricklabError
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
            ``best_rate`` (share of worlds where the card is optimal), ``min``, ``max``;
            in Carabin also ``make_rate`` and ``chelem_rate``, the shares of worlds where
            the contract is made and where the bidder takes every trick after it.
        best: the best card: in Klabberjass the highest mean (ties: higher best rate,
            then card order); in Carabin the best share for the mover's side of made
            contracts (the bidder) or failed ones (the others), then of chelems (won or
            prevented), then the mean.
        ranked: every legal card, best first (by the same order).
    """

    view: Any
    samples: int
    seed: int | None
    worlds: int
    moves: dict[str, dict[str, float]]
    best: str
    ranked: tuple[str, ...] = ()

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
    *,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
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
        time_limit: seconds: the worlds are then solved one by one in this process and
            the advice rests on those finished in time (``samples`` says how many; the
            worlds are the first ones of the same draw).
        progress: called with (worlds solved, worlds drawn) as the worlds are solved.

    Returns:
        The mean points and best rate of every legal card.

    Raises:
        UsageError: ``samples`` or ``workers`` not a whole number within its bounds.
        TricklabError: not one world solved within ``time_limit``.
    """
    check_count(samples, "samples", 1, MAX_SAMPLES)
    if workers is not None:
        check_count(workers, "workers", 1, max_workers(), "four per core")
    game = get_game(view.game, rules)
    worlds = view.sample_worlds(samples, seed)
    cards = worlds[0].legal_moves()
    jobs = min(workers or os.cpu_count() or 1, max(1, samples // MIN_WORLDS_PER_WORKER))
    rates: tuple[list[int], list[int]] | None = None
    if time_limit is not None:
        worlds, table, rates = _within(game, view, worlds, cards, time_limit, progress)
        samples = len(worlds)
    elif jobs <= 1:  # in chunks, so the child positions of all worlds are never held at once
        # (smaller ones when progress is shown: one batch call each)
        chunk = SOLVE_CHUNK if progress is None else max(10, min(SOLVE_CHUNK, samples // 20))
        table = []
        for i in range(0, samples, chunk):
            table += world_values(game, worlds[i : i + chunk], cards)
            if progress is not None:
                progress(len(table), samples)
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
            table = []
            for part in parts:
                table += part
                if progress is not None:
                    progress(len(table), samples)
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
    if view.game == "carabin":
        made, chelems = rates or _carabin_counts(game, view, worlds, cards, table)
        for i, card in enumerate(cards):
            moves[card_str(card)]["make_rate"] = round(made[i] / samples, 4)
            moves[card_str(card)]["chelem_rate"] = round(chelems[i] / samples, 4)
        bidder_moves = worlds[0].to_move == view.bidder
        sign = 1 if bidder_moves else -1

        def key(i: int) -> tuple:
            m = moves[card_str(cards[i])]
            return (
                -sign * m["make_rate"],
                -sign * m["chelem_rate"],
                -m["mean"],
                -best_counts[i],
                i,
            )

    else:

        def key(i: int) -> tuple:
            return (-moves[card_str(cards[i])]["mean"], -best_counts[i], i)

    order = sorted(range(len(cards)), key=key)
    return Advice(
        view=view,
        samples=samples,
        seed=seed,
        worlds=view.world_count(),
        moves=moves,
        best=card_str(cards[order[0]]),
        ranked=tuple(card_str(cards[i]) for i in order),
    )


def _engine_core(game: Game, players: int | None = None) -> Any:
    """The compiled search context the game's engine uses by default: for Carabin, that
    of positions of ``players`` players (the game's rules' if None), as 6-player searches
    take a larger table."""
    if game.name == "klabberjass":
        from solver.klabberjass import engine as klabberjass_engine

        return klabberjass_engine.core()
    from solver.carabin import engine as carabin_engine

    return carabin_engine.core(None, game.rules.players if players is None else players)


def _within(
    game: Game,
    view: Any,
    worlds: list[Any],
    cards: list[int],
    seconds: float,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Any], list[list[int]], tuple[list[int], list[int]] | None]:
    """The worlds solved, one by one, before ``seconds`` have passed: those worlds,
    their rows and (Carabin) the made and chelem counts."""
    deadline = time.monotonic() + seconds
    core = _engine_core(game, getattr(worlds[0], "players", None) if worlds else None)
    done: list[Any] = []
    table: list[list[int]] = []
    made, chelems = [0] * len(cards), [0] * len(cards)
    for world in worlds:
        core.set_time_limit(max(0.0, deadline - time.monotonic()))
        try:
            row = world_values(game, [world], cards)
            if view.game == "carabin":
                m, c = _carabin_counts(game, view, [world], cards, row)
        except TimeoutError:
            break
        finally:
            core.set_time_limit(None)
        done.append(world)
        table.extend(row)
        if progress is not None:
            progress(len(done), len(worlds))
        if view.game == "carabin":
            made = [a + b for a, b in zip(made, m, strict=True)]
            chelems = [a + b for a, b in zip(chelems, c, strict=True)]
    if not done:
        raise TricklabError(
            f"no world was solved within the time limit ({seconds:g} s): allow more time"
        )
    return done, table, (made, chelems) if view.game == "carabin" else None


def _carabin_counts(
    game: Game,
    view: Any,
    worlds: Sequence[Any],
    cards: Sequence[int],
    table: Sequence[Sequence[int]],
) -> tuple[list[int], list[int]]:
    """For each card, in how many of ``worlds`` the contract is made and the bidder
    takes every trick after it.

    The bidder's final points are the completed tricks' points plus his points from here;
    he makes the contract with more than half the points in play. Not every card is
    dealt, so the points in play differ from world to world. A chelem needs every trick
    so far and every point from here, and then the all-tricks search after the card.
    """
    (won_b, won_o), every = view.tricks_won()
    bidder_moves = worlds[0].to_move == view.bidder
    made = [0] * len(cards)
    chelems = [0] * len(cards)
    for world, row in zip(worlds, table, strict=True):
        left = world.points_left()
        in_play = won_b + won_o + left
        for i, value in enumerate(row):
            bidder = value if bidder_moves else left - value
            made[i] += 2 * (won_b + bidder) > in_play
            if every and bidder == left:
                child, winner, _ = game.step(world, cards[i])
                if winner is not None and winner != view.bidder:
                    continue
                chelems[i] += child.is_over or game.all_tricks(child, 0)
    return made, chelems
