"""Klabberjass whole deals (docs/rules-klabberjass.md): the deal, bidding, sequences, Bella, scoring, game.

:mod:`solver.klabberjass` holds the rules of card play; this module holds everything
around it: the :class:`Deal` (hands at bidding time, the extra cards, the turn-up and
the bottom card of the stock), the :class:`Bidding` state machine, sequences
(:func:`runs`, :func:`sequence_points`), Bella, the result of a deal
(:func:`score_deal`) and a :class:`Match` to 500. The double-dummy deal table that
combines them with the card-play engine is :func:`solver.klabberjass.table.deal_table`.

>>> deal = Deal.parse("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C")
>>> str(deal)
'E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C'
>>> [str(r) for r in runs(parse_holding("AKQJ.T98..987"))]
['AKQJS', 'T98H', '987C']
>>> score_deal(0, card_points=(60, 40), sequences=(20, 0)).score
(80, 40)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from solver.cards import (
    RANKS,
    SUITS,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    make_card,
    parse_card,
    parse_fields,
    parse_holding,
    parse_suit,
    suit_of,
)
from solver.display import klabberjass_deal_html
from solver.errors import IllegalBidError, NotationError, RulesError
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    DEAL_SIZE,
    HAND_SIZE,
    PACK,
    SEATS,
    SEED,
    Rules,
    seat_of,
)

#: Cards each player receives after the bidding.
EXTRA_SIZE = HAND_SIZE - DEAL_SIZE

_SEVEN, _QUEEN, _KING, _ACE = (RANKS.index(r) for r in "7QKA")


# ====================================================================== the deal


@dataclass(frozen=True)
class Deal:
    """One Klabberjass deal: both hands, the turn-up, the bottom card, a fixed contract.

    Attributes:
        hands: the two 9-card hands (E, D) as card sets.
        turn: the turn-up card.
        first: the six cards each player held at bidding time (E, D), or None when the
            split between the first six and the three extra cards is not known.
        bottom: the bottom card of the stock (shown to both under ``classic``), or None.
        trump: a fixed trump suit (0..3), or None for every suit.
        bidder: a fixed bidder (0 = E, 1 = D), or None for both.

    The notation (docs/rules-klabberjass.md) is ``E=<6 cards>/<3 cards> D=<6 cards>/<3 cards> turn=<card>
    [bottom=<card>] [trump=<suit>] [bidder=<seat>]`` or, when the split does not
    matter, ``E=<9 cards> D=<9 cards> turn=<card> ...``. Both hands must use the same
    form. Fields may come in any order; the canonical text has the order above.

    >>> d = Deal.parse("turn=♣7 D=8.QT8.9.8/..A.KJ E=KA.K.K8.A/T9..J. bidder=d")
    >>> str(d)
    'E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C bidder=D'
    >>> str(Deal.parse("E=AKT9.K.K8.AJ D=8.QT8.A9.K8Q turn=7C trump=S"))
    'E=AKT9.K.K8.AJ D=8.QT8.A9.KQ8 turn=7C trump=S'
    """

    hands: tuple[int, int]
    turn: int
    first: tuple[int, int] | None = None
    bottom: int | None = None
    trump: int | None = None
    bidder: int | None = None

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Check that the cards can form a deal.

        Raises:
            RulesError: a card outside the 32-card pack, a card twice, a hand of the
                wrong size, a turn-up or bottom card that is also in a hand, or a
                trump / bidder out of range.
        """
        seen = 0
        for seat, hand in zip(SEATS, self.hands, strict=True):
            outside = hand & ~PACK
            if outside:
                raise RulesError(
                    f"card {cards_text(outside)} in {seat}={format_holding(hand)} is not "
                    "in the Klabberjass pack (7 to A)"
                )
            if card_count(hand) != HAND_SIZE:
                raise RulesError(
                    f"{seat}={format_holding(hand)} holds {card_count(hand)} cards "
                    f"(a hand has {HAND_SIZE})"
                )
            if seen & hand:
                raise RulesError(f"card {cards_text(seen & hand)} is in both hands")
            seen |= hand
        if self.first is not None:
            for seat, hand, first in zip(SEATS, self.hands, self.first, strict=True):
                if first & ~hand or card_count(first) != DEAL_SIZE:
                    raise RulesError(
                        f"{seat}: the first cards {format_holding(first)} must be "
                        f"{DEAL_SIZE} cards of the hand {format_holding(hand)}"
                    )
        for name, card in (("turn-up", self.turn), ("bottom card", self.bottom)):
            if card is None:
                continue
            if not (0 <= card < 64 and PACK >> card & 1):
                text = card_str(card) if 0 <= card < 64 else repr(card)
                raise RulesError(f"{name} {text} is not in the Klabberjass pack (7 to A)")
            if seen >> card & 1:
                seat = SEATS[0] if self.hands[0] >> card & 1 else SEATS[1]
                raise RulesError(f"{name} {card_str(card)} is also in {seat}'s hand")
            seen |= 1 << card
        if self.bottom is not None and self.bottom == self.turn:
            raise RulesError(f"bottom card {card_str(self.bottom)} is also the turn-up")
        if self.trump is not None and self.trump not in range(4):
            raise RulesError(f"invalid trump {self.trump!r} (expected a suit 0..3)")
        if self.bidder is not None and self.bidder not in (0, 1):
            raise RulesError(f"invalid bidder {self.bidder!r} (expected 0 for E or 1 for D)")

    # ----------------------------------------------------------------- derived
    @property
    def extra(self) -> tuple[int, int] | None:
        """The three cards each player receives after the bidding, or None."""
        if self.first is None:
            return None
        return (self.hands[0] & ~self.first[0], self.hands[1] & ~self.first[1])

    @property
    def turn_suit(self) -> int:
        """The suit of the turn-up, proposed as trump in bidding round 1."""
        return suit_of(self.turn)

    @property
    def stock(self) -> int:
        """The cards out of play besides the turn-up (13 cards), as a set."""
        return PACK & ~(self.hands[0] | self.hands[1] | 1 << self.turn)

    # ----------------------------------------------------------------- notation
    KEYS: ClassVar[tuple[str, ...]] = ("E", "D", "turn", "bottom", "trump", "bidder")

    @classmethod
    def parse(cls, text: str) -> Deal:
        """Read a deal in the game's notation (see the class docstring).

        >>> deal = Deal.parse("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C bottom=QS")
        >>> format_holding(deal.extra[0]), card_str(deal.bottom)
        ('T9..J.', 'QS')

        Raises:
            NotationError: unreadable text, an unknown or missing field, a hand split
                in one hand only.
            RulesError: cards that cannot form a deal (see :meth:`validate`).
        """
        f = parse_fields(text, cls.KEYS, ("E", "D", "turn"), what="deal")
        hands = []
        firsts = []
        for seat in SEATS:
            value = f[seat]
            first_text, slash, extra_text = value.partition("/")
            if slash:
                first = parse_holding(first_text, text)
                extra = parse_holding(extra_text, text)
                if first & extra:
                    raise RulesError(
                        f'card {cards_text(first & extra)} twice in {seat}={value} in "{text}"'
                    )
                for part, size, what in ((first, DEAL_SIZE, "first"), (extra, EXTRA_SIZE, "extra")):
                    if card_count(part) != size:
                        raise RulesError(
                            f"{seat}={value} has {card_count(part)} {what} cards, "
                            f'expected {size} (E=<6 cards>/<3 cards>) in "{text}"'
                        )
                firsts.append(first)
                hands.append(first | extra)
            else:
                hands.append(parse_holding(value, text))
        if len(firsts) == 1:
            raise NotationError(
                f'only one hand is split into first cards / extra cards in "{text}" '
                "(split both hands or neither)"
            )
        turn = parse_card(f["turn"], text)
        bottom = parse_card(f["bottom"], text) if "bottom" in f else None
        trump = parse_suit(f["trump"], text) if "trump" in f else None
        bidder = seat_of(f["bidder"], text) if "bidder" in f else None
        try:
            return cls(
                (hands[0], hands[1]),
                turn,
                (firsts[0], firsts[1]) if firsts else None,
                bottom,
                trump,
                bidder,
            )
        except RulesError as err:
            raise RulesError(f'{err} in "{text}"') from None

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __str__(self) -> str:
        parts = []
        for seat in (0, 1):
            if self.first is None:
                hand = format_holding(self.hands[seat])
            else:
                first = self.first[seat]
                hand = f"{format_holding(first)}/{format_holding(self.hands[seat] & ~first)}"
            parts.append(f"{SEATS[seat]}={hand}")
        parts.append(f"turn={card_str(self.turn)}")
        if self.bottom is not None:
            parts.append(f"bottom={card_str(self.bottom)}")
        if self.trump is not None:
            parts.append(f"trump={SUITS[self.trump]}")
        if self.bidder is not None:
            parts.append(f"bidder={SEATS[self.bidder]}")
        return " ".join(parts)

    # ----------------------------------------------------------------- dealing
    @classmethod
    def random(cls, seed: int | str | None = None, players: int = 2) -> Deal:
        """Deal at random, exactly as the game does.

        The 32 cards (spades first, high to low) are shuffled with
        ``random.Random(seed).shuffle`` and dealt from the top: three to E, three to
        D, three to E, three to D, the next card is turned up; after the bidding three
        more to E and three to D. The bottom card is the last card of the pack (the
        bottom of the 13-card stock). The same seed always gives the same deal.

        >>> str(Deal.random(7)) == str(Deal.random(7))
        True

        Args:
            seed: any seed ``random.Random`` accepts; None for a fresh random deal.
            players: always 2 (taken for the same signature as Carabin).

        Raises:
            RulesError: another number of players.
        """
        if players != 2:
            raise RulesError(f"invalid number of players {players!r} (Klabberjass is played by 2)")
        pack = list(cards_of(PACK))
        random.Random(seed).shuffle(pack)

        def mask(cards: Iterable[int]) -> int:
            return sum(1 << c for c in cards)

        first = (mask(pack[0:3] + pack[6:9]), mask(pack[3:6] + pack[9:12]))
        turn = pack[12]
        extra = (mask(pack[13:16]), mask(pack[16:19]))
        hands = (first[0] | extra[0], first[1] | extra[1])
        return cls(hands, turn, first, pack[-1])

    def _repr_html_(self) -> str:
        """The deal for notebooks: both hands with suit symbols, the turn-up, the contract."""
        return klabberjass_deal_html(self)

    def with_contract(self, *, bidder: int | None = None, trump: int | None = None) -> Deal:
        """The same cards with the bidder and trump fixed (None: not fixed)."""
        return Deal(self.hands, self.turn, self.first, self.bottom, trump, bidder)

    def position(self, *, bidder: int | None = None, trump: int | None = None) -> Position:
        """The position before the first card (E leads), with the deal's trump unless given.

        The bidder does not change the card play; it is taken for the same signature as
        Carabin's :meth:`solver.carabin.deal.Deal.position`.

        Raises:
            RulesError: no trump given and the deal fixes none.
        """
        trump = self.trump if trump is None else trump
        if trump is None:
            raise RulesError(f'a deal to play needs a trump: none given and none in "{self}"')
        return Position(trump, 0, self.hands)


