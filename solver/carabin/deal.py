"""Carabin deals, bidding, scoring and games (see :mod:`solver.carabin.rules`)."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import ClassVar

from solver.carabin.position import Position
from solver.carabin.rules import (
    HAND_SIZE,
    HANDS,
    PACK,
    L,
    R,
    Rules,
    _check_distinct,
    _field_keys,
    _seat_fields,
    check_players,
    format_two_hands,
    parse_two_hands,
    points_of,
    seat_of,
)
from solver.cards import (
    SUITS,
    card_count,
    card_str,
    make_card,
    parse_card,
    parse_fields,
    parse_suit,
)
from solver.display import carabin_deal_html
from solver.errors import IllegalBidError, NotationError, RulesError


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

    def _repr_html_(self) -> str:
        return carabin_deal_html(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __str__(self) -> str:
        text = " ".join(f"{s}={format_two_hands(p)}" for s, p in enumerate(self.hands))
        text += f" turn={card_str(self.turn)}"
        if self.trump is not None:
            text += f" trump={SUITS[self.trump]}"
        if self.bidder is not None:
            text += f" bidder={self.bidder}"
        return text

    @classmethod
    def random(
        cls, seed: int | str | None = None, players: int = 4, rng: random.Random | None = None
    ) -> Deal:
        """Shuffle and deal as the game does.

        The dealer gives each seat in turn, from seat 0 (his left) clockwise, four cards
        for the right hand and four for the left; as soon as the eighth card is given
        he turns up the ninth; the other seats follow. 51 − 8N cards stay out of play.

        >>> d = Deal.random(seed=7, players=5)
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

    def position(
        self, *, bidder: int | None = None, trump: int | None = None, trick_order: str = "alternate"
    ) -> Position:
        """The position before the first card (seat 0 leads an L trick), with the deal's
        bidder and trump unless given.

        Raises:
            RulesError: no bidder or trump given and the deal fixes none.
        """
        bidder = self.bidder if bidder is None else bidder
        trump = self.trump if trump is None else trump
        if bidder is None or trump is None:
            raise RulesError(
                f'a deal to play needs a bidder and a trump: not all given nor in "{self}"'
            )
        return Position(trump, bidder, 0, L, self.hands, (), trick_order)

    def with_contract(self, *, bidder: int | None = None, trump: int | None = None) -> Deal:
        """The same cards with the bidder and trump fixed (None: not fixed)."""
        return Deal(self.hands, self.turn, trump, bidder)


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
            IllegalBidError: the call is not allowed now.
        """
        c = Call.parse(call) if isinstance(call, str) else call
        legal = self.legal_calls()
        if c not in legal:
            shown = ", ".join(str(x) for x in legal) or "none, the bidding is over"
            raise IllegalBidError(f"call '{c}' is not allowed now (allowed: {shown})")
        return replace(self, calls=(*self.calls, c))


# --------------------------------------------------------------------- scoring
def contract_made(points: int, points_in_play: int) -> bool:
    """A trump contract is made with strictly more than half the points in play.

    >>> contract_made(9, 18), contract_made(10, 18)
    (False, True)
    """
    return 2 * points > points_in_play


def score_deal(players: int, contract: Contract | None, made: bool) -> tuple[int, ...]:
    """Points each seat scores for a deal: +1 (+2 for a chelem) to the bidder when the
    contract is made, else the same to every other seat; nothing when all passed.

    >>> score_deal(4, Contract(1, 0), made=False)
    (1, 0, 1, 1)
    >>> score_deal(3, Contract(2, 0, chelem=True), made=True)
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
class Match:
    """A game to 10 points. Players are numbered ``0 .. N-1`` around the table; in
    each deal seat ``s`` is player ``(dealer + 1 + s) % N``. The deal passes to the left.

    >>> g = Match(Rules(players=3))
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

    def record(self, contract: Contract | None, made: bool = False) -> Match:
        """The game after a deal (seats of ``contract`` are those of the deal).

        Raises:
            RulesError: the game is already over.
        """
        if self.is_over:
            raise RulesError("the game is over")
        gains = score_deal(self.rules.players, contract, made)
        scores = list(self.scores)
        for seat, g in enumerate(gains):
            scores[self.player_of(seat)] += g
        return replace(self, scores=tuple(scores), dealer=self.player_of(0))
