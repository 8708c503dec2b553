"""Notebook 02's real-play tables (analysis.bidding.realplay_tables) and the scorecard
(analysis.bidding.scorecard): best responses are best, the bias is the plain paired
mean, the scorecard counts what it says and the published copies agree."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pandas as pd
import pytest

from analysis.bidding.equilibrium import (
    Decisions,
    deal_arrays,
    equilibrium_policy,
    expected_e_net,
    make_classifier,
    solve_bidding_game,
)
from analysis.bidding.klabberjass import FEATURES, _random_hands, column, hand_features
from analysis.bidding.realplay_tables import (
    PUBLISHED,
    Fitted,
    best_response,
    bias_table,
    exploitability,
    fit,
    realplay_tables,
    write,
)
from analysis.bidding.scorecard import SCORECARD, Scorecard, fit_scorecard, load
from solver.cards import parse_holding


def synthetic(n: int, seed: int) -> pd.DataFrame:
    """Rows shaped like ``klabberjass-realplay``: real random cards, nets that follow
    the hands (trumps, Jass, Menel) plus noise; PIMC = DD minus a few points."""
    rng = np.random.default_rng(seed)
    cols: dict[str, list] = {k: [] for k in ("deal", "e6", "e3", "d6", "d3", "turn", "bottom")}
    nets = {}
    for i in range(n):
        c = _random_hands(seed * 100_000 + i)
        for k, v in zip(("e6", "e3", "d6", "d3", "turn", "bottom"), c, strict=True):
            cols[k].append(v)
        cols["deal"].append(i)
        for b, hand in ((0, c[0]), (1, c[2])):
            for t in range(4):
                f = hand_features(hand, t, c[4])
                strength = 40 * f[0] + 18 * f[1] + 20 * f[4] + 25 * f[5] - 100
                dd = int(strength + rng.normal(0, 40))
                nets.setdefault(column("dd_net", b, t), []).append(dd)
                nets.setdefault(column("pimc_net", b, t), []).append(dd - int(rng.integers(0, 8)))
    df = pd.DataFrame(cols)
    for k, v in nets.items():
        df[k] = v
    return df


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return synthetic(600, 3)


def test_the_bias_is_the_paired_mean_of_every_contract(frame):
    rows = {r["contracts"]: r for r in bias_table(frame)}
    diffs = []
    for b in (0, 1):
        for t in range(4):
            diffs.append(frame[column("pimc_net", b, t)] - frame[column("dd_net", b, t)])
    per_deal = np.mean(np.stack(diffs, axis=1), axis=1)
    assert rows["all contracts"]["difference"] == pytest.approx(per_deal.mean())
    ts = frame["turn"].to_numpy() >> 4
    e_take = [
        frame[column("pimc_net", 0, t)][i] - frame[column("dd_net", 0, t)][i]
        for i, t in enumerate(ts)
    ]
    assert rows["E takes the turn-up suit"]["difference"] == pytest.approx(np.mean(e_take))
    assert (
        rows["all contracts"]["low"]
        < rows["all contracts"]["difference"]
        < rows["all contracts"]["high"]
    )


def _pure(arrays, fitted, seat, take_c, name_c):
    c = fitted.classifier
    base = equilibrium_policy(fitted.eq)(arrays, c)
    cls = c.classify(arrays)[0][:, seat]
    take, name = base.take.copy(), base.name.copy()
    take[:, seat] = np.asarray(take_c)[cls]
    name[:, seat] = np.asarray(name_c)[cls]
    return Decisions(take, name, base.suit)


@pytest.mark.parametrize("seat", [0, 1])
def test_the_best_response_beats_every_pure_strategy_by_brute_force(frame, seat):
    arrays = deal_arrays(frame, "pimc_net")
    classifier = make_classifier(arrays, 2, 1)  # two classes: 3 x 3 pure strategies
    fitted = Fitted("pimc", classifier, solve_bidding_game(arrays, classifier))
    eq = equilibrium_policy(fitted.eq)(arrays, classifier)
    sign = 1 if seat == 0 else -1

    def value(dec):
        e, d = (dec, eq) if seat == 0 else (eq, dec)
        return sign * expected_e_net(arrays, e, d).sum()

    br = value(best_response(arrays, fitted, seat)(arrays, None))
    actions = [(1, 0), (0, 1), (0, 0)]  # take, pass then name, pass twice
    brute = max(
        value(_pure(arrays, fitted, seat, [a[0] for a in combo], [a[1] for a in combo]))
        for combo in itertools.product(actions, repeat=classifier.classes)
    )
    assert br == pytest.approx(brute)
    assert br >= value(eq) - 1e-6  # no strategy does better against the equilibrium


def test_exploitability_is_cross_fitted_and_sums_the_seats(frame):
    arrays = deal_arrays(frame, "pimc_net")
    fitted = fit(arrays, "pimc")
    ex = exploitability(arrays, fitted)
    assert set(ex) == {"E", "D", "total"}
    assert ex["total"][0] == pytest.approx(ex["E"][0] + ex["D"][0])
    for m, lo, hi in ex.values():
        assert lo <= m <= hi


def test_the_scorecard_counts_its_points_and_bids_at_its_marks():
    card = Scorecard(
        {1: (40, 18, 7, 4, 20, 26, 14, 67, 29, 1), 2: (39, 18, 4, 2, 23, 24, 13, 67, 28, 0)},
        {"E take": 104, "D take": 96, "E name": 100, "D name": 110},
    )
    hand = parse_holding("J9A.A.T.7")  # spades J 9 A, heart A, diamond T, club 7
    turn = parse_holding("..K.")  # the diamond king (not spades)
    turn_card = turn.bit_length() - 1
    f = dict(zip(FEATURES, hand_features(hand, 0, turn_card), strict=True))
    by_hand = (
        39 * f["jass"]
        + 18 * f["menel"]
        + 4 * f["trump_ace"]
        + 23 * f["trumps"]
        + 24 * f["side_aces"]
        + 13 * f["side_tens"]
    )
    advice = card.advise(0, hand, turn_card)
    assert advice["name"]["suit"] == 0 and advice["name"]["count"] == by_hand
    assert advice["name"]["bid"] == (by_hand >= 100)
    assert advice["take"]["suit"] == turn_card >> 4
    assert Scorecard.from_dict(card.as_dict()) == card


def test_a_fitted_scorecard_bids_as_its_counts_say(frame):
    arrays = deal_arrays(frame, "pimc_net")
    fitted = fit(arrays, "pimc")
    card = fit_scorecard(arrays, fitted)
    d = card.decisions(arrays)
    counts = card.counts(arrays)
    i = np.arange(len(arrays))
    first = counts[i, :, arrays.turn_suit]
    assert ((first[:, 0] >= card.marks["E take"]) == (d.take[:, 0] == 1)).all()
    assert ((first[:, 1] >= card.marks["D take"]) == (d.take[:, 1] == 1)).all()
    assert (d.suit != arrays.turn_suit[:, None]).all()


def study_folder(folder, rows, seed, params=None, chunk=0, chunk_size=None, deals=None):
    """A ``klabberjass-realplay`` study folder holding ``rows`` as chunk ``chunk``."""
    from analysis.studies import write_chunk

    folder.mkdir()
    size = len(rows) if chunk_size is None else chunk_size
    manifest = {
        "format": 2,
        "study": "klabberjass-realplay",
        "params": params or {},
        "seed": seed,
        "chunk_size": size,
        "deals": len(rows) if deals is None else deals,
        "chunks": chunk + 1,
        "files": {},
    }
    (folder / "_manifest.json").write_text(json.dumps(manifest))
    write_chunk(folder, chunk, {k: list(rows[k]) for k in rows.columns})
    return folder


def test_the_tables_of_a_study_folder_are_written_and_read(tmp_path, frame):
    params = {"rules": "seed", "samples": 20}
    folder = study_folder(tmp_path / "study", frame, 7, params)
    tables = realplay_tables([folder])
    out = tmp_path / "out"
    write(tables, out, "python -m analysis.bidding.realplay_tables study out")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seeds"][0]["study"]["seed"] == 7
    assert (out / "head_to_head.csv").exists() and (out / "bias.csv").exists()
    assert load(out / "scorecard.json", seed=7) == Scorecard.from_dict(
        summary["seeds"][0]["scorecard"]
    )
    with pytest.raises(ValueError, match="no scorecard for seed rules, seed 8"):
        load(out / "scorecard.json", seed=8)


def test_the_packaged_scorecard_is_the_published_one():
    from pathlib import Path

    published = Path(__file__).resolve().parents[3] / PUBLISHED / "scorecard.json"
    assert SCORECARD.read_text() == published.read_text()
    assert load().marks.keys() == {"E take", "D take", "E name", "D name"}


def test_random_hands_is_the_helper_the_synthetic_frame_uses():
    # guard: the synthetic rows above use real, disjoint hands
    c = _random_hands(random.Random(1).getrandbits(64))
    assert c[0] & c[2] == 0 and not (c[0] | c[2]) >> c[4] & 1


def two_seeds(tmp_path, frame) -> tuple[list, dict]:
    """The synthetic frame as two study folders (seeds 1 and 2, 300 deals each), and
    the tables written from them and read back."""
    from analysis.bidding.realplay_tables import read

    folders = []
    for seed, part in ((1, frame.iloc[:300]), (2, frame.iloc[300:])):
        part = part.assign(deal=range(len(part)))
        folders.append(study_folder(tmp_path / f"s{seed}", part, seed))
    write(realplay_tables(folders), tmp_path / "out", "cmd")
    return folders, read(tmp_path / "out")


def test_the_findings_quote_the_tables_they_sit_beside(tmp_path, frame):
    from analysis.bidding.realplay_tables import findings, fmt

    folders, t = two_seeds(tmp_path, frame)
    text = "\n".join(findings(t))
    for seed in (1, 2):
        b = t["bias"][(t["bias"].seed == seed) & (t["bias"].contracts == "all contracts")].iloc[0]
        assert f"{fmt(b['difference'], b['low'], b['high'])} (seed {seed})" in text
        h = t["head_to_head"]
        r = h[
            (h.seed == seed)
            & (h.policy == "real-play equilibrium")
            & (h.against == "scorecard")
            & (h.payoffs == "pimc")
        ].iloc[0]
        assert f"{fmt(r['gain'], r['low'], r['high'])} (seed {seed})" in text
    assert "300 deals (seed 1), 300 deals (seed 2)" in text
    commands = json.loads((tmp_path / "out" / "summary.json").read_text())["study_commands"]
    assert (
        commands[1]
        == f"tricklab study klabberjass-realplay --deals 300 --seed 2 --out {folders[1]}"
    )


def test_a_folder_with_a_gap_is_refused(tmp_path, frame):
    folder = study_folder(
        tmp_path / "gap", frame.iloc[100:200], 1, chunk=1, chunk_size=100, deals=200
    )
    with pytest.raises(ValueError, match="not 0 to 99 in order"):
        realplay_tables([folder])


def test_every_finding_is_given_for_both_seeds_of_both_rules(tmp_path, frame):
    from analysis.bidding.realplay_tables import _runs, findings, fmt, read

    classic = synthetic(600, 4)
    folders = []
    for rules, rows in (("seed", frame), ("classic", classic)):
        for seed, part in ((1, rows.iloc[:300]), (2, rows.iloc[300:])):
            part = part.assign(deal=range(len(part)))
            params = {"rules": rules, "samples": 20}
            folders.append(study_folder(tmp_path / f"{rules}{seed}", part, seed, params))
    write(realplay_tables(folders), tmp_path / "out", "cmd")
    t = read(tmp_path / "out")
    runs = [("seed", 1), ("seed", 2), ("classic", 1), ("classic", 2)]
    assert _runs(t["bias"]) == runs
    lines = findings(t)
    assert lines[0].startswith(
        "Data: 300 deals (seed 1), 300 deals (seed 2), 300 deals (classic rules, seed 1), "
        "300 deals (classic rules, seed 2);"
    )
    h = t["head_to_head"]
    for rules, seed in runs:
        label = f"seed {seed}" if rules == "seed" else f"classic rules, seed {seed}"
        for policy, against in (
            ("real-play equilibrium", "double-dummy equilibrium"),
            ("real-play equilibrium", "rule of thumb"),
            ("scorecard", "rule of thumb"),
            ("real-play equilibrium", "scorecard"),
        ):
            r = h[(h.seed == seed) & (h.rules == rules) & (h.policy == policy)
                  & (h.against == against) & (h.payoffs == "pimc")].iloc[0]  # fmt: skip
            assert f"{fmt(r['gain'], r['low'], r['high'])} ({label})" in "\n".join(lines)
    commands = json.loads((tmp_path / "out" / "summary.json").read_text())["study_commands"]
    assert commands[3] == (
        "tricklab study klabberjass-realplay --deals 300 --seed 2 --param rules=classic "
        f"--param samples=20 --out {folders[3]}"
    )
    from analysis.bidding.realplay_tables import agreement

    card = {"policy": "scorecard", "against": "rule of thumb", "payoffs": "pimc"}
    assert lines[-1].startswith("**Replication on the second seed**")
    assert "Seed rules: the bias" in lines[-1] and ". Classic rules: the bias" in lines[-1]
    said = agreement(h, "gain", "classic", **card)
    assert f"the scorecard over the rule of thumb: {said}" in lines[-1].split("Classic rules")[1]
    cards = json.loads((tmp_path / "out" / "scorecard.json").read_text())["scorecards"]
    assert [(c["rules"], c["seed"]) for c in cards] == runs
    assert load(tmp_path / "out" / "scorecard.json", rules="classic") == load(
        tmp_path / "out" / "scorecard.json", rules="classic", seed=1
    )


@pytest.mark.parametrize(
    "lows, highs, said",
    [
        ((1.0, 0.5), (3.0, 2.0), "measurable on every seed (above 0)"),
        ((-3.0, -2.0), (-1.0, -0.1), "measurable on every seed (below 0)"),
        ((1.0, -0.5), (3.0, 2.0), "measurable on seed 1 only"),
        ((-1.0, 0.5), (3.0, 2.0), "measurable on seed 2 only"),
        ((-1.0, -0.5), (3.0, 2.0), "measurable on no seed"),
        ((1.0, -2.0), (3.0, -0.5), "measurable on several seeds but in opposite directions"),
    ],
)
def test_agreement_says_on_which_seeds_a_figure_is_clear_of_zero(lows, highs, said):
    from analysis.bidding.realplay_tables import agreement

    f = pd.DataFrame(
        {
            "seed": [2, 1, 1],  # out of order, and another rules' row that must not count
            "rules": ["classic", "classic", "seed"],
            "gain": [0.0, 0.0, 0.0],
            "low": [lows[1], lows[0], 5.0],
            "high": [highs[1], highs[0], 6.0],
        }
    )
    assert agreement(f, "gain", "classic") == said
    assert agreement(f, "gain", "seed") == "on one seed only (seed 1), not replicated"


def test_the_published_scorecard_keeps_within_its_budget():
    from pathlib import Path

    from analysis.bidding.realplay_tables import SCORECARD_BUDGET, findings, read, scorecard_budget

    tables = read(Path(__file__).resolve().parents[3] / PUBLISHED)
    shares = scorecard_budget(tables)
    assert set(shares) == {("seed", 1), ("seed", 2), ("classic", 1), ("classic", 2)}
    assert all(0 <= f <= SCORECARD_BUDGET for f in shares.values())
    assert any("within the budget on every run" in line for line in findings(tables))


def test_a_scorecard_that_loses_too_much_is_said_to_be_over_budget(tmp_path, frame):
    from analysis.bidding.realplay_tables import _budget_words, scorecard_budget

    folders, t = two_seeds(tmp_path, frame)
    h = t["head_to_head"]
    loss = (h.seed == 2) & (h.policy == "real-play equilibrium") & (h.against == "scorecard")
    for s in t["summary"]["seeds"]:
        s["game_value"]["pimc"] = 4.0
    t["head_to_head"] = h.assign(high=h["high"].where(~loss, 4.0))  # all of the value
    assert scorecard_budget(t)[("seed", 2)] == pytest.approx(1.0)
    assert _budget_words(t).endswith("over the budget on seed 2.")
    t["summary"]["seeds"][0]["game_value"]["pimc"] = -1.0
    assert "beyond a value that is not positive (seed 1)" in _budget_words(t)
