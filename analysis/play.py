"""Card play from each player's own information, by perfect-information Monte Carlo
(PIMC), and whole contracts played with a policy per seat: Klabberjass (:class:`Pimc`,
:func:`play_deal`) and Carabin (:class:`CarabinPimc`, :func:`play_carabin`, judged by
what Carabin scores: the contract made or failed, not points).

A player who must choose a card knows his hand, every card played (in order, so who
played it and who led), what that implies (a player who did not follow suit is void
in it, and so on, as :class:`solver.klabberjass.View` infers), the turn-up card (out of
play) and the cards the other player showed by declaring. :class:`Pimc` draws worlds
(the other hand) uniformly among those consistent with that, solves each world double
dummy and plays the card of the greatest total points over the worlds; ties go to the
card printed first (notation order: spades first, high to low). :class:`DoubleDummy`
plays the engine's best card seeing both hands (the same tie rule), for comparison.

With ``inference`` (:class:`AuctionInference`) :class:`Pimc` also reads the auction
(:class:`Auction`, the calls both players heard): the worlds are drawn consistent with
the other player's calls under the bidding policy he is assumed to use
(:func:`auction_worlds`, rejection sampling). Without it (the default) the auction is
ignored and every card is chosen exactly as before. :class:`CarabinPimc` reads a
Carabin auction the same way (:class:`CarabinInference`, :func:`carabin_worlds`):
every other seat's calls under the policy assumed for him.

What makes :class:`Pimc` fast (the choice is the same as solving every legal card in
every world and adding up; the tests check it):

- a forced card, or legal cards that are all equivalent from the player's view, is
  played with no search. Cards are equivalent (the same *class*) when they are of one
  suit, worth the same points and no card that may be the other player's, nor the card
  led, lies between them in trick order: in every world they take the same tricks and
  points, so only the first of each class (in notation order) is solved;
- one compiled call a decision (:meth:`solver.klabberjass._core.Core.pimc`): it draws
  the worlds itself (:func:`solver.klabberjass._core.sample_hands` gives the same ones
  to anyone who asks with the seed), finds each world's value with an upper bound of
  every other class there (a class the search would not try in that world, being
  dominated by another class's card, is not searched), then totals the classes one
  after another, the most often best first: a class is dropped as soon as its bounds
  show a shortfall against the worlds' values above that of the best total so far,
  and each of its searches is cut to the window that can still matter;
- one transposition table for every world and every decision (its entries are keyed on
  both hands, so they hold in any world).

With ``persist=True`` (not the default: the worlds, and so the cards, differ) a player
keeps his worlds from one searched decision to his next within a contract, carried to
what he has seen since: the table has searched them, so the next decision costs less.

>>> from solver.klabberjass.deal import Deal
>>> from solver.klabberjass.rules import points_of
>>> deal = Deal.random(7)
>>> a = play_deal(deal.hands, deal.turn_suit, deal.turn, (Pimc(20, seed=1), Pimc(20, seed=2)))
>>> sum(a.points) == points_of(deal.hands[0] | deal.hands[1], deal.turn_suit) + 10, len(a.cards)
(True, 18)
>>> a == play_deal(deal.hands, deal.turn_suit, deal.turn, (Pimc(20, seed=1), Pimc(20, seed=2)))
True
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from solver.carabin.deal import Bidding, Call, Contract, contract_made
from solver.carabin.deal import Deal as CarabinDeal
from solver.carabin.position import Position as CarabinPosition
from solver.carabin.rules import HAND_SIZE, next_hand, trick_winner
from solver.carabin.rules import PACK as CARABIN_PACK
from solver.carabin.rules import card_points as carabin_points
from solver.carabin.view import View as CarabinView
from solver.cards import card_count, cards_of, suit_mask, suit_of
from solver.errors import RulesError
from solver.klabberjass import engine
from solver.klabberjass._core import carry_hands, sample_hands
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    PACK,
    PLAIN_POWER,
    SEED,
    TRUMP_POWER,
    Rules,
    card_points,
    card_power,
)
from solver.klabberjass.view import View

#: Worlds a decision by default.
DEFAULT_SAMPLES = 20

#: MB of :class:`Pimc`'s transposition table by default. Few of its entries serve
#: again in a later decision (the worlds are new), so a small table, which stays in
#: the processor's caches, searches as many nodes in less time than the engine's
#: default (``tools/pimc_decisions.py replay --tt-mb``).
PIMC_TT_MB = 8

#: Cards a Klabberjass player holds in the auction (the other three come after it).
AUCTION_CARDS = 6


@dataclass(frozen=True)
class Auction:
    """The calls of a Klabberjass auction, in order, as both players heard them.

    Each call is ``(seat, round, suit)``: in round 1 a seat takes the turn-up suit
    (``suit`` is it) or passes (None); in round 2 he names another suit or passes
    (None). The auction stops at the first bid.

    >>> Auction(((0, 1, None), (1, 1, 2))).calls_of(1)
    ((1, 1, 2),)
    """

    calls: tuple[tuple[int, int, int | None], ...]

    def calls_of(self, seat: int) -> tuple[tuple[int, int, int | None], ...]:
        """The calls ``seat`` made."""
        return tuple(c for c in self.calls if c[0] == seat)


#: A bidding policy as odds: (seat, six-card hands, turn-up) -> for each hand (the
#: probability that he takes the turn-up suit in round 1 if asked, that he names a
#: suit in round 2 if asked, the suit he would name; naming the turn-up suit is a pass).
CallOdds = Callable[[int, Sequence[int], int], Sequence[tuple[float, float, int]]]


def calls_probability(
    odds: tuple[float, float, int], calls: Sequence[tuple[int, int, int | None]], turn_suit: int
) -> float:
    """The probability that a seat of these ``odds`` makes ``calls`` (his own, in order).

    >>> calls_probability((0.25, 1.0, 2), [(0, 1, None), (0, 2, 2)], 0)
    0.75
    >>> calls_probability((0.25, 1.0, 2), [(0, 1, None), (0, 2, 3)], 0)
    0.0
    """
    take, name, suit = odds
    names = name if suit != turn_suit else 0.0
    p = 1.0
    for _seat, rnd, called in calls:
        if rnd == 1:
            p *= take if called is not None else 1.0 - take
        elif called is None:
            p *= 1.0 - names
        else:
            p *= names if called == suit else 0.0
    return p


#: The ways to choose the six cards of the auction among nine (positions).
_SIXES = tuple(itertools.combinations(range(9), AUCTION_CARDS))


def _bits(mask: int) -> list[int]:
    """The one-card masks of ``mask`` (lowest first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


@dataclass(frozen=True)
class AuctionInference:
    """How a Klabberjass player reads the auction in card play.

    Attributes:
        odds: the bidding policy he assumes each seat uses (:data:`CallOdds`).
        draws: candidate worlds drawn at most, per world wanted; when fewer are kept
            the decision falls back to unconditioned worlds (counted in
            :attr:`Stats.fallbacks`).
    """

    odds: CallOdds
    draws: int = 50

    def __post_init__(self) -> None:
        if self.draws < 1:
            raise RulesError(f"invalid draws {self.draws} (at least 1)")


def auction_worlds(
    hidden: Hidden,
    played: int,
    seat: int,
    turn: int,
    calls: Sequence[tuple[int, int, int | None]],
    odds: CallOdds,
    samples: int,
    seed: int,
    draws: int,
    cache: dict[int, float] | None = None,
) -> tuple[list[int] | None, list[int], int]:
    """Worlds of the other hand conditioned on his calls, by rejection sampling.

    Candidates are the sets :func:`solver.klabberjass._core.sample_hands` draws from
    ``seed`` (the first ``samples`` of them are the unconditioned worlds). A candidate
    gives the other player (``seat``) nine cards: ``hidden.known``, the candidate and
    ``played`` (the cards he has played); his six cards of the auction are six of them
    drawn uniformly (given his nine cards, any six are equally likely to have been
    dealt first), and the candidate is kept with the probability that ``odds`` make
    his ``calls`` with those six. So the kept worlds are drawn from the worlds
    consistent with the play, weighted by the likelihood of the calls. Each
    candidate's six cards and uniform number are drawn in turn from ``seed`` whatever
    was kept, so the result depends only on the arguments.

    ``cache``: the probability of the calls by six-card hand, kept between calls with
    the same ``seat``, ``turn``, ``calls`` and ``odds`` (it saves asking ``odds`` again).

    Returns:
        (the first ``samples`` kept worlds, or None when fewer than ``samples`` of
        ``samples * draws`` candidates were kept; the six cards of the auction of each
        kept world; the number of candidates drawn).
    """
    rng = random.Random(seed)
    kept: list[int] = []
    firsts: list[int] = []
    total = samples * draws
    cands = sample_hands(hidden.pool, hidden.need, total, seed)
    if cache is None:
        cache = {}
    turn_suit = turn >> 4
    fixed = _bits(hidden.known | played)
    if len(fixed) + hidden.need != 9:
        raise RulesError(f"the other hand has {len(fixed) + hidden.need} cards, not 9")
    batch = 2 * samples
    for start in range(0, total, batch):
        part = cands[start : start + batch]
        sixes, draws_u = [], []
        for drawn in part:
            nine = fixed + _bits(drawn)
            sixes.append(sum(nine[i] for i in _SIXES[rng.randrange(len(_SIXES))]))
            draws_u.append(rng.random())
        new = list(dict.fromkeys(h for h in sixes if h not in cache))
        if new:
            for h, o in zip(new, odds(seat, new, turn), strict=True):
                cache[h] = calls_probability(o, calls, turn_suit)
        for n, (drawn, first, u) in enumerate(zip(part, sixes, draws_u, strict=True), start + 1):
            if u < cache[first]:
                kept.append(drawn)
                firsts.append(first)
                if len(kept) == samples:
                    return kept, firsts, n
    return None, firsts, total


@dataclass
class PlayState:
    """A contract being played: the true position and what both players have seen.

    Attributes:
        position: the position (both hands; only :class:`DoubleDummy` looks at it).
        played: the cards played so far, in order.
        turn: the turn-up card (out of play).
        shown: per seat, the cards he showed (declared), played or not.
        void: per seat, the cards the play has shown him not to hold (from not
            following suit, not trumping, not overtrumping), as
            :meth:`solver.klabberjass.View.inference` infers them.
        rules: the rules (the last-trick bonus).
        bottom: the bottom card of the stock if it was shown (out of play), or None.
        auction: the calls of the auction (None: not known to the players).
        played_by: per seat, the cards he has played.
    """

    position: Position
    turn: int
    shown: tuple[int, int] = (0, 0)
    rules: Rules = SEED
    bottom: int | None = None
    played: list[int] = field(default_factory=list)
    void: list[int] = field(default_factory=lambda: [0, 0])
    auction: Auction | None = None
    played_by: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def out_of_play(self) -> int:
        """The cards nobody holds that both players know of (turn-up, bottom card)."""
        return 1 << self.turn | (1 << self.bottom if self.bottom is not None else 0)

    def step(self, card: int) -> tuple[int | None, int]:
        """Play ``card`` for the seat to move and note what it shows.

        Returns:
            The seat that won the trick (None if unfinished) and its points.

        Raises:
            IllegalPlayError: the card is not legal.
        """
        p = self.position
        if p.trick is not None:
            lead, follower = p.trick, card
            s, trump = suit_of(lead), p.trump
            banned = 0
            if suit_of(follower) != s:
                banned |= suit_mask(s)
                if s != trump and suit_of(follower) != trump:
                    banned |= suit_mask(trump)
            elif s == trump and card_power(follower, trump) < card_power(lead, trump):
                power = card_power(lead, trump)
                banned |= sum(
                    1 << c for c in cards_of(suit_mask(s) & PACK) if card_power(c, trump) > power
                )
            self.void[p.to_move] |= banned & PACK
        self.position, winner, pts = p.step(card, self.rules)
        self.played.append(card)
        self.played_by[p.to_move] |= 1 << card
        return winner, pts

    def view(self, seat: int | None = None) -> View:
        """The view of ``seat`` (default: the seat to move), for :func:`analysis.advice.advise`
        and the tests."""
        seat = self.position.to_move if seat is None else seat
        return View(
            seat,
            self.position.trump,
            self.turn,
            self.position.hands[seat],
            tuple(self.played),
            bottom=self.bottom,
            shown=self.shown[1 - seat],
        )


@dataclass(frozen=True)
class Hidden:
    """What the seat to move knows of the other hand.

    Attributes:
        known: cards known to be there (shown and not yet played).
        pool: cards that may be there (the rest of the hand is drawn from them).
        need: how many cards of ``pool`` it holds.
    """

    known: int
    pool: int
    need: int


def hidden_of(state: PlayState) -> Hidden:
    """The other hand as the seat to move sees it (what :meth:`View.inference` finds).

    Raises:
        RulesError: no hand fits (cannot happen in a real deal).
    """
    p = state.position
    me = p.to_move
    opp = 1 - me
    played = 0
    for c in state.played:
        played |= 1 << c
    if p.trick is not None:
        played |= 1 << p.trick
    shown = state.shown[opp]
    known = shown & ~played
    pool = PACK & ~(p.hands[me] | played | state.out_of_play | shown | state.void[opp])
    size = card_count(p.hands[opp])
    need = size - card_count(known)
    if need < 0 or need > card_count(pool):
        raise RulesError("no hand of the other player fits what has been seen")
    return Hidden(known, pool, need)


def classes(position: Position, hidden: Hidden) -> list[list[int]]:
    """The legal cards of the seat to move in classes of equivalent cards.

    One suit, equal points, and no card that may be the other player's (nor the card
    led) between them in trick order. Each class is in notation order; the classes
    are in the notation order of their first card.

    >>> from solver.cards import card_str
    >>> p = Position.parse("trump=H lead=E E=T97... D=AK8...")
    >>> [[card_str(c) for c in k] for k in classes(p, Hidden(0, p.hands[1], 3))]
    [['TS'], ['9S'], ['7S']]

    Once the 8 has been played, the 9 and the 7 touch:

    >>> p = Position.parse("trump=H lead=E E=T97... D=AKQ...")
    >>> [[card_str(c) for c in k] for k in classes(p, Hidden(0, p.hands[1], 3))]
    [['TS'], ['9S', '7S']]
    """
    trump = position.trump
    legal = position.legal_set()
    others = hidden.known | hidden.pool
    if position.trick is not None:
        others |= 1 << position.trick
    out: list[list[int]] = []
    for s in range(4):
        if not legal & suit_mask(s):
            continue
        cur: list[int] = []
        last_points = -1
        for c, pts in _BY_POWER[trump][s]:
            if others >> c & 1:
                if cur:
                    out.append(cur)
                cur = []
            elif legal >> c & 1:
                if cur and last_points != pts:
                    out.append(cur)
                    cur = []
                cur.append(c)
                last_points = pts
        if cur:
            out.append(cur)
    # a suit's cards in notation order are high to low by rank; classes by first card
    ordered = [sorted(k, key=_notation_key) for k in out]
    ordered.sort(key=lambda k: _notation_key(k[0]))
    return ordered


def _notation_key(c: int) -> tuple[int, int]:
    return (c >> 4, -(c & 15))


def _by_power(trump: int, s: int) -> tuple[tuple[int, int], ...]:
    """Suit ``s``'s cards strongest first in trick order, with their points."""
    table = TRUMP_POWER if s == trump else PLAIN_POWER
    cards = sorted((16 * s + r for r in range(16) if table[r] >= 0), key=lambda c: -table[c & 15])
    return tuple((c, card_points(c, trump)) for c in cards)


#: Per trump and suit, what :func:`classes` walks (computed once from the card tables).
_BY_POWER = tuple(tuple(_by_power(trump, s) for s in range(4)) for trump in range(4))


class Policy(Protocol):
    """A card-play policy: the card the seat to move plays."""

    def choose(self, state: PlayState) -> int:
        """The card to play (legal) for the seat to move."""
        ...


@dataclass
class Stats:
    """What a policy has done: decisions searched, worlds and child searches.

    With auction inference: ``inferred`` decisions whose worlds were conditioned on
    calls (the other player made some), ``drawn`` candidate worlds of those decisions,
    ``kept`` of them, and ``fallbacks``, decisions played on unconditioned worlds
    because too few candidates were kept. With persistent worlds: ``carried``,
    decisions searched on worlds carried from the player's previous decision."""

    decisions: int = 0
    worlds: int = 0
    searches: int = 0
    undecided: int = 0  # searches stopped by a time limit (Carabin)
    inferred: int = 0
    drawn: int = 0
    kept: int = 0
    fallbacks: int = 0
    carried: int = 0


class Pimc:
    """PIMC from the player's own information (:class:`PlayState` less the other hand).

    Args:
        samples: worlds a decision.
        seed: seed of the worlds (an int, or a ``random.Random`` to draw from); each
            searched decision takes the next 64 bits.
        tt_mb: MB of the engine's transposition table (shared by every world and
            decision; default :data:`PIMC_TT_MB`).
        inference: read the auction (:class:`AuctionInference`): the worlds are
            conditioned on the other player's calls (:func:`auction_worlds`) when the
            state carries an auction in which he called. None (the default): the
            auction is ignored.
        persist: each player keeps his worlds from one searched decision to his next
            within a contract (one :class:`PlayState`, through :meth:`choose`;
            :meth:`choose_view` always draws fresh worlds), carried to what he has
            seen since (:func:`solver.klabberjass._core.carry_hands`): a world keeps
            the cards the other hand may still hold and is made up to his hand's size
            by dropping or adding cards drawn uniformly. For a given course of play
            (his own earlier cards fixed in advance), a carried world is distributed
            exactly as a fresh one: uniform among the hands consistent with the cards
            seen. His own cards were chosen on those worlds, though, so his later
            decisions rest on the sample his earlier ones did, not on a new one: a
            different policy (from his own information all the same), and a cheaper
            one, as the table has searched the carried worlds. His first decision's
            worlds are the default's. Decisions whose worlds are conditioned on the
            auction (``inference``) draw fresh worlds (weighted by the calls, they are
            not uniform, and carrying them would not be exact). False (the default):
            fresh worlds at every decision.
    """

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        seed: int | random.Random | None = None,
        tt_mb: int | None = None,
        inference: AuctionInference | None = None,
        persist: bool = False,
    ):
        if samples < 1:
            raise RulesError(f"invalid samples {samples} (at least 1)")
        self.persist = persist
        # per seat: (the contract, the pool of the other hand then, its worlds)
        self._kept: dict[int, tuple[PlayState, int, list[int]]] = {}
        self.samples = samples
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.core = engine.core(PIMC_TT_MB if tt_mb is None else tt_mb)
        self.stats = Stats()
        self.inference = inference
        # the probability of the calls by six-card hand, per (seat, turn-up, calls)
        self._likelihood: dict[tuple, dict[int, float]] = {}

    def choose(self, state: PlayState) -> int:
        """The card for the seat to move; forced and all-equivalent choices unsearched."""
        p = state.position
        hidden = hidden_of(state)
        ks = classes(p, hidden)
        if len(ks) == 1:
            return ks[0][0]
        if self.inference is not None and state.auction is not None:
            opp = 1 - p.to_move
            calls = state.auction.calls_of(opp)
            if calls:
                self._kept.pop(p.to_move, None)
                return self.decide(
                    p, hidden, ks, state.rules.last_trick,
                    given=(state.played_by[opp], state.turn, calls),
                )[0]  # fmt: skip
        if not self.persist:
            return self.decide(p, hidden, ks, state.rules.last_trick)[0]
        me = p.to_move
        kept = self._kept.get(me)
        # the pool only shrinks within a contract: the test guards the carry's premise
        carried = (
            kept[2]
            if kept is not None and kept[0] is state and not hidden.pool & ~kept[1]
            else None
        )
        card, seed, worlds = self._decide(p, hidden, ks, state.rules.last_trick, None, carried)
        if worlds is None:
            worlds = sample_hands(hidden.pool, hidden.need, self.samples, seed)
        self._kept[me] = (state, hidden.pool, worlds)
        return card

    def decide(
        self,
        p: Position,
        hidden: Hidden,
        ks: Sequence[Sequence[int]],
        bonus: int,
        given: tuple[int, int, Sequence[tuple[int, int, int | None]]] | None = None,
    ) -> tuple[int, int]:
        """Search one decision over fresh worlds: (chosen card, seed of the worlds).

        ``given``: (the cards the other player has played, the turn-up, his calls), to
        condition the worlds on his calls (needs ``inference``)."""
        card, seed, _worlds = self._decide(p, hidden, ks, bonus, given)
        return card, seed

    def _decide(
        self,
        p: Position,
        hidden: Hidden,
        ks: Sequence[Sequence[int]],
        bonus: int,
        given: tuple[int, int, Sequence[tuple[int, int, int | None]]] | None = None,
        carried: list[int] | None = None,
    ) -> tuple[int, int, list[int] | None]:
        """:meth:`decide`, or over the worlds ``carried`` from an earlier decision:
        (chosen card, seed, the worlds if they were not drawn from the seed)."""
        seed = self.rng.getrandbits(64)
        me = p.to_move
        trick = -1 if p.trick is None else p.trick
        cands = [k[0] for k in ks]
        worlds = None
        if carried is not None:
            worlds = carry_hands(carried, hidden.pool, hidden.need, seed)
            self.stats.carried += 1
        elif given is not None:
            assert self.inference is not None
            played, turn, calls = given
            cache = self._likelihood.setdefault((1 - me, turn, tuple(calls)), {})
            worlds, _firsts, drawn = auction_worlds(
                hidden, played, 1 - me, turn, calls, self.inference.odds,
                self.samples, seed, self.inference.draws, cache,
            )  # fmt: skip
            self.stats.inferred += 1
            self.stats.drawn += drawn
            self.stats.kept += len(_firsts)
            self.stats.fallbacks += worlds is None
        i, _sums, searches, _ = self.core.pimc(
            p.hands[me],
            hidden.known,
            hidden.pool,
            hidden.need,
            self.samples,
            seed,
            p.trump,
            p.lead,
            trick,
            bonus,
            cands,
            worlds=worlds,
        )
        self.stats.decisions += 1
        self.stats.worlds += self.samples
        self.stats.searches += searches
        return cands[i], seed, worlds

    def choose_view(self, view: View, rules: Rules = SEED) -> int:
        """The card for a :class:`solver.klabberjass.View` (its seat is to move)."""
        inf = view.inference()
        _opp, _, size, known, _forbidden = inf.hidden[0]
        hidden = Hidden(known, inf.pool, size - card_count(known))
        p = inf.position
        ks = classes(p, hidden)
        if len(ks) == 1:
            return ks[0][0]
        return self.decide(p, hidden, ks, rules.last_trick)[0]


