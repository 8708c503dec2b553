"""Carabin rules (SPEC §3): rules, card points, positions, deals, bidding, scoring.

Seats are ``0 .. N-1`` clockwise (3 to 6 players); seat 0 is eldest and leads the
first trick, seat ``N-1`` is the dealer. Each seat holds a left hand (L) and a right
hand (R) of four cards, never combined. A trick is played from one kind of hand: in an
L trick every seat plays a card of his left hand, clockwise from the leader. Any card
of the hand in use may be played (no duty to follow or to trump); the highest trump
wins, else the highest card of the suit led. Points: A 4, K 3, Q 2.

A :class:`Position` is the play phase seen double-dummy: trump, bidder, the seat that
led (or leads) the current trick, the kind of hand in use, every hand and the cards
already played to an unfinished trick.

>>> p = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
>>> [card_str(c) for c in p.legal_moves()], p.to_move
(['KS'], 1)
>>> q = p.play(parse_card("KS"))
>>> str(q)
'trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../... 2=.../.3.. trick=KS'

Choices where SPEC §3 is silent, written down here:

- Hand sizes: with ``trick_order=alternate`` (L1 R1 L2 R2 …) an L trick is played
  with every left hand as long as the right hands, an R trick with every right hand one
  card longer than the left hands; seats that already played to the unfinished trick
  hold one card fewer in the hand in use. With ``left_then_right`` (L1 … L4 R1 … R4)
  the right hands are all equal during the L tricks and the left hands are empty during
  the R tricks. Anything else is a :class:`~solver.errors.RulesError`.
- The trick order is not part of SPEC's position notation; a position of the
  ``left_then_right`` variant carries the extra field ``order=left_then_right``.
- After a trick the next one is played with the other kind of hand (``alternate``) or
  the same kind until it is empty (``left_then_right``).
- The deal (see :meth:`Deal.dealt`): the pack is shuffled, then the dealer gives each
  seat in turn from seat 0 four cards for the right hand and four for the left; as soon
  as the eighth card is given (seat 0's two hands) the ninth is turned up.
- Bidding round 2: after a suit is named, only the players still to speak may answer,
  with a chelem in any suit but the turn-up suit (as in round 1 after a take).
- A game ends at the end of the deal in which somebody reaches 10; every player with
  the highest total wins (a failed contract can bring several to 10 at once).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

from solver.cards import (
    PACK52,
    SUITS,
    card_count,
    card_str,
    cards_of,
    format_holding,
    make_card,
    parse_card,
    parse_card_list,
    parse_fields,
    parse_holding,
    parse_suit,
    rank_of,
    suit_of,
)
from solver.errors import IllegalPlayError, NotationError, RulesError

HAND_SIZE = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 6
L, R = 0, 1
HANDS = "LR"
TRICK_ORDERS = ("alternate", "left_then_right")
GAME_POINTS = 10

#: The 52-card pack.
PACK = PACK52

_POINTS = {12: 4, 11: 3, 10: 2}  # A K Q


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
    return _POINTS.get(rank_of(card), 0)


def points_of(cards: int | Iterable[int]) -> int:
    """Total points of a card set (int mask) or of an iterable of cards."""
    if isinstance(cards, int):
        cards = cards_of(cards)
    return sum(card_points(c) for c in cards)


def beats(card: int, best: int, trump: int) -> bool:
    """True if ``card`` beats ``best``, the card winning a trick so far.

    A discard (neither the suit of ``best`` nor trump) never wins.

    >>> beats(parse_card("2S"), parse_card("AH"), 0), beats(parse_card("KH"), parse_card("AH"), 0)
    (True, False)
    """
    if suit_of(card) == suit_of(best):
        return rank_of(card) > rank_of(best)
    return suit_of(card) == trump


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
    t = text.strip()
    if t.isdigit() and int(t) < players:
        return int(t)
    where = f' in "{context}"' if context else ""
    raise NotationError(f"invalid seat '{text}'{where} (seats are 0 to {players - 1})")


def hand_of(text: str, context: str | None = None) -> int:
    """Read the kind of hand, ``L`` or ``R``."""
    t = text.strip().upper()
    if t in ("L", "R"):
        return HANDS.index(t)
    where = f' in "{context}"' if context else ""
    raise NotationError(f"invalid hand '{text}'{where} (expected L or R)")


def parse_two_hands(text: str, context: str | None = None) -> tuple[int, int]:
    """Read ``<L holding>/<R holding>``.

    >>> [format_holding(h) for h in parse_two_hands("A...K/..2.")]
    ['A...K', '..2.']
    """
    left, slash, right = text.partition("/")
    if not slash:
        where = f' in "{context}"' if context else ""
        raise NotationError(
            f"invalid hands '{text}'{where} "
            "(expected <left holding>/<right holding>, like A.K.Q.J/...5432)"
        )
    return parse_holding(left, context), parse_holding(right, context)


def format_two_hands(hands: tuple[int, int]) -> str:
    """The text ``<L holding>/<R holding>``."""
    return f"{format_holding(hands[0])}/{format_holding(hands[1])}"


def _seat_fields(f: dict[str, str], text: str, what: str) -> int:
    seats = sorted(int(k) for k in f if k.isdigit())
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


@dataclass(frozen=True)
class Position:
    """A Carabin play position, immutable and hashable.

    Attributes:
        trump: trump suit, 0..3 (S H D C).
        bidder: the bidder's seat; every other seat plays against him.
        lead: seat that leads (or led) the current trick.
        hand: kind of hand of the current trick, 0 = L, 1 = R.
        hands: per seat, its (left, right) hands as card sets.
        trick: cards already played to the unfinished trick, from the leader on.
        trick_order: ``alternate`` or ``left_then_right``.
    """

    trump: int
    bidder: int
    lead: int
    hand: int
    hands: tuple[tuple[int, int], ...]
    trick: tuple[int, ...] = ()
    trick_order: str = "alternate"
    _checked: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._checked:
            self.validate()
            object.__setattr__(self, "_checked", True)

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    def validate(self) -> None:
        """Check that the position can arise in play.

        Raises:
            RulesError: a player count outside 3–6, a card twice, a hand of more than
                four cards, hand sizes that do not fit the trick being played or an
                impossible unfinished trick.
        """
        n = check_players(len(self.hands))
        check_trick_order(self.trick_order)
        if self.trump not in range(4):
            raise RulesError(f"invalid trump {self.trump!r} (expected a suit 0..3)")
        for name, v in (("bidder", self.bidder), ("leader", self.lead)):
            if not isinstance(v, int) or not 0 <= v < n:
                raise RulesError(f"invalid {name} {v!r} (seats are 0 to {n - 1})")
        if self.hand not in (0, 1):
            raise RulesError(f"invalid hand {self.hand!r} (expected 0 for L or 1 for R)")
        if len(self.trick) >= n:
            raise RulesError(
                f"impossible trick {','.join(card_str(c) for c in self.trick)}: "
                f"{len(self.trick)} cards, but a trick of {n} players is complete at {n}"
            )
        for c in self.trick:
            if not (isinstance(c, int) and 0 <= c < 64 and PACK >> c & 1):
                raise RulesError(f"trick card {c!r} is not a card")
        named = []
        for s, pair in enumerate(self.hands):
            for k in (L, R):
                h = pair[k]
                if h & ~PACK:
                    raise RulesError(f"seat {s} holds a card that is not in the pack")
                if card_count(h) > HAND_SIZE:
                    raise RulesError(
                        f"{s}={format_two_hands(pair)}: the {HANDS[k]} hand holds "
                        f"{card_count(h)} cards (at most {HAND_SIZE})"
                    )
                named.append((f"{s}={format_two_hands(pair)}", h))
        named += [("the trick", 1 << c) for c in self.trick]
        _check_distinct(named, "the position")
        self._check_sizes()

    def _check_sizes(self) -> None:
        n, h, k = self.players, self.hand, len(self.trick)
        played = {(self.lead + i) % n for i in range(k)}
        sizes = [(card_count(a), card_count(b)) for a, b in self.hands]
        unplayed = [s for s in range(n) if s not in played]
        m = sizes[unplayed[0]][h]
        ok = m >= (1 if k else 0)
        for s in range(n):
            want = m - (s in played)
            if sizes[s][h] != want:
                ok = False
        other = [sizes[s][1 - h] for s in range(n)]
        if self.trick_order == "alternate":
            want_other = m if h == L else m - 1
            expect = (
                f"every {HANDS[h]} hand of {m} cards (one fewer for the seats that played to "
                f"the trick) and every {HANDS[1 - h]} hand of {want_other}"
            )
            ok = ok and all(x == want_other for x in other)
        elif h == L:
            expect = f"every L hand of {m} cards (one fewer after playing) and R hands all equal"
            ok = ok and len(set(other)) == 1
        else:
            expect = "empty L hands during the R tricks"
            ok = ok and not any(other)
        if not ok:
            shown = " ".join(f"{s}={a}/{b}" for s, (a, b) in enumerate(sizes))
            raise RulesError(
                f"wrong hand sizes for an {HANDS[h]} trick with {k} card(s) played "
                f"(cards held: {shown}; expected {expect})"
            )

    # ----------------------------------------------------------------- notation
    KEYS: ClassVar[tuple[str, ...]] = ("trump", "bidder", "lead", "next", "trick", "order")

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``trump=S bidder=0 lead=1 next=L 0=<L>/<R> 1=… [trick=<c>,<c>]``.

        >>> p = Position.parse("0=A.../K... 1=.../Q... next=l lead=1 2=3.../4... trump=h "
        ...                    "bidder=0 trick=2s")
        >>> str(p)
        'trump=H bidder=0 lead=1 next=L 0=A.../K... 1=.../Q... 2=3.../4... trick=2S'

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError: a position that cannot arise (see :meth:`validate`).
        """
        f = parse_fields(text, _field_keys(cls.KEYS), ("trump", "bidder", "lead", "next"))
        n = _seat_fields(f, text, "position")
        trump = parse_suit(f["trump"], text)
        bidder = seat_of(f["bidder"], n, text)
        lead = seat_of(f["lead"], n, text)
        hand = hand_of(f["next"], text)
        hands = tuple(parse_two_hands(f[str(s)], text) for s in range(n))
        trick = tuple(parse_card_list(f["trick"], text, sep=",")) if "trick" in f else ()
        order = f.get("order", "alternate")
        try:
            return cls(trump, bidder, lead, hand, hands, trick, check_trick_order(order))
        except RulesError as err:
            raise RulesError(f'{err} in "{text}"') from None

    def __str__(self) -> str:
        text = (
            f"trump={SUITS[self.trump]} bidder={self.bidder} lead={self.lead} "
            f"next={HANDS[self.hand]} "
            + " ".join(f"{s}={format_two_hands(p)}" for s, p in enumerate(self.hands))
        )
        if self.trick:
            text += " trick=" + ",".join(card_str(c) for c in self.trick)
        if self.trick_order != "alternate":
            text += f" order={self.trick_order}"
        return text

    # ----------------------------------------------------------------- play
    @property
    def to_move(self) -> int:
        """Seat to play next."""
        return (self.lead + len(self.trick)) % self.players

    @property
    def is_over(self) -> bool:
        """True when no card is left to play."""
        return not self.trick and not any(a | b for a, b in self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the unfinished one included."""
        return sum(card_count(h) for h in self.hands[self.lead])

    def legal_set(self) -> int:
        """The legal cards of the player to move: his whole hand in use."""
        if self.is_over:
            return 0
        return self.hands[self.to_move][self.hand]

    def legal_moves(self) -> list[int]:
        """The legal cards of the player to move, spades first, high to low."""
        return list(cards_of(self.legal_set()))

    def points_left(self) -> int:
        """Points still to be won, the unfinished trick included."""
        return points_of(sum(a | b for a, b in self.hands) | sum(1 << c for c in self.trick))

    def points_in_hands(self) -> int:
        """Points of the cards still held."""
        return points_of(sum(a | b for a, b in self.hands))

    def step(self, card: int) -> tuple[Position, int | None, int]:
        """Play a card and say what it completed.

        Returns:
            The new position, the seat that won the trick (None if the trick is not
            complete) and the points of that trick.

        Raises:
            IllegalPlayError: the card is not in the hand in use of the player to move.
        """
        if not (isinstance(card, int) and 0 <= card < 64 and self.legal_set() >> card & 1):
            shown = card_str(card) if isinstance(card, int) and 0 <= card < 64 else repr(card)
            raise IllegalPlayError(
                f'{shown} may not be played in "{self}" '
                f"(legal: {' '.join(card_str(c) for c in self.legal_moves()) or 'none'})"
            )
        mover = self.to_move
        hands = list(self.hands)
        pair = list(hands[mover])
        pair[self.hand] &= ~(1 << card)
        hands[mover] = (pair[0], pair[1])
        trick = (*self.trick, card)
        if len(trick) < self.players:
            return replace(self, hands=tuple(hands), trick=trick, _checked=True), None, 0
        winner = (self.lead + trick_winner(trick, self.trump)) % self.players
        left = (any(a for a, _ in hands)) | (any(b for _, b in hands)) << 1
        nxt = next_hand(self.trick_order, self.hand, left)
        pos = replace(self, lead=winner, hand=nxt, hands=tuple(hands), trick=(), _checked=True)
        return pos, winner, points_of(trick)

    def play(self, card: int) -> Position:
        """The position after the player to move plays ``card``.

        Raises:
            IllegalPlayError: the card may not be played here.
        """
        return self.step(card)[0]


@dataclass(frozen=True)
class Deal:
    """A Carabin deal: two hands of four cards per seat and the turn-up card.

    Attributes:
        hands: per seat, its (left, right) hands as card sets.
        turn: the turn-up card (proposes trump, is never played).
        trump: a fixed trump suit, or None.
        bidder: a fixed bidder, or None.
    """

    hands: tuple[tuple[int, int], ...]
    turn: int
    trump: int | None = None
    bidder: int | None = None

    def __post_init__(self) -> None:
        n = check_players(len(self.hands))
        if not (isinstance(self.turn, int) and 0 <= self.turn < 64 and PACK >> self.turn & 1):
            raise RulesError(f"invalid turn-up card {self.turn!r}")
        named = []
        for s, pair in enumerate(self.hands):
            for k in (L, R):
                if card_count(pair[k]) != HAND_SIZE or pair[k] & ~PACK:
                    raise RulesError(
                        f"{s}={format_two_hands(pair)}: the {HANDS[k]} hand holds "
                        f"{card_count(pair[k])} cards (a deal gives {HAND_SIZE} to each hand)"
                    )
                named.append((f"{s}={format_two_hands(pair)}", pair[k]))
        named.append((f"turn={card_str(self.turn)}", 1 << self.turn))
        _check_distinct(named, "the deal")
        if self.trump is not None and self.trump not in range(4):
            raise RulesError(f"invalid trump {self.trump!r} (expected a suit 0..3)")
        if self.bidder is not None and not (isinstance(self.bidder, int) and 0 <= self.bidder < n):
            raise RulesError(f"invalid bidder {self.bidder!r} (seats are 0 to {n - 1})")

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def points_in_play(self) -> int:
        """Points of the 8N cards dealt to the players."""
        return points_of(sum(a | b for a, b in self.hands))

    KEYS: ClassVar[tuple[str, ...]] = ("turn", "trump", "bidder")

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read ``0=<L>/<R> 1=<L>/<R> … turn=<card> [trump=<suit>] [bidder=<seat>]``.

        >>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H")
        >>> d.players, d.points_in_play, str(d) == d.__str__()
        (3, 27, True)

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError: wrong hand sizes, a card twice, 3 to 6 players not respected.
        """
        f = parse_fields(text, _field_keys(cls.KEYS), ("turn",), what="deal")
        n = _seat_fields(f, text, "deal")
        hands = tuple(parse_two_hands(f[str(s)], text) for s in range(n))
        turn = parse_card(f["turn"], text)
        trump = parse_suit(f["trump"], text) if "trump" in f else None
        bidder = seat_of(f["bidder"], n, text) if "bidder" in f else None
        try:
            return cls(hands, turn, trump, bidder)
        except RulesError as err:
            raise RulesError(f'{err} in "{text}"') from None

    def __str__(self) -> str:
        text = " ".join(f"{s}={format_two_hands(p)}" for s, p in enumerate(self.hands))
        text += f" turn={card_str(self.turn)}"
        if self.trump is not None:
            text += f" trump={SUITS[self.trump]}"
        if self.bidder is not None:
            text += f" bidder={self.bidder}"
        return text

    @classmethod
    def dealt(
        cls, players: int = 4, seed: int | None = None, rng: random.Random | None = None
    ) -> Deal:
        """Shuffle and deal as the game does.

        The dealer gives each seat in turn, from seat 0 (his left) clockwise, four cards
        for the right hand and four for the left; as soon as the eighth card is given
        he turns up the ninth; the other seats follow. 51 − 8N cards stay out of play.

        >>> d = Deal.dealt(5, seed=7)
        >>> d.players, str(Deal.parse(str(d))) == str(d)
        (5, True)
        """
        check_players(players)
        rng = rng if rng is not None else random.Random(seed)
        pack = [make_card(s, r) for s in range(4) for r in range(13)]
        rng.shuffle(pack)
        it = iter(pack)
        hands: list[tuple[int, int]] = []
        turn = -1
        for seat in range(players):
            right = sum(1 << next(it) for _ in range(HAND_SIZE))
            left = sum(1 << next(it) for _ in range(HAND_SIZE))
            hands.append((left, right))
            if seat == 0:
                turn = next(it)
        return cls(tuple(hands), turn)

    def position(self, bidder: int, trump: int, trick_order: str = "alternate") -> Position:
        """The position before the first card: seat 0 leads an L trick."""
        return Position(trump, bidder, 0, L, self.hands, (), trick_order)


# --------------------------------------------------------------------- bidding
@dataclass(frozen=True)
class Call:
    """One call in the bidding.

    Attributes:
        kind: ``pass``, ``take`` (the turn-up suit, round 1), ``name`` (another suit,
            round 2) or ``chelem``.
        suit: the suit for ``name`` and for a round-2 ``chelem``; None otherwise.
    """

    kind: str
    suit: int | None = None

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read ``pass``, ``take``, ``chelem``, ``chelem H`` or a suit (``H``).

        >>> Call.parse("chelem h"), str(Call.parse("d"))
        (Call(kind='chelem', suit=1), 'D')

        Raises:
            NotationError: anything else.
        """
        words = text.lower().split()
        if words in (["pass"], ["take"], ["chelem"]):
            return cls(words[0])
        if len(words) == 2 and words[0] == "chelem":
            return cls("chelem", parse_suit(words[1], text))
        if len(words) == 1 and len(words[0]) == 1:
            return cls("name", parse_suit(words[0], text))
        raise NotationError(
            f"invalid call '{text}' (expected pass, take, chelem, chelem <suit> or a suit)"
        )

    def __str__(self) -> str:
        if self.kind == "name":
            return SUITS[self.suit or 0]
        if self.kind == "chelem" and self.suit is not None:
            return f"chelem {SUITS[self.suit]}"
        return self.kind


@dataclass(frozen=True)
class Contract:
    """The outcome of the bidding: who plays, in which trump, for a chelem or not."""

    bidder: int
    trump: int
    chelem: bool = False


@dataclass(frozen=True)
class Bidding:
    """The bidding state machine (immutable; :meth:`call` returns the next state).

    Round 1 from seat 0: pass, take (turn-up suit) or chelem in the turn-up suit; after a
    take only the players still to speak may answer, with a chelem, which ends the
    bidding. Round 2 (all passed): pass, name another suit, or chelem in another suit;
    after a name the players still to speak may answer with a chelem. All pass twice:
    no contract.

    >>> b = Bidding(4, turn_suit=0)
    >>> for c in ("pass", "take", "pass", "chelem"):
    ...     b = b.call(c)
    >>> b.is_over, b.contract
    (True, Contract(bidder=3, trump=0, chelem=True))
    """

    players: int
    turn_suit: int
    calls: tuple[Call, ...] = ()

    def __post_init__(self) -> None:
        check_players(self.players)
        if self.turn_suit not in range(4):
            raise RulesError(f"invalid turn-up suit {self.turn_suit!r}")

    def _state(self) -> tuple[int, int, Contract | None, bool]:
        """(round, next speaker, standing contract, over)."""
        n, rnd, speaker, standing = self.players, 1, 0, None
        for c in self.calls:
            if c.kind == "chelem":
                suit = self.turn_suit if rnd == 1 else c.suit
                return rnd, speaker, Contract(speaker, suit if suit is not None else 0, True), True
            if c.kind == "take":
                standing = Contract(speaker, self.turn_suit)
            elif c.kind == "name":
                standing = Contract(speaker, c.suit if c.suit is not None else 0)
            speaker += 1
            if speaker == n:
                if standing is not None or rnd == 2:
                    return rnd, speaker, standing, True
                rnd, speaker = 2, 0
        return rnd, speaker, standing, False

    @property
    def round(self) -> int:
        """The bidding round, 1 or 2."""
        return self._state()[0]

    @property
    def to_speak(self) -> int | None:
        """The seat to call next, or None when the bidding is over."""
        _, speaker, _, over = self._state()
        return None if over else speaker

    @property
    def is_over(self) -> bool:
        """True when nobody may call any more."""
        return self._state()[3]

    @property
    def contract(self) -> Contract | None:
        """The contract once the bidding is over (None if all passed twice or not over)."""
        _, _, standing, over = self._state()
        return standing if over else None

    def legal_calls(self) -> list[Call]:
        """The calls the seat to speak may make."""
        rnd, _, standing, over = self._state()
        if over:
            return []
        others = [s for s in range(4) if s != self.turn_suit]
        if rnd == 1:
            if standing:
                return [Call("pass"), Call("chelem")]
            return [Call("pass"), Call("take"), Call("chelem")]
        chelems = [Call("chelem", s) for s in others]
        if standing:
            return [Call("pass"), *chelems]
        return [Call("pass"), *(Call("name", s) for s in others), *chelems]

    def call(self, call: Call | str) -> Bidding:
        """The state after the seat to speak makes ``call``.

        Raises:
            IllegalPlayError: the call is not allowed now.
        """
        c = Call.parse(call) if isinstance(call, str) else call
        legal = self.legal_calls()
        if c not in legal:
            shown = ", ".join(str(x) for x in legal) or "none, the bidding is over"
            raise IllegalPlayError(f"call '{c}' is not allowed now (allowed: {shown})")
        return replace(self, calls=(*self.calls, c))


# --------------------------------------------------------------------- scoring
def contract_made(points: int, points_in_play: int) -> bool:
    """A trump contract is made with strictly more than half the points in play.

    >>> contract_made(9, 18), contract_made(10, 18)
    (False, True)
    """
    return 2 * points > points_in_play


def deal_score(players: int, contract: Contract | None, made: bool) -> tuple[int, ...]:
    """Points each seat scores for a deal: +1 (+2 for a chelem) to the bidder when the
    contract is made, else the same to every other seat; nothing when all passed.

    >>> deal_score(4, Contract(1, 0), made=False)
    (1, 0, 1, 1)
    >>> deal_score(3, Contract(2, 0, chelem=True), made=True)
    (0, 0, 2)
    """
    check_players(players)
    if contract is None:
        return (0,) * players
    gain = 2 if contract.chelem else 1
    if made:
        return tuple(gain if s == contract.bidder else 0 for s in range(players))
    return tuple(0 if s == contract.bidder else gain for s in range(players))


@dataclass(frozen=True)
class Game:
    """A game to 10 points. Players are numbered ``0 .. N-1`` around the table; in
    each deal seat ``s`` is player ``(dealer + 1 + s) % N``. The deal passes to the left.

    >>> g = Game(Rules(players=3))
    >>> g = g.record(Contract(0, 1), made=True)
    >>> g.scores, g.dealer, g.winners
    ((1, 0, 0), 0, ())
    """

    rules: Rules = Rules()
    scores: tuple[int, ...] = ()
    dealer: int | None = None

    def __post_init__(self) -> None:
        n = self.rules.players
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * n)
        if self.dealer is None:
            object.__setattr__(self, "dealer", n - 1)
        if len(self.scores) != n:
            raise RulesError(f"{len(self.scores)} scores for {n} players")

    def player_of(self, seat: int) -> int:
        """The player sitting at ``seat`` in the current deal."""
        return (int(self.dealer or 0) + 1 + seat) % self.rules.players

    @property
    def is_over(self) -> bool:
        """True once somebody has reached the game total."""
        return max(self.scores) >= self.rules.game

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the highest total once the game is over, else ()."""
        if not self.is_over:
            return ()
        top = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == top)

    def record(self, contract: Contract | None, made: bool = False) -> Game:
        """The game after a deal (seats of ``contract`` are those of the deal).

        Raises:
            RulesError: the game is already over.
        """
        if self.is_over:
            raise RulesError("the game is over")
        gains = deal_score(self.rules.players, contract, made)
        scores = list(self.scores)
        for seat, g in enumerate(gains):
            scores[self.player_of(seat)] += g
        return replace(self, scores=tuple(scores), dealer=self.player_of(0))


__all__ = [
    "Bidding",
    "Call",
    "Contract",
    "Deal",
    "Game",
    "HANDS",
    "Position",
    "Rules",
    "beats",
    "card_points",
    "contract_made",
    "deal_score",
    "next_hand",
    "points_of",
    "trick_winner",
]