# ====================================================================== bidding


#: The words of the auction besides suits (round 2 names a suit: ``S H D C``).
CALLS = ("take", "pass", "schmeiss", "accept", "annul")


@dataclass(frozen=True)
class Bidding:
    """The auction of one deal, as an immutable state machine.

    Round 1: E then D may ``take`` the turn-up suit as trump or ``pass``; under rules
    with ``schmeiss`` a player may instead ``schmeiss``, and the other player then
    either ``accept``\\ s (the schmeisser is the bidder with the turn-up suit) or
    ``annul``\\ s the deal. Round 2 (both passed): E then D may name one of the three
    other suits (``S``, ``H``, ``D``, ``C``) or ``pass``. Both pass twice: the deal is
    annulled. The auction ends at the first take, named suit, answer to a schmeiss or
    at the fourth pass.

    Attributes:
        turn_suit: the suit of the turn-up (0..3).
        rules: the rules (only ``schmeiss`` matters here).
        calls: the calls made so far, in order, in canonical form.

    >>> b = Bidding(1).bid("pass").bid("pass")
    >>> b.round, SEATS[b.to_speak], b.legal_calls()
    (2, 'E', ['pass', 'S', 'D', 'C'])
    >>> b = b.bid("pass").bid("c")
    >>> b.is_over, SEATS[b.bidder], SUITS[b.trump], str(b)
    (True, 'D', 'C', 'pass pass pass C')
    """

    turn_suit: int
    rules: Rules = SEED
    calls: tuple[str, ...] = ()
    _state: tuple[int, int | None, int | None, bool] = field(
        default=(1, 0, None, False), repr=False, compare=False
    )

    def __post_init__(self) -> None:
        if self.turn_suit not in range(4):
            raise RulesError(f"invalid turn-up suit {self.turn_suit!r} (expected 0..3)")
        state: tuple[int, int | None, int | None, bool] = (1, 0, None, False)
        for i, call in enumerate(self.calls):
            state = self._next(state, call, self.calls[:i])
        object.__setattr__(self, "_state", state)

    # state: (round, seat to speak or None when over, bidder or None, schmeiss pending)
    def _legal(self, state: tuple[int, int | None, int | None, bool]) -> list[str]:
        rnd, speaker, _bidder, schmeiss = state
        if speaker is None:
            return []
        if schmeiss:
            return ["accept", "annul"]
        if rnd == 1:
            return ["take", "pass"] + (["schmeiss"] if self.rules.schmeiss else [])
        return ["pass"] + [SUITS[s] for s in range(4) if s != self.turn_suit]

    def _next(
        self, state: tuple[int, int | None, int | None, bool], call: str, before: tuple[str, ...]
    ) -> tuple[int, int | None, int | None, bool]:
        rnd, speaker, bidder, _schmeiss = state
        legal = self._legal(state)
        history = f'after "{" ".join(before)}"' if before else "to open the auction"
        if speaker is None:
            raise IllegalBidError(f"bid '{call}' {history}: the auction is over")
        if call not in legal:
            raise IllegalBidError(
                f"illegal bid '{call}' {history} (round {rnd}, {SEATS[speaker]} to speak; "
                f"legal: {', '.join(legal)})"
            )
        other = 1 - speaker
        if call == "take":
            return (1, None, speaker, False)
        if call == "schmeiss":
            return (1, other, speaker, True)
        if call == "accept":
            return (1, None, bidder, False)
        if call == "annul":
            return (1, None, None, False)
        if call == "pass":
            if speaker == 0:
                return (rnd, 1, None, False)
            if rnd == 1:
                return (2, 0, None, False)
            return (2, None, None, False)
        return (2, None, speaker, False)  # a suit named in round 2

    @staticmethod
    def canonical(text: str) -> str:
        """The canonical form of a call: a word of :data:`CALLS` or a suit letter.

        >>> Bidding.canonical("Pass"), Bidding.canonical("♥")
        ('pass', 'H')

        Raises:
            NotationError: neither a call nor a suit.
        """
        t = text.strip()
        if t.lower() in CALLS:
            return t.lower()
        try:
            return SUITS[parse_suit(t)]
        except NotationError:
            raise NotationError(
                f"invalid bid '{text}' (expected {', '.join(CALLS)} or a suit S H D C)"
            ) from None

    @classmethod
    def parse(cls, turn_suit: int, text: str, rules: Rules = SEED) -> Bidding:
        """Replay space- or comma-separated calls.

        >>> str(Bidding.parse(2, "pass, schmeiss accept", Rules.preset("classic")))
        'pass schmeiss accept'

        Raises:
            NotationError: a word that is not a call.
            IllegalBidError: a call the rules do not allow where it is made.
        """
        calls = tuple(cls.canonical(t) for t in text.replace(",", " ").split())
        return cls(turn_suit, rules, calls)

    def bid(self, call: str) -> Bidding:
        """The auction after the next call (see :meth:`canonical` for the spelling).

        Raises:
            NotationError: a word that is not a call.
            IllegalBidError: the call is not allowed now.
        """
        return Bidding(self.turn_suit, self.rules, (*self.calls, self.canonical(call)))

    def __str__(self) -> str:
        return " ".join(self.calls)

    # ----------------------------------------------------------------- state
    def legal_calls(self) -> list[str]:
        """The calls allowed now (empty once the auction is over)."""
        return self._legal(self._state)

    @property
    def round(self) -> int:
        """The bidding round, 1 or 2."""
        return self._state[0]

    @property
    def to_speak(self) -> int | None:
        """The seat to call next, None once the auction is over."""
        return self._state[1]

    @property
    def is_over(self) -> bool:
        """True when the auction has ended (with a bidder or annulled)."""
        return self._state[1] is None

    @property
    def schmeiss_pending(self) -> bool:
        """True when a schmeiss waits for its answer."""
        return self._state[3]

    @property
    def bidder(self) -> int | None:
        """The bidder once the auction is over (None while open or if annulled)."""
        return self._state[2] if self.is_over else None

    @property
    def annulled(self) -> bool:
        """True when the auction ended without a bidder."""
        return self.is_over and self._state[2] is None

    @property
    def trump(self) -> int | None:
        """The trump suit once the auction is over (None while open or if annulled)."""
        if self.bidder is None:
            return None
        last = self.calls[-1]
        return SUITS.index(last) if last in SUITS else self.turn_suit


