"""Simulated matches: scoring against hand-worked games, seats alternating, declarations,
double-dummy play against the deal table, PIMC play, determinism by seed."""

from __future__ import annotations

import random

import pytest

from analysis.bidding.carabin import always_policy, contract_result
from analysis.matches import (
    KLABBERJASS_POLICIES,
    DealRecord,
    carabin_match,
    carabin_matches_chunk,
    carabin_play_pimc,
    carabin_summary,
    declarations,
    klabberjass_auction,
    klabberjass_deal,
    klabberjass_match,
    klabberjass_matches_chunk,
    klabberjass_summary,
    play_dd,
    play_mixed,
    play_pimc,
)
from solver.carabin import Call, Contract
from solver.carabin import Deal as CDeal
from solver.carabin import Match as CGame
from solver.carabin import Rules as CRules
from solver.cards import parse_holding
from solver.klabberjass import SEED
from solver.klabberjass.deal import Deal, has_bella, runs, score_deal
from solver.klabberjass.table import deal_table

pd = pytest.importorskip("pandas")
P = KLABBERJASS_POLICIES


def scripted(scores):
    """A deal function that returns the given (E, D) scores in turn and records who sat E."""
    it = iter(scores)
    seen = []

    def deal_fn(deal, policies, rng, **kwargs):
        seen.append(policies[0].name)
        return DealRecord(next(it), 0, 0, False, "made")

    return deal_fn, seen


def test_klabberjass_match_scoring_hand_worked():
    # A = thumb sits E first. Deal 1: E 300, D 40 -> A 300, B 40. Deal 2 (A sits D):
    # E 0, D 162 (bate of B) -> A 462. Deal 3 (A sits E): E 50, D 120 -> A 512, B 160.
    fn, seen = scripted([(300, 40), (0, 162), (50, 120)])
    m = klabberjass_match(P["thumb"], P["always"], random.Random(1), 0, deal_fn=fn)
    assert m.totals == (512, 160) and m.winner == 0 and m.deals == 3
    assert seen == ["thumb", "always", "thumb"]
    # A sits D first: the same scores now go the other way round
    fn, seen = scripted([(300, 40), (0, 162), (50, 120), (200, 0)])
    m = klabberjass_match(P["thumb"], P["always"], random.Random(1), 1, deal_fn=fn)
    # A: 40 + 0 + 120 = 160 ... B: 300 + 162 + 50 = 512 after three deals
    assert m.totals == (160, 512) and m.winner == 1 and m.deals == 3
    assert seen == ["always", "thumb", "always"]


def test_klabberjass_match_both_over_500_higher_wins_and_ties_go_on():
    fn, _ = scripted([(490, 480), (20, 40), (10, 0)])
    # after deal 2: A (E, then D) = 490 + 40 = 530, B = 480 + 20 = 500: A wins
    m = klabberjass_match(P["thumb"], P["thumb"], random.Random(1), 0, deal_fn=fn)
    assert m.totals == (530, 500) and m.winner == 0 and m.deals == 2
    fn, _ = scripted([(500, 500), (0, 10)])
    # equal totals above 500: another deal decides (A sits D in deal 2 and scores 10)
    m = klabberjass_match(P["thumb"], P["thumb"], random.Random(1), 0, deal_fn=fn)
    assert m.totals == (510, 500) and m.winner == 0 and m.deals == 2


def test_declarations_hand_worked():
    # E: a run AKQ of spades and Bella in hearts; D: a run of four (T987 of clubs)
    e = parse_holding("AKQ.KQ7.9.8")
    d = parse_holding("J.A.AK.T987")
    seqs, bella = declarations((e, d), bidder=0, trump=1, bidder_sinks=False, rules=SEED)
    assert seqs == (0, 50) and bella == (50, 0)  # a run of four beats a run of three
    seqs, bella = declarations((e, d), bidder=0, trump=1, bidder_sinks=True, rules=SEED)
    assert seqs == (0, 50) and bella == (0, 0)
    seqs, bella = declarations((e, d), bidder=1, trump=1, bidder_sinks=True, rules=SEED)
    assert seqs == (20, 0) and bella == (50, 0)  # D sinks his run: E's run scores


