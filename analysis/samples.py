"""Seeded random inputs for benchmarks and tests: the same seed gives the same inputs.

>>> [str(p) for p in random_positions(1, seed=1, cards=2)]
['trump=C lead=E E=J.7.. D=A..7.']
"""

from __future__ import annotations

import random

from solver.cards import mask_of
from solver.klabberjass import PACK, Position


def random_positions(count: int, seed: int, cards: int = 9) -> list[Position]:
    """Random Klabberjass play positions: ``cards`` cards each, a random trump, E to lead.

    With 9 cards these are whole deals as the card play starts (the positions that
    ``tricklab bench klabberjass`` times).
    """
    rng = random.Random(seed)
    pack = [c for c in range(64) if PACK >> c & 1]
    out = []
    for _ in range(count):
        hand = rng.sample(pack, 2 * cards)
        out.append(Position(rng.randrange(4), 0, (mask_of(hand[:cards]), mask_of(hand[cards:]))))
    return out
