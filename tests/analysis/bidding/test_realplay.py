"""The ``klabberjass-realplay`` study and PIMC bid evaluation (analysis.bidding.realplay):
the double-dummy side is the deal table's, the PIMC side is legal, complete and scored
with the same declarations, everything reproducible from its seed."""

from __future__ import annotations

import random

import pytest

from analysis.bidding.klabberjass import (
    RESULT_CODE,
    BidView,
    bidding_chunk,
    column,
    deal_tables,
    evaluate_view,
    net_of,
    rules_of,
    sample_worlds,
)
from analysis.bidding.realplay import (
    dd_policies,
    evaluate_view_pimc,
    pimc_policy,
    play_key,
    played_row,
    realplay_chunk,
    realplay_table,
    row_play,
    score_row,
    shared_policy,
)
from analysis.play import play_deal
from analysis.studies import StudyError, chunk_rng, read_study, run_study
from solver.cards import RANKS, cards_of, make_card, suit_of
from solver.klabberjass.deal import Deal
from solver.klabberjass.position import Position
from solver.klabberjass.rules import points_of

CONTRACTS = [(b, t) for b in (0, 1) for t in range(4)]


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_double_dummy_columns_are_the_bidding_table(rules):
    """The same generator deals the same deals as ``klabberjass-bidding``: the double-dummy
    net and result are that study's, the card points the deal table's."""
    real = realplay_chunk(random.Random(5), 10, 6, {"rules": rules, "samples": 2})
    table = bidding_chunk(random.Random(5), 10, 6, {"rules": rules})
    for key in ("deal", "e6", "e3", "d6", "d3", "turn", "bottom"):
        assert real[key] == table[key]
    for b, t in CONTRACTS:
        assert real[column("dd_net", b, t)] == table[column("net", b, t)]
        assert real[column("dd_res", b, t)] == table[column("res", b, t)]
    deals = [
        Deal((e6 | e3, d6 | d3), turn, (e6, d6), bottom)
        for e6, e3, d6, d3, turn, bottom in zip(
            *(real[k] for k in ("e6", "e3", "d6", "d3", "turn", "bottom")), strict=True
        )
    ]
    for i, rows in enumerate(deal_tables(deals, rules_of(rules))):
        for row in rows:
            cp = real[column("dd_cp", row.bidder, row.trump)][i]
            assert cp == row.card_points[row.bidder]


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_a_row_scored_with_its_own_card_points_is_the_row(rules):
    deals = [Deal.random(s) for s in range(30)]
    for deal, rows in zip(deals, deal_tables(deals, rules_of(rules)), strict=True):
        for row in rows:
            s = score_row(row, row.card_points)
            assert (s.net, s.result) == (net_of(row), RESULT_CODE[row.result])
            # and double-dummy play through the same path gives the table's row back
            assert played_row(deal, row, dd_policies(), rules_of(rules)) == s


def _dix_rows(rules):
    deals = [Deal.random(s) for s in range(60)]
    for deal, rows in zip(deals, deal_tables(deals, rules), strict=True):
        for j, row in enumerate(rows):
            if row.dix is not None:
                yield deal, j, row


def test_after_the_dix_the_seven_is_out_of_play_and_the_turn_up_known():
    rules = rules_of("classic")
    found = 0
    for deal, _, row in _dix_rows(rules):
        kw = row_play(deal, row, rules)
        seven = make_card(suit_of(deal.turn), RANKS.index("7"))
        assert kw["turn"] == seven and not (kw["hands"][0] | kw["hands"][1]) >> seven & 1
        assert kw["hands"][row.dix] >> deal.turn & 1 and kw["shown"][row.dix] >> deal.turn & 1
        assert kw["bottom"] == deal.bottom  # the classic rules show it
        found += 1
    assert found > 0


@pytest.mark.parametrize("rules", ["seed", "classic"])
def test_pimc_play_is_legal_complete_and_scored_with_the_rows_declarations(rules):
    r = rules_of(rules)
    deals = [Deal.random(200 + s) for s in range(3)]
    tables = list(zip(deals, deal_tables(deals, r), strict=True))
    if rules == "classic":  # two deals where a dix takes place
        seen: list[Deal] = []
        for d, _, _ in _dix_rows(r):
            if d not in seen:
                seen.append(d)
        tables += list(zip(seen[:2], deal_tables(seen[:2], r), strict=True))
        assert any(row.dix is not None for _, rows in tables for row in rows)
    for deal, rows in tables:
        study = realplay_table(deal, rows, 6, 99, r)
        for j, row in enumerate(rows):
            kw = row_play(deal, row, r)
            policy = pimc_policy(6, 99, j)
            played = play_deal(
                kw["hands"], row.trump, kw["turn"], (policy, policy), rules=r,
                shown=kw["shown"], bottom=kw["bottom"],
            )  # fmt: skip
            both = kw["hands"][0] | kw["hands"][1]
            assert sorted(played.cards) == sorted(cards_of(both))
            pos, points = Position(row.trump, 0, kw["hands"]), [0, 0]
            for card in played.cards:  # Position.step refuses an illegal card
                pos, winner, pts = pos.step(card, r)
                if winner is not None:
                    points[winner] += pts
            assert tuple(points) == played.points
            assert sum(points) == points_of(both, row.trump) + r.last_trick
            # the study's PIMC side is this play, scored with the row's declarations
            s = score_row(row, played.points)
            assert study[j][1] == s
            b, o = row.bidder, 1 - row.bidder
            big_b = played.points[b] + row.sequences[b] + row.bella[b]
            big_o = played.points[o] + row.sequences[o] + row.bella[o]
            assert s.result == (big_b > big_o) - (big_b < big_o)
            if big_b > big_o:
                assert s.net == big_b - big_o
            else:
                assert s.net == (-(big_b + big_o) if big_b < big_o else -big_o)


