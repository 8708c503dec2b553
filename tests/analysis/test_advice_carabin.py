"""Carabin advice ranks cards by what Carabin scores: made or failed, then the chelem,
then points. The rates are checked against the reference minimax on the same worlds."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.advice import advise
from solver import carabin
from solver.cards import SUITS, card_str, format_holding
from solver.reference import carabin_all_tricks, carabin_points

SAMPLES = 6


def _view_late_in_a_deal(seed: int, players: int, left: int):
    """A random deal played at random until ``left`` cards remain; the view of the seat
    to move, and what the completed tricks gave ((bidder, others), bidder won all)."""
    rng = random.Random(seed)
    deal = carabin.Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
    line: list[int] = []
    won = [0, 0]
    every = True
    while sum(a.bit_count() + b.bit_count() for a, b in p.hands) > left:
        card = rng.choice(p.legal_moves())
        p, winner, pts = p.step(card)
        line.append(card)
        if winner is not None:
            won[winner != p.bidder] += pts
            every = every and winner == p.bidder
    me = p.to_move
    view = carabin.View.parse(
        f"players={players} seat={me} bidder={p.bidder} trump={SUITS[p.trump]} "
        f"turn={card_str(deal.turn)} hand={format_holding(p.hands[me][0])}/"
        f"{format_holding(p.hands[me][1])} played={','.join(map(card_str, line))}"
    )
    return view, won, every


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([3, 4]), st.integers(4, 7))
def test_carabin_rates_match_the_reference(seed, players, left) -> None:
    view, won, every = _view_late_in_a_deal(seed, players, left)
    assert view.tricks_won() == ((won[0], won[1]), every)
    a = advise(view, SAMPLES, seed=seed, workers=1)
    worlds = view.sample_worlds(SAMPLES, seed)
    bidder = view.bidder
    for card, m in a.moves.items():
        made = chelem = 0
        for world in worlds:
            in_play = sum(won) + sum(carabin_points(world))  # not every card is dealt
            child, winner, pts = world.step(card)
            gain = pts if winner == bidder else 0
            final = won[0] + gain + carabin_points(child)[0]
            made += 2 * final > in_play
            chelem += every and winner in (None, bidder) and carabin_all_tricks(child)
        assert (m["make_rate"], m["chelem_rate"]) == (
            round(made / SAMPLES, 4),
            round(chelem / SAMPLES, 4),
        ), (str(view), card)
    # the best card is best for the mover's side by made/failed, then chelem, then mean
    sign = 1 if worlds[0].to_move == bidder else -1
    best = a.moves[a.best]
    for m in a.moves.values():
        assert (sign * best["make_rate"], sign * best["chelem_rate"]) >= (
            sign * m["make_rate"],
            sign * m["chelem_rate"],
        )
    assert a.ranked[0] == a.best and sorted(a.ranked) == sorted(a.moves)


def test_klabberjass_advice_has_no_carabin_rates() -> None:
    view = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"
    from solver import klabberjass

    a = advise(klabberjass.View.parse(view), 10, seed=1, workers=1)
    assert all("make_rate" not in m for m in a.moves.values())
    means = [a.moves[c]["mean"] for c in a.ranked]
    assert means == sorted(means, reverse=True)
