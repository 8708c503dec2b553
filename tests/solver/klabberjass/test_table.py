"""The Klabberjass double-dummy deal table.

Three kinds of check:

- hand-worked rows, with a stub card-play solver so that every number can be followed
  on paper (sinking, sequence ties, Bella, the dix) and with the engine on real deals;
- a from-scratch computation on reduced deals (3 or 4 cards a hand) with the reference
  minimax and a separate, string-based implementation of sequences and scoring;
- the 60 golden deal tables of ``tests/data/klabberjass-deals.jsonl``.
"""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from solver.cards import RANKS, SUITS, card_str, parse_card, parse_holding
from solver.klabberjass import CLASSIC, PACK, SEED, Position, Rules
from solver.klabberjass.deal import Deal, exchange_dix
from solver.klabberjass.table import deal_table, table_for_hands
from solver.reference import klabberjass_points

S, H, D, C = range(4)
GOLDEN = Path(__file__).resolve().parents[2] / "data" / "klabberjass-deals.jsonl"


def h(text: str) -> int:
    return parse_holding(text)


def stub(e_points: int):
    """A card-play 'solver' that gives E a fixed number of points, D the rest."""

    def solve(jobs, rules):
        return [e_points] * len(jobs)

    return solve


def row(rows, bidder: int, trump: int):
    (r,) = [x for x in rows if x.bidder == bidder and x.trump == trump]
    return r


# ====================================================================== hand-worked rows


def test_bate_bidder_declares_only_the_run_that_stops_the_opponent() -> None:
    # Trump clubs. E: spades AKQJ (50) + hearts 987 (20) + 8D 8C 7C.
    # D: diamonds KQJT (50) + spades 987 (20) + clubs A J 9.
    e, d = h("AKQJ.987.8.87"), h("987..KQJT.AJ9")
    # Card points in the cards: E A11 K4 Q3 J2 = 20; D K4 Q3 J2 T10 = 19 and trump
    # A11 J20 9(Menel)14 = 45, so 64; with the last trick 20 + 64 + 10 = 94.
    # The stub gives E no card point: E 0, D 94.
    rows = table_for_hands((e, d), parse_card("7S"), SEED, trumps=[C], solver=stub(0))
    r = row(rows, 0, C)
    # E bidder. Declaring nothing: D's runs score 70, B 0 < O 164, D scores 164.
    # Declaring both runs: AKQJ beats KQJT (A-high), B 70 < O 94, D scores 164.
    # Declaring AKQJ alone: B 50 < O 94, D scores 50 + 94 = 144, the best for E.
    assert r.card_points == (0, 94)
    assert [str(x) for x in r.declared[0]] == ["AKQJS"]
    assert [str(x) for x in r.declared[1]] == ["987S", "KQJTD"]  # the opponent declares all
    assert (r.sequences, r.score, r.result) == ((50, 0), (0, 144), "bate")
    r = row(rows, 1, C)
    # D bidder. E declares AKQJ + 987 = 70 and his AKQJ beats anything D has, so D's
    # runs cannot score: D declares nothing. B 94 > O 0 + 70: made, 70 and 94.
    assert r.declared[1] == () and (r.sequences, r.score, r.result) == ((70, 0), (70, 94), "made")


def test_full_sequence_tie_and_card_point_tie() -> None:
    # Trump diamonds. E: spades KQJ, D: hearts KQJ: both 20, K-high, both plain.
    e, d = h("KQJ..."), h(".KQJ..")
    # Cards: E K4 Q3 J2 = 9, D the same 9; + 10 = 28. The stub gives E 14, D 14.
    rows = table_for_hands((e, d), parse_card("7D"), SEED, trumps=[D], solver=stub(14))
    for bidder in (0, 1):
        r = row(rows, bidder, D)
        # The bidder must declare his run to stop the opponent's: undeclared, the
        # opponent's KQJ would score 20 and leave the bidder bate at 14 against 34.
        # Declared, the runs tie fully and nobody scores sequences; B 14 = O 14: a
        # tie, the bidder scores nothing and the opponent his 14.
        assert len(r.declared[bidder]) == 1 and len(r.declared[1 - bidder]) == 1
        assert (r.sequences, r.result) == ((0, 0), "tie")
        assert r.score == ((0, 14) if bidder == 0 else (14, 0))