def test_study_is_deterministic_and_pimc_differs_from_double_dummy():
    params = {"rules": "seed", "samples": 4}
    a = realplay_chunk(random.Random(3), 0, 8, params)
    assert realplay_chunk(random.Random(3), 0, 8, params) == a
    cols = [(column("dd_cp", b, t), column("pimc_cp", b, t)) for b, t in CONTRACTS]
    assert any(a[dd] != a[pimc] for dd, pimc in cols)
    # each contract is replayed alone from its deal's seed
    other = realplay_chunk(random.Random(4), 0, 8, params)
    assert any(a[pimc] != other[pimc] for _, pimc in cols)


def test_shared_play_is_each_row_played_alone_from_its_keys_seed():
    """``play_seed=shared``: every row scores what its own play from its key's seed
    gives, whichever row of the key was played: the play does not depend on the
    bidder. On these deals some rows share a play and some keys differ by bidder."""
    rules = rules_of("seed")
    deals = [Deal.random(s) for s in range(6)]
    shared_rows = split = 0
    for deal, table in zip(deals, deal_tables(deals, rules), strict=True):
        got = realplay_table(deal, table, 4, 99, rules, "shared")
        keys = [play_key(row, row_play(deal, row, rules)) for row in table]
        for row, key, (_, pimc) in zip(table, keys, got, strict=True):
            policy = shared_policy(4, 99, key)
            assert played_row(deal, row, (policy, policy), rules) == pimc
        shared_rows += len(keys) - len(set(keys))
        split += sum(keys[2 * t] != keys[2 * t + 1] for t in range(4))  # E, D per trump
    assert shared_rows > 0 and split > 0
    # the default seeds every row alone, as the published tables were made
    deal, table = deals[0], deal_tables(deals[:1], rules)[0]
    rows = realplay_table(deal, table, 4, 99, rules)
    for j, (row, (_, pimc)) in enumerate(zip(table, rows, strict=True)):
        policy = pimc_policy(4, 99, j)
        assert played_row(deal, row, (policy, policy), rules) == pimc


def test_the_study_takes_the_shared_play_and_checks_it(tmp_path):
    params = {"samples": 3, "play_seed": "shared"}
    a = realplay_chunk(random.Random(5), 0, 4, params)
    assert a == realplay_chunk(random.Random(5), 0, 4, params)
    assert a != realplay_chunk(random.Random(5), 0, 4, {"samples": 3})
    with pytest.raises(StudyError, match="invalid play_seed 'both'"):
        run_study(
            "klabberjass-realplay", 3, 1, tmp_path / "x", workers=1,
            params={"play_seed": "both"},
        )  # fmt: skip


def test_a_tiny_study_runs_and_its_params_are_checked_first(tmp_path):
    out = tmp_path / "real"
    run_study(
        "klabberjass-realplay", 3, 1, out, workers=1, progress=False, chunk_size=2,
        params={"samples": "3"},
    )  # fmt: skip
    df = read_study(out)
    assert list(df["deal"]) == [0, 1, 2]
    first = realplay_chunk(chunk_rng("klabberjass-realplay", 1, 0), 0, 2, {"samples": 3})
    second = realplay_chunk(chunk_rng("klabberjass-realplay", 1, 1), 2, 1, {"samples": 3})
    for key, values in first.items():
        assert list(df[key]) == values + second[key]
    text = read_study(out, readable=True)
    assert set(text["pimc_res_EC"]) <= {"made", "tie", "bate"}
    bad = tmp_path / "bad"
    with pytest.raises(StudyError, match="invalid samples '0'"):
        run_study("klabberjass-realplay", 3, 1, bad, workers=1, params={"samples": 0})
    assert not bad.exists()


def test_pimc_bid_evaluation_uses_the_same_worlds_and_its_own_play():
    view = BidView.parse("seat=E hand=AT7.KJ9.. turn=QD")
    pimc = evaluate_view_pimc(view, 6, seed=2, play_samples=4)
    calls: list[tuple[int, int]] = []
    again = evaluate_view_pimc(view, 6, seed=2, play_samples=4, progress=lambda *a: calls.append(a))
    assert pimc == again and calls == [(k, 6) for k in range(1, 7)]
    dd = evaluate_view(view, 6, seed=2)
    assert sorted(pimc) == sorted(dd) and all(e.n == 6 for e in pimc.values())
    # recomputed by hand: the same worlds, each contract played by its PIMC policy
    rng = random.Random(2)
    worlds = sample_worlds(view, 6, rng)
    seeds = [rng.getrandbits(64) for _ in worlds]
    takes = []
    for world, rows, seed in zip(worlds, deal_tables(worlds, rules_of("seed")), seeds,
                                 strict=True):  # fmt: skip
        j = next(j for j, r in enumerate(rows) if r.bidder == 0 and r.trump == view.turn >> 4)
        policy = pimc_policy(4, seed, j)
        takes.append(played_row(world, rows[j], (policy, policy), rules_of("seed")).net)
    assert pimc["take"].mean == pytest.approx(sum(takes) / 6)
