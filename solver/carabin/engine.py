"""Public Carabin solving functions: validate, convert, dispatch to the compiled core.

The bidder plays against the coalition of every other seat: he maximises his points,
they minimise them (SPEC §3: every opponent scores the same).

>>> from solver.carabin import Position
>>> r = solve_carabin(Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... "
...                                  "2=.../.3.."))
>>> r.points, card_str(r.best), r.all_tricks
((7, 0), 'KS', True)
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.carabin import _core as _carabin
from solver.carabin.deal import Deal, contract_made
from solver.carabin.position import Position
from solver.carabin.rules import POWER, RANK_POINTS, TRICK_ORDERS, card_points
from solver.cards import SUITS, card_str, rank_of

DEFAULT_TT_MB = 32

_cores: dict[int, _carabin.Core] = {}


def carabin_core(tt_mb: int | None = None) -> _carabin.Core:
    """The shared Carabin search context with a ``tt_mb`` MB transposition table.

    One context per size lives as long as the process. Its entries belong to the deal
    (card ownership) they were computed in and stay valid for every position of that
    deal, so per-move values and deal tables reuse earlier work. The core plays by the
    card tables of :mod:`solver.carabin.rules`.
    """
    size = DEFAULT_TT_MB if tt_mb is None else tt_mb
    core = _cores.get(size)
    if core is None:
        core = _cores[size] = _carabin.Core(size, power=POWER, rank_points=RANK_POINTS)
    return core


def _args(position: Position) -> tuple[int, list[int], int, int, int, int, int, list[int]]:
    hands = [left for left, _ in position.hands] + [right for _, right in position.hands]
    return (
        position.players,
        hands,
        position.trump,
        position.bidder,
        position.lead,
        position.hand,
        TRICK_ORDERS.index(position.trick_order),
        list(position.trick),
    )


def _guess(position: Position) -> int:
    # Most contracts fail and the bidder's share is usually small: probe low first.
    return min(position.points_left(), 1 + position.points_left() // 4)


@dataclass(frozen=True)
class CarabinResult:
    """The double-dummy answer for one Carabin position.

    Attributes:
        position: the position solved.
        points: points (bidder, others) taken from here, the unfinished trick included.
        best: an optimal card for the seat to move (None if the play is over); among
            equal cards the one with the fewest points, then the lowest.
        all_tricks: whether the bidder can win every remaining trick.
        moves: for each legal card, the points of the mover's side (the bidder, or the
            others) if he plays it (only when asked for).
    """

    position: Position
    points: tuple[int, int]
    best: int | None
    all_tricks: bool
    moves: dict[int, int] | None = None

    def to_json(self) -> dict:
        """The SPEC §4 JSON object."""
        out: dict = {
            "points": {"bidder": self.points[0], "others": self.points[1]},
            "best": card_str(self.best) if self.best is not None else None,
            "all_tricks": self.all_tricks,
        }
        if self.moves is not None:
            out["moves"] = {card_str(c): v for c, v in self.moves.items()}
        return out


def carabin_value(position: Position, tt_mb: int | None = None) -> int:
    """The bidder's exact points from ``position`` on (the unfinished trick included)."""
    if position.is_over:
        return 0
    return carabin_core(tt_mb).value(*_args(position), _guess(position))


def carabin_values(
    positions: Sequence[Position] | Iterable[Position], tt_mb: int | None = None
) -> list[int]:
    """The bidder's exact points for many positions in one compiled call (the GIL is
    released); the same as :func:`carabin_value` on each."""
    positions = list(positions)
    n = len(positions)
    players, trump, bidder, lead, hand, order = (array.array("b") for _ in range(6))
    hands, trick, guess = array.array("Q"), array.array("b"), array.array("i")
    for p in positions:
        k, hs, t, b, ld, h, o, cards = _args(p)
        players.append(k)
        trump.append(t)
        bidder.append(b)
        lead.append(ld)
        hand.append(h)
        order.append(o)
        hands.extend(hs + [0] * (2 * _carabin.MAX_PLAYERS - len(hs)))
        trick.extend(cards + [-1] * (_carabin.MAX_PLAYERS - 1 - len(cards)))
        guess.append(_guess(p))
    out = array.array("i", bytes(4 * n))
    if n:
        carabin_core(tt_mb).values(
            players, hands, trump, bidder, lead, hand, order, trick, guess, out
        )
    return list(out)