class DoubleDummy:
    """The engine's best card seeing both hands (ties: notation order)."""

    def __init__(self, tt_mb: int | None = None):
        self.core = engine.core(tt_mb)
        self.stats = Stats()

    def choose(self, state: PlayState) -> int:
        """The double-dummy best card for the seat to move."""
        p = state.position
        legal = p.legal_set()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        trick = -1 if p.trick is None else p.trick
        moves = self.core.moves(
            p.hands[0], p.hands[1], p.trump, p.lead, trick, state.rules.last_trick
        )
        self.stats.decisions += 1
        sign = 1 if p.to_move == 0 else -1
        return min(moves, key=lambda m: (-sign * m[1], m[0] >> 4, -(m[0] & 15)))[0]


class Advised:
    """PIMC the general way, for comparison: :func:`analysis.advice.advise` on the view
    of the seat to move (every legal card in every world, a batch of child positions
    built in Python), whatever the choice; forced cards unsearched.

    Args:
        samples: worlds a decision.
        seed: seed of the worlds (an int, or a ``random.Random`` to draw from).
    """

    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int | random.Random | None = None):
        self.samples = samples
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.stats = Stats()

    def choose(self, state: PlayState) -> int:
        """The advised card for the seat to move."""
        from analysis.advice import advise
        from solver.cards import parse_card

        legal = state.position.legal_set()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        self.stats.decisions += 1
        self.stats.worlds += self.samples
        seed = self.rng.getrandbits(32)
        advice = advise(state.view(), self.samples, seed=seed, workers=1, rules=state.rules)
        return parse_card(advice.best)


