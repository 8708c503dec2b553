"""Carabin rules (docs/rules-carabin.md): rules, card points, positions, deals, bidding, scoring.

Seats are ``0 .. N-1`` clockwise (3 to 6 players); seat 0 is eldest and leads the
first trick, seat ``N-1`` is the dealer. Each seat holds a left hand (L) and a right
hand (R) of four cards, never combined. A trick is played from one kind of hand: in an
L trick every seat plays a card of his left hand, clockwise from the leader. Any card
of the hand in use may be played (no duty to follow or to trump); the highest trump
wins, else the highest card of the suit led. Points: A 4, K 3, Q 2.

A :class:`Position` is the play phase seen double-dummy: trump, bidder, the seat that
led (or leads) the current trick, the kind of hand in use, every hand and the cards
already played to an unfinished trick.

>>> from solver.carabin import Position
>>> p = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
>>> [card_str(c) for c in p.legal_moves()], p.to_move
(['KS'], 1)
>>> q = p.play(parse_card("KS"))
>>> str(q)
'trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../... 2=.../.3.. trick=KS'

Choices where the rules are silent, written down here:

- Hand sizes: with ``trick_order=alternate`` (L1 R1 L2 R2 …) an L trick is played
  with every left hand as long as the right hands, an R trick with every right hand one
  card longer than the left hands; seats that already played to the unfinished trick
  hold one card fewer in the hand in use. With ``left_then_right`` (L1 … L4 R1 … R4)
  the right hands are all equal during the L tricks and the left hands are empty during
  the R tricks. Anything else is a :class:`~solver.errors.RulesError`.
- The trick order is not part of the position notation; a position of the
  ``left_then_right`` variant carries the extra field ``order=left_then_right``.
- After a trick the next one is played with the other kind of hand (``alternate``) or
  the same kind until it is empty (``left_then_right``).
- The deal (see :meth:`solver.carabin.deal.Deal.random`): the pack is shuffled, then the dealer gives each
  seat in turn from seat 0 four cards for the right hand and four for the left; as soon
  as the eighth card is given (seat 0's two hands) the ninth is turned up.
- Bidding round 2: after a suit is named, only the players still to speak may answer,
  with a chelem in any suit but the turn-up suit (as in round 1 after a take).
- A game ends at the end of the deal in which somebody reaches 10; every player with
  the highest total wins (a failed contract can bring several to 10 at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.cards import (
    PACK52,
    RANKS,
    ascii_number,
    card_str,
    cards_of,
    format_holding,
    parse_holding,
    rank_of,
    suit_of,
)
from solver.errors import NotationError, RulesError

HAND_SIZE = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 6
L, R = 0, 1
HANDS = "LR"
TRICK_ORDERS = ("alternate", "left_then_right")
GAME_POINTS = 10

#: The 52-card pack.
PACK = PACK52

# ---------------------------------------------------------------- the card tables
# Every rule about single cards is written here once; everything else (the compiled
# core included, which receives these tables as data) is derived from them.

#: Trick-taking order of every suit, trumps included, lowest first.
ORDER = RANKS
#: Card points by rank letter (others are worth nothing).
POINTS = {"A": 4, "K": 3, "Q": 2}
# The tables below are indexed by the 4-bit rank field of a card (0 = 2 .. 12 = A; 13-15
# are no rank, so that any int of a card set indexes them).
_RANK_FIELD = RANKS + "   "
#: Rank -> place in the trick order (0 lowest), -1 for no rank.
POWER = tuple(ORDER.find(r) if r != " " else -1 for r in _RANK_FIELD)
#: Rank -> card points.
RANK_POINTS = tuple(POINTS.get(r, 0) for r in _RANK_FIELD)


@dataclass(frozen=True)
class Rules:
    """Every variant point of Carabin, as one value.

    Attributes:
        players: number of players, 3 to 6.
        trick_order: ``alternate`` (L1 R1 L2 R2 …) or ``left_then_right``
            (L1 … L4 R1 … R4).
        game: points that win a game.
    """

    players: int = 4
    trick_order: str = "alternate"
    game: int = GAME_POINTS

    def __post_init__(self) -> None:
        check_players(self.players)
        check_trick_order(self.trick_order)


def check_players(n: object) -> int:
    """Check a player count (3 to 6) and return it.

    Raises:
        RulesError: not an int from 3 to 6.
    """
    if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RulesError(
            f"invalid number of players {n!r} (Carabin is played by {MIN_PLAYERS} to {MAX_PLAYERS})"
        )
    return n


def check_trick_order(order: object) -> str:
    """Check a trick order name and return it.

    Raises:
        RulesError: not ``alternate`` or ``left_then_right``.
    """
    if order not in TRICK_ORDERS:
        expected = ", ".join(TRICK_ORDERS)
        raise RulesError(f"invalid trick order {order!r} (expected one of: {expected})")
    return str(order)


def card_points(card: int) -> int:
    """Points of a card: A 4, K 3, Q 2, nothing else.

    >>> card_points(parse_card("AH")), card_points(parse_card("QS")), card_points(parse_card("JS"))
    (4, 2, 0)
    """
    return RANK_POINTS[rank_of(card)]


def points_of(cards: int | Iterable[int]) -> int:
    """Total points of a card set (int mask) or of an iterable of cards."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    return sum(card_points(c) for c in cards)