# ====================================================================== sequences


@dataclass(frozen=True, order=True)
class Run:
    """A sequence: three or more cards of one suit consecutive in natural order.

    Natural order is ``A K Q J T 9 8 7``; a run is always the longest one containing
    its cards (one run counts once however long).

    Attributes:
        suit: the suit (0..3).
        top: the rank index of its highest card (see :data:`solver.cards.RANKS`).
        length: the number of cards (3 to 8).

    >>> r = Run(1, RANKS.index("K"), 4)
    >>> str(r), r.value(SEED), format_holding(r.cards)
    ('KQJTH', 50, '.KQJT..')
    """

    suit: int
    top: int
    length: int

    def value(self, rules: Rules = SEED) -> int:
        """Its points: ``run3`` for three cards, ``run4`` for four or more."""
        return rules.run3 if self.length == 3 else rules.run4

    @property
    def cards(self) -> int:
        """Its cards as a set."""
        low = self.top - self.length + 1
        return ((1 << self.length) - 1) << (16 * self.suit + low)

    def key(self, trump: int, rules: Rules = SEED) -> tuple[int, int, int]:
        """Its strength for the comparison: value, then top card, then trump."""
        return (self.value(rules), self.top, int(self.suit == trump))

    def __str__(self) -> str:
        return (
            "".join(RANKS[r] for r in range(self.top, self.top - self.length, -1))
            + SUITS[self.suit]
        )