@dataclass(frozen=True)
class PlayedDeal:
    """A contract played out.

    Attributes:
        points: card points (E, D), last-trick bonus included.
        cards: every card in the order played (E led the first trick).
    """

    points: tuple[int, int]
    cards: tuple[int, ...]


def play_deal(
    hands: tuple[int, int],
    trump: int,
    turn: int,
    policies: Sequence[Policy],
    *,
    rules: Rules = SEED,
    shown: tuple[int, int] = (0, 0),
    bottom: int | None = None,
    on_card: Callable[[PlayState, int], None] | None = None,
    auction: Auction | None = None,
) -> PlayedDeal:
    """Play a contract from the first card, ``policies[s]`` choosing for seat ``s``.

    Args:
        hands: the two nine-card hands (E, D); E leads.
        trump: the trump suit.
        turn: the turn-up card (out of play).
        policies: a policy per seat (E, D).
        rules: the rules (the last-trick bonus).
        shown: cards each seat showed (declared) before the play.
        bottom: the bottom card of the stock if it was shown.
        on_card: called with the state and the chosen card just before each card is
            played (an observer, e.g. a player deciding an announcement such as Bella
            from what he knows at that moment); it must not change the state.
        auction: the calls of the auction, heard by both (read by a :class:`Pimc`
            with ``inference``).

    Returns:
        The card points of both seats and the cards played.

    Raises:
        IllegalPlayError: a policy chose a card that is not legal.
    """
    state = PlayState(Position(trump, 0, hands), turn, shown, rules, bottom, auction=auction)
    points = [0, 0]
    while not state.position.is_over:
        card = policies[state.position.to_move].choose(state)
        if on_card is not None:
            on_card(state, card)
        winner, pts = state.step(card)
        if winner is not None:
            points[winner] += pts
    return PlayedDeal((points[0], points[1]), tuple(state.played))