def test_dd_deal_equals_the_deal_table_when_nobody_can_sink():
    # without runs or Bella there is nothing to declare: the table's row is the score
    rng = random.Random(5)
    checked = 0
    while checked < 6:
        deal = Deal.random(rng.getrandbits(64))
        t = deal.turn >> 4
        if runs(deal.hands[0]) or runs(deal.hands[1]):
            continue
        if has_bella(deal.hands[0], t) or has_bella(deal.hands[1], t):
            continue
        rec = klabberjass_deal(deal, (P["always"], P["always"]), random.Random(1), play="dd")
        assert (rec.bidder, rec.trump) == (0, t)  # E always takes
        row = next(r for r in deal_table(deal) if (r.bidder, r.trump) == (0, t))
        assert (rec.score, rec.result) == (row.score, row.result)
        checked += 1


def test_dd_deal_scores_declare_all():
    rng = random.Random(11)
    for _ in range(20):
        deal = Deal.random(rng.getrandbits(64))
        rec = klabberjass_deal(deal, (P["always"], P["thumb"]), random.Random(2), play="dd")
        b, t = rec.bidder, rec.trump
        assert b == 0
        cp = play_dd(deal.hands, t, SEED)
        seqs, bella = declarations(deal.hands, b, t, False, SEED)
        assert rec.score == score_deal(b, cp, seqs, bella).score
        assert not rec.sank


def test_auction_thumb_and_always():
    deal = Deal.parse("E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C")
    rng = random.Random(1)
    assert klabberjass_auction(deal, (P["always"], P["thumb"]), rng) == (0, 3)
    # neither holds the Jass or Menel of any suit with enough trumps: annulled
    assert klabberjass_auction(deal, (P["thumb"], P["thumb"]), rng) is None
    # D holds J-8 of clubs: thumb takes after E passes
    deal = Deal.parse("E=AK.K.K8.A/T9..Q. D=8.QT8.9.J/..A.K8 turn=7C")
    assert klabberjass_auction(deal, (P["thumb"], P["thumb"]), rng) is None
    deal = Deal.parse("E=AK.K.K8.A/T9..Q. D=8.QT8..J8/..A9.K turn=7C")
    assert klabberjass_auction(deal, (P["thumb"], P["thumb"]), rng) == (1, 3)


def test_derived_policy_bids_strong_hands_and_sinking_is_decided():
    deal = Deal.parse("E=J9A.A.A.A/KQ...T D=78.78.78./.K.9.K turn=TS")
    rec = klabberjass_deal(deal, (P["derived"], P["thumb"]), random.Random(3), play="dd")
    assert (rec.bidder, rec.trump) == (0, 0)
    assert rec.result == "made" and not rec.sank  # a huge margin: he declares


def test_pimc_play_is_a_legal_full_deal():
    deal = Deal.random(3)
    e, d = play_pimc(deal.hands, 1, deal.turn, 2, random.Random(4), SEED)
    from solver.klabberjass.rules import points_of

    assert e + d == points_of(deal.hands[0] | deal.hands[1], 1) + 10
    assert (e, d) == play_pimc(deal.hands, 1, deal.turn, 2, random.Random(4), SEED)


def test_alphamu_play_is_a_legal_full_deal():
    """play_deal refuses an illegal card: a whole deal per seat's card play, the same
    for the same stream."""
    from solver.klabberjass.rules import points_of

    deal = Deal.random(5)
    for plays in (("alphamu", "pimc"), ("pimc", "alphamu"), ("alphamu", "alphamu")):
        e, d = play_mixed(deal.hands, 2, deal.turn, plays, 3, 2, random.Random(4), SEED)
        assert e + d == points_of(deal.hands[0] | deal.hands[1], 2) + 10
        assert (e, d) == play_mixed(deal.hands, 2, deal.turn, plays, 3, 2, random.Random(4), SEED)


