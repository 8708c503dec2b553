"""Klabberjass whole deals: notation, dealing, bidding, sequences, Bella, dix, scoring, game.

Every expected number is worked out by hand in a comment beside it.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import RANKS, SUITS, card_str, cards_of, format_holding, parse_card, parse_holding
from solver.errors import IllegalPlayError, NotationError, RulesError, TricklabError
from solver.klabberjass import CLASSIC, PACK, SEED, Rules
from solver.klabberjass.deal import (
    Bidding,
    Deal,
    IllegalBidError,
    Match,
    Run,
    best_run,
    dix_holder,
    exchange_dix,
    has_bella,
    runs,
    score_deal,
    sequence_points,
    sequence_winner,
)
from solver.klabberjass.rules import points_of

S, H, D, C = range(4)
SPLIT = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C"


def h(text: str) -> int:
    return parse_holding(text)


# ====================================================================== notation


@pytest.mark.parametrize(
    "text, canonical",
    [
        (SPLIT, SPLIT),
        # fields in any order, lower case, symbols, suit-then-rank and "10"
        (
            "turn=c7 D=8.Q108.9.8/..A.KJ E=ka.k.8k.a/t9..j. bottom=♠q",
            "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C bottom=QS",
        ),
        (SPLIT + " trump=h bidder=d", SPLIT + " trump=H bidder=D"),
        (SPLIT + " bidder=E", SPLIT + " bidder=E"),
        # nine cards a hand when the split does not matter
        ("E=AKT9.K.K8.AJ D=8.QT8.A9.KQ8 turn=7C", "E=AKT9.K.K8.AJ D=8.QT8.A9.KQ8 turn=7C"),
    ],
)
def test_deal_notation_round_trips(text: str, canonical: str) -> None:
    deal = Deal.parse(text)
    assert str(deal) == canonical
    assert Deal.parse(str(deal)) == deal


def test_deal_parts() -> None:
    deal = Deal.parse(SPLIT + " bottom=QS trump=H bidder=D")
    assert deal.first is not None and deal.extra is not None
    assert format_holding(deal.first[0]) == "AK.K.K8.A"
    assert format_holding(deal.extra[1]) == "..A.KJ"
    assert format_holding(deal.hands[0]) == "AKT9.K.KJ8.A"
    assert card_str(deal.turn) == "7C" and deal.turn_suit == C
    assert (deal.trump, deal.bidder, card_str(deal.bottom or 0)) == (H, 1, "QS")
    # 32 - 9 - 9 - turn-up = 13 cards in the stock, the bottom card among them
    assert deal.stock.bit_count() == 13 and deal.stock >> parse_card("QS") & 1
    html = deal._repr_html_()
    assert "♠</span>AKT9" in html and "turn-up 7" in html and "bidder D" in html
    nine = Deal.parse("E=AKT9.K.K8.AJ D=8.QT8.A9.KQ8 turn=7C")
    assert nine.first is None and nine.extra is None


@pytest.mark.parametrize(
    "text, error, quoted",
    [
        # wrong counts
        ("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.K turn=7C", RulesError, "D=8.QT8.9.8/..A.K"),
        ("E=AK.K.K8./T9..J.A D=8.QT8.9.8/..A.KJ turn=7C", RulesError, "E=AK.K.K8./T9..J.A"),
        ("E=AKT9.K.K8.A D=8.QT8.A9.KQ8 turn=7C", RulesError, "E=AKT9.K.K8.A"),
        ("E=AKT9.K.K8.AJ D=8.QT8.A9.KQ87 turn=JC", RulesError, "D=8.QT8.A9.KQ87"),
        # duplicates: within one part, between the parts of a hand, between hands
        ("E=AA.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", NotationError, "AA.K.K8.A"),
        ("E=AK.K.K8.A/A9..J. D=8.QT8.9.8/..A.KJ turn=7C", RulesError, "AS"),
        ("E=AKT9.K.K8.AJ D=8.QT8.A9.KJ8 turn=7C", RulesError, "JC"),
        # the turn-up or the bottom card also in a hand, or the same card
        ("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=AS", RulesError, "turn-up AS"),
        (SPLIT + " bottom=KC", RulesError, "bottom card KC"),
        (SPLIT + " bottom=7C", RulesError, "bottom card 7C"),
        # cards outside the 32-card pack
        ("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=6C", RulesError, "6C"),
        ("E=AK.K.K6.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", RulesError, "6D"),
        # unreadable or missing fields
        ("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=XC", NotationError, "XC"),
        ("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ", NotationError, "missing turn"),
        ("E=AK.K.K8.A/T9..J. turn=7C", NotationError, "missing D"),
        (SPLIT + " lead=E", NotationError, "'lead'"),
        (SPLIT + " turn=8C", NotationError, "'turn' given twice"),
        (SPLIT + " trump=X", NotationError, "'X'"),
        (SPLIT + " bidder=N", NotationError, "'N'"),
        (SPLIT + " E", NotationError, "'E'"),
        ("E=AK.K.K8/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", NotationError, "AK.K.K8"),
        # the split given for one hand only
        ("E=AKT9.K.K8.AJ D=8.QT8.9.8/..A.KQ turn=7C", NotationError, "split both hands"),
        ("", NotationError, "empty deal"),
    ],
)
def test_bad_deals(text: str, error: type, quoted: str) -> None:
    with pytest.raises(error) as info:
        Deal.parse(text)
    assert quoted in str(info.value)
    assert isinstance(info.value, TricklabError)


def test_bad_deal_values() -> None:
    e, d = h("AKT9.K.K8.AJ"), h("8.QT8.A9.KQ8")
    turn = parse_card("7C")
    with pytest.raises(RulesError, match="first cards"):
        Deal((e, d), turn, first=(h("AK.K.K8.A"), h("8.QT8.9.7")))  # 7C is not in D's hand
    with pytest.raises(RulesError, match="invalid trump"):
        Deal((e, d), turn, trump=4)
    with pytest.raises(RulesError, match="invalid bidder"):
        Deal((e, d), turn, bidder=2)
    with pytest.raises(RulesError, match="not in the Klabberjass pack"):
        Deal((e, d), 70)


def test_random_deal_follows_the_deal_procedure() -> None:
    for seed in range(50):
        deal = Deal.random(seed)
        assert deal == Deal.random(seed)  # reproducible
        assert deal.first is not None and deal.bottom is not None
        assert [x.bit_count() for x in deal.hands] == [9, 9]
        assert [x.bit_count() for x in deal.first] == [6, 6]
        used = deal.hands[0] | deal.hands[1] | 1 << deal.turn
        assert used.bit_count() == 19 and used & ~PACK == 0
        assert deal.bottom != deal.turn and not used >> deal.bottom & 1
        # the documented order: 3 E, 3 D, 3 E, 3 D, turn-up, 3 E, 3 D; bottom = last card
        pack = list(cards_of(PACK))
        random.Random(seed).shuffle(pack)
        assert deal.first[0] == sum(1 << c for c in pack[0:3] + pack[6:9])
        assert deal.first[1] == sum(1 << c for c in pack[3:6] + pack[9:12])
        assert deal.turn == pack[12] and deal.bottom == pack[31]
        assert deal.extra == (sum(1 << c for c in pack[13:16]), sum(1 << c for c in pack[16:19]))
        assert Deal.parse(str(deal)) == deal
    assert len({str(Deal.random(s)) for s in range(50)}) == 50


# ====================================================================== bidding


@pytest.mark.parametrize(
    "rules, calls, bidder, trump",
    [
        (SEED, "take", 0, H),  # E takes the turn-up suit (hearts here)
        (SEED, "pass take", 1, H),
        (SEED, "pass pass S", 0, S),  # round 2: E names spades
        (SEED, "pass pass pass C", 1, C),
        (SEED, "pass pass pass pass", None, None),  # both pass twice: annulled
        (CLASSIC, "schmeiss accept", 0, H),  # D lets E play the turn-up suit
        (CLASSIC, "schmeiss annul", None, None),
        (CLASSIC, "pass schmeiss accept", 1, H),
        (CLASSIC, "pass schmeiss annul", None, None),
        (CLASSIC, "pass take", 1, H),
        (CLASSIC, "pass pass d", 0, D),
    ],
)
def test_bidding_outcomes(rules: Rules, calls: str, bidder: int | None, trump: int | None) -> None:
    b = Bidding.parse(H, calls, rules)
    assert b.is_over and b.to_speak is None and b.legal_calls() == []
    assert (b.bidder, b.trump, b.annulled) == (bidder, trump, bidder is None)
    assert str(b).split() == [c.upper() if len(c) == 1 else c for c in calls.split()]


def test_bidding_states() -> None:
    b = Bidding(H)
    assert (b.round, b.to_speak, b.legal_calls()) == (1, 0, ["take", "pass"])
    b = b.bid("pass")
    assert (b.round, b.to_speak, b.bidder, b.trump) == (1, 1, None, None)
    b = b.bid("PASS")
    # round 2 offers the three other suits, never the turn-up suit
    assert (b.round, b.to_speak, b.legal_calls()) == (2, 0, ["pass", "S", "D", "C"])
    assert Bidding(S, CLASSIC).legal_calls() == ["take", "pass", "schmeiss"]
    c = Bidding(S, CLASSIC).bid("schmeiss")
    assert c.schmeiss_pending and c.to_speak == 1 and c.legal_calls() == ["accept", "annul"]
    assert c.bidder is None  # the auction is not over until D answers


@pytest.mark.parametrize(
    "rules, calls, bad",
    [
        (SEED, "", "schmeiss"),  # no schmeiss under the seed rules
        (SEED, "", "H"),  # naming a suit is for round 2
        (SEED, "", "accept"),  # nothing to accept
        (SEED, "pass pass", "take"),  # no taking in round 2
        (SEED, "pass pass", "H"),  # the turn-up suit cannot be named in round 2
        (CLASSIC, "pass pass", "schmeiss"),  # schmeiss only in round 1
        (CLASSIC, "schmeiss", "take"),  # a schmeiss must be answered
        (CLASSIC, "schmeiss", "pass"),
        (SEED, "take", "pass"),  # the auction is over
        (SEED, "pass pass pass pass", "S"),
    ],
)
def test_illegal_bids(rules: Rules, calls: str, bad: str) -> None:
    b = Bidding.parse(H, calls, rules)
    with pytest.raises(IllegalBidError) as info:
        b.bid(bad)
    assert f"'{bad}'" in str(info.value)
    assert isinstance(info.value, IllegalPlayError)
    with pytest.raises(IllegalBidError):
        Bidding.parse(H, f"{calls} {bad}", rules)


def test_unreadable_bid() -> None:
    with pytest.raises(NotationError, match="'double'"):
        Bidding(S).bid("double")
    with pytest.raises(RulesError):
        Bidding(5)


# ====================================================================== sequences


@pytest.mark.parametrize(
    "holding, expected",
    [
        ("AKQ...", ["AKQS"]),
        ("AKQJ...", ["AKQJS"]),
        ("AKQJT987...", ["AKQJT987S"]),  # one run however long
        ("AKQ.T98..", ["AKQS", "T98H"]),
        ("AKQ.J98..", ["AKQS"]),  # J98 is not consecutive (T missing)
        ("AKQ9T87...", ["AKQS", "T987S"]),  # A K Q, then T 9 8 7 after the gap at J
        ("AK.QJ.T9.87", []),  # pairs only
        ("KQJ9...", ["KQJS"]),
        ("...987", ["987C"]),
    ],
)
def test_runs(holding: str, expected: list[str]) -> None:
    assert [str(r) for r in runs(h(holding))] == expected


def test_run_values_and_cards() -> None:
    three, four = runs(h("AKQ.KQJT.."))
    assert (three.value(SEED), four.value(SEED)) == (20, 50)
    assert format_holding(four.cards) == ".KQJT.."
    assert Run(S, RANKS.index("8"), 8).value(Rules(run4=70)) == 70


def run(text: str) -> Run:
    """One run from its text, e.g. 'KQJH'."""
    (r,) = runs(parse_holding(".".join(text[:-1] if s == text[-1] else "" for s in SUITS)))
    return r


# (E's best run, D's best run, trump, winner): value first, then top card, then trump.
COMPARISONS = [
    ("JT98S", "AKQH", D, 0),  # 50 beats 20 whatever the top card
    ("AKQS", "KQJH", D, 0),  # equal value: A-high beats K-high
    ("AKQS", "KQJH", H, 0),  # ... even when the lower run is trump
    ("KQJS", "KQJH", D, None),  # equal value and top, both plain: full tie
    ("KQJS", "KQJH", H, 1),  # equal value and top: the trump run wins
    ("KQJS", "KQJH", S, 0),
    ("KQJTS", "KQJT9H", C, None),  # both 50 (4+ cards), K-high: tie whatever the length
    ("987S", "987H", C, None),
    ("987S", "987H", S, 0),
]


@pytest.mark.parametrize("e, d, trump, winner", COMPARISONS)
def test_sequence_comparison(e: str, d: str, trump: int, winner: int | None) -> None:
    assert sequence_winner([run(e)], [run(d)], trump) == winner
    swapped = None if winner is None else 1 - winner
    assert sequence_winner([run(d)], [run(e)], trump) == swapped


def test_sequence_comparison_uses_best_runs() -> None:
    e = runs(h("987.AKQ.."))  # best: AKQ of hearts
    d = runs(h("..AKQ.987"))  # best: AKQ of diamonds
    assert best_run(e, trump=S) == run("AKQH")
    assert sequence_winner(e, d, trump=S) is None  # A-high 20 against A-high 20, both plain
    assert sequence_winner(e, d, trump=C) is None  # D's trump run is only 987, not his best
    assert sequence_winner(e, d, trump=D) == 1
    assert sequence_winner([], [], trump=S) is None
    assert sequence_winner(e, [], trump=S) == 0  # any run beats none
    assert sequence_winner([], d, trump=S) == 1


def test_sequence_points() -> None:
    e = runs(h("987.AKQJ.."))  # 20 + 50
    d = runs(h("..AKQ.KQJ"))  # 20 + 20
    # E's best (AKQJ, 50) beats D's best (20): E scores both his runs, 20 + 50 = 70
    assert sequence_points(e, d, trump=S) == (70, 0)
    # D alone: 20 + 20 = 40
    assert sequence_points([], d, trump=S) == (0, 40)
    # classic values are the same; custom ones are used
    assert sequence_points(e, d, S, Rules(run3=30, run4=60)) == (90, 0)
    # full tie: nobody scores
    assert sequence_points([run("KQJS")], [run("KQJH")], trump=C) == (0, 0)


# ====================================================================== Bella, dix


def test_bella() -> None:
    assert has_bella(h("KQ..."), S)
    assert not has_bella(h("KQ..."), H)
    assert not has_bella(h("K.Q.."), S)
    assert has_bella(h("AKQJ.KQ.KQ.KQ"), C)


def test_dix_holder_and_exchange() -> None:
    # D holds the 7 of hearts; the turn-up is the 9 of hearts
    deal = Deal.parse("E=KT.K8.Q.T/.J.8.A D=A7.T7..J8/.Q.9.7 turn=9H")
    assert dix_holder(deal, H, CLASSIC) == 1
    assert dix_holder(deal, H, SEED) is None  # no dix under the seed rules
    assert dix_holder(deal, S, CLASSIC) is None  # a round-2 trump: no dix
    e, d = exchange_dix(deal.hands, deal.turn, 1)
    assert e == deal.hands[0]
    assert format_holding(d) == "A7.QT9.9.J87"  # D=A7.QT7.9.J87: 7H out, 9H in
    # the turn-up is the 7 itself: nobody can hold it
    seven_up = Deal.parse("E=K.T7.9.K7/.8.7.A D=.AJ.Q8.QJ/AT..K. turn=7S")
    assert dix_holder(seven_up, S, CLASSIC) is None
    # nobody holds the 7 of the turn-up suit (it is in the stock)
    in_stock = Deal.parse("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=QC")
    assert dix_holder(in_stock, C, CLASSIC) is None


# ====================================================================== scoring


def test_card_points_of_the_pack() -> None:
    # a whole pack: 162 with the last trick, so 152 in the cards, whatever the trump
    for trump in range(4):
        assert points_of(PACK, trump) == 152
    # trump J 20 + trump 9 14 + plain J 2 + plain 9 0
    assert points_of(h(".J9.J9."), H) == 36


def test_made() -> None:
    # bidder E: 80 card points + 20 sequence = 100 against D's 48 + 0 = 48: made,
    # each scores his own
    s = score_deal(0, card_points=(80, 48), sequences=(20, 0))
    assert (s.totals, s.result, s.score) == ((100, 48), "made", (100, 48))


def test_bate() -> None:
    # bidder D: 50 + Bella 50 = 100 against E's 92 + 20 (sequences) = 112: bate,
    # E scores both totals 100 + 112 = 212, D nothing
    s = score_deal(1, card_points=(92, 50), sequences=(20, 0), bella=(0, 50))
    assert (s.totals, s.result, s.score) == ((112, 100), "bate", (212, 0))


def test_tie() -> None:
    # bidder E: 61 against 61: a tie, E scores nothing, D his own 61
    s = score_deal(0, card_points=(61, 61))
    assert (s.result, s.score) == ("tie", (0, 61))
    # bidder D: 70 + 20 = 90 against E's 40 + 50 (Bella) = 90: tie, E 90, D 0
    s = score_deal(1, card_points=(40, 70), sequences=(0, 20), bella=(50, 0))
    assert (s.result, s.score) == ("tie", (90, 0))


def test_made_by_one_point() -> None:
    # bidder D: 82 against 81: made by one point, each his own
    assert score_deal(1, card_points=(81, 82)).score == (81, 82)
    with pytest.raises(RulesError):
        score_deal(2, card_points=(81, 82))


# ====================================================================== game


def test_game_to_500() -> None:
    g = Match()
    # deal 1: E made 100-62; deal 2 annulled; deal 3: E bate, D scores 162
    g = g.add((100, 62)).add(None).add(score_deal(0, (60, 102)))
    assert (g.totals, g.deals, g.is_over) == ((100, 224), 3, False)
    # E reaches 510 alone: he wins
    g = Match(totals=(480, 300)).add((30, 20))
    assert (g.totals, g.winner) == ((510, 320), 0)
    # both pass 500 in one deal: the higher total wins (D 540 over E 520)
    g = Match(totals=(450, 440)).add((70, 100))
    assert (g.totals, g.winner) == ((520, 540), 1)
    # both pass 500 with equal totals: play goes on
    g = Match(totals=(450, 440)).add((70, 80))
    assert (g.totals, g.winner, g.is_over) == ((520, 520), None, False)
    assert g.add((0, 10)).winner == 1
    # exactly 500 is enough
    assert Match(totals=(499, 0)).add((1, 0)).winner == 0
    # classic target is also 500; a custom one is used
    assert Match(Rules(game=300), (290, 0)).add((10, 0)).winner == 0
    with pytest.raises(RulesError, match="over"):
        Match(totals=(480, 300)).add((30, 20)).add((0, 0))
