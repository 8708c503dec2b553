"""Klabberjass play rules (SPEC §2): rules presets, card order and points, positions.

Seats are ``E`` (elder hand, 0) and ``D`` (dealer, 1). The pack is the 32 cards 7..A.
Trump order high to low ``J 9 A T K Q 8 7``; plain suits ``A T K Q J 9 8 7``.

A :class:`Position` is the play phase seen double-dummy: trump, the seat that led (or
leads) the current trick, both hands, and the card already led to an unfinished trick.

>>> p = Position.parse("trump=H lead=E E=A... D=K...")
>>> str(p), [card_str(c) for c in p.legal_moves()]
('trump=H lead=E E=A... D=K...', ['AS'])
>>> q = p.play(parse_card("AS"))
>>> str(q), q.to_move
('trump=H lead=E E=... D=K... trick=AS', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from solver.cards import (
    SUITS,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    parse_card,
    parse_fields,
    parse_holding,
    parse_suit,
    rank_of,
    suit_mask,
    suit_of,
)
from solver.errors import IllegalPlayError, NotationError, RulesError

SEATS = "ED"
E, D = 0, 1
HAND_SIZE = 9
DEAL_SIZE = 6

#: The 32-card pack: ranks 7 to A of each suit.
PACK = sum(0x1FE0 << (16 * s) for s in range(4))

# Rank indices of the 52-card notation: 7=5, 8=6, 9=7, T=8, J=9, Q=10, K=11, A=12.
_PLAIN_POWER = {5: 0, 6: 1, 7: 2, 9: 3, 10: 4, 11: 5, 8: 6, 12: 7}  # 7 8 9 J Q K T A
_TRUMP_POWER = {5: 0, 6: 1, 10: 2, 11: 3, 8: 4, 12: 5, 7: 6, 9: 7}  # 7 8 Q K T A 9 J
_PLAIN_POINTS = {12: 11, 8: 10, 11: 4, 10: 3, 9: 2}
_TRUMP_POINTS = {9: 20, 7: 14, 12: 11, 8: 10, 11: 4, 10: 3}


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
    table = _TRUMP_POINTS if suit_of(card) == trump else _PLAIN_POINTS
    return table.get(rank_of(card), 0)


def card_power(card: int, trump: int) -> int:
    """Rank of a card within its suit for trick taking (0 lowest .. 7 highest)."""
    table = _TRUMP_POWER if suit_of(card) == trump else _PLAIN_POWER
    return table[rank_of(card)]


def trick_winner(lead_card: int, second_card: int, trump: int) -> int:
    """0 if the led card wins the trick, 1 if the second card does.

    >>> trick_winner(parse_card("AS"), parse_card("7H"), 1)
    1
    """
    if suit_of(second_card) == suit_of(lead_card):
        return int(card_power(second_card, trump) > card_power(lead_card, trump))
    return int(suit_of(second_card) == trump)


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
        """
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

    def __str__(self) -> str:
        text = (
            f"trump={SUITS[self.trump]} lead={SEATS[self.lead]} "
            f"E={format_holding(self.hands[0])} D={format_holding(self.hands[1])}"
        )
        if self.trick is not None:
            text += f" trick={card_str(self.trick)}"
        return text

    def _repr_html_(self) -> str:
        from solver.display import klabberjass_position_html

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

    def step(self, card: int, rules: Rules = SEED) -> tuple[Position, int | None, int]:
        """Play a card and say what it completed.

        Returns:
            The new position, the seat that won the trick (None if the trick is not
            complete) and the points that seat took with it (last-trick bonus included).

        Raises:
            IllegalPlayError: the card is not a legal move here.
        """
        if not (0 <= card < 64 and self.legal_set() >> card & 1):
            shown = card_str(card) if 0 <= card < 64 and card & 15 < 13 else card
            raise IllegalPlayError(
                f'{shown!r} may not be played in "{self}" '
                f"(legal: {' '.join(card_str(c) for c in self.legal_moves()) or 'none'})"
            )
        mover = self.to_move
        hands = list(self.hands)
        hands[mover] &= ~(1 << card)
        if self.trick is None:
            return replace(self, hands=(hands[0], hands[1]), trick=card, _checked=True), None, 0
        winner = (self.lead, mover)[trick_winner(self.trick, card, self.trump)]
        pts = card_points(self.trick, self.trump) + card_points(card, self.trump)
        if not (hands[0] | hands[1]):
            pts += rules.last_trick
        nxt = Position(self.trump, winner, (hands[0], hands[1]), None, _checked=True)
        return nxt, winner, pts

    def play(self, card: int) -> Position:
        """The position after the player to move plays ``card``.

        Raises:
            IllegalPlayError: the card is not a legal move here.
        """
        return self.step(card)[0]