def carabin_make(position: Position, target: int, tt_mb: int | None = None) -> bool:
    """Whether the bidder takes at least ``target`` points from here (one zero-window probe)."""
    if position.is_over:
        return target <= 0
    return carabin_core(tt_mb).make(*_args(position), target)


def carabin_all_tricks(position: Position, tt_mb: int | None = None) -> bool:
    """Whether the bidder can win every remaining trick, the unfinished one included."""
    if position.is_over:
        return True
    return carabin_core(tt_mb).all_tricks(*_args(position))


def _bidder_move_values(position: Position, tt_mb: int | None) -> dict[int, int]:
    core = carabin_core(tt_mb)
    return dict(core.moves(*_args(position), _guess(position)))


def carabin_move_values(position: Position, tt_mb: int | None = None) -> dict[int, int]:
    """For each legal card, the points of the mover's side from here if he plays it."""
    if position.is_over:
        return {}
    total = position.points_left()
    coalition = position.to_move != position.bidder
    values = _bidder_move_values(position, tt_mb)
    return {c: (total - v if coalition else v) for c, v in sorted(values.items())}


def solve_carabin(
    position: Position, moves: bool = False, tt_mb: int | None = None
) -> CarabinResult:
    """Solve a Carabin position exactly (double dummy).

    Args:
        position: any play position, an unfinished trick included.
        moves: also give the value of every legal card.
        tt_mb: transposition table size in MB (default 32).

    Returns:
        The points of the bidder and of the others from here, an optimal card, whether
        the bidder can take every remaining trick and, if asked, every card's value.

    Raises:
        KeyboardInterrupt: the search was interrupted (Ctrl-C).
    """
    total = position.points_left()
    all_tricks = carabin_all_tricks(position, tt_mb)
    if position.is_over:
        return CarabinResult(position, (0, 0), None, all_tricks, {} if moves else None)
    values = _bidder_move_values(position, tt_mb)
    coalition = position.to_move != position.bidder
    bidder_points = (min if coalition else max)(values.values())
    best = min(
        (c for c, v in values.items() if v == bidder_points),
        key=lambda c: (card_points(c), rank_of(c), c),
    )
    move_values = None
    if moves:
        move_values = {c: (total - v if coalition else v) for c, v in sorted(values.items())}
    return CarabinResult(
        position=position,
        points=(bidder_points, total - bidder_points),
        best=best,
        all_tricks=all_tricks,
        moves=move_values,
    )


def carabin_deal_table(
    deal: Deal, tt_mb: int | None = None, trick_order: str = "alternate"
) -> dict:
    """The double-dummy table of a deal (SPEC §4 ``deal carabin``).

    One row per bidder and trump suit (only the fixed ones when the deal gives
    ``bidder=``/``trump=``): the bidder's points with seat 0 leading the first trick,
    whether the trump contract is made (strictly more than half the points in play) and
    whether a chelem (all eight tricks) is made.

    >>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H "
    ...                "bidder=0 trump=S")
    >>> carabin_deal_table(d)["table"]
    [{'bidder': 0, 'trump': 'S', 'points': 27, 'made': True, 'chelem': True}]
    """
    total = deal.points_in_play
    bidders = [deal.bidder] if deal.bidder is not None else range(deal.players)
    trumps = [deal.trump] if deal.trump is not None else range(4)
    rows = []
    for bidder in bidders:
        for trump in trumps:
            start = deal.position(bidder=bidder, trump=trump, trick_order=trick_order)
            points = carabin_value(start, tt_mb)
            # winning every trick takes every point, so only then is a chelem possible
            chelem = points == total and carabin_all_tricks(start, tt_mb)
            rows.append(
                {
                    "bidder": bidder,
                    "trump": SUITS[trump],
                    "points": points,
                    "made": contract_made(points, total),
                    "chelem": chelem,
                }
            )
    return {"points_in_play": total, "table": rows}


__all__ = [
    "CarabinResult",
    "carabin_all_tricks",
    "carabin_core",
    "carabin_deal_table",
    "carabin_make",
    "carabin_move_values",
    "carabin_value",
    "carabin_values",
    "solve_carabin",
]
