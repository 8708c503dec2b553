"""Klabberjass play positions (see :mod:`solver.klabberjass.rules` for the rules)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from solver.cards import (
    SUITS,
    as_card,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    parse_card,
    parse_fields,
    parse_holding,
    parse_suit,
)
from solver.display import klabberjass_position_html
from solver.errors import IllegalPlayError, RulesError, UsageError
from solver.klabberjass.rules import (
    HAND_SIZE,
    PACK,
    SEATS,
    SEED,
    Rules,
    beats,
    card_points,
    legal_replies,
    seat_of,
)
from solver.limits import is_whole


@dataclass(frozen=True)
class Position:
    """A Klabberjass play position, immutable and hashable.

    Attributes:
        trump: trump suit, 0..3 (S H D C).
        lead: seat that leads the current trick (0 = E, 1 = D).
        hands: the two hands as card sets, E first.
        trick: the card already led to the unfinished trick, or None.
    """

    trump: int
    lead: int
    hands: tuple[int, int]
    trick: int | None = None
    _checked: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._checked:
            self.validate()
            object.__setattr__(self, "_checked", True)

    def validate(self) -> None:
        """Check that the position can arise in play.

        Raises:
            RulesError: cards outside the pack, a card twice, unequal hands, a hand of
                more than nine cards or an impossible unfinished trick.
            UsageError: fields of the wrong kind (hands not two ints, a trump, leader
                or trick card that is not an int).
        """
        hands = self.hands
        if not (isinstance(hands, tuple) and len(hands) == 2 and all(map(is_whole, hands))):
            raise UsageError(
                f"invalid hands {hands!r:.80} (expected two card sets as ints, E first)"
            )
        for name, v in (("trump", self.trump), ("leader", self.lead)):
            if not is_whole(v):
                raise UsageError(f"invalid {name} {v!r:.80} (expected an int)")
        if self.trick is not None and not is_whole(self.trick):
            raise UsageError(f"invalid trick card {self.trick!r:.80} (expected a card or None)")
        if self.trump not in range(4):
            raise RulesError(f"invalid trump {self.trump!r} (expected a suit 0..3)")
        if self.lead not in (0, 1):
            raise RulesError(f"invalid leader {self.lead!r} (expected 0 for E or 1 for D)")
        e, d = self.hands
        for seat, hand in zip(SEATS, self.hands, strict=True):
            outside = hand & ~PACK
            if outside:
                bad = cards_text(outside)
                raise RulesError(
                    f"card {bad} in {seat}={format_holding(hand)} is not in the Klabberjass pack (7 to A)"
                )
            if card_count(hand) > HAND_SIZE:
                raise RulesError(
                    f"{seat}={format_holding(hand)} holds {card_count(hand)} cards (at most {HAND_SIZE})"
                )
        if e & d:
            both = cards_text(e & d)
            raise RulesError(f"card {both} is in both hands")
        ne, nd = card_count(e), card_count(d)
        if self.trick is None:
            if ne != nd:
                raise RulesError(
                    f"unequal hands: E={format_holding(e)} has {ne} cards, D={format_holding(d)} has {nd}"
                )
            return
        t = self.trick
        if not (0 <= t < 64 and PACK >> t & 1):
            shown = card_str(t) if 0 <= t < 64 and t & 15 < 13 else repr(t)
            raise RulesError(f"trick card {shown} is not in the Klabberjass pack (7 to A)")
        if (e | d) >> t & 1:
            raise RulesError(f"trick card {card_str(t)} is also in a hand")
        leader_n = (ne, nd)[self.lead]
        other_n = (nd, ne)[self.lead]
        if leader_n + 1 != other_n:
            raise RulesError(
                f"impossible trick {card_str(t)}: the leader {SEATS[self.lead]} must hold one card "
                f"fewer than the other hand (has {leader_n}, other {other_n})"
            )

    # ----------------------------------------------------------------- notation
    KEYS: ClassVar[tuple[str, ...]] = ("trump", "lead", "E", "D", "trick")

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``trump=H lead=E E=<holding> D=<holding> [trick=<card>]``.

        >>> str(Position.parse("E=KQ... lead=d trump=♥ D=..A. trick=9s"))
        'trump=H lead=D E=KQ... D=..A. trick=9S'

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError: a position that cannot arise (see :meth:`validate`).
        """
        f = parse_fields(text, cls.KEYS, ("trump", "lead", "E", "D"))
        trump = parse_suit(f["trump"], text)
        lead = seat_of(f["lead"], text)
        hands = (parse_holding(f["E"], text), parse_holding(f["D"], text))
        trick = parse_card(f["trick"], text) if "trick" in f else None
        try:
            return cls(trump, lead, hands, trick)
        except RulesError as err:
            raise RulesError(f'{err} in "{text}"') from None

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __str__(self) -> str:
        text = (
            f"trump={SUITS[self.trump]} lead={SEATS[self.lead]} "
            f"E={format_holding(self.hands[0])} D={format_holding(self.hands[1])}"
        )
        if self.trick is not None:
            text += f" trick={card_str(self.trick)}"
        return text

    def _repr_html_(self) -> str:
        return klabberjass_position_html(self)

    # ----------------------------------------------------------------- play
    @property
    def to_move(self) -> int:
        """Seat to play next (0 = E, 1 = D)."""
        return self.lead if self.trick is None else 1 - self.lead

    @property
    def is_over(self) -> bool:
        """True when no card is left to play."""
        return self.trick is None and not (self.hands[0] | self.hands[1])

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the unfinished one included."""
        return card_count(self.hands[1 - self.lead])

    def legal_set(self) -> int:
        """The legal cards of the player to move, as a card set."""
        hand = self.hands[self.to_move]
        if self.trick is None:
            return hand
        return legal_replies(hand, self.trick, self.trump)

    def legal_moves(self) -> list[int]:
        """The legal cards of the player to move, spades first, high to low."""
        return list(cards_of(self.legal_set()))

    def points_left(self, rules: Rules = SEED) -> int:
        """Card points still to be won, the unfinished trick and last-trick bonus included."""
        cards = self.hands[0] | self.hands[1]
        total = sum(card_points(c, self.trump) for c in cards_of(cards))
        if self.trick is not None:
            total += card_points(self.trick, self.trump)
        return total + (rules.last_trick if not self.is_over else 0)

    def step(self, card: int | str, rules: Rules = SEED) -> tuple[Position, int | None, int]:
        """Play a card (a :class:`~solver.cards.Card`, its number or its notation) and say
        what it completed.

        Returns:
            The new position, the seat that won the trick (None if the trick is not
            complete) and the points that seat took with it (last-trick bonus included).

        Raises:
            IllegalPlayError: the card is not a legal move here.
            NotationError: text that is not a card.
            UsageError: an argument that is not a card at all (None, a float).
        """
        played = as_card(card)
        if played is None or not self.legal_set() >> played & 1:
            seat = "ED"[self.to_move]
            if played is None:
                why = ": it is not a card (a card is suit * 16 + rank, rank 0-12)"
            else:
                held = self.hands[self.to_move] >> played & 1
                why = "" if held else f": {seat} does not hold it"
            raise IllegalPlayError(
                f"'{played if played is not None else card}' may not be played in \"{self}\" "
                f"(legal: {' '.join(card_str(c) for c in self.legal_moves()) or 'none'}){why}"
            )
        card = played
        mover = self.to_move
        hands = list(self.hands)
        hands[mover] &= ~(1 << card)
        if self.trick is None:
            return replace(self, hands=(hands[0], hands[1]), trick=card, _checked=True), None, 0
        winner = (self.lead, mover)[beats(card, self.trick, self.trump)]
        pts = card_points(self.trick, self.trump) + card_points(card, self.trump)
        if not (hands[0] | hands[1]):
            pts += rules.last_trick
        nxt = Position(self.trump, winner, (hands[0], hands[1]), None, _checked=True)
        return nxt, winner, pts

    def play(self, card: int | str) -> Position:
        """The position after the player to move plays ``card`` (a Card, its number or
        its notation).

        Raises:
            IllegalPlayError: the card is not a legal move here.
            NotationError: text that is not a card.
            UsageError: an argument that is not a card at all (None, a float).
        """
        return self.step(card)[0]