def runs(hand: int) -> list[Run]:
    """Every sequence of a hand, spades first, high to low.

    >>> [str(r) for r in runs(parse_holding("AKQJT987...")) ]
    ['AKQJT987S']
    >>> runs(parse_holding("AKJT.Q.KQ.AT"))
    []
    """
    cards = hand & PACK
    if not cards & cards >> 1 & cards >> 2:  # no three adjacent ranks: the usual case
        return []
    out = []
    for suit in range(4):
        bits = cards >> (16 * suit) & 0x1FE0
        rank = 12
        while rank >= _SEVEN:
            if bits >> rank & 1:
                top = rank
                while rank >= _SEVEN and bits >> rank & 1:
                    rank -= 1
                if top - rank >= 3:
                    out.append(Run(suit, top, top - rank))
            else:
                rank -= 1
    return out


def best_run(declared: Sequence[Run], trump: int, rules: Rules = SEED) -> Run | None:
    """The strongest of some runs (None if there are none)."""
    return max(declared, key=lambda r: r.key(trump, rules), default=None)


def sequence_winner(
    declared_e: Sequence[Run], declared_d: Sequence[Run], trump: int, rules: Rules = SEED
) -> int | None:
    """The seat whose best declared run wins the comparison, None on a full tie.

    Best runs are compared by value (``run4`` beats ``run3``), then by top card in
    natural order, then a trump run beats a plain one. A player with no declared run
    loses to any run; nobody wins when neither declares one.

    >>> e, d = runs(parse_holding("AKQ...")), runs(parse_holding(".AKQ.."))
    >>> sequence_winner(e, d, trump=1), sequence_winner(e, d, trump=2)
    (1, None)
    """
    be, bd = best_run(declared_e, trump, rules), best_run(declared_d, trump, rules)
    if be is None and bd is None:
        return None
    if bd is None:
        return 0
    if be is None:
        return 1
    ke, kd = be.key(trump, rules), bd.key(trump, rules)
    if ke == kd:
        return None
    return 0 if ke > kd else 1


