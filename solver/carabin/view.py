"""What one Carabin player knows (a *view*), what it implies, and the worlds
consistent with it.

There is no duty to follow or to trump, so play reveals no voids; each card played
from a left or right hand leaves that hand, which fixes every hidden hand's size. The
turn-up is out of play. ``played=`` lists the cards separated by commas, the viewer
must be the seat to move, and a view of the ``left_then_right`` variant takes
``order=left_then_right`` like a position.

Sampling is exact and uniform: Carabin has no constraint beyond the hand sizes, so a
world is a uniform shuffle of the unseen cards dealt into the hidden hands.

>>> v = View.parse("players=3 seat=0 bidder=0 trump=S turn=2C hand=AKQJ.../T987... played=")
>>> len(v.sample_worlds(2, seed=1))
2
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from math import comb, factorial
from typing import Any, ClassVar

from solver.carabin.position import Position
from solver.carabin.rules import (
    HAND_SIZE,
    HANDS,
    PACK,
    check_players,
    check_trick_order,
    format_two_hands,
    next_hand,
    parse_two_hands,
    points_of,
    seat_of,
    trick_winner,
)
from solver.cards import (
    SUITS,
    ascii_number,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    mask_of,
    parse_card,
    parse_fields,
    parse_suit,
)
from solver.errors import NotationError, RulesError
from solver.limits import MAX_WORLDS, check_count
from solver.protocol import Inference, check_played_unique, played_cards


@dataclass(frozen=True)
class View:
    """One Carabin seat's knowledge: ``players=4 seat=2 bidder=0 trump=S turn=<card>
    hand=<L>/<R> played=<c>,<c>,… [order=left_then_right]``.

    Attributes:
        players: number of players.
        seat: the viewer; he must be the seat to move.
        bidder: the bidder.
        trump: the trump suit.
        turn: the turn-up card (out of play).
        hand: the viewer's remaining (left, right) hands.
        played: every card played so far, in order; seat 0 led the first trick.
        trick_order: ``alternate`` or ``left_then_right``.
    """

    players: int
    seat: int
    bidder: int
    trump: int
    turn: int
    hand: tuple[int, int]
    played: tuple[int, ...] = ()
    trick_order: str = "alternate"

    game: ClassVar[str] = "carabin"
    KEYS: ClassVar[tuple[str, ...]] = (
        "players", "seat", "bidder", "trump", "turn", "hand", "played", "order",
    )  # fmt: skip

    @classmethod
    def parse(cls, text: str) -> View:
        """Read a view and check that some deal can produce it.

        >>> str(View.parse("players=3 seat=0 bidder=1 trump=S turn=2C hand=AKQJ.../T987..."))
        'players=3 seat=0 bidder=1 trump=S turn=2C hand=AKQJ.../T987... played='

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError: a view no deal can produce.
        """

        f = parse_fields(
            text, cls.KEYS, ("players", "seat", "bidder", "trump", "turn", "hand"), what="view"
        )
        players = ascii_number(f["players"])
        if players is None:
            raise NotationError(f"invalid players '{f['players']}' in \"{text}\" (3 to 6)")
        n = check_players(players)
        view = cls(
            players=n,
            seat=seat_of(f["seat"], n, text),
            bidder=seat_of(f["bidder"], n, text),
            trump=parse_suit(f["trump"], text),
            turn=parse_card(f["turn"], text),
            hand=parse_two_hands(f["hand"], text),
            played=played_cards(f, text),
            trick_order=check_trick_order(f.get("order", "alternate")),
        )
        view.inference(text)
        return view

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def __str__(self) -> str:

        text = (
            f"players={self.players} seat={self.seat} bidder={self.bidder} "
            f"trump={SUITS[self.trump]} turn={card_str(self.turn)} "
            f"hand={format_two_hands(self.hand)} played={','.join(map(card_str, self.played))}"
        )
        if self.trick_order != "alternate":
            text += f" order={self.trick_order}"
        return text

    def inference(self, text: str | None = None) -> Inference:
        """Replay the cards played: who played each, from which hand; hidden hand sizes.

        Raises:
            RulesError: cards that cannot go together or the wrong seat to move.
        """

        where = f' in "{text if text is not None else self}"'
        n, me = self.players, self.seat
        left, right = self.hand
        if left & right:
            raise RulesError(f"card {cards_text(left & right)} is in both hands{where}")
        played_mask = check_played_unique(self.played, PACK, where)
        if (left | right) & played_mask:
            raise RulesError(
                f"card {cards_text((left | right) & played_mask)} is both played and in the "
                f"hand{where}"
            )
        if (left | right | played_mask) >> self.turn & 1:
            raise RulesError(f"the turn-up {card_str(self.turn)} is never played or held{where}")
        if len(self.played) > 2 * HAND_SIZE * n:
            raise RulesError(f"{len(self.played)} cards played, a deal of {n} has {8 * n}{where}")
        sizes = [[HAND_SIZE, HAND_SIZE] for _ in range(n)]
        lead, kind = 0, 0
        trick: list[int] = []
        for card in self.played:
            seat = (lead + len(trick)) % n
            sizes[seat][kind] -= 1
            trick.append(card)
            if len(trick) == n:
                lead = (lead + trick_winner(trick, self.trump)) % n
                left_bits = int(any(s[0] for s in sizes)) | int(any(s[1] for s in sizes)) << 1
                kind = next_hand(self.trick_order, kind, left_bits)
                trick = []
        if any(s < 0 for pair in sizes for s in pair):
            raise RulesError(f"more cards played than the {HANDS} hands hold{where}")
        for k in (0, 1):
            if card_count(self.hand[k]) != sizes[me][k]:
                raise RulesError(
                    f"the {HANDS[k]} hand {format_holding(self.hand[k])} holds "
                    f"{card_count(self.hand[k])} cards; seat {me} should hold {sizes[me][k]} "
                    f"after the cards played{where}"
                )
        to_move = (lead + len(trick)) % n
        if to_move != me:
            raise RulesError(
                f"after {len(self.played)} cards it is seat {to_move}'s turn, not seat {me}'s "
                f"(the view must be the seat to move){where}"
            )
        if not self.hand[kind]:
            raise RulesError(f"seat {me} has no card left to play{where}")
        pool = PACK & ~(left | right | played_mask | 1 << self.turn)
        hidden: list[tuple[int, int | None, int, int, int]] = [
            (s, k, sizes[s][k], 0, 0) for s in range(n) if s != me for k in (0, 1)
        ]
        hands = [(0, 0)] * n
        hands[me] = (left, right)
        position = Position(
            self.trump, self.bidder, lead, kind, tuple(hands), tuple(trick), self.trick_order,
            _checked=True,
        )  # fmt: skip
        return Inference(position, hidden, pool, [])

    def tricks_won(self) -> tuple[tuple[int, int], bool]:
        """What the completed tricks gave: the points (bidder, others) and whether the
        bidder won every one of them (a chelem is still possible).

        >>> v = View.parse("players=3 seat=0 bidder=0 trump=S turn=2C "
        ...                "hand=KQJ.../T987... played=AS,3H,4H")
        >>> v.tricks_won()
        ((4, 0), True)
        >>> View.parse(str(v).replace("bidder=0", "bidder=2")).tricks_won()
        ((0, 4), False)
        """
        won = [0, 0]
        every = True
        lead = 0
        n = self.players
        for start in range(0, len(self.played) - len(self.played) % n, n):
            trick = self.played[start : start + n]
            winner = (lead + trick_winner(trick, self.trump)) % n
            side = int(winner != self.bidder)
            won[side] += points_of(trick)
            every = every and side == 0
            lead = winner
        return (won[0], won[1]), every

    def world_count(self) -> int:
        """Number of consistent worlds (ways to deal the unseen cards to the hidden hands)."""
        inf = self.inference()
        sizes = [h[2] for h in inf.hidden]
        count = comb(card_count(inf.pool), sum(sizes)) * factorial(sum(sizes))
        for s in sizes:
            count //= factorial(s)
        return count

    def sample_worlds(self, n: int, seed: int | None = None) -> list[Any]:
        """``n`` worlds drawn uniformly (with replacement) among the consistent ones.

        Raises:
            UsageError: ``n`` not a whole number from 0 to ``solver.limits.MAX_WORLDS``.
        """
        check_count(n, "n", 0, MAX_WORLDS)
        inf = self.inference()
        rng = random.Random(seed)
        pool = list(cards_of(inf.pool))
        total = sum(h[2] for h in inf.hidden)
        base = inf.position
        out = []
        for _ in range(n):
            cards = rng.sample(pool, total)
            hands = [list(pair) for pair in base.hands]
            i = 0
            for seat, kind, size, _, _ in inf.hidden:
                assert kind is not None  # every Carabin hidden hand is a left or right hand
                hands[seat][kind] = mask_of(cards[i : i + size])
                i += size
            out.append(replace(base, hands=tuple((a, b) for a, b in hands), _checked=True))
        return out
