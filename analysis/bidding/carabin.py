"""Carabin bid evaluation at bidding time (docs/rules-carabin.md), and the ``carabin-bidding`` study.

A Carabin deal scores only *made or failed* (+1 to the bidder, or +1 to every other
seat) and *chelem or not* (+2 instead of +1). So a contract is settled by two cheap
searches of the engine, never by its exact points (exact values of 4-6 players have a
heavy tail of seconds):

- **made**: one zero-window probe, "does the bidder take more than half of the points
  in play?" (:func:`solver.carabin.engine.make`);
- **chelem**: the all-tricks search (:func:`solver.carabin.engine.all_tricks`).
  Winning every trick takes every point, so a chelem is also a made contract and the
  probe is skipped.

Play is double dummy: the bidder against the coalition of all others, seat 0 leading.

**A player's view at bidding time** (:class:`CarabinBidView`): his seat, the number of
players, his left and right hands and the turn-up. Nothing else is known, so every
deal of the 43 unseen cards to the other hands is equally likely; :func:`sample_deals`
draws them uniformly (a shuffle), :func:`evaluate_bids` solves each world and gives for
each option the mean **net** with a 95 % interval. The net of a deal for a seat is his
score minus the mean score of the other seats:

================  =========================  ===================================
option            made (or chelem)           failed
================  =========================  ===================================
take / name S     +1                         -1 (every other seat scores 1)
chelem            +2                         -2
pass              0 if nobody bids; as an opponent of the bidder:
                  -1/(N-1) when he makes, +1 - (N-2)/(N-1) = +1/(N-1) when he fails
================  =========================  ===================================

(doubled for a chelem contract). ``pass`` depends on how the others bid: they follow
a policy (:func:`thumb_policy` by default).

>>> view = CarabinBidView.parse("players=3 seat=0 hand=AKQJ.../T98.A.. turn=3S")
>>> r = evaluate_bids(view, samples=8, seed=1)
>>> r["take"].made.mean, r["take"].net.mean
(1.0, 1.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import json
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.bidding.equilibrium import write_tables
from analysis.bidding.klabberjass import Estimate, proportion
from analysis.studies import read_manifest, read_study
from solver import carabin
from solver.carabin import (
    HAND_SIZE,
    PACK,
    Bidding,
    Call,
    Contract,
    Deal,
    check_players,
    contract_made,
    format_two_hands,
    parse_two_hands,
    points_of,
    score_deal,
    seat_of,
)
from solver.carabin.rules import POINTS
from solver.cards import (
    RANKS,
    SUITS,
    ascii_number,
    card_str,
    cards_of,
    make_card,
    parse_card,
    parse_fields,
    suit_mask,
)
from solver.errors import NotationError, RulesError

# ---------------------------------------------------------------- one contract


def contract_result(
    deal: Deal, bidder: int, trump: int, trick_order: str = "alternate"
) -> tuple[bool, bool]:
    """(made, chelem) of ``bidder`` playing trump ``trump`` double dummy.

    >>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H")
    >>> contract_result(d, 0, 0), contract_result(d, 1, 0)
    ((True, True), (False, False))
    """

    start = deal.position(bidder=bidder, trump=trump, trick_order=trick_order)
    total = points_of(sum(a | b for a, b in deal.hands))
    chelem = carabin.all_tricks(start)
    if chelem:
        return contract_made(total, total), True
    # made: strictly more than half the points in play
    return carabin.make(start, total // 2 + 1), False


def seat_net(players: int, seat: int, contract: Contract | None, made: bool) -> float:
    """A seat's score in a deal minus the mean score of the other seats.

    >>> seat_net(4, 0, Contract(0, 1), True), seat_net(4, 0, Contract(0, 1, True), False)
    (1.0, -2.0)
    >>> round(seat_net(4, 1, Contract(0, 1), False), 3), round(seat_net(4, 1, None, False), 3)
    (0.333, 0.0)
    """

    score = score_deal(players, contract, made)
    others = sum(score) - score[seat]
    return score[seat] - others / (players - 1)


# ---------------------------------------------------------------- features


FEATURES = ("trumps", "honours", "side_aces", "side_kings", "split", "trump_ace")


def carabin_features(left: int, right: int, trump: int) -> tuple[int, ...]:
    """Bidding-time features of a Carabin player's two hands for trump ``trump``.

    Returns:
        (trumps held, trump A/K/Q held, side aces, side kings, trumps in the shorter
        of his two hands (trumps split between L and R), trump ace held).

    >>> from solver.cards import parse_holding
    >>> carabin_features(parse_holding("AK2.A.."), parse_holding("3..K.K"), 0)
    (4, 2, 1, 2, 1, 1)
    """
    tm = suit_mask(trump)
    both = left | right
    trumps = (both & tm).bit_count()
    honours = sum(both >> make_card(trump, RANKS.index(r)) & 1 for r in POINTS)
    side_a = sum(both >> make_card(s, 12) & 1 for s in range(4) if s != trump)
    side_k = sum(both >> make_card(s, 11) & 1 for s in range(4) if s != trump)
    split = min((left & tm).bit_count(), (right & tm).bit_count())
    return (trumps, honours, side_a, side_k, split, both >> make_card(trump, 12) & 1)


# ---------------------------------------------------------------- the study


STUDY_COLUMNS = (
    "deal",
    "players",
    "seat",
    "trump",
    "turn",
    "left",
    "right",
    "in_play",
    "made",
    "chelem",
)


def carabin_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``carabin-bidding`` study: every seat and trump of ``count`` random deals.

    One row per deal, seat and trump (``players * 4`` rows a deal): ``deal`` (global
    index), ``players``, ``seat``, ``trump``, ``turn`` (the turn-up card), the seat's
    ``left`` and ``right`` hands (card sets), ``in_play`` (points in play), ``made``
    and ``chelem`` (double dummy, seat 0 leading). The round is 1 when the trump is
    the turn-up suit (a take), else 2 (a named suit). The deal is rebuilt from its rows
    (:func:`deal_of_rows`).
    """
    players = check_players(int(params.get("players", 4)))
    order = str(params.get("trick_order", "alternate"))
    cols: dict[str, list] = {k: [] for k in STUDY_COLUMNS}
    for i in range(count):
        deal = Deal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        in_play = deal.points_in_play
        for seat in range(players):
            left, right = deal.hands[seat]
            for trump in range(4):
                made, chelem = contract_result(deal, seat, trump, order)
                for key, value in zip(
                    STUDY_COLUMNS,
                    (start + i, players, seat, trump, deal.turn, left, right, in_play),
                    strict=False,
                ):
                    cols[key].append(value)
                cols["made"].append(made)
                cols["chelem"].append(chelem)
    return cols


