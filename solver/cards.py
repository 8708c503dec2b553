"""Cards, suits, ranks and card sets, shared by both games.

A card is a small int ``suit * 16 + rank``: suits ``S H D C`` are 0..3 and ranks
``2 3 4 5 6 7 8 9 T J Q K A`` are 0..12. The cards tricklab hands out are :class:`Card`
values: ints that print as their notation (``AS``), so results read as cards. A set of cards is an int bitmask with bit
``card`` set for each card it holds, so the cards of one suit sit in 16 bits of their
own. Both games use these values; a game's pack is a mask of the cards it uses.

Notation (docs/notation.md): a card is rank then suit (``JH``); input also accepts suit then
rank (``HJ``), ``10`` for ``T``, lower case and the suit symbols ``♠ ♥ ♦ ♣``. A holding
is PBN style, the four suits separated by dots, high to low: ``AJ9.K7..T87``.

>>> card_str(parse_card("10h"))
'TH'
>>> parse_card("qd"), int(parse_card("qd")), Card("AS") == 12
(QD, 42, True)
>>> format_holding(parse_holding("9ja.7k..78t"))
'AJ9.K7..T87'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache

from solver.errors import NotationError, UsageError

SUITS = "SHDC"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"

_SUIT_INPUT = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
_SUIT_INPUT.update({s.lower(): i for s, i in list(_SUIT_INPUT.items()) if s.isascii()})
_SUIT_INPUT.update({"\u2664": 0, "\u2661": 1, "\u2662": 2, "\u2667": 3})  # white suit symbols
_RANK_INPUT = {r: i for i, r in enumerate(RANKS)}
_RANK_INPUT.update({r.lower(): i for r, i in list(_RANK_INPUT.items())})
_RANK_INPUT["10"] = RANKS.index("T")

RANK_HELP = "ranks are 2-9 T J Q K A"
SUIT_HELP = "suits are S H D C"

PACK52 = sum(0x1FFF << (16 * s) for s in range(4))


class Card(int):
    """A card: the int ``suit * 16 + rank`` that reads and prints as its notation.

    It is an int in every other way (arithmetic, bit masks, dict keys, JSON), so code
    may keep using plain ints; tricklab hands out ``Card`` values so that results and
    reprs show ``AS`` rather than ``12``.

    >>> Card("♥10"), Card(12).suit, Card(12).rank, str(Card("jh"))
    (TH, 0, 12, 'JH')

    Raises:
        NotationError: text that is not a card, or an int that is not one.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64:
            card = CARDS[value]
            if card is not None:
                return card
        raise NotationError(f"invalid card {value!r} (expected suit * 16 + rank, rank 0-12)")

    @property
    def suit(self) -> int:
        """The suit, 0..3 (S H D C)."""
        return self >> 4

    @property
    def rank(self) -> int:
        """The rank, 0 for 2 .. 12 for ace."""
        return self & 15

    def __repr__(self) -> str:
        return RANKS[self & 15] + SUITS[self >> 4]

    __str__ = __repr__

    def __reduce__(self) -> tuple:  # pickles (worker processes) as the plain int
        return (Card, (int(self),))


#: Every card by its number (None where the rank field is not a rank).
CARDS: tuple[Card | None, ...] = tuple(
    int.__new__(Card, c) if c & 15 < 13 else None for c in range(64)
)