def test_trump_run_wins_the_tie_and_bella() -> None:
    # Trump spades: E's KQJ is trump, D's KQJ plain: E's run wins.
    e, d = h("KQJ..."), h(".KQJ..")
    # Cards: E K4 Q3 J(Jass)20 = 27, D 9; + 10 = 46. The stub gives E 14: D 32.
    for rules, bella in ((SEED, 50), (CLASSIC, 20)):
        rows = table_for_hands((e, d), parse_card("7S"), rules, trumps=[S], solver=stub(14))
        r = row(rows, 0, S)
        # E bidder: 14 + 20 (run) + Bella (K and Q of trump) = 84 (seed) or 54 (classic)
        # against 32: made
        assert r.bella == (bella, 0) and r.sequences == (20, 0)
        assert (r.score, r.result) == ((34 + bella, 32), "made")
        r = row(rows, 1, S)
        # D bidder: E declares run and Bella: 34 + bella > 32: bate, E scores 66 + bella
        assert (r.score, r.result) == ((66 + bella, 0), "bate")
        assert r.bella_declared == (True, False)


def test_bate_bidder_sinks_bella_but_not_when_it_makes() -> None:
    # Trump hearts; D holds K and Q of hearts, E holds nothing of value in hearts.
    e, d = h("AT..AT."), h(".KQ.98.")
    # Cards: E 11 + 10 + 11 + 10 = 42, D K4 Q3 = 7; + 10 = 59.
    rows = table_for_hands((e, d), parse_card("7H"), SEED, trumps=[H], solver=stub(52))
    r = row(rows, 1, H)
    # E 52, D 7. D bidder: with Bella 57 < 52? no, 57 > 52: made! D announces Bella:
    # each scores his own, E 52, D 57.
    assert (r.bella, r.score, r.result) == ((0, 50), (52, 57), "made")
    rows = table_for_hands((e, d), parse_card("7H"), SEED, trumps=[H], solver=stub(59))
    r = row(rows, 1, H)
    # E 59, D 0. With Bella D has 50 < 59: bate, E would score 109; without it B 0 < 59,
    # E scores 59: D sinks his Bella.
    assert (r.bella, r.bella_declared, r.score) == ((0, 0), (False, False), (59, 0))


def test_engine_rows_of_a_real_deal() -> None:
    # E = KQ9.97.AJ7.9 (K and Q of spades), D = J7.JT8.K9.87; no runs in either hand.
    deal = Deal.parse("E=Q9.9.AJ7./K.7..9 D=J7.J8.K.7/.T.9.8 turn=8S")
    spades = [r for r in deal_table(deal, SEED) if r.trump == S]
    # Double-dummy card points with spades trump: E 39, D 41 (checked in the golden
    # file). E bidder: 39 + Bella 50 = 89 > 41: made, 89 and 41.
    # D bidder: 41 < 39 + 50: bate, E scores 41 + 89 = 130.
    assert [(r.card_points, r.score, r.result) for r in spades] == [
        ((39, 41), (89, 41), "made"),
        ((39, 41), (130, 0), "bate"),
    ]
    # classic: Bella 20: 59 > 41 made; D bidder bate, E scores 41 + 59 = 100
    spades = [r for r in deal_table(deal, CLASSIC) if r.trump == S]
    assert [r.score for r in spades] == [(59, 41), (100, 0)]


def test_dix_taken_by_the_opponent_and_sinking() -> None:
    # Classic, trump diamonds (the turn-up QD). E = Q9.KJ9.T98.7 has the trump run T98;
    # D = AKT7.QT7.K7. holds 7D: exchanging it gives him QD, so K and Q: Bella 20.
    deal = Deal.parse("E=9.KJ.98.7/Q.9.T. D=AK7.Q.K7./T.T7.. turn=QD trump=D")
    e_row, d_row = deal_table(deal, CLASSIC)
    # E bidder, D exchanges: card points E 41, D 47 (double dummy, golden file).
    # If E declared T98: 61 < 47 + 20 = 67, bate, D scores 128; sinking it: 41 < 67,
    # D scores 108: E sinks. Had D kept the 7 (card points E 38, D 47, as under the
    # seed rules), E would declare T98, 58 > 47, made, and D would score only 47:
    # so D exchanges.
    assert (e_row.dix, e_row.card_points, e_row.declared[0]) == (1, (41, 47), ())
    assert (e_row.score, e_row.result) == ((0, 108), "bate")
    # D bidder: exchanging gives 47 + 20 = 67 > 41 + 20 = 61: made, 61 and 67;
    # keeping the 7 gives 47 < 38 + 20: bate. D exchanges.
    assert (d_row.dix, d_row.score, d_row.result) == (1, (61, 67), "made")