def deal_of_rows(rows) -> Deal:
    """The deal of the study rows of one deal (a DataFrame slice or list of dicts)."""
    recs = rows.to_dict("records") if hasattr(rows, "to_dict") else list(rows)
    players = int(recs[0]["players"])
    hands: list[tuple[int, int]] = [(0, 0)] * players
    for r in recs:
        hands[int(r["seat"])] = (int(r["left"]), int(r["right"]))
    return Deal(tuple(hands), int(recs[0]["turn"]))


def features_frame(df):
    """The study rows with ``round`` (1 take, 2 name), the FEATURES and ``net`` of bidding.

    ``net`` is +1 made / -1 failed (the trump contract); ``chelem_net`` +2 / -2.
    """
    import numpy as np

    out = df.copy()
    turn_suit = out["turn"].to_numpy(dtype=np.int64) >> 4
    out["round"] = np.where(out["trump"].to_numpy() == turn_suit, 1, 2)
    feats = [
        carabin_features(int(a), int(b), int(t))
        for a, b, t in zip(out["left"], out["right"], out["trump"], strict=True)
    ]
    arr = np.asarray(feats, dtype=np.int8).reshape(len(out), len(FEATURES))
    for k, name in enumerate(FEATURES):
        out[name] = arr[:, k]
    out["net"] = np.where(out["made"].to_numpy(), 1, -1)
    out["chelem_net"] = np.where(out["chelem"].to_numpy(), 2, -2)
    return out