def test_matches_with_alphamu_card_play():
    """play=alphamu for both, or play_a= for one player (a duplicate of one bidding
    policy against itself then compares card play alone); bad combinations refused."""
    params = {"a": "thumb", "b": "thumb", "play": "pimc", "samples": 3, "sink_samples": 2}
    one = klabberjass_matches_chunk(
        random.Random(3), 0, 1, {**params, "format": "duplicate", "play_a": "alphamu"}
    )
    assert one["leg"] == [0, 1] and all(n >= 1 for n in one["common_deals"])
    both = klabberjass_matches_chunk(random.Random(3), 0, 1, {**params, "play": "alphamu"})
    assert both["deals"][0] >= 1
    with pytest.raises(ValueError, match="play_b 'dd'"):
        klabberjass_matches_chunk(random.Random(3), 0, 1, {**params, "play_b": "dd"})
    with pytest.raises(ValueError, match="both players or neither"):
        klabberjass_matches_chunk(
            random.Random(3), 0, 1, {**params, "play": "dd", "play_a": "alphamu"}
        )
    with pytest.raises(ValueError, match="inference"):
        klabberjass_matches_chunk(
            random.Random(3), 0, 1, {**params, "play": "alphamu", "inference": "a"}
        )


def test_carabin_matches_with_alphamu_card_play():
    """plays= gives each policy entry its card play (labelled when it is not play's);
    with the same seeds, an all-PIMC plays= is the default play; bad values quoted."""
    from analysis.matches import carabin_matches_chunk

    params = {"players": 3, "policies": "always,always,always", "play": "pimc",
              "samples": 2, "format": "duplicate", "max_deals": 40}  # fmt: skip
    mixed = carabin_matches_chunk(
        random.Random(5), 0, 1, {**params, "plays": "alphamu,pimc,pimc", "depth": 2}
    )
    assert sorted(set(mixed["policy"])) == ["always", "always+alphamu"]
    assert max(mixed["seating"]) == 2  # the αμ player sits in each seat once
    assert mixed["policy"].count("always+alphamu") == 3
    same = carabin_matches_chunk(random.Random(5), 0, 1, {**params, "plays": "pimc,pimc,pimc"})
    assert same == carabin_matches_chunk(random.Random(5), 0, 1, params)
    every = carabin_matches_chunk(random.Random(5), 0, 1, {**params, "play": "alphamu"})
    assert set(every["policy"]) == {"always"}
    for bad, quoted in (
        ({"plays": "alphamu,dd,pimc"}, "invalid plays 'alphamu,dd,pimc'"),
        ({"plays": "alphamu,pimc"}, "invalid plays 'alphamu,pimc'"),
        ({"play": "dd", "plays": "alphamu,pimc,pimc"}, "needs play=pimc"),
        ({"play": "fast"}, "unknown play 'fast'"),
        ({"plays": "alphamu,pimc,pimc", "inference": "a"}, "inference=a"),
    ):
        with pytest.raises(ValueError, match=quoted):
            carabin_matches_chunk(random.Random(5), 0, 1, {**params, **bad})


def test_match_study_chunk_is_deterministic_and_summarised():
    params = {"a": "derived", "b": "thumb", "play": "dd", "samples": 2, "sink_samples": 4}
    a = klabberjass_matches_chunk(random.Random(9), 0, 4, params)
    b = klabberjass_matches_chunk(random.Random(9), 0, 4, params)
    assert a == b
    assert a["a_first_seat"] == [0, 1, 0, 1]
    for ta, tb, w in zip(a["total_a"], a["total_b"], a["a_wins"], strict=True):
        assert max(ta, tb) >= 500 and w == (ta > tb)
    s = klabberjass_summary(pd.DataFrame(a))
    assert s["matches"] == 4 and s["low"] <= s["a_win_rate"] <= s["high"]
    pimc = klabberjass_matches_chunk(random.Random(9), 0, 1, {**params, "play": "pimc"})
    assert pimc["deals"][0] >= 1
    with pytest.raises(ValueError):
        klabberjass_matches_chunk(random.Random(9), 0, 1, {**params, "rules": "classic"})


def test_carabin_match_replayed_by_hand():
    # every seat bids "always": seat 0 takes the turn-up suit every deal; replay the game
    n = 3
    m = carabin_match([always_policy] * n, random.Random(6))
    rng = random.Random(6)
    game = CGame(CRules(players=n))
    deals = 0
    while not game.is_over:
        deal = CDeal.random(players=n, rng=random.Random(rng.getrandbits(64)))
        made, _ = contract_result(deal, 0, deal.turn >> 4)
        game = game.record(Contract(0, deal.turn >> 4), made)
        deals += 1
    assert (m.scores, m.winners, m.deals) == (game.scores, game.winners, deals)
    assert sum(m.bids) == deals
    with pytest.raises(RuntimeError):
        carabin_match([lambda v, r, s: Call("pass")] * 3, random.Random(1), max_deals=5)


