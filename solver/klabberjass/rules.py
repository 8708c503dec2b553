"""Klabberjass play rules (docs/rules-klabberjass.md): rules presets, card order and points, positions.

Seats are ``E`` (elder hand, 0) and ``D`` (dealer, 1). The pack is the 32 cards 7..A.
Trump order high to low ``J 9 A T K Q 8 7``; plain suits ``A T K Q J 9 8 7``.

A :class:`Position` is the play phase seen double-dummy: trump, the seat that led (or
leads) the current trick, both hands, and the card already led to an unfinished trick.

>>> from solver.klabberjass import Position
>>> p = Position.parse("trump=H lead=E E=A... D=K...")
>>> str(p), [card_str(c) for c in p.legal_moves()]
('trump=H lead=E E=A... D=K...', ['AS'])
>>> q = p.play(parse_card("AS"))
>>> str(q), q.to_move
('trump=H lead=E E=... D=K... trick=AS', 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from solver.cards import (
    RANKS,
    cards_of,
    rank_of,
    suit_mask,
    suit_of,
)
from solver.errors import NotationError, RulesError

SEATS = "ED"
E, D = 0, 1
HAND_SIZE = 9
DEAL_SIZE = 6

#: The 32-card pack: ranks 7 to A of each suit.
PACK = sum(0x1FE0 << (16 * s) for s in range(4))

# ---------------------------------------------------------------- the card tables
# Every rule about single cards is written here once; everything else (the compiled
# core included, which receives these tables as data) is derived from them.

#: Trick-taking order of a plain suit and of the trump suit, lowest first.
PLAIN_ORDER = "789JQKTA"
TRUMP_ORDER = "78QKTA9J"
#: Card points of a plain card and of a trump, by rank letter (others are worth nothing).
PLAIN_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}

# The tables below are indexed by the 4-bit rank field of a card (0 = 2 .. 12 = A; 13-15
# are no rank, so that any int of a card set indexes them).
_RANK_FIELD = RANKS + "   "
#: Rank -> place in the trick order (0 lowest), -1 outside the pack.
PLAIN_POWER = tuple(PLAIN_ORDER.find(r) if r != " " else -1 for r in _RANK_FIELD)
TRUMP_POWER = tuple(TRUMP_ORDER.find(r) if r != " " else -1 for r in _RANK_FIELD)
#: Rank -> card points.
PLAIN_RANK_POINTS = tuple(PLAIN_POINTS.get(r, 0) for r in _RANK_FIELD)
TRUMP_RANK_POINTS = tuple(TRUMP_POINTS.get(r, 0) for r in _RANK_FIELD)
#: The lowest rank of the pack (the 7): a suit's cards sit in 8 bits from this one.
LOW_RANK = RANKS.index("7")
#: Points of the cards of one suit given as an 8-bit field (bit 0 the 7 .. bit 7 the A).
PLAIN_FIELD_POINTS = tuple(
    sum(PLAIN_RANK_POINTS[LOW_RANK + i] for i in range(8) if f >> i & 1) for f in range(256)
)
TRUMP_FIELD_POINTS = tuple(
    sum(TRUMP_RANK_POINTS[LOW_RANK + i] for i in range(8) if f >> i & 1) for f in range(256)
)


@dataclass(frozen=True)
class Rules:
    """Every variant point of Klabberjass, as one value.

    Attributes:
        name: preset name, ``seed`` or ``classic`` (``custom`` when changed by hand).
        bella: points for Bella (K and Q of trump in one hand).
        dix: the holder of the trump 7 may exchange it for the turn-up.
        bottom_card: the bottom card of the stock is shown to both players.
        schmeiss: a player may schmeiss in bidding round 1.
        last_trick: bonus for winning the last trick.
        run3: points for a sequence of three cards.
        run4: points for a sequence of four or more cards.
        game: points that win a game.
    """

    name: str = "seed"
    bella: int = 50
    dix: bool = False
    bottom_card: bool = False
    schmeiss: bool = False
    last_trick: int = 10
    run3: int = 20
    run4: int = 50
    game: int = 500

    PRESETS: ClassVar[tuple[str, ...]] = ("seed", "classic")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The ``seed`` or ``classic`` rules.

        >>> Rules.preset("classic").bella
        20

        Raises:
            RulesError: an unknown preset name.
        """
        if name == "seed":
            return SEED
        if name == "classic":
            return CLASSIC
        raise RulesError(f"unknown rules '{name}' (expected one of: {', '.join(cls.PRESETS)})")


SEED = Rules()
CLASSIC = Rules(name="classic", bella=20, dix=True, bottom_card=True, schmeiss=True)


def seat_of(text: str, context: str | None = None) -> int:
    """Read a seat letter, ``E`` or ``D``."""
    t = text.strip().upper()
    if t in ("E", "D"):
        return SEATS.index(t)
    where = f' in "{context}"' if context else ""
    raise NotationError(f"invalid seat '{text}'{where} (seats are E and D)")


def card_points(card: int, trump: int) -> int:
    """Points of a card: Jass 20, Menel 14, A 11, T 10, K 4, Q 3, plain J 2.

    >>> card_points(parse_card("JH"), 1), card_points(parse_card("JS"), 1)
    (20, 2)
    """
    table = TRUMP_RANK_POINTS if suit_of(card) == trump else PLAIN_RANK_POINTS
    return table[rank_of(card)]


def points_of(cards: int, trump: int) -> int:
    """The card points of a set of cards (no last-trick bonus).

    >>> points_of(PACK, 1)
    152
    """
    total = 0
    for suit in range(4):
        f = cards >> (16 * suit + LOW_RANK) & 0xFF
        if f:
            total += (TRUMP_FIELD_POINTS if suit == trump else PLAIN_FIELD_POINTS)[f]
    return total


def card_power(card: int, trump: int) -> int:
    """Rank of a card within its suit for trick taking (0 lowest .. 7 highest)."""
    table = TRUMP_POWER if suit_of(card) == trump else PLAIN_POWER
    return table[rank_of(card)]


def beats(card: int, best: int, trump: int) -> bool:
    """True if ``card`` beats ``best``, the card winning a trick so far.

    A higher card of the same suit wins (in that suit's order), a trump beats a plain
    card, anything else (a discard) loses.

    >>> beats(parse_card("7H"), parse_card("AS"), 1), beats(parse_card("AS"), parse_card("TS"), 1)
    (True, True)
    """
    if suit_of(card) == suit_of(best):
        return card_power(card, trump) > card_power(best, trump)
    return suit_of(card) == trump


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index, in playing order, of the card that wins a trick (0 the led card, 1 the reply).

    >>> trick_winner([parse_card("AS"), parse_card("7H")], 1)
    1
    """
    if len(cards) != 2:
        raise RulesError(f"a Klabberjass trick has two cards, not {len(cards)}")
    return int(beats(cards[1], cards[0], trump))


def legal_replies(hand: int, lead_card: int, trump: int) -> int:
    """The set of cards of ``hand`` that may be played to ``lead_card``.

    Follow suit; unable to, trump; on a trump lead, beat it if possible.
    """
    suit = suit_of(lead_card)
    follow = hand & suit_mask(suit)
    if suit == trump:
        power = card_power(lead_card, trump)
        higher = sum(1 << c for c in cards_of(follow) if card_power(c, trump) > power)
        return higher or follow or hand
    if follow:
        return follow
    return (hand & suit_mask(trump)) or hand