# ====================================================================== Carabin


@dataclass
class CarabinState:
    """A Carabin contract being played: the true position and what everyone has seen.

    Attributes:
        position: the position (every hand).
        turn: the turn-up card (out of play).
        chelem: the contract is a chelem (every trick), else more than half the points.
        points_in_play: the points of the cards dealt.
        played: the cards played so far, in order.
        bidder_points: the points of the tricks the bidder has won.
        bidder_lost: the bidder has lost a trick.
        auction: the finished auction, every seat's calls as all heard them (read by a
            :class:`CarabinPimc` with ``inference``; None: not known to the players).
    """

    position: CarabinPosition
    turn: int
    chelem: bool
    points_in_play: int
    played: list[int] = field(default_factory=list)
    bidder_points: int = 0
    bidder_lost: bool = False
    auction: Bidding | None = None

    def step(self, card: int) -> None:
        """Play ``card`` for the seat to move.

        Raises:
            IllegalPlayError: the card is not in the hand in use.
        """
        self.position, winner, pts = self.position.step(card)
        self.played.append(card)
        if winner is not None:
            if winner == self.position.bidder:
                self.bidder_points += pts
            else:
                self.bidder_lost = True

    def view(self, seat: int | None = None) -> CarabinView:
        """The view of ``seat`` (default: the seat to move)."""
        p = self.position
        seat = p.to_move if seat is None else seat
        return CarabinView(
            p.players, seat, p.bidder, p.trump, self.turn, p.hands[seat], tuple(self.played),
            p.trick_order,
        )  # fmt: skip

    def succeeds(
        self, world: CarabinPosition, card: int, time_limit: float | None = None
    ) -> bool | None:
        """Whether the bidder's contract succeeds (double dummy) in ``world`` (a
        position of this state's public history) once the mover plays ``card``.

        With ``time_limit`` (seconds), None when the search has not decided by then."""
        from solver.carabin import engine as carabin_engine

        child, winner, pts = world.step(card)
        bidder = world.bidder
        if self.chelem:
            if self.bidder_lost or (winner is not None and winner != bidder):
                return False
            search = lambda: carabin_engine.all_tricks(child)  # noqa: E731
        else:
            need = (
                self.points_in_play // 2 + 1 - self.bidder_points - (pts if winner == bidder else 0)
            )
            if need <= 0:
                return True
            if need > child.points_left():
                return False
            search = lambda: carabin_engine.make(child, need)  # noqa: E731
        if time_limit is None:
            return search()
        deadline = time.monotonic() + time_limit
        return carabin_engine.within(search, carabin_engine.core(None, child.players), deadline)