def card_power(card: int, trump: int) -> int:
    """Place of a card within its suit for trick taking (0 lowest .. 12 highest).

    Every suit, trumps included, runs A K Q J T 9 .. 2; ``trump`` is taken for the
    same signature as Klabberjass.
    """
    return POWER[rank_of(card)]


def beats(card: int, best: int, trump: int) -> bool:
    """True if ``card`` beats ``best``, the card winning a trick so far.

    A discard (neither the suit of ``best`` nor trump) never wins.

    >>> beats(parse_card("2S"), parse_card("AH"), 0), beats(parse_card("KH"), parse_card("AH"), 0)
    (True, False)
    """
    if suit_of(card) == suit_of(best):
        return POWER[rank_of(card)] > POWER[rank_of(best)]
    return suit_of(card) == trump


def legal_replies(hand: int, lead_card: int, trump: int) -> int:
    """The set of cards of ``hand`` (the hand in use) that may be played to ``lead_card``.

    Any card: there is no duty to follow suit or to trump. Written for the same
    signature as Klabberjass.
    """
    return hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index, in playing order, of the card that wins a trick.

    The highest trump wins, else the highest card of the suit led.

    >>> trick_winner([parse_card(c) for c in ("TH", "AS", "KH", "2D")], trump=2)
    3
    >>> trick_winner([parse_card(c) for c in ("TH", "AS", "KH")], trump=3)
    2
    """
    if not cards:
        raise RulesError("an empty trick has no winner")
    win = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[win], trump):
            win = i
    return win


def next_hand(order: str, hand: int, hands_left: int) -> int:
    """The kind of hand (0 = L, 1 = R) of the trick after one played with ``hand``.

    Args:
        order: ``alternate`` or ``left_then_right``.
        hand: the kind of hand of the trick just completed.
        hands_left: bit ``k`` set if hands of kind ``k`` still hold cards.
    """
    nxt = 1 - hand if order == "alternate" else hand
    if not hands_left >> nxt & 1 and hands_left >> (1 - nxt) & 1:
        nxt = 1 - nxt
    return nxt


def seat_of(text: str, players: int, context: str | None = None) -> int:
    """Read a seat number ``0 .. players-1``."""
    seat = ascii_number(text.strip())
    if seat is not None and seat < players:
        return seat
    where = f' in "{context}"' if context else ""
    raise NotationError(f"invalid seat '{text}'{where} (seats are 0 to {players - 1})")


def hand_of(text: str, context: str | None = None) -> int:
    """Read the kind of hand, ``L`` or ``R``."""
    t = text.strip().upper()
    if t in ("L", "R"):
        return HANDS.index(t)
    where = f' in "{context}"' if context else ""
    raise NotationError(f"invalid hand '{text}'{where} (expected L or R)")


def parse_two_hands(
    text: str, context: str | None = None, *, short: bool = False
) -> tuple[int, int]:
    """Read ``<L holding>/<R holding>`` (``short``: each may give fewer than four
    suits, see :func:`solver.cards.parse_holding`).

    >>> [format_holding(h) for h in parse_two_hands("A...K/..2.")]
    ['A...K', '..2.']
    >>> [format_holding(h) for h in parse_two_hands("AKQJ/.T987", short=True)]
    ['AKQJ...', '.T987..']
    """
    left, slash, right = text.partition("/")
    if not slash:
        where = f' in "{context}"' if context else ""
        raise NotationError(
            f"invalid hands '{text}'{where} "
            "(expected <left holding>/<right holding>, like A.K.Q.J/...5432)"
        )
    return parse_holding(left, context, short=short), parse_holding(right, context, short=short)


def format_two_hands(hands: tuple[int, int]) -> str:
    """The text ``<L holding>/<R holding>``."""
    return f"{format_holding(hands[0])}/{format_holding(hands[1])}"


def _seat_fields(f: dict[str, str], text: str, what: str) -> int:
    seats = sorted(int(k) for k in f if ascii_number(k) is not None)
    n = len(seats)
    if seats != list(range(n)) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
        given = " ".join(str(s) for s in seats) or "none"
        raise RulesError(
            f"a {what} needs seats 0 to N-1 for {MIN_PLAYERS} to {MAX_PLAYERS} players "
            f'(seats given: {given}) in "{text}"'
        )
    return n


def _field_keys(extra: Sequence[str]) -> list[str]:
    return [*extra, *(str(s) for s in range(MAX_PLAYERS + 4))]


def _check_distinct(named: Sequence[tuple[str, int]], context: str) -> None:
    seen: dict[int, str] = {}
    for name, mask in named:
        for c in cards_of(mask):
            if c in seen:
                raise RulesError(
                    f"card {card_str(c)} is both in {seen[c]} and in {name} in {context}"
                )
            seen[c] = name