def sequence_points(
    declared_e: Sequence[Run], declared_d: Sequence[Run], trump: int, rules: Rules = SEED
) -> tuple[int, int]:
    """Sequence points (E, D): the winner of the comparison scores all his declared runs.

    >>> e = runs(parse_holding("AKQ...987"))   # two runs of three: 20 + 20
    >>> d = runs(parse_holding(".KQJ.."))      # K-high loses to A-high
    >>> sequence_points(e, d, trump=1)
    (40, 0)
    """
    winner = sequence_winner(declared_e, declared_d, trump, rules)
    if winner is None:
        return (0, 0)
    total = sum(r.value(rules) for r in (declared_e, declared_d)[winner])
    return (total, 0) if winner == 0 else (0, total)


# ====================================================================== Bella, dix


def has_bella(hand: int, trump: int) -> bool:
    """True when the hand holds both the king and the queen of trump.

    >>> has_bella(parse_holding(".KQ.."), 1), has_bella(parse_holding(".KQ.."), 0)
    (True, False)
    """
    kq = (1 << _KING | 1 << _QUEEN) << (16 * trump)
    return hand & kq == kq


def dix_holder(deal: Deal, trump: int, rules: Rules) -> int | None:
    """The seat that may exchange the trump 7 for the turn-up (the dix), or None.

    Only with ``rules.dix``, only when the turn-up suit is trump (round 1) and the
    turn-up is not itself the 7.
    """
    if not rules.dix or trump != deal.turn_suit:
        return None
    seven = make_card(trump, _SEVEN)
    for seat in (0, 1):
        if deal.hands[seat] >> seven & 1:
            return seat
    return None