def carabin_hidden(state: CarabinState) -> tuple[int, list[tuple[int, int, int]]]:
    """What the seat to move does not see: the cards that may be in the other hands
    (every card not his, not played, not the turn-up) and each hidden hand as (seat,
    hand 0 = left / 1 = right, cards), as :meth:`solver.carabin.View.inference` finds."""
    p = state.position
    me = p.to_move
    played = 0
    for c in state.played:
        played |= 1 << c
    pool = CARABIN_PACK & ~(p.hands[me][0] | p.hands[me][1] | played | 1 << state.turn)
    hidden = [
        (s, k, card_count(p.hands[s][k])) for s in range(p.players) if s != me for k in (0, 1)
    ]
    return pool, hidden


#: A Carabin bidding policy (:data:`analysis.bidding.carabin.Policy`): (the seat's
#: :class:`analysis.bidding.carabin.CarabinBidView`, round, standing contract or None)
#: -> his call.
CarabinCallPolicy = Callable[[Any, int, "Contract | None"], Call]


@dataclass(frozen=True)
class CarabinInference:
    """How a Carabin player reads the auction in card play.

    Attributes:
        policies: the bidding policy he assumes each seat uses: one for every seat, or
            one per seat (index: the seat in this deal, 0 the eldest). The policies are
            deterministic, so a seat's hands either give his calls or do not.
        draws: candidate worlds drawn at most, per world wanted; when fewer are kept
            the decision falls back to unconditioned worlds (counted in
            :attr:`Stats.fallbacks`).
    """

    policies: CarabinCallPolicy | Sequence[CarabinCallPolicy]
    draws: int = 50

    def __post_init__(self) -> None:
        if self.draws < 1:
            raise RulesError(f"invalid draws {self.draws} (at least 1)")

    def policy_of(self, seat: int) -> CarabinCallPolicy:
        """The policy assumed for ``seat``."""
        if callable(self.policies):
            return self.policies
        return self.policies[seat]