def as_card(card: object) -> Card | None:
    """A card argument as a :class:`Card`: a Card, its number or its notation; None for
    an int that is no card's number (the caller says why it may not be used).

    >>> as_card("jh"), as_card(12), as_card(13)
    (JH, AS, None)

    Raises:
        NotationError: text that is not a card.
        UsageError: anything else (None, a float, a bool, a list).
    """
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, int) and not isinstance(card, bool):
        return CARDS[card] if 0 <= card < 64 else None
    raise UsageError(f"invalid card {card!r} (a Card, its number or its notation like 'JH')")


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (0 for 2 .. 12 for ace)."""
    return CARDS[suit * 16 + rank]  # type: ignore[return-value]


def suit_of(card: int) -> int:
    """The suit (0..3, S H D C) of a card."""
    return card >> 4


def rank_of(card: int) -> int:
    """The rank (0 for 2 .. 12 for ace) of a card."""
    return card & 15


def suit_mask(suit: int) -> int:
    """The mask of every card of one suit."""
    return 0x1FFF << (16 * suit)


def card_str(card: int) -> str:
    """The canonical text of a card, rank then suit.

    >>> card_str(make_card(1, 9))
    'JH'
    """
    return RANKS[card & 15] + SUITS[card >> 4]


def text_arg(text: object, what: str) -> str:
    """``text`` if it is a str.

    Raises:
        UsageError: anything else (None, bytes, a number): ``what`` names what was expected.
    """
    if not isinstance(text, str):
        raise UsageError(f"expected {what} as text (a str), not {type(text).__name__} {text!r:.80}")
    return text


def _quote(context: str | None, text: str) -> str:
    return f' in "{context}"' if context is not None and context != text else ""


def parse_suit(text: str, context: str | None = None) -> int:
    """Read one suit letter or symbol.

    >>> parse_suit("♦")
    2

    Raises:
        NotationError: the text is not a suit.
    """
    suit = _SUIT_INPUT.get(text_arg(text, "a suit").strip())
    if suit is None:
        raise NotationError(f"invalid suit '{text}'{_quote(context, text)} ({SUIT_HELP})")
    return suit


def parse_card(text: str, context: str | None = None) -> Card:
    """Read one card: rank then suit, or suit then rank.

    >>> card_str(parse_card("♠10")), card_str(parse_card("qd"))
    ('TS', 'QD')

    Raises:
        NotationError: the text is not a card; the message quotes it.
    """
    t = text_arg(text, "a card").strip()
    if 2 <= len(t) <= 3:
        for rank_text, suit_text in ((t[:-1], t[-1]), (t[1:], t[0])):
            rank = _RANK_INPUT.get(rank_text)
            suit = _SUIT_INPUT.get(suit_text)
            if rank is not None and suit is not None:
                return CARDS[suit * 16 + rank]  # type: ignore[return-value]
    raise NotationError(
        f"invalid card '{text}'{_quote(context, text)} (a card is a rank then a suit, "
        f"like JH; {RANK_HELP}, {SUIT_HELP})"
    )


def cards_of(mask: int) -> Iterator[Card]:
    """The cards of a set, spades first, high to low within a suit."""
    for suit in range(4):
        for rank in range(12, -1, -1):
            card = suit * 16 + rank
            if mask >> card & 1:
                yield CARDS[card]  # type: ignore[misc]


def in_notation_order(cards: Iterable[int]) -> list[Card]:
    """The cards as Card values, spades first, high to low within a suit (as printed).

    >>> in_notation_order([parse_card(c) for c in ("2D", "AS", "KD")])
    [AS, KD, 2D]
    """
    return [CARDS[c] for c in sorted(cards, key=lambda c: (c >> 4, -(c & 15)))]  # type: ignore[misc]


def cards_text(mask: int) -> str:
    """The cards of a set as text, spades first, high to low: for messages.

    >>> cards_text(parse_holding("A..K2."))
    'AS KD 2D'
    """
    return " ".join(card_str(c) for c in cards_of(mask))


def card_count(mask: int) -> int:
    """Number of cards in a set."""
    return mask.bit_count()


def mask_of(cards: Iterable[int]) -> int:
    """The set holding the given cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_holding(text: str, context: str | None = None, *, short: bool = False) -> int:
    """Read a PBN-style holding into a card set.

    ``short``: the holding may give fewer than four suits, the suits not written void
    (in the order S H D C: ``AT7.KJ9`` is ``AT7.KJ9..``). Only a bidding view's hand
    is read so; positions, deals and play views need all four suits.

    >>> format_holding(parse_holding("A..10 8.K"))
    'A..T8.K'
    >>> format_holding(parse_holding("AT7.KJ9", short=True))
    'AT7.KJ9..'

    Raises:
        NotationError: not four dot-separated suits (``short``: more than four), a bad
            rank or a card twice.
    """
    parts = text_arg(text, "a holding").strip().split(".")
    if short and len(parts) < 4:
        parts += [""] * (4 - len(parts))
    if len(parts) != 4:
        expected = "at most four suits" if short else "four suits"
        raise NotationError(
            f"invalid holding '{text}'{_quote(context, text)} "
            f"(expected {expected} separated by dots, like AJ9.K7..T87)"
        )
    mask = 0
    for suit, part in enumerate(parts):
        bits = _suit_bits(part)
        if bits < 0:
            _explain_suit(part, suit, text, context)
        mask |= bits << (16 * suit)
    return mask