# ---------------------------------------------------------------- one view


@dataclass(frozen=True)
class CarabinBidView:
    """What one Carabin player knows at bidding time.

    Attributes:
        players: number of players (3 to 6).
        seat: his seat (0 is eldest, ``players - 1`` the dealer).
        hand: his (left, right) hands of four cards each.
        turn: the turn-up card.
    """

    players: int
    seat: int
    hand: tuple[int, int]
    turn: int

    def __post_init__(self) -> None:
        check_players(self.players)
        if not 0 <= self.seat < self.players:
            raise RulesError(f"invalid seat {self.seat} (seats are 0 to {self.players - 1})")
        left, right = self.hand
        if left.bit_count() != HAND_SIZE or right.bit_count() != HAND_SIZE or left & right:
            raise RulesError(
                f"hand={format_two_hands(self.hand)}: each hand holds four different cards"
            )
        if (left | right) >> self.turn & 1 or (left | right) & ~PACK:
            raise RulesError(f"the turn-up {card_str(self.turn)} cannot be in the hand")

    KEYS = ("players", "seat", "hand", "turn")

    @classmethod
    def parse(cls, text: str, players: int | None = None) -> CarabinBidView:
        """Read ``players=4 seat=2 hand=<L>/<R> turn=<card>`` (any order). Each hand may
        leave out the suits after its last card (``AKQJ/T987`` is ``AKQJ.../T987...``).

        >>> str(CarabinBidView.parse("turn=2c hand=AKQJ.../T987... seat=1 players=3"))
        'players=3 seat=1 hand=AKQJ.../T987... turn=2C'
        >>> str(CarabinBidView.parse("seat=1 hand=AKQJ/.T987 turn=2C", players=4))
        'players=4 seat=1 hand=AKQJ.../.T987.. turn=2C'

        Args:
            text: the view.
            players: the number of players when the text has no ``players=`` (None:
                the field is required).

        Raises:
            NotationError: unreadable text or a missing field.
            RulesError: wrong player count, seat or hands.
        """
        required = cls.KEYS if players is None else cls.KEYS[1:]
        f = parse_fields(text, cls.KEYS, required, what="view")
        if "players" in f:
            players = ascii_number(f["players"])
            if players is None:
                raise NotationError(f"invalid players '{f['players']}' in \"{text}\" (3 to 6)")
        n = check_players(players)
        try:
            return cls(
                n,
                seat_of(f["seat"], n, text),
                parse_two_hands(f["hand"], text, short=True),
                parse_card(f["turn"], text),
            )
        except RulesError as err:
            raise RulesError(f'{err} in "{text}"') from None

    def __str__(self) -> str:
        return (
            f"players={self.players} seat={self.seat} hand={format_two_hands(self.hand)} "
            f"turn={card_str(self.turn)}"
        )


def sample_deals(view: CarabinBidView, n: int, rng: random.Random) -> list[Deal]:
    """``n`` deals consistent with ``view``, uniformly: the unseen cards shuffled and
    dealt to the other seats' hands (nothing else is known at bidding time)."""
    left, right = view.hand
    unseen = list(cards_of(PACK & ~left & ~right & ~(1 << view.turn)))
    others = [s for s in range(view.players) if s != view.seat]
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        hands: list[tuple[int, int]] = [(0, 0)] * view.players
        hands[view.seat] = view.hand
        for k, s in enumerate(others):
            cards = unseen[8 * k : 8 * k + 8]
            hands[s] = (sum(1 << c for c in cards[:4]), sum(1 << c for c in cards[4:]))
        out.append(Deal(tuple(hands), view.turn))
    return out