def carabin_played_from(state: CarabinState) -> list[tuple[int, int]]:
    """Per seat, the cards he has played from his (left, right) hand (public: the
    trick order says which hand each trick is played with)."""
    p = state.position
    out = [[0, 0] for _ in range(p.players)]
    left = [[HAND_SIZE, HAND_SIZE] for _ in range(p.players)]
    lead, kind = 0, 0
    trick: list[int] = []
    for card in state.played:
        seat = (lead + len(trick)) % p.players
        out[seat][kind] |= 1 << card
        left[seat][kind] -= 1
        trick.append(card)
        if len(trick) == p.players:
            lead = (lead + trick_winner(trick, p.trump)) % p.players
            kinds = int(any(h[0] for h in left)) | int(any(h[1] for h in left)) << 1
            kind = next_hand(p.trick_order, kind, kinds)
            trick = []
    return [(a, b) for a, b in out]


def _auction_checks(
    state: CarabinState,
) -> list[tuple[int, tuple[int, int], list[tuple[int, Contract | None, list[Call], Call]]]]:
    """The calls the hidden seats made, to check a world against: per seat other than
    the mover's, (seat, cards he has played from each hand, [(round, standing contract,
    calls allowed, call made)] in auction order)."""
    assert state.auction is not None
    p = state.position
    played = carabin_played_from(state)
    turns: dict[int, list[tuple[int, Contract | None, list[Call], Call]]] = {}
    b = Bidding(state.auction.players, state.auction.turn_suit)
    for call in state.auction.calls:
        rnd, seat, standing, _ = b._state()
        if seat != p.to_move:
            turns.setdefault(seat, []).append((rnd, standing, b.legal_calls(), call))
        b = b.call(call)
    return [(seat, played[seat], turns[seat]) for seat in sorted(turns)]