def test_dix_refused_by_the_bidder() -> None:
    # Classic, trump hearts (turn-up 9H, Menel); D holds 7H.
    deal = Deal.parse("E=KT.K8.Q.T/.J.8.A D=A7.T7..J8/.Q.9.7 turn=9H trump=H")
    e_row, d_row = deal_table(deal, CLASSIC)
    # E bidder: D exchanges (43 against 69 is better for him than 31 against 67).
    assert (e_row.dix, e_row.card_points, e_row.score) == (1, (69, 43), (69, 43))
    # D bidder: with the exchange 43 < 69, E scores 112; without it 31 < 67, E scores
    # 98: D keeps his 7.
    assert (d_row.dix, d_row.card_points, d_row.score) == (None, (67, 31), (98, 0))
    # no dix at all under the seed rules
    assert all(r.dix is None for r in deal_table(deal, SEED))


def test_opponent_weighs_the_dix_by_the_difference() -> None:
    # Classic, trump clubs (turn-up AC), D bidder; E holds 7C. No runs, no Bella.
    deal = Deal.parse("E=T.J9.AT.7/8.A..8 D=AK.Q7..JT/7.KT.. turn=AC trump=C bidder=D")
    (r,) = deal_table(deal, CLASSIC)
    # Keeping the 7: E 40, D 76, made: E scores 40 and is 36 behind.
    # Exchanging it for the ace: E 43, D 84: E would score 3 more but be 41 behind.
    # E keeps the 7: the opponent weighs the dix as the bidder weighs his
    # declarations, by his score minus the other's (a decision of ours, see
    # solver.klabberjass.table).
    assert (r.dix, r.card_points, r.score, r.result) == (None, (40, 76), (40, 76), "made")
    swapped = exchange_dix(deal.hands, deal.turn, 0)
    (alt,) = table_for_hands(swapped, deal.turn, CLASSIC, trumps=[C], bidders=[1])
    assert (alt.card_points, alt.score) == ((43, 84), (43, 84))


def test_fixed_contract_rows() -> None:
    deal = Deal.parse("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C")
    full = deal_table(deal, SEED)
    assert [(r.trump, r.bidder) for r in full] == [(t, b) for t in range(4) for b in (0, 1)]
    only = deal_table(deal.with_contract(bidder=1, trump=H), SEED)
    assert only == [row(full, 1, H)]
    assert deal_table(deal.with_contract(bidder=0), SEED) == [r for r in full if r.bidder == 0]
    assert deal_table(deal.with_contract(trump=D), SEED) == [r for r in full if r.trump == D]


# ====================================================================== from scratch

NATURAL = "AKQJT987"
POINTS_PLAIN = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
POINTS_TRUMP = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}


def scratch_runs(hand: int) -> list[tuple[str, str]]:
    """(suit letter, ranks high to low) for every maximal run of 3+ in natural order."""
    out = []
    for suit in SUITS:
        held = "".join(r if hand >> parse_card(r + suit) & 1 else " " for r in NATURAL)
        out += [(suit, part) for part in held.split() if len(part) >= 3]
    return out


def scratch_key(run: tuple[str, str], trump: str, rules: Rules) -> tuple[int, int, bool]:
    suit, ranks = run
    value = rules.run3 if len(ranks) == 3 else rules.run4
    return (value, -NATURAL.index(ranks[0]), suit == trump)


def scratch_value(run: tuple[str, str], rules: Rules) -> int:
    return rules.run3 if len(run[1]) == 3 else rules.run4


def scratch_row(hands: tuple[int, int], turn: int, trump: int, bidder: int, rules: Rules):
    """(card points, score, result, dix seat) worked out from nothing but the rules."""
    t = SUITS[trump]
    options = [(hands, None)]
    seven = parse_card("7" + t)
    if rules.dix and card_str(turn)[1] == t and card_str(turn)[0] != "7":
        for seat in (0, 1):
            if hands[seat] >> seven & 1:
                swapped = list(hands)
                swapped[seat] = hands[seat] - (1 << seven) + (1 << turn)
                options.append(((swapped[0], swapped[1]), seat))
    results = []
    for hs, who in options:
        e_pts, d_pts = klabberjass_points(Position(trump, 0, hs), rules)
        cp = (e_pts, d_pts)
        opp = 1 - bidder
        opp_runs = scratch_runs(hs[opp])
        bella_of = [
            rules.bella
            if hs[s] >> parse_card("K" + t) & 1 and hs[s] >> parse_card("Q" + t) & 1
            else 0
            for s in (0, 1)
        ]
        own_runs = scratch_runs(hs[bidder])
        best = None
        for k in range(len(own_runs) + 1):
            for chosen in combinations(own_runs, k):
                for bella in {0, bella_of[bidder]}:
                    mine = max((scratch_key(r, t, rules) for r in chosen), default=None)
                    theirs = max((scratch_key(r, t, rules) for r in opp_runs), default=None)
                    seq_b = seq_o = 0
                    if mine is not None and (theirs is None or mine > theirs):
                        seq_b = sum(scratch_value(r, rules) for r in chosen)
                    elif theirs is not None and (mine is None or theirs > mine):
                        seq_o = sum(scratch_value(r, rules) for r in opp_runs)
                    big_b = cp[bidder] + seq_b + bella
                    big_o = cp[opp] + seq_o + bella_of[opp]
                    if big_b > big_o:
                        sb, so, res = big_b, big_o, "made"
                    elif big_b < big_o:
                        sb, so, res = 0, big_b + big_o, "bate"
                    else:
                        sb, so, res = 0, big_o, "tie"
                    rank = (sb - so, sb, -k - (bella > 0))
                    if best is None or rank > best[0]:
                        best = (rank, sb, so, res)
        assert best is not None
        score = (best[1], best[2]) if bidder == 0 else (best[2], best[1])
        results.append((best[0][0], score, cp, best[3], who))
    chosen_result = results[0]
    for alt in results[1:]:
        holder = alt[4]
        sign = 1 if holder == bidder else -1
        if (sign * (alt[0] - chosen_result[0]), alt[1][holder] - chosen_result[1][holder]) > (0, 0):
            chosen_result = alt
    _, score, cp, res, who = chosen_result
    return cp, score, res, who