@dataclass(frozen=True)
class BidValue:
    """The sampled value of one bidding option.

    Attributes:
        net: mean net of the option for the viewer (see the module docstring) with
            its 95 % interval.
        made: share of worlds where the contract is made (Wilson interval); for
            ``pass``, the share where a contract of another seat is made.
        chelem: share of worlds where the bidder wins every trick.
    """

    net: Estimate
    made: Estimate
    chelem: Estimate

    def __str__(self) -> str:
        return f"net {self.net}  made {self.made.mean:.0%}  chelem {self.chelem.mean:.0%}"


#: A bidding policy: (view, round, standing contract or None) -> Call (see thumb_policy).
Policy = Callable[["CarabinBidView", int, "Contract | None"], Call]


#: How one contract of one world is settled: (world index, deal, contract) -> (made,
#: chelem); a chelem contract is made only with every trick.
Settle = Callable[[int, Deal, Contract], tuple[bool, bool]]


def evaluate_bids(
    view: CarabinBidView,
    samples: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    trick_order: str = "alternate",
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, BidValue]:
    """The viewer's expected net for each of his bidding options, by sampling.

    For each of ``samples`` worlds (:func:`sample_deals`) the contracts are solved
    double dummy with the make probe and the chelem search: five or six searches a
    world (his four trumps and the contract reached when he passes). With 3 or 4
    players that is milliseconds to tens of milliseconds a world; with 5 or 6 a rare
    world can take minutes (see notebook 04), so keep ``samples`` small there.
    :func:`analysis.bidding.carabin_realplay.evaluate_bids_pimc` plays the same worlds
    by PIMC instead.

    Args:
        view: the player's bidding-time view.
        samples: worlds to draw.
        seed: seed of the draw (same seed, same answer).
        policy: how the other seats bid when the viewer passes (default:
            :func:`thumb_policy`).
        trick_order: the variant's trick order.
        progress: called with (worlds done, samples) after each world.

    Returns:
        ``take`` and ``chelem`` (the turn-up suit), ``name S`` / ``chelem S`` for the
        other suits, and ``pass`` (he passes twice; the others bid by ``policy``).
    """
    if samples < 1:
        raise RulesError(f"invalid samples {samples} (at least 1)")
    worlds = sample_deals(view, samples, random.Random(seed))

    def settle(_: int, deal: Deal, contract: Contract) -> tuple[bool, bool]:
        made, chelem = contract_result(deal, contract.bidder, contract.trump, trick_order)
        return (chelem if contract.chelem else made), chelem

    return evaluate_worlds(view, worlds, settle, policy, progress)


def evaluate_worlds(
    view: CarabinBidView,
    worlds: list[Deal],
    settle: Settle,
    policy: Policy | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, BidValue]:
    """:func:`evaluate_bids` over given ``worlds``, each contract settled by ``settle``
    (double dummy, or played: :mod:`analysis.bidding.carabin_realplay`)."""
    policy = policy or thumb_policy
    ts = view.turn >> 4
    n, me = view.players, view.seat
    made: dict[int, list[bool]] = {t: [] for t in range(4)}
    chel: dict[int, list[bool]] = {t: [] for t in range(4)}
    pass_net: list[float] = []
    pass_made: list[bool] = []
    pass_chelem: list[bool] = []
    for i, deal in enumerate(worlds):
        for t in range(4):
            m, c = settle(i, deal, Contract(me, t))
            made[t].append(m)
            chel[t].append(c)
        contract = auction(deal, policy, skip=me)
        if contract is None:
            pass_net.append(0.0)
        else:
            ok, c = settle(i, deal, contract)
            pass_made.append(ok)
            pass_chelem.append(c)
            pass_net.append(seat_net(n, me, contract, ok))
        if progress is not None:
            progress(i + 1, len(worlds))
    samples = len(worlds)
    out: dict[str, BidValue] = {}
    for t in range(4):
        pm, pc = proportion(sum(made[t]), samples), proportion(sum(chel[t]), samples)
        take = "take" if t == ts else f"name {SUITS[t]}"
        out[take] = BidValue(Estimate.of([1.0 if x else -1.0 for x in made[t]]), pm, pc)
        slam = "chelem" if t == ts else f"chelem {SUITS[t]}"
        out[slam] = BidValue(Estimate.of([2.0 if x else -2.0 for x in chel[t]]), pc, pc)
    out["pass"] = BidValue(
        Estimate.of(pass_net),
        proportion(sum(pass_made), len(pass_made)),
        proportion(sum(pass_chelem), len(pass_chelem)),
    )
    return out


