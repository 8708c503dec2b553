"""Typed stub of the compiled Carabin core."""

class Core:
    def __init__(self, megabytes: int = 32) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    def clear(self) -> None: ...
    def stop(self) -> None: ...
    def value(
        self,
        n: int,
        hands: list[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: list[int],
        guess: int,
    ) -> int: ...
    def make(
        self,
        n: int,
        hands: list[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: list[int],
        target: int,
    ) -> bool: ...
    def all_tricks(
        self,
        n: int,
        hands: list[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: list[int],
    ) -> bool: ...
    def moves(
        self,
        n: int,
        hands: list[int],
        trump: int,
        bidder: int,
        leader: int,
        h: int,
        order: int,
        trick: list[int],
        guess: int,
    ) -> list[tuple[int, int]]: ...
