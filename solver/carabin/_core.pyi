"""Typed stub of the compiled Carabin core."""

from collections.abc import Callable, Sequence
from typing import Any

MAX_MEGABYTES: int
MAX_PLAYERS: int
PIMC_MAX_WORLDS: int

def draw_worlds(
    n: int,
    hands: Sequence[int],
    pool: Sequence[int],
    hidden: Sequence[tuple[int, int]],
    count: int,
    seed: int,
) -> list[list[int]]: ...

class Core:
    def __init__(
        self,
        megabytes: int = 32,
        *,
        power: Sequence[int] | None = None,
        rank_points: Sequence[int] | None = None,
    ) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    def clear(self) -> None: ...
    def resize(self, megabytes: int) -> None: ...
    def share(self, on: bool = ...) -> None: ...
    @property
    def is_shared(self) -> bool: ...
    def help(
        self,
        main: Core,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        guess: int,
    ) -> int | None: ...
    def stop(self) -> None: ...
    def clear_stop(self) -> None: ...
    def set_time_limit(self, seconds: float | None) -> None: ...
    def set_world_bounds(self, cards: int = ..., after: int | None = ...) -> None: ...
    def set_lanes(self, on: bool = ...) -> None: ...
    def set_canonical(self, on: bool = ...) -> None: ...
    @property
    def last_bounds(self) -> tuple[int, int]: ...
    def value(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        guess: int,
    ) -> int: ...
    def make(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        target: int,
    ) -> bool: ...
    def world_bounds(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
    ) -> tuple[int, int | None, int]: ...
    def set_deep_look_ahead(self, on: bool = ...) -> None: ...
    def set_deep_graphs(self, on: bool = ..., first: bool = ...) -> None: ...
    def set_guide(self, on: bool = ..., start: int = ...) -> None: ...
    def set_nolead_bound(self, on: bool = ...) -> None: ...
    def set_reverse_pair(self, on: bool = ...) -> None: ...
    def set_race(self, on: bool = ..., budget: int | None = ...) -> None: ...
    def set_lead_race(self, on: bool = ...) -> None: ...
    def set_generation(self, gen: int) -> None: ...
    @property
    def generation(self) -> int: ...
    def canonical(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        dealt: Sequence[int],
    ) -> int: ...
    def last_four(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        target: int,
    ) -> bool: ...
    def deep_look_ahead(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        target: int,
        graph: bool,
    ) -> bool: ...
    def all_tricks(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
    ) -> bool: ...
    def moves(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        guess: int,
    ) -> list[tuple[int, int]]: ...
    def pimc(
        self,
        n: int,
        worlds: Sequence[Sequence[int]],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        candidates: Sequence[int],
        chelem: bool,
        target: int,
        lost: bool,
        time_limit: float | None,
    ) -> tuple[int, int, int]: ...
    def pimc_drawn(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        candidates: Sequence[int],
        chelem: bool,
        target: int,
        lost: bool,
        time_limit: float | None,
        pool: Sequence[int],
        hidden: Sequence[tuple[int, int]],
        count: int,
        seed: int,
    ) -> tuple[int, int, int]: ...
    def optimal_tree(
        self,
        n: int,
        hands: Sequence[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: Sequence[int],
        guess: int,
        per_class: bool,
        max_nodes: int,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, Any] | None: ...
    def values(
        self,
        n: Any,
        hands: Any,
        trump: Any,
        bidder: Any,
        leader: Any,
        h: Any,
        order: Any,
        trick: Any,
        guess: Any,
        out: Any,
    ) -> None: ...