# ---------------------------------------------------------------- policies
#
# A policy answers, for one seat at one moment of the auction, with a Call. It sees
# only that seat's view, the round and the contract standing (None before a take).


def thumb_policy(view: CarabinBidView, round_: int, standing: Contract | None) -> Call:
    """A rule of thumb: bid a suit holding four trumps or more, or three with the ace;
    in round 2 name the longest such suit (ties: more honours); never a chelem.

    >>> v = CarabinBidView.parse("players=4 seat=0 hand=A32.K../Q.A.54. turn=7S")
    >>> str(thumb_policy(v, 1, None)), str(thumb_policy(v, 2, None))
    ('take', 'pass')
    """
    if standing is not None:
        return Call("pass")
    ts = view.turn >> 4
    suits = [ts] if round_ == 1 else [s for s in range(4) if s != ts]
    best: tuple[int, int, int] | None = None
    for s in suits:
        f = carabin_features(view.hand[0], view.hand[1], s)
        if f[0] >= 4 or (f[0] >= 3 and f[5]):
            key = (f[0], f[1], -s)
            best = key if best is None or key > best else best
    if best is None:
        return Call("pass")
    return Call("take") if round_ == 1 else Call("name", -best[2])


def always_policy(view: CarabinBidView, round_: int, standing: Contract | None) -> Call:
    """Always bid: take the turn-up suit in round 1 if nobody has (so the eldest always
    plays it), never a chelem."""
    del view
    return Call("take") if round_ == 1 and standing is None else Call("pass")


@dataclass(frozen=True)
class LogisticRule:
    """Estimated probability of making a contract (or a chelem) from the hand features.

    ``p = 1 / (1 + exp(-(w . x)))`` with ``x = (1, FEATURES..., seat / (N - 1))``, one
    weight vector per number of players and round (1 take, 2 name), fitted on the
    ``carabin-bidding`` study by :func:`fit_rule`.

    Attributes:
        made: weights for "made", keyed ``"{players}-{round}"``.
        chelem: weights for "chelem", same keys.
        deals: deals the fit used, per number of players.
    """

    made: dict[str, tuple[float, ...]]
    chelem: dict[str, tuple[float, ...]]
    deals: dict[str, int]

    @staticmethod
    def inputs(view: CarabinBidView, trump: int) -> tuple[float, ...]:
        f = carabin_features(view.hand[0], view.hand[1], trump)
        return (1.0, *map(float, f), view.seat / (view.players - 1))

    def probabilities(self, view: CarabinBidView, trump: int) -> tuple[float, float]:
        """(P(made), P(chelem)) of the viewer bidding ``trump``."""

        key = f"{view.players}-{1 if trump == view.turn >> 4 else 2}"
        x = self.inputs(view, trump)
        out = []
        for w in (self.made[key], self.chelem[key]):
            z = sum(a * b for a, b in zip(w, x, strict=True))
            out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z)))))
        return out[0], out[1]

    def to_json(self) -> dict:
        return {"features": ["1", *FEATURES, "seat_share"], **self.__dict__}

    @classmethod
    def from_json(cls, d: dict) -> LogisticRule:
        return cls(
            {k: tuple(v) for k, v in d["made"].items()},
            {k: tuple(v) for k, v in d["chelem"].items()},
            dict(d["deals"]),
        )