def carabin_worlds(
    state: CarabinState,
    count: int,
    seed: int,
    inference: CarabinInference | None = None,
    stats: Stats | None = None,
    cache: dict[tuple[int, int, int], bool] | None = None,
) -> list[CarabinPosition]:
    """``count`` worlds drawn uniformly from what the seat to move knows (from ``seed``).

    With ``inference`` and an auction on the state, the worlds are also consistent with
    every other seat's calls under the policy ``inference`` assumes for him: candidates
    are drawn as above (the first ``count`` of them are the unconditioned worlds), and a
    candidate is kept when each other seat's hands (those of the world and the cards he
    has played from each) make exactly his calls, the policy's call counting as a pass
    when it was not allowed at that moment, as in
    :func:`analysis.bidding.carabin.auction`. So the kept worlds are uniform among the
    worlds consistent with the play and the auction. When fewer than ``count`` of
    ``count * inference.draws`` candidates are kept, the unconditioned worlds are
    returned. ``stats`` (when given) counts the decision as inferred, the candidates
    drawn and kept and the fallback; ``cache`` keeps whether (seat, left, right) make
    the seat's calls, between calls on the same auction and assumed policies.
    """
    p = state.position
    pool, hidden = carabin_hidden(state)
    cards = list(cards_of(pool))
    total = sum(h[2] for h in hidden)
    rng = random.Random(seed)
    me = p.to_move

    def deal() -> list[list[int]]:
        drawn = rng.sample(cards, total)
        hands = [[0, 0] for _ in range(p.players)]
        hands[me] = list(p.hands[me])
        i = 0
        for seat, kind, size in hidden:
            for c in drawn[i : i + size]:
                hands[seat][kind] |= 1 << c
            i += size
        return hands

    def world(hands: list[list[int]]) -> CarabinPosition:
        return dataclasses.replace(p, hands=tuple((a, b) for a, b in hands), _checked=True)

    if inference is None or state.auction is None:
        return [world(deal()) for _ in range(count)]
    from analysis.bidding.carabin import CarabinBidView

    checks = _auction_checks(state)
    known = {} if cache is None else cache
    players = p.players

    def makes_calls(hands: list[list[int]]) -> bool:
        for seat, (pl, pr), turns in checks:
            left, right = hands[seat][0] | pl, hands[seat][1] | pr
            ok = known.get((seat, left, right))
            if ok is None:
                view = CarabinBidView(players, seat, (left, right), state.turn)
                policy = inference.policy_of(seat)
                ok = True
                for rnd, standing, allowed, made in turns:
                    call = policy(view, rnd, standing)
                    if (call if call in allowed else Call("pass")) != made:
                        ok = False
                        break
                known[seat, left, right] = ok
            if not ok:
                return False
        return True

    first: list[list[list[int]]] = []
    kept: list[list[list[int]]] = []
    drawn = 0
    for _ in range(count * inference.draws):
        hands = deal()
        drawn += 1
        if len(first) < count:
            first.append(hands)
        if makes_calls(hands):
            kept.append(hands)
            if len(kept) == count:
                break
    if stats is not None:
        stats.inferred += 1
        stats.drawn += drawn
        stats.kept += len(kept)
        stats.fallbacks += len(kept) < count
    return [world(h) for h in (kept if len(kept) == count else first)]


def carabin_classes(position: CarabinPosition, pool: int) -> list[list[int]]:
    """The legal cards of the seat to move in classes of equivalent cards: one suit,
    equal points, no card that may be another player's (``pool``) nor a card of the
    trick between them. Notation order, as :func:`classes`.

    >>> from solver.carabin import Position as P
    >>> p = P.parse("trump=S bidder=0 lead=0 next=L 0=T87.../...432 1=965.../...765 "
    ...             "2=AKQ.../...T98")
    >>> [[card_str(c) for c in k] for k in carabin_classes(p, p.hands[1][0] | p.hands[2][0])]
    [['TS'], ['8S', '7S']]

    Once the 9 has been played, the ten touches the 8 (no card of Carabin below the
    queen has points):

    >>> [[card_str(c) for c in k] for k in carabin_classes(p, p.hands[2][0])]
    [['TS', '8S', '7S']]
    """
    legal = position.legal_set()
    others = pool
    for c in position.trick:
        others |= 1 << c
    out: list[list[int]] = []
    for s in range(4):
        if not legal & suit_mask(s):
            continue
        cur: list[int] = []
        for r in range(12, -1, -1):  # the power order of Carabin is the rank order
            c = 16 * s + r
            if others >> c & 1:
                if cur:
                    out.append(cur)
                cur = []
            elif legal >> c & 1:
                if cur and carabin_points(cur[-1]) != carabin_points(c):
                    out.append(cur)
                    cur = []
                cur.append(c)
        if cur:
            out.append(cur)
    return out