def test_carabin_pimc_play_makes_a_sure_chelem_and_fails_a_hopeless_one():
    deal = CDeal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H")
    assert carabin_play_pimc(deal, Contract(0, 0, True), 1, random.Random(1))
    assert not carabin_play_pimc(deal, Contract(1, 0), 1, random.Random(1))


def test_carabin_match_chunk_rotates_policies_and_shares_wins():
    params = {"players": 3, "policies": "thumb,always", "play": "dd", "samples": 1}
    cols = carabin_matches_chunk(random.Random(2), 0, 4, params)
    df = pd.DataFrame(cols)
    assert cols == carabin_matches_chunk(random.Random(2), 0, 4, params)
    for _, part in df.groupby("match"):
        assert part["win"].sum() == pytest.approx(1.0)
        assert part["score"].max() >= 10
    assert list(df[df.match == 0].policy) == ["thumb", "always", "thumb"]
    assert list(df[df.match == 1].policy) == ["always", "thumb", "always"]
    rows = {r["policy"]: r for r in carabin_summary(df)}
    assert set(rows) == {"thumb", "always"}
    assert rows["thumb"]["seats"] + rows["always"]["seats"] == 12


def test_match_studies_run_and_resume_through_the_runner(tmp_path, capsys):
    from analysis.cli.main import main
    from analysis.studies import read_study, run_study

    out = tmp_path / "km"
    argv = ["study", "klabberjass-matches", "--deals", "4", "--seed", "3", "--out", str(out)]
    argv += ["--param", "play=dd", "--workers", "1", "--chunk-size", "2", "--quiet"]
    assert main(argv) == 0
    assert "2 computed now" in capsys.readouterr().out
    df = read_study(out)
    assert list(df["match"]) == [0, 1, 2, 3] and set(df["b"]) == {"thumb"}
    assert main(argv) == 0  # resumed: nothing left to do
    assert "0 computed now, 2 already there" in capsys.readouterr().out
    run = run_study(
        "carabin-matches",
        2,
        3,
        tmp_path / "cm",
        workers=1,
        progress=False,
        params={"players": 3, "policies": "thumb,always"},
    )
    assert run.computed == 1 and len(read_study(tmp_path / "cm")) == 2 * 3


def test_the_scorecard_policy_bids_as_the_published_card_says():
    from analysis.bidding.scorecard import load
    from analysis.matches import bid_intent

    card = load()
    rng = random.Random(3)
    seen = set()
    for k in range(60):
        deal = Deal.random(k)
        for seat in (0, 1):
            hand = deal.first[seat]
            advice = card.advise(seat, hand, deal.turn)
            want = (advice["take"]["bid"], advice["name"]["bid"], advice["name"]["suit"])
            assert bid_intent(P["scorecard"], hand, seat, deal.turn, rng) == want
            seen.add(want[:2])
        got = klabberjass_auction(deal, (P["scorecard"], P["scorecard"]), rng)
        e = card.advise(0, deal.first[0], deal.turn)
        d = card.advise(1, deal.first[1], deal.turn)
        if e["take"]["bid"]:
            assert got == (0, deal.turn >> 4)
        elif d["take"]["bid"]:
            assert got == (1, deal.turn >> 4)
        elif e["name"]["bid"]:
            assert got == (0, e["name"]["suit"])
        elif d["name"]["bid"]:
            assert got == (1, d["name"]["suit"])
        else:
            assert got is None
    assert len(seen) >= 3  # the deals drew takes, names and passes


def _holding_deals(n: int, seed: int, bella: bool):
    """Random deals where E, taking the turn-up suit, holds something to declare (and,
    with ``bella``, the trump K and Q)."""
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        deal = Deal.random(rng.getrandbits(64))
        t = deal.turn >> 4
        if has_bella(deal.hands[0], t) if bella else runs(deal.hands[0]):
            found.append(deal)
    return found