def exchange_dix(hands: tuple[int, int], turn: int, holder: int) -> tuple[int, int]:
    """The hands after ``holder`` exchanges the 7 of the turn-up suit for the turn-up."""
    seven = make_card(suit_of(turn), _SEVEN)
    out = list(hands)
    out[holder] = out[holder] & ~(1 << seven) | 1 << turn
    return (out[0], out[1])


# ====================================================================== result, game


@dataclass(frozen=True)
class DealScore:
    """The result of a played deal.

    Attributes:
        bidder: the bidder (0 = E, 1 = D).
        card_points: card points with the last-trick bonus (E, D).
        sequences: sequence points scored (E, D).
        bella: Bella points scored (E, D).
    """

    bidder: int
    card_points: tuple[int, int]
    sequences: tuple[int, int] = (0, 0)
    bella: tuple[int, int] = (0, 0)

    @property
    def totals(self) -> tuple[int, int]:
        """Each seat's card points plus scored sequences plus Bella (E, D)."""
        return (
            self.card_points[0] + self.sequences[0] + self.bella[0],
            self.card_points[1] + self.sequences[1] + self.bella[1],
        )

    @property
    def result(self) -> str:
        """``made`` (bidder's total above the opponent's), ``bate`` (below) or ``tie``."""
        b, o = self.totals[self.bidder], self.totals[1 - self.bidder]
        return "made" if b > o else "bate" if b < o else "tie"

    @property
    def score(self) -> tuple[int, int]:
        """What each seat scores (E, D).

        Made: each his own total. Bate: the opponent scores both totals, the bidder
        nothing. Tie: the bidder nothing, the opponent his own total.
        """
        b, o = self.totals[self.bidder], self.totals[1 - self.bidder]
        result = self.result
        bidder_score, opp_score = (
            (b, o) if result == "made" else (0, b + o) if result == "bate" else (0, o)
        )
        return (bidder_score, opp_score) if self.bidder == 0 else (opp_score, bidder_score)