class CarabinPimc:
    """PIMC for Carabin from the player's own information: in each world the contract
    succeeds or fails (double dummy; the bidder wants it made, every other seat wants
    it failed); the card that does best in the most worlds is played, ties to notation
    order. Forced and all-equivalent choices are not searched; a card stops being
    evaluated as soon as it has failed in as many worlds as the best card so far.

    With 5 or 6 players a rare search takes minutes. ``time_limit`` bounds every
    search: a world whose search has not decided by then counts as half a failure for
    every card it was asked about (neither for nor against the card);
    ``stats.undecided`` counts them. Without a time limit the choice depends only on
    the seed; with one it may also depend on the machine's speed.

    A decision is one compiled call (:func:`solver.carabin.engine.pimc`: every world
    and card in one transposition table). When the worlds are not conditioned on the
    auction, they are drawn in that call too (:func:`solver.carabin.engine.pimc_drawn`),
    card for card those :func:`carabin_worlds` draws from the same seed.
    ``compiled=False`` makes the same decisions with the worlds drawn in Python and one
    search a world and card from Python, the reference the tests compare it with.

    Args:
        samples: worlds a decision.
        seed: seed of the worlds (an int, or a ``random.Random`` to draw from).
        time_limit: seconds a search (None: no limit).
        compiled: decide in the compiled core (False: in Python, slower).
        inference: read the auction (:class:`CarabinInference`): the worlds are
            conditioned on the other seats' calls (:func:`carabin_worlds`) when the state
            carries the auction. None (the default): the auction is ignored.
    """

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        seed: int | random.Random | None = None,
        time_limit: float | None = None,
        compiled: bool = True,
        inference: CarabinInference | None = None,
    ):
        if samples < 1:
            raise RulesError(f"invalid samples {samples} (at least 1)")
        if time_limit is not None and not time_limit > 0:
            raise RulesError(f"invalid time_limit {time_limit} (seconds, more than 0)")
        self.samples = samples
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.time_limit = time_limit
        self.compiled = compiled
        self.stats = Stats()
        self.inference = inference
        # whether (seat, left, right) make the seat's calls, per auction and turn-up
        self._consistent: dict[tuple[Bidding, int], dict[tuple[int, int, int], bool]] = {}

    def choose(self, state: CarabinState) -> int:
        """The card for the seat to move."""
        from solver.carabin import engine as carabin_engine

        p = state.position
        pool, hidden = carabin_hidden(state)
        ks = carabin_classes(p, pool)
        if len(ks) == 1:
            return ks[0][0]
        seed = self.rng.getrandbits(64)
        cands = [k[0] for k in ks]
        target = None if state.chelem else state.points_in_play // 2 + 1 - state.bidder_points
        self.stats.decisions += 1
        self.stats.worlds += self.samples
        if self.compiled and (self.inference is None or state.auction is None):
            # the worlds carabin_worlds would draw from the seed, drawn in the compiled call
            choice = carabin_engine.pimc_drawn(
                p, pool, hidden, self.samples, seed, cands, target,
                lost=state.bidder_lost, time_limit=self.time_limit,
            )  # fmt: skip
        else:
            cache = None
            if self.inference is not None and state.auction is not None:
                cache = self._consistent.setdefault((state.auction, state.turn), {})
            worlds = carabin_worlds(state, self.samples, seed, self.inference, self.stats, cache)
            if not self.compiled:
                return _carabin_choice(state, cands, worlds, self.time_limit, self.stats)
            choice = carabin_engine.pimc(
                worlds, cands, target, lost=state.bidder_lost, time_limit=self.time_limit
            )
        self.stats.searches += choice.searches
        self.stats.undecided += choice.undecided
        return choice.card


def _carabin_choice(
    state: CarabinState,
    cands: Sequence[int],
    worlds: Sequence[CarabinPosition],
    time_limit: float | None,
    stats: Stats,
) -> int:
    """The decision of :class:`CarabinPimc` made in Python, one make/fail search a
    world and card: the reference that :func:`solver.carabin.engine.pimc` must agree
    with."""
    p = state.position
    bidder_moves = p.to_move == p.bidder
    # card by card in notation order: a later card must fail in fewer worlds than
    # the best so far, so it is out as soon as it has failed in as many
    best, best_fails = -1, 0.0
    for card in cands:
        fails = 0.0
        for w in worlds:
            stats.searches += 1
            ok = state.succeeds(w, card, time_limit)
            if ok is None:
                stats.undecided += 1
                fails += 0.5
            else:
                fails += ok != bidder_moves
            if best >= 0 and fails >= best_fails:
                break
        else:
            best, best_fails = card, fails
            if fails == 0:
                break
    return best


@dataclass(frozen=True)
class CarabinPlayed:
    """A Carabin contract played out: made (chelem: every trick) and the cards played."""

    made: bool
    cards: tuple[int, ...]


def play_carabin(
    deal: CarabinDeal,
    contract: Contract,
    policies: Sequence[CarabinPimc],
    trick_order: str = "alternate",
    auction: Bidding | None = None,
) -> CarabinPlayed:
    """Play a Carabin contract from the first card, ``policies[s]`` choosing for seat ``s``.

    ``auction``: the finished auction, heard by all (read by a :class:`CarabinPimc` with
    ``inference``).

    Raises:
        IllegalPlayError: a policy chose a card that is not legal.
    """
    pos = deal.position(bidder=contract.bidder, trump=contract.trump, trick_order=trick_order)
    state = CarabinState(pos, deal.turn, contract.chelem, deal.points_in_play, auction=auction)
    while not state.position.is_over:
        state.step(policies[state.position.to_move].choose(state))
    if contract.chelem:
        made = not state.bidder_lost
    else:
        made = contract_made(state.bidder_points, deal.points_in_play)
    return CarabinPlayed(made, tuple(state.played))


__all__ = [
    "AUCTION_CARDS",
    "DEFAULT_SAMPLES",
    "PIMC_TT_MB",
    "Advised",
    "Auction",
    "AuctionInference",
    "CallOdds",
    "CarabinCallPolicy",
    "CarabinInference",
    "CarabinPimc",
    "CarabinPlayed",
    "CarabinState",
    "DoubleDummy",
    "Hidden",
    "Pimc",
    "PlayState",
    "PlayedDeal",
    "Policy",
    "Stats",
    "auction_worlds",
    "calls_probability",
    "carabin_classes",
    "carabin_hidden",
    "carabin_played_from",
    "carabin_worlds",
    "classes",
    "hidden_of",
    "play_carabin",
    "play_deal",
]
