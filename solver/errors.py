"""The one error hierarchy of tricklab.

Every error raised on bad input is a ``TricklabError`` (and a ``ValueError``),
and its message quotes the offending text and says what was expected.
"""

from __future__ import annotations


class TricklabError(ValueError):
    """Base class of every error tricklab raises on bad input."""


class NotationError(TricklabError):
    """Text that cannot be read: a bad card, holding, key or field."""


class IllegalPlayError(TricklabError):
    """A card that may not be played in the given position."""


class IllegalBidError(IllegalPlayError):
    """A call the bidding rules do not allow where it is made."""


class RulesError(TricklabError):
    """A setup the rules do not allow: duplicate cards, unequal hands, bad trick."""


class UsageError(TricklabError):
    """A bad argument: a count out of range or not a whole number, options that do not
    go together, an argument of the wrong kind (on the command line: a bad option)."""