def _logistic(x, y, ridge: float = 1e-3, steps: int = 50):
    """Logistic regression weights by Newton's method (a little ridge for separable
    data, such as a chelem that never happens in some class)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -50, 50)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_rule(frame) -> LogisticRule:
    """Fit :class:`LogisticRule` on a :func:`features_frame` (one or several player counts)."""
    import numpy as np

    made: dict[str, tuple[float, ...]] = {}
    chelem: dict[str, tuple[float, ...]] = {}
    deals: dict[str, int] = {}
    for n, part in frame.groupby("players"):
        deals[str(n)] = int(part["deal"].nunique())
        for rnd in (1, 2):
            sub = part[part["round"] == rnd]
            x = np.column_stack(
                [
                    np.ones(len(sub)),
                    sub[list(FEATURES)].to_numpy(dtype=float),
                    sub["seat"].to_numpy(dtype=float) / (int(n) - 1),  # type: ignore[call-overload]
                ]
            )
            key = f"{n}-{rnd}"
            made[key] = tuple(float(v) for v in _logistic(x, sub["made"].to_numpy(dtype=float)))
            chelem[key] = tuple(float(v) for v in _logistic(x, sub["chelem"].to_numpy(dtype=float)))
    return LogisticRule(made, chelem, deals)


@dataclass(frozen=True)
class DerivedPolicy:
    """The bidding rule derived from the study: bid the contract with the best
    estimated net when it is positive.

    A trump contract is worth ``2p - 1`` (p: estimated probability of making it), a
    chelem ``4q - 2`` (q: of winning every trick); passing is counted as 0 (its
    measured value is close to 0, see notebook 04). Round 1: take or chelem in the
    turn-up suit; round 2: the best other suit. After a take, only a chelem may answer.
    """

    rule: LogisticRule
    margin: float = 0.0

    def __call__(self, view: CarabinBidView, round_: int, standing: Contract | None) -> Call:
        ts = view.turn >> 4
        suits = [ts] if round_ == 1 else [s for s in range(4) if s != ts]
        best: tuple[float, Call] = (self.margin, Call("pass"))
        for s in suits:
            p, q = self.rule.probabilities(view, s)
            slam = Call("chelem") if round_ == 1 else Call("chelem", s)
            options = [(4 * q - 2, slam)]
            if standing is None:
                options.append((2 * p - 1, Call("take") if round_ == 1 else Call("name", s)))
            for value, call in options:
                if value > best[0]:
                    best = (value, call)
        return best[1]


def derived_policy(path: str | None = None) -> DerivedPolicy:
    """The derived rule fitted on the precomputed study (``data/studies/carabin-bidding``)."""

    file = Path(path) if path else Path(__file__).resolve().parents[2] / RULE_FILE
    return DerivedPolicy(LogisticRule.from_json(json.loads(file.read_text())))


RULE_FILE = "data/studies/carabin-bidding/derived_rule.json"


def _realplay() -> Policy:
    from analysis.bidding.carabin_realplay import realplay_policy

    return realplay_policy


def _realplay_name() -> Policy:
    from analysis.bidding.carabin_naming import realplay_name_policy

    return realplay_name_policy


#: The Carabin bidding policies by name (``realplay``: the rule derived from real play,
#: :func:`analysis.bidding.carabin_realplay.realplay_policy`, round 1 only;
#: ``realplay-name``: the same and the round-2 naming rule,
#: :func:`analysis.bidding.carabin_naming.realplay_name_policy`).
POLICIES: dict[str, Callable[[], Policy]] = {
    "derived": derived_policy,
    "realplay": _realplay,
    "realplay-name": _realplay_name,
    "thumb": lambda: thumb_policy,
    "always": lambda: always_policy,
}


def auction(
    deal: Deal,
    policy: Policy | list[Policy],
    skip: int | None = None,
) -> Contract | None:
    """The contract the seats reach when each bids by its policy (None: all passed).

    Args:
        deal: the deal (each policy sees only its seat's hands and the turn-up).
        policy: one policy for every seat, or one per seat.
        skip: a seat that passes throughout (the viewer evaluating ``pass``).
    """
    return auction_bidding(deal, policy, skip).contract


def auction_bidding(
    deal: Deal,
    policy: Policy | list[Policy],
    skip: int | None = None,
) -> Bidding:
    """The finished auction of :func:`auction`: every call, as all the seats heard them
    (its ``contract`` is the contract reached). A policy's call that is not allowed at
    that moment is a pass.

    >>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H")
    >>> [str(c) for c in auction_bidding(d, thumb_policy).calls]
    ['pass', 'pass', 'take']
    """
    n = deal.players
    policies = policy if isinstance(policy, list) else [policy] * n
    views = [CarabinBidView(n, s, deal.hands[s], deal.turn) for s in range(n)]
    bidding = Bidding(n, deal.turn >> 4)
    while not bidding.is_over:
        seat = bidding.to_speak
        assert seat is not None
        if seat == skip:
            call = Call("pass")
        else:
            _, _, standing, _ = bidding._state()
            call = policies[seat](views[seat], bidding.round, standing)
            if call not in bidding.legal_calls():
                call = Call("pass")
        bidding = bidding.call(call)
    return bidding


# ---------------------------------------------------------------- tables


def net_interval(hands: int, bids: int, net: int) -> Estimate:
    """The net a hand of a policy that bid ``bids`` times in ``hands`` hands, its
    contracts netting ``net`` (+1 made, -1 failed, 0 a pass), with the normal 95 %
    interval over hands (:meth:`Estimate.of` of the per-hand values, from the counts
    alone: every value is +1, -1 or 0, so their squares sum to ``bids``).

    >>> e = net_interval(100, 30, -10)
    >>> round(e.mean, 2), round(e.low, 3), round(e.high, 3)
    (-0.1, -0.206, 0.006)
    """
    mean = net / hands
    if hands < 2:
        return Estimate(mean, -math.inf, math.inf, hands)
    var = (bids - hands * mean * mean) / (hands - 1)
    half = 1.96 * math.sqrt(max(0.0, var) / hands)
    return Estimate(mean, mean - half, mean + half, hands)


def carabin_tables(frames: pd.DataFrame) -> dict:
    """The tables notebook 04 shows, from ``carabin-bidding`` studies (one per player count).

    Args:
        frames: study rows (DataFrames), concatenated.

    Returns:
        ``by_seat`` (make and chelem rate by players, round and seat, Wilson 95 %
        intervals), ``by_strength`` (make rate by players, round, trumps and trump
        honours), ``by_feature`` (make rate by each feature's value), ``policies``
        (how often each policy bids as the first to speak and how often that is made,
        on the held-out half), ``calibration`` (the derived rule's estimated
        probability against the observed rate, held-out half), ``rule`` (the derived
        rule fitted on the first half of each player count's deals) and ``summary``.
    """
    import numpy as np
    import pandas as pd

    df = features_frame(pd.concat(list(frames), ignore_index=True))
    rows = []
    for (n, rnd, seat), part in df.groupby(["players", "round", "seat"]):
        pm = proportion(int(part["made"].sum()), len(part))
        pc = proportion(int(part["chelem"].sum()), len(part))
        rows.append(
            {
                "players": n,
                "round": rnd,
                "seat": seat,
                "hands": len(part),
                "make_rate": pm.mean,
                "low": pm.low,
                "high": pm.high,
                "chelem_rate": pc.mean,
                "chelem_high": pc.high,
            }
        )
    by_seat = pd.DataFrame(rows)
    strength = (
        df.groupby(["players", "round", "trumps", "honours"])["made"]
        .agg(make_rate="mean", hands="count")
        .reset_index()
    )
    feat_rows = []
    for name in FEATURES:
        for (n, value), part in df.groupby(["players", name]):
            pm = proportion(int(part["made"].sum()), len(part))
            feat_rows.append(
                {
                    "players": n,
                    "feature": name,
                    "value": value,
                    "hands": len(part),
                    "make_rate": pm.mean,
                    "low": pm.low,
                    "high": pm.high,
                }
            )
    # derived rule: fitted on the first half of each player count's deals
    train_parts, test_parts = [], []
    for _n, part in df.groupby("players"):
        deals = np.sort(part["deal"].unique())
        cut = deals[len(deals) // 2]
        train_parts.append(part[part["deal"] < cut])
        test_parts.append(part[part["deal"] >= cut])
    train = pd.concat(train_parts, ignore_index=True)
    test = pd.concat(test_parts, ignore_index=True)
    rule = fit_rule(train)
    derived = DerivedPolicy(rule)
    pol_rows, cal = [], []
    first = test[test["round"] == 1]
    for r in first.itertuples(index=False):
        view = CarabinBidView(int(r.players), int(r.seat), (int(r.left), int(r.right)), int(r.turn))
        p, q = rule.probabilities(view, int(r.trump))
        cal.append((int(r.players), p, bool(r.made)))
        for name, pol in (("derived", derived), ("thumb", thumb_policy)):
            call = pol(view, 1, None)
            pol_rows.append(
                (
                    int(r.players),
                    int(r.seat),
                    name,
                    call.kind != "pass",
                    call.kind,
                    r.made,
                    r.chelem,
                )
            )
    pol = pd.DataFrame(
        pol_rows, columns=["players", "seat", "policy", "bids", "call", "made", "chelem"]
    )
    policies = []
    for (n, name, seat), part in pol.groupby(["players", "policy", "seat"]):
        bid = part[part["bids"]]
        won = np.where(bid["call"] == "chelem", bid["chelem"], bid["made"]).sum()
        pm = proportion(int(won), len(bid))
        net = 2 * int(won) - len(bid)
        ni = net_interval(len(part), len(bid), net)
        policies.append(
            {
                "players": n,
                "policy": name,
                "seat": seat,
                "hands": len(part),
                "bid_rate": len(bid) / len(part),
                "make_rate": pm.mean,
                "low": pm.low,
                "high": pm.high,
                "net_per_hand": net / len(part),
                "net_low": ni.low,
                "net_high": ni.high,
            }
        )
    cal_df = pd.DataFrame(cal, columns=["players", "p", "made"])
    cal_df["bucket"] = np.minimum((cal_df["p"] * 10).astype(int), 9) / 10 + 0.05
    calibration = (
        cal_df.groupby(["players", "bucket"])
        .agg(estimated=("p", "mean"), observed=("made", "mean"), hands=("made", "size"))
        .reset_index()
    )
    summary = {
        str(n): {
            "deals": int(part["deal"].nunique()),
            "make_rate_round1": float(part[part["round"] == 1]["made"].mean()),
            "make_rate_round2": float(part[part["round"] == 2]["made"].mean()),
            "chelems": int(part["chelem"].sum()),
            "contracts": len(part),
        }
        for n, part in df.groupby("players")
    }
    return {
        "by_seat": by_seat,
        "by_strength": strength,
        "by_feature": pd.DataFrame(feat_rows),
        "policies": pd.DataFrame(policies),
        "calibration": calibration,
        "rule": rule.to_json(),
        "summary": summary,
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.carabin OUT_DIR STUDY_DIR...``: notebook 04's tables
    and the derived rule (``derived_rule.json``) from studies of any player counts."""

    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: python -m analysis.bidding.carabin OUT_DIR STUDY_DIR...", file=sys.stderr)
        return 2
    out = Path(args[0])
    tables = carabin_tables(read_study(d) for d in args[1:])
    tables["studies"] = [read_manifest(d) for d in args[1:]]
    rule = tables.pop("rule")
    write_tables(tables, out)
    (out / "derived_rule.json").write_text(json.dumps(rule, indent=1) + "\n")
    print(json.dumps(tables["summary"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "BidValue",
    "CarabinBidView",
    "DerivedPolicy",
    "LogisticRule",
    "POLICIES",
    "always_policy",
    "auction",
    "auction_bidding",
    "derived_policy",
    "fit_rule",
    "thumb_policy",
    "FEATURES",
    "carabin_chunk",
    "carabin_tables",
    "carabin_features",
    "contract_result",
    "deal_of_rows",
    "evaluate_bids",
    "evaluate_worlds",
    "features_frame",
    "net_interval",
    "sample_deals",
    "seat_net",
]
