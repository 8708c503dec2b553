"""Carabin play positions (see :mod:`solver.carabin.rules` for the rules)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from solver.carabin.rules import (
    HAND_SIZE,
    HANDS,
    PACK,
    L,
    R,
    _check_distinct,
    _field_keys,
    _seat_fields,
    check_players,
    check_trick_order,
    format_two_hands,
    hand_of,
    next_hand,
    parse_two_hands,
    points_of,
    seat_of,
    trick_winner,
)
from solver.cards import (
    SUITS,
    as_card,
    card_count,
    card_str,
    cards_of,
    parse_card_list,
    parse_fields,
    parse_suit,
)
from solver.display import carabin_position_html
from solver.errors import IllegalPlayError, RulesError, UsageError
from solver.limits import is_whole


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
            UsageError: fields of the wrong kind (hands not pairs of ints, a trick not
                a tuple of cards, a trump, seat or hand that is not an int).
        """
        pairs_ok = isinstance(self.hands, tuple | list) and all(
            isinstance(p, tuple | list) and len(p) == 2 and all(map(is_whole, p))
            for p in self.hands
        )
        if not pairs_ok:
            raise UsageError(
                f"invalid hands {self.hands!r:.80} (expected one (left, right) pair of ints a seat)"
            )
        if not isinstance(self.trick, tuple | list) or not all(map(is_whole, self.trick)):
            raise UsageError(f"invalid trick {self.trick!r:.80} (expected a tuple of cards)")
        for name, v in (("trump", self.trump), ("bidder", self.bidder), ("leader", self.lead)):
            if not is_whole(v):
                raise UsageError(f"invalid {name} {v!r:.80} (expected an int)")
        if not is_whole(self.hand):
            raise UsageError(f"invalid hand {self.hand!r:.80} (expected 0 for L or 1 for R)")
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
            expect = (
                f"every L hand of {m} cards (one fewer after playing) and R hands all equal; "
                "once the L hands are empty the R tricks follow"
            )
            ok = ok and len(set(other)) == 1 and (m > 0 or k > 0 or not any(other))
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

    def _repr_html_(self) -> str:
        return carabin_position_html(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

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

    def step(self, card: int | str) -> tuple[Position, int | None, int]:
        """Play a card (a :class:`~solver.cards.Card`, its number or its notation) and say
        what it completed.

        Returns:
            The new position, the seat that won the trick (None if the trick is not
            complete) and the points of that trick.

        Raises:
            IllegalPlayError: the card is not in the hand in use of the player to move.
            NotationError: text that is not a card.
            UsageError: an argument that is not a card at all (None, a float).
        """
        played = as_card(card)
        if played is None or not self.legal_set() >> played & 1:
            why = self._why_not(played)
            raise IllegalPlayError(
                f"'{played if played is not None else card}' may not be played in \"{self}\" "
                f"(legal: {' '.join(card_str(c) for c in self.legal_moves()) or 'none'}){why}"
            )
        card = played
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

    def _why_not(self, card: int | None) -> str:
        """Why the player to move may not play ``card`` (which is not legal): ": …"."""
        if card is None:
            return ": it is not a card (a card is suit * 16 + rank, rank 0-12)"
        if self.is_over:
            return ": play is over"
        seat, other = self.to_move, 1 - self.hand
        if self.hands[seat][other] >> card & 1:
            return (
                f": it is in seat {seat}'s {'LR'[other]} hand, and this trick is played "
                f"from the {'LR'[self.hand]} hands"
            )
        return f": seat {seat} does not hold it"

    def play(self, card: int | str) -> Position:
        """The position after the player to move plays ``card`` (a Card, its number or
        its notation).

        Raises:
            IllegalPlayError: the card may not be played here.
            NotationError: text that is not a card.
            UsageError: an argument that is not a card at all (None, a float).
        """
        return self.step(card)[0]