def reduced_deal(rng: random.Random) -> tuple[tuple[int, int], int]:
    """3 or 4 cards a hand from two or three suits, so runs, Bella and the dix occur."""
    n = rng.choice((3, 4))
    suits = rng.sample(range(4), rng.choice((2, 3)))
    pool = [c for c in range(64) if PACK >> c & 1 and c >> 4 in suits]
    cards = rng.sample(pool, 2 * n + 1)
    turn = cards[-1]
    return (sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n : 2 * n])), turn


def reference_solver(jobs, rules):
    return [klabberjass_points(Position(t, 0, (e, d)), rules)[0] for e, d, t in jobs]


@pytest.mark.parametrize("rules", [SEED, CLASSIC], ids=["seed", "classic"])
def test_table_matches_a_from_scratch_computation(rules: Rules) -> None:
    rng = random.Random(2024)
    seen = {"runs": 0, "bella": 0, "dix": 0, "sunk": 0, "tie": 0}
    for _ in range(150):
        hands, turn = reduced_deal(rng)
        seven_holder = None
        for seat in (0, 1):
            if hands[seat] >> (turn & ~15 | RANKS.index("7")) & 1:
                seven_holder = seat
        dix = {turn >> 4: seven_holder} if rules.dix else None
        rows = table_for_hands(hands, turn, rules, solver=reference_solver, dix=dix)
        assert rows == table_for_hands(hands, turn, rules, dix=dix)  # the engine agrees
        for r in rows:
            cp, score, result, who = scratch_row(hands, turn, r.trump, r.bidder, rules)
            assert (r.card_points, r.score, r.result, r.dix) == (cp, score, result, who), (
                f"{hands} {card_str(turn)} trump {SUITS[r.trump]} bidder {r.bidder}"
            )
            seen["runs"] += any(r.sequences)
            seen["bella"] += any(r.bella)
            seen["dix"] += r.dix is not None
            seen["tie"] += r.result == "tie"
            b = r.bidder
            hand = hands[b]
            if r.dix == b:
                hand = hand & ~(1 << (turn & ~15 | RANKS.index("7"))) | 1 << turn
            held_bella = all(hand >> (16 * r.trump + RANKS.index(x)) & 1 for x in "KQ")
            sunk_bella = held_bella and not r.bella_declared[b]
            seen["sunk"] += len(r.declared[b]) < len(scratch_runs(hand)) or sunk_bella
    # the sample exercises every rule
    assert seen["runs"] > 20 and seen["bella"] > 5 and seen["tie"] > 0 and seen["sunk"] > 0
    assert (seen["dix"] > 5) == rules.dix


# ====================================================================== golden


def golden_rows() -> list[dict]:
    return [json.loads(line) for line in GOLDEN.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize(
    "golden", golden_rows(), ids=[f"{g['rules']}-{i // 2}" for i, g in enumerate(golden_rows())]
)
def test_golden_deal_tables(golden: dict) -> None:
    rules = Rules.preset(golden["rules"])
    got = [r.to_json() for r in deal_table(Deal.parse(golden["deal"]), rules)]
    assert len(got) == len(golden["table"])
    for mine, want in zip(got, golden["table"], strict=True):
        assert {k: mine[k] for k in want} == want
        assert list(mine["score"]) == list(want["score"])  # bidder first, as printed


def test_golden_file_is_complete() -> None:
    rows = golden_rows()
    assert len(rows) == 60
    assert {g["rules"] for g in rows} == {"seed", "classic"}