@lru_cache(maxsize=1 << 14)  # bounded: the parts come from user input
def _suit_bits(part: str) -> int:
    """The rank bits of one suit of a holding, or -1 if the text is not valid."""
    bits = 0
    i = 0
    part = part.replace(" ", "")
    while i < len(part):
        token = "10" if part.startswith("10", i) else part[i]
        rank = _RANK_INPUT.get(token)
        if rank is None or bits >> rank & 1:
            return -1
        bits |= 1 << rank
        i += len(token)
    return bits


def _explain_suit(part: str, suit: int, text: str, context: str | None) -> None:
    """Raise the error for an invalid suit of a holding."""
    seen = 0
    i = 0
    part = part.replace(" ", "")
    while i < len(part):
        token = "10" if part.startswith("10", i) else part[i]
        rank = _RANK_INPUT.get(token)
        if rank is None:
            raise NotationError(
                f"invalid rank '{token}' in holding '{text}'{_quote(context, text)} ({RANK_HELP})"
            )
        if seen >> rank & 1:
            raise NotationError(
                f"card {card_str(make_card(suit, rank))} twice in holding '{text}'"
                f"{_quote(context, text)}"
            )
        seen |= 1 << rank
        i += len(token)
    raise AssertionError(part)  # pragma: no cover - only called for invalid text


@cache
def _suit_text(bits: int) -> str:
    return "".join(RANKS[r] for r in range(12, -1, -1) if bits >> r & 1)


def format_holding(mask: int) -> str:
    """The canonical PBN text of a card set, high to low within each suit.

    >>> format_holding(parse_holding("..K2.") | parse_holding("A..."))
    'A..K2.'
    """
    return ".".join(_suit_text(mask >> (16 * s) & 0x1FFF) for s in range(4))


def parse_card_list(text: str, context: str | None = None, sep: str | None = None) -> list[Card]:
    """Read cards separated by spaces (or ``sep``) keeping their order.

    >>> [card_str(c) for c in parse_card_list("AS,10h", sep=",")]
    ['AS', 'TH']
    """
    text_arg(text, "a list of cards")
    tokens = text.split(sep) if sep is not None else text.split()
    return [
        parse_card(tok, context if context is not None else text) for tok in tokens if tok.strip()
    ]


def ascii_number(text: str, most_digits: int = 9) -> int | None:
    """The number ``text`` writes in ASCII digits (at most ``most_digits``), else None.

    Other Unicode digits (``²``, ``③``, ``٣``), signs and spaces are not numbers here.

    >>> ascii_number("12"), ascii_number("²"), ascii_number("٣"), ascii_number("-1"), ascii_number("")
    (12, None, None, None, None)
    """
    if 0 < len(text) <= most_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def parse_fields(
    line: str, allowed: Iterable[str], required: Iterable[str] = (), what: str = "position"
) -> dict[str, str]:
    """Split a ``key=value`` line into a dict, checking the keys.

    >>> parse_fields("trump=H lead=E", ["trump", "lead"])
    {'trump': 'H', 'lead': 'E'}

    Raises:
        NotationError: a field without ``=``, an unknown or repeated key, or a missing one.
    """
    text_arg(line, f"a {what}")
    allowed = list(allowed)
    fields: dict[str, str] = {}
    if not line.strip():
        raise NotationError(f"empty {what} (expected key=value fields: {' '.join(allowed)})")
    for token in line.split():
        key, eq, value = token.partition("=")
        if not eq or not key:
            raise NotationError(f"invalid field '{token}' in \"{line}\" (expected key=value)")
        if key not in allowed:
            raise NotationError(
                f"unknown key '{key}' in \"{line}\" (a {what} has {', '.join(allowed)})"
            )
        if key in fields:
            raise NotationError(f"key '{key}' given twice in \"{line}\"")
        fields[key] = value
    missing = [k for k in required if k not in fields]
    if missing:
        raise NotationError(f'missing {", ".join(missing)} in "{line}"')
    return fields
