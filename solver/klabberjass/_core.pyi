"""Typed stub of the compiled Klabberjass core."""

from collections.abc import Sequence
from typing import Any

MAX_MEGABYTES: int

def sample_hands(pool: int, need: int, count: int, seed: int) -> list[int]: ...
def carry_hands(worlds: Sequence[int], pool: int, need: int, seed: int) -> list[int]: ...

class Core:
    def __init__(
        self,
        megabytes: int = 32,
        *,
        plain_power: Sequence[int] | None = None,
        trump_power: Sequence[int] | None = None,
        plain_points: Sequence[int] | None = None,
        trump_points: Sequence[int] | None = None,
    ) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    @property
    def pack(self) -> int: ...
    def clear(self) -> None: ...
    def stop(self) -> None: ...
    def set_time_limit(self, seconds: float | None) -> None: ...
    def value(self, e: int, d: int, trump: int, leader: int, trick: int, bonus: int) -> int: ...
    def moves(
        self, e: int, d: int, trump: int, leader: int, trick: int, bonus: int
    ) -> list[tuple[int, int]]: ...
    def pv(
        self, e: int, d: int, trump: int, leader: int, trick: int, bonus: int
    ) -> tuple[int, list[int]]: ...
    def pimc(
        self,
        mine: int,
        known: int,
        pool: int,
        need: int,
        count: int,
        seed: int,
        trump: int,
        leader: int,
        trick: int,
        bonus: int,
        candidates: Sequence[int],
        exact: bool = False,
        worlds: Sequence[int] | None = None,
    ) -> tuple[int, list[int], int, list[list[int]] | None]: ...
    def optimal_tree(
        self,
        e: int,
        d: int,
        trump: int,
        leader: int,
        trick: int,
        bonus: int,
        per_class: bool,
        max_nodes: int,
    ) -> dict[str, Any] | None: ...
    def values(
        self, e: Any, d: Any, trump: Any, leader: Any, trick: Any, bonus: int, out: Any
    ) -> None: ...