def score_deal(
    bidder: int,
    card_points: tuple[int, int],
    sequences: tuple[int, int] = (0, 0),
    bella: tuple[int, int] = (0, 0),
) -> DealScore:
    """Score a deal from each seat's card points, scored sequences and Bella.

    >>> s = score_deal(1, card_points=(70, 50), bella=(0, 50))  # D: 100 > 70
    >>> s.result, s.score
    ('made', (70, 100))
    >>> score_deal(0, card_points=(60, 60)).score  # tie: the bidder scores nothing
    (0, 60)
    """
    if bidder not in (0, 1):
        raise RulesError(f"invalid bidder {bidder!r} (expected 0 for E or 1 for D)")
    return DealScore(bidder, card_points, sequences, bella)


@dataclass(frozen=True)
class Match:
    """A game to ``rules.game`` points (500), checked at the end of each deal.

    If only one player has reached the target he wins; if both have, the higher total
    wins; if both have and their totals are equal, play goes on (the rules are silent on
    that case; another deal decides it).

    Attributes:
        rules: the rules (``game`` is the target).
        totals: each seat's running total (E, D).
        deals: deals scored so far (annulled deals count, scoring nothing).

    >>> g = Match().add((480, 30)).add((0, 60))
    >>> g.totals, g.is_over
    ((480, 90), False)
    >>> g = g.add((40, 10)); g.totals, SEATS[g.winner]
    ((520, 100), 'E')
    """

    rules: Rules = SEED
    totals: tuple[int, int] = (0, 0)
    deals: int = 0

    @property
    def winner(self) -> int | None:
        """The winner (0 = E, 1 = D), or None while the game goes on."""
        e, d = self.totals
        target = self.rules.game
        if e < target and d < target or e == d:
            return None
        return 0 if e > d else 1

    @property
    def is_over(self) -> bool:
        """True once a player has won."""
        return self.winner is not None

    def add(self, score: tuple[int, int] | DealScore | None) -> Match:
        """The game after one more deal (None or ``(0, 0)`` for an annulled deal).

        Raises:
            RulesError: the game is already over.
        """
        if self.is_over:
            raise RulesError(f"the game is over: {SEATS[self.winner or 0]} won {self.totals}")
        if isinstance(score, DealScore):
            score = score.score
        e, d = score if score is not None else (0, 0)
        return Match(self.rules, (self.totals[0] + e, self.totals[1] + d), self.deals + 1)
