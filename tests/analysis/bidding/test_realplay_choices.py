"""The cards the ``klabberjass-realplay`` study plays are pinned: whatever makes
:class:`analysis.play.Pimc` faster must leave every chosen card as it is (same worlds
drawn from the same seeds, same argmax, same tie order), so that a study computed
before a speed change stays valid after it.

Whole contracts of the study (its deals, seeds, declarations, dix and shown cards) are
played by the fast policy and by two slow ones that share nothing with its search:

- ``exact=True``: every candidate solved in every world by the compiled core, the
  totals added here and the argmax taken here;
- a reference: the worlds from the view's own inference, every legal card of every
  world by :func:`solver.klabberjass.engine.move_values`, the greatest total, ties to
  notation order.

Both must play every card of every contract exactly as the fast policy does.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

import pytest

from analysis.bidding.klabberjass import deal_tables
from analysis.bidding.realplay import pimc_policy, realplay_deals, row_play
from analysis.play import DEFAULT_SAMPLES, Hidden, Pimc, PlayState, classes, play_deal
from solver.cards import card_count, in_notation_order
from solver.klabberjass import SEED, Position, Rules, engine
from solver.klabberjass._core import sample_hands


def study_rng(seed: int, contract: int) -> random.Random:
    """The worlds' generator of one contract of a study deal, spelled out here so that a
    change of the study's seeding fails this test too."""
    return random.Random(f"realplay:{seed}:{contract}")


class ExactPimc(Pimc):
    """Pimc with every candidate solved in every world; the choice made here."""

    def decide(self, p, hidden, ks, bonus):  # type: ignore[no-untyped-def]
        seed = self.rng.getrandbits(64)
        trick = -1 if p.trick is None else p.trick
        cands = [k[0] for k in ks]
        _, sums, _, rows = self.core.pimc(
            p.hands[p.to_move], hidden.known, hidden.pool, hidden.need, self.samples, seed,
            p.trump, p.lead, trick, bonus, cands, exact=True,
        )  # fmt: skip
        assert rows is not None and [sum(c) for c in zip(*rows, strict=True)] == sums
        self.stats.decisions += 1
        return cands[sums.index(max(sums))], seed


class ReferencePimc:
    """PIMC the slow way, from the view: a decision is searched (and takes the next 64
    bits of the generator) when the legal cards are not all equivalent; each world's
    legal cards valued by ``engine.move_values``."""

    def __init__(self, samples: int, rng: random.Random, rules: Rules):
        self.samples, self.rng, self.rules = samples, rng, rules
        self.decisions = 0

    def choose(self, state: PlayState) -> int:
        view = state.view()
        inf = view.inference()
        _, _, size, known, _ = inf.hidden[0]
        base = inf.position
        ks = classes(base, Hidden(known, inf.pool, size - card_count(known)))
        if len(ks) == 1:
            return ks[0][0]
        self.decisions += 1
        seed = self.rng.getrandbits(64)
        totals: dict[int, int] = defaultdict(int)
        for drawn in sample_hands(inf.pool, size - card_count(known), self.samples, seed):
            hands = list(base.hands)
            hands[1 - view.seat] = known | drawn
            world = Position(base.trump, base.lead, (hands[0], hands[1]), base.trick)
            for card, v in engine.move_values(world, self.rules).items():
                totals[card] += v
        order = in_notation_order(totals)
        return max(order, key=lambda c: (totals[c], -order.index(c)))


def study_contracts(seed: int, deals: int, rules: Rules) -> list[tuple[dict, int, int]]:
    """(play_deal arguments, play seed, contract index) of every contract of the first
    ``deals`` deals of a study chunk dealt from ``seed``."""
    _, ds, seeds = realplay_deals(random.Random(seed), deals)
    out = []
    for deal, table, s in zip(ds, deal_tables(ds, rules), seeds, strict=True):
        for j, row in enumerate(table):
            out.append((row_play(deal, row, rules), s, j))
    return out


def played(kw: dict, policies: Sequence) -> tuple[int, ...]:
    return play_deal(
        kw["hands"], kw["trump"], kw["turn"], policies,
        rules=kw["rules"], shown=kw["shown"], bottom=kw["bottom"],
    ).cards  # fmt: skip


@pytest.mark.parametrize("rules_name, seed, deals", [("seed", 11, 3), ("classic", 12, 2)])
def test_fast_play_is_the_exact_play(rules_name, seed, deals):
    rules = Rules.preset(rules_name)
    decisions = 0
    for kw, s, j in study_contracts(seed, deals, rules):
        fast = pimc_policy(DEFAULT_SAMPLES, s, j)
        exact = ExactPimc(DEFAULT_SAMPLES, seed=study_rng(s, j))
        assert played(kw, (fast, fast)) == played(kw, (exact, exact)), (s, j)
        assert fast.stats.decisions == exact.stats.decisions
        decisions += fast.stats.decisions
    assert decisions >= 200  # a few hundred decisions searched


def test_fast_play_is_the_reference_play():
    rules = SEED
    decisions = 0
    for kw, s, j in study_contracts(13, 2, rules):
        fast = pimc_policy(DEFAULT_SAMPLES, s, j)
        ref = ReferencePimc(DEFAULT_SAMPLES, study_rng(s, j), rules)
        assert played(kw, (fast, fast)) == played(kw, (ref, ref)), (s, j)
        assert fast.stats.decisions == ref.decisions
        decisions += ref.decisions
    assert decisions >= 150


def test_the_chunk_deals_are_realplay_deals():
    from analysis.bidding.realplay import realplay_chunk

    cols = realplay_chunk(random.Random(4), 0, 2, {})
    cards, _, _ = realplay_deals(random.Random(4), 2)
    names = ("e6", "e3", "d6", "d3", "turn", "bottom")
    assert [tuple(cols[n][i] for n in names) for i in range(2)] == cards
