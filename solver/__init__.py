"""tricklab solver: cards, the rules of Klabberjass and Carabin, and their engines.

This package imports nothing heavy, so ``import solver`` and the command line start
fast. Analysis built on top of it lives in the ``analysis`` package.
"""

from solver.errors import (
    IllegalBidError,
    IllegalPlayError,
    NotationError,
    RulesError,
    TricklabError,
)

__all__ = ["IllegalBidError", "IllegalPlayError", "NotationError", "RulesError", "TricklabError"]
__version__ = "0.1.0"