def test_the_sinking_policy_declares_as_the_real_play_rule_says(monkeypatch):
    import analysis.matches as m
    from analysis.bidding.sinking_realplay import SinkingRule

    sinker = m.KlabberjassPolicy("sinker", "always", True)  # E always bids: E is bidder
    pols = (sinker, P["thumb"])
    for deal in _holding_deals(6, 21, bella=False):
        t = deal.turn >> 4
        cp = play_dd(deal.hands, t, SEED)

        def score(sinks, bella=None, deal=deal, t=t, cp=cp):
            return score_deal(0, cp, *declarations(deal.hands, 0, t, sinks, SEED, bella)).score

        monkeypatch.setattr(m, "realplay_sinking_rule", lambda: SinkingRule("declare"))
        rec = klabberjass_deal(deal, pols, random.Random(1), play="dd")
        assert (rec.score, rec.sank) == (score(False), False)
        monkeypatch.setattr(m, "realplay_sinking_rule", lambda: SinkingRule("threshold", 1e9))
        rec = klabberjass_deal(deal, pols, random.Random(1), play="dd")
        assert (rec.score, rec.sank) == (score(True), True)
        # the withdrawn margin rule, asked for by name, whatever the real-play rule
        monkeypatch.setattr(m, "realplay_sinking_rule", lambda: SinkingRule("declare"))
        rec = klabberjass_deal(deal, pols, random.Random(1), play="dd", sinking="margin",
                               threshold=1e9)  # fmt: skip
        assert (rec.score, rec.sank) == (score(True), True)
    with pytest.raises(ValueError, match="unknown sinking 'never'"):
        klabberjass_deal(deal, pols, random.Random(1), play="dd", sinking="never")


def test_bella_when_played_declares_the_runs_and_decides_bella_in_play(monkeypatch):
    import analysis.matches as m
    from analysis.bidding.sinking_realplay import BellaDecision, SinkingRule
    from analysis.play import DoubleDummy, play_deal

    monkeypatch.setattr(m, "realplay_sinking_rule", lambda: SinkingRule("bella-when-played"))
    sinker = m.KlabberjassPolicy("sinker", "always", True)
    pols = (sinker, P["thumb"])
    withheld = 0
    for deal in _holding_deals(12, 22, bella=True):
        t = deal.turn >> 4
        rec = klabberjass_deal(deal, pols, random.Random(3), play="dd", sink_samples=4)
        # the same draws by hand: the auction, then the seed of the Bella worlds
        rng = random.Random(3)
        assert klabberjass_auction(deal, pols, rng) == (0, t)
        full = (1 << len(runs(deal.hands[0]))) - 1
        hook = BellaDecision(deal.hands, 0, t, full, 4, rng.getrandbits(64), SEED)
        dd = DoubleDummy()
        cp = play_deal(deal.hands, t, deal.turn, (dd, dd), on_card=hook.observe).points
        assert cp == play_dd(deal.hands, t, SEED)  # card by card double dummy: same points
        seqs, bella = declarations(deal.hands, 0, t, False, SEED, hook.announced)
        assert seqs == declarations(deal.hands, 0, t, False, SEED)[0]  # runs declared
        assert rec.score == score_deal(0, cp, seqs, bella).score
        assert rec.sank == (not hook.announced)
        withheld += rec.sank
    rec = klabberjass_deal(deal, pols, random.Random(3), play="pimc", samples=2, sink_samples=2)
    assert (rec.bidder, rec.trump) == (0, deal.turn >> 4)  # PIMC play with the hook
    assert withheld < 12  # he announces Bella when it pays (here: most deals)


def test_an_older_match_folder_regenerates_with_the_sinking_it_was_played_with():
    from analysis.matches import study_command

    old = {"study": "klabberjass-matches", "seed": 1, "deals": 10, "chunk_size": 10,
           "params": {"a": "derived", "b": "thumb", "play": "dd", "samples": 6,
                      "sink_samples": 12, "rules": "seed"}}  # fmt: skip
    assert study_command("runs/x", old).endswith("--param play=dd --param sinking=margin")
    new = {**old, "params": {**old["params"], "sinking": "realplay"}}
    assert "sinking" not in study_command("runs/x", new)
