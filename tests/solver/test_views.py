"""Views, inference, world sampling and PIMC advice; bad views through main(argv)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.advice import advise
from analysis.cli.main import main
from solver import carabin, klabberjass
from solver.cards import SUITS, card_count, card_str, format_holding, mask_of
from solver.errors import IllegalPlayError, RulesError
from solver.games import get_game
from solver.klabberjass import Position
from solver.klabberjass.deal import Deal

KJ = get_game("klabberjass")


def klabberjass_game(seed: int, cards_played: int):
    """A random deal, played at random for up to ``cards_played`` cards; the view of
    the seat to move, and the true hands and line."""
    deal = Deal.random(seed)
    rng = random.Random(seed)
    trump = rng.randrange(4)
    p = Position(trump, 0, deal.hands)
    line = []
    for _ in range(min(cards_played, 17)):
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    seat = p.to_move
    bottom = f" bottom={card_str(deal.bottom)}" if seed % 2 else ""
    text = (
        f"seat={'ED'[seat]} trump={SUITS[trump]} turn={card_str(deal.turn)}{bottom} "
        f"hand={format_holding(p.hands[seat])} played={','.join(map(card_str, line))}"
    )
    return klabberjass.View.parse(text), deal, line, p


def replay_is_legal(start: Position, line) -> Position:
    p = start
    for card in line:
        p = p.play(card)  # raises IllegalPlayError if the world breaks the rules
    return p


@settings(max_examples=60)
@given(st.integers(0, 10**6), st.integers(0, 17))
def test_klabberjass_worlds_respect_the_view(seed, n):
    view, deal, line, truth = klabberjass_game(seed, n)
    inf = view.inference()
    opp = 1 - view.seat
    _, _, size, known, forbidden = inf.hidden[0]
    assert truth.hands[opp] & forbidden == 0  # the inference never rules out the truth
    assert truth.hands[opp] & ~(inf.pool | known) == 0
    played = mask_of(line)
    out = 1 << deal.turn | (1 << deal.bottom if seed % 2 else 0)
    for world in view.sample_worlds(20, seed=seed):
        assert world.hands[view.seat] == truth.hands[view.seat]
        assert card_count(world.hands[opp]) == size
        assert world.hands[opp] & (played | out | world.hands[view.seat]) == 0
        assert (world.lead, world.trick) == (truth.lead, truth.trick)
        # the whole line is legal from the world's original hands
        start = [world.hands[0], world.hands[1]]
        q = Position(world.trump, 0, deal.hands)
        for card in line:
            start[q.to_move] |= 1 << card
            q = q.play(card)
        end = replay_is_legal(Position(world.trump, 0, (start[0], start[1])), line)
        assert end == world


def test_klabberjass_sampling_is_uniform():
    # D showed out of spades and trumps: 5 unknown cards for D among 7 allowed ones
    text = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"
    view = klabberjass.View.parse(text)
    worlds = view.world_count()
    assert worlds == 495
    n = 40 * worlds
    counts = Counter(w.hands[1] for w in view.sample_worlds(n, seed=7))
    assert len(counts) == worlds
    expected = n / worlds
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < worlds + 6 * (2 * worlds) ** 0.5  # mean df, sd sqrt(2 df)


@settings(max_examples=30)
@given(st.integers(0, 10**6), st.sampled_from([3, 4, 5]), st.integers(0, 30))
def test_carabin_worlds_respect_the_view(seed, players, n):
    rng = random.Random(seed)
    deal = carabin.Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
    line = []
    for _ in range(min(n, 8 * players - 1)):
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    me = p.to_move
    view = carabin.View.parse(
        f"players={players} seat={me} bidder={p.bidder} trump={SUITS[p.trump]} "
        f"turn={card_str(deal.turn)} hand={format_holding(p.hands[me][0])}/"
        f"{format_holding(p.hands[me][1])} played={','.join(map(card_str, line))}"
    )
    seen = mask_of(line) | 1 << deal.turn
    for world in view.sample_worlds(10, seed=seed):
        assert (world.lead, world.hand, world.trick) == (p.lead, p.hand, p.trick)
        assert world.hands[me] == p.hands[me]
        cards = 0
        for s, (left, right) in enumerate(world.hands):
            assert (card_count(left), card_count(right)) == tuple(map(card_count, p.hands[s]))
            assert (left | right) & (seen | cards) == 0
            cards |= left | right
        world.validate()


def test_advice_without_hidden_cards_is_the_double_dummy_answer():
    # D has shown his whole hand: one world, the real one
    deal = Deal.random(2)
    start = Position(deal.turn_suit, 0, deal.hands)
    view = klabberjass.View.parse(
        f"seat=E trump={SUITS[deal.turn_suit]} turn={card_str(deal.turn)} "
        f"hand={format_holding(deal.hands[0])} played= shown={format_holding(deal.hands[1])}"
    )
    assert view.world_count() == 1
    a = advise(view, samples=5, seed=3, workers=1)
    dd = KJ.move_values(start)
    assert {c: m["mean"] for c, m in a.moves.items()} == {card_str(c): v for c, v in dd.items()}
    best = max(dd.values())
    assert {c for c, m in a.moves.items() if m["best_rate"] == 1.0} == {
        card_str(c) for c, v in dd.items() if v == best
    }
    assert dd[next(c for c in dd if card_str(c) == a.best)] == best


def test_carabin_advice_means_match_move_values_in_each_world():
    deal = carabin.Deal.random(players=3, seed=4)
    p = deal.position(bidder=1, trump=0)
    line = [p.legal_moves()[0]]
    p = p.play(line[0])
    view = carabin.View.parse(
        f"players=3 seat=1 bidder=1 trump=S turn={card_str(deal.turn)} "
        f"hand={format_holding(p.hands[1][0])}/{format_holding(p.hands[1][1])} "
        f"played={card_str(line[0])}"
    )
    a = advise(view, samples=4, seed=2, workers=1)
    worlds = view.sample_worlds(4, seed=2)
    game = get_game("carabin")
    for card, m in a.moves.items():
        values = [
            game.move_values(w)[next(c for c in w.legal_moves() if card_str(c) == card)]
            for w in worlds
        ]
        assert m["mean"] == pytest.approx(sum(values) / 4)


def test_advice_is_the_same_with_one_or_two_workers():
    view = klabberjass.View.parse("seat=E trump=H turn=JH hand=AT97.K.A.AT7 played=")
    one = advise(view, samples=200, seed=5, workers=1)
    two = advise(view, samples=200, seed=5, workers=2)
    assert one.to_json() == two.to_json()


@pytest.mark.parametrize(
    ("view", "error", "words"),
    [
        ("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,AS", RulesError, "AS"),
        ("seat=E trump=H turn=JH hand=AT97.KQ.A.AT7 played=", RulesError, "holds 10 cards"),
        ("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D,JH", RulesError, "JH"),
        # D shows out of spades on trick 1, then plays a spade on trick 2
        ("seat=E trump=H turn=JH hand=T9.KQ.A.AT played=7S,8D,AS,KS", IllegalPlayError, "KS"),
        # E fails to follow spades while still holding AS
        ("seat=E trump=H turn=JH hand=KT.7.KQ.KQ played=7S,AS,8S,8D,9S", IllegalPlayError, "8D"),
        ("seat=D trump=H turn=JH hand=AT97.KQ.A.AT played=", RulesError, "it is E's turn"),
    ],
)
def test_impossible_views_name_the_first_problem(view, error, words, capsys):
    with pytest.raises(error, match=words):
        klabberjass.View.parse(view)
    assert main(["advise", "klabberjass", view, "--samples", "5", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err


def test_carabin_view_with_a_played_card_in_hand_is_refused(capsys):
    view = "players=3 seat=1 bidder=0 trump=S turn=2C hand=AKQ.../T987... played=AS"
    assert main(["advise", "carabin", view, "--samples", "5"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "AS" in err and err.count("\n") == 1


@settings(max_examples=40)
@given(st.integers(0, 10**6), st.integers(0, 17))
def test_klabberjass_worlds_respect_a_dix_exchange(seed, n):
    """Deals where the holder of the trump 7 took the turn-up: the turn-up is in play
    in his hand, the 7 is out of play, and every world agrees with the true hands."""
    from solver.klabberjass.deal import exchange_dix

    deal = Deal.random(seed)
    trump = deal.turn >> 4
    seven = 16 * trump + 5
    holder = next((s for s in (0, 1) if deal.hands[s] >> seven & 1), None)
    if holder is None or deal.turn == seven:
        return  # no dix possible in this deal
    hands = exchange_dix(deal.hands, deal.turn, holder)
    rng = random.Random(seed)
    p = Position(trump, 0, hands)
    line = []
    for _ in range(min(n, 17)):
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    seat, opp = p.to_move, 1 - p.to_move
    view = klabberjass.View.parse(
        f"seat={'ED'[seat]} trump={SUITS[trump]} turn={card_str(deal.turn)} "
        f"dix={'ED'[holder]} hand={format_holding(p.hands[seat])} "
        f"played={','.join(map(card_str, line))}"
    )
    assert str(klabberjass.View.parse(str(view))) == str(view)
    played = mask_of(line)
    for world in view.sample_worlds(20, seed=seed):
        assert world.hands[seat] == p.hands[seat]
        assert not world.hands[opp] >> seven & 1  # the 7 lies out of play
        if holder == opp and not played >> deal.turn & 1:
            assert world.hands[opp] >> deal.turn & 1  # he took the turn-up
        assert world.hands[opp] & (played | world.hands[seat]) == 0


@pytest.mark.parametrize(
    ("view", "words"),
    [
        ("seat=E trump=H turn=KS dix=E hand=AT9.KQ.A.AT7 played=", "trump suit other than its 7"),
        ("seat=E trump=H turn=7H dix=E hand=AT9.KQ.A.AT7 played=", "trump suit other than its 7"),
        ("seat=E trump=H turn=KH dix=E hand=AT9.QJ.A.AT7 played=", "must be in E's hand"),
        ("seat=E trump=H turn=KH dix=D hand=AT9.Q7.A.AT7 played=", "7H in the hand is out of play"),
    ],
)
def test_impossible_dix_views_are_refused(view, words, capsys):
    with pytest.raises(RulesError, match=words):
        klabberjass.View.parse(view)
    assert main(["advise", "klabberjass", view, "--samples", "5", "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
