"""The carabin-realplay-name study: a seat names a suit in round 2, whatever his hand."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from analysis.bidding.carabin import (
    FEATURES,
    CarabinBidView,
    auction,
    carabin_features,
    contract_result,
    thumb_policy,
)
from analysis.bidding.carabin_naming import (
    STUDY_COLUMNS,
    fit_naming,
    main,
    named_suit,
    naming_chunk,
    naming_params,
    naming_rates,
    naming_tables,
)
from analysis.bidding.carabin_realplay import realplay_chunk
from analysis.play import CarabinPimc, play_carabin
from solver.carabin import Call, Contract, Deal
from solver.errors import RulesError

PARAMS = {"players": 3, "samples": 3}


@pytest.fixture(scope="module")
def chunk() -> dict[str, list]:
    return naming_chunk(random.Random(11), 20, 6, PARAMS)


def _deals_and_seeds(seed: int, count: int, players: int) -> list[tuple[Deal, int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deal = Deal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        out.append((deal, rng.getrandbits(64)))
    return out


def test_the_chunk_is_deterministic_and_holds_the_deals_of_carabin_realplay(chunk):
    assert naming_chunk(random.Random(11), 20, 6, PARAMS) == chunk
    assert sorted(chunk) == sorted(STUDY_COLUMNS)
    assert chunk["deal"] == list(range(20, 26))
    take = realplay_chunk(random.Random(11), 20, 2, PARAMS)
    assert take["cards"] == chunk["cards"][:2]
    assert take["probe_seat"] == chunk["probe_seat"][:2]


def test_the_seat_names_his_longest_other_suit_as_the_rule_of_thumb_orders_them(chunk):
    for i, (deal, _) in enumerate(_deals_and_seeds(11, 6, 3)):
        seat = (20 + i) % 3
        ts = deal.turn >> 4
        left, right = deal.hands[seat]
        suit = chunk["trump"][i]
        assert chunk["probe_seat"][i] == seat and suit != ts
        keys = {s: carabin_features(left, right, s)[:2] for s in range(4) if s != ts}
        assert keys[suit] == max(keys.values())
        assert all(keys[s] < keys[suit] for s in keys if s < suit)
        feats = carabin_features(left, right, suit)
        assert tuple(chunk[f][i] for f in FEATURES) == feats
        call = thumb_policy(CarabinBidView(3, seat, (left, right), deal.turn), 2, None)
        assert chunk["thumb_names"][i] == (call == Call("name", suit))
        if call.kind == "name":  # the rule of thumb names the probed suit when it names
            assert call.suit == suit
        reached = auction(deal, thumb_policy)
        assert chunk["thumb_round1_passed"][i] == (reached is None or reached.trump != ts)


def test_named_suit_breaks_ties_by_honours_then_the_lower_suit():
    from solver.cards import parse_holding

    # spades turned up; hearts and clubs three cards each, clubs with the ace
    left, right = parse_holding("2.J7..A"), parse_holding("3.8..K2")
    assert named_suit(left, right, 0) == 3
    # hearts and diamonds alike (two cards, no honour): the lower suit, hearts
    left, right = parse_holding("AK.2.3."), parse_holding("J.4.5.7")
    assert named_suit(left, right, 0) == 1


def test_the_result_columns_replay_alone(chunk):
    for i, (deal, play_seed) in enumerate(_deals_and_seeds(11, 6, 3)):
        seat, suit = chunk["probe_seat"][i], chunk["trump"][i]
        assert (chunk["dd_made"][i], chunk["dd_chelem"][i]) == contract_result(deal, seat, suit)
        contract = Contract(seat, suit)
        key = f"carabin-realplay:{play_seed}:{seat}:{suit}:0"
        policy = CarabinPimc(3, seed=random.Random(key))
        assert chunk["pimc_made"][i] == play_carabin(deal, contract, [policy] * 3).made


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 2}, "invalid number of players"),
        ({"samples": 0}, "invalid samples 0"),
        ({"trick_order": "zigzag"}, "invalid trick_order 'zigzag'"),
        ({"time_limit": -1}, "invalid time_limit -1"),
    ],
)
def test_bad_params_are_one_clear_error(params, message):
    with pytest.raises(RulesError, match=message):
        naming_params(params)


# ---------------------------------------------------------------- the summary


def _synthetic(strong_makes: bool = True) -> pd.DataFrame:
    """Two seeds of rows: a named contract is made when its count (cards + A, K, Q)
    reaches 6 (if ``strong_makes``), else one time in five."""
    rng = random.Random(7)
    rows = []
    for seed in (1, 2):
        for d in range(300):
            trumps = rng.randrange(1, 6)
            honours = rng.randrange(0, min(3, trumps) + 1)
            strong = trumps + honours >= 6
            made = (strong and strong_makes) or rng.random() < 0.2
            rows.append(
                {
                    "deal": d,
                    "players": 3 + d % 2,
                    "seed": seed,
                    "turn": 16 * (d % 4),
                    "probe_seat": d % 3,
                    "trump": (d % 4 + 1) % 4,
                    "thumb_names": trumps >= 4,
                    "thumb_round1_passed": d % 3 != 0,
                    "trumps": trumps,
                    "honours": honours,
                    "side_aces": rng.randrange(0, 3),
                    "side_kings": rng.randrange(0, 3),
                    "split": rng.randrange(0, 3),
                    "trump_ace": int(honours > 0),
                    "dd_made": made and rng.random() < 0.7,
                    "dd_chelem": False,
                    "pimc_made": made,
                    "undecided": 0,
                }
            )
    return pd.DataFrame(rows)


def _net(bids, made) -> float:
    return sum((1 if m else -1) for b, m in zip(bids, made, strict=True) if b) / len(bids)


def test_the_count_rule_is_fitted_on_seed_1_and_measured_on_seed_2():
    df = _synthetic()
    fitted = fit_naming(df[df["seed"] == 1], df[df["seed"] == 2])
    for n, part in df.groupby("players"):
        res = fitted["players"][str(n)]
        train = part[part["seed"] == 1]
        count = train["trumps"] + train["honours"]
        nets = {k: _net((count >= k).tolist(), train["pimc_made"].tolist()) for k in range(2, 11)}
        assert res["count"] == max(nets, key=lambda k: (nets[k], k)) == 6
        held = part[part["seed"] == 2]
        bids = (held["trumps"] + held["honours"] >= res["count"]).tolist()
        m = res["measured"]["count"]
        assert m["net"] == pytest.approx(_net(bids, held["pimc_made"].tolist()))
        assert m["bids"] == sum(bids) and m["net_low"] > 0
        thumb = res["measured"]["thumb"]
        assert thumb["bids"] == int(held["thumb_names"].sum())
        passed = held[held["thumb_round1_passed"]]
        assert res["measured_round1_passed"]["hands"] == len(passed)
        assert "name your longest other suit" in res["sentence"] and "6 or more" in res["sentence"]
    curve = pd.DataFrame(fitted["curve"])
    row = curve[(curve["players"] == 3) & (curve["count"] == 6)].iloc[0]
    train = df[(df["seed"] == 1) & (df["players"] == 3)]
    bids = (train["trumps"] + train["honours"] >= 6).tolist()
    assert row["train_net"] == pytest.approx(_net(bids, train["pimc_made"].tolist()))


def test_no_naming_is_fitted_when_every_count_loses():
    df = _synthetic(strong_makes=False)
    fitted = fit_naming(df[df["seed"] == 1], df[df["seed"] == 2])
    for res in fitted["players"].values():
        assert res["count"] == 12 and res["measured"]["count"]["bids"] == 0
        assert "do not name a suit" in res["sentence"]


def test_the_tables_need_two_seeds_and_count_the_rates():
    df = _synthetic()
    with pytest.raises(ValueError, match="measured on another"):
        naming_tables([df[df["seed"] == 1]])
    tables = naming_tables([df[df["seed"] == 1], df[df["seed"] == 2]])
    rates = naming_rates(df)
    assert tables["rates"].equals(rates)
    for (n, seed), part in df.groupby(["players", "seed"]):
        row = rates.query(f"players == {n} and seed == {seed} and set == 'all'").iloc[0]
        assert row["contracts"] == len(part)
        assert row["pimc_rate"] == pytest.approx(part["pimc_made"].mean())
        assert row["diff"] == pytest.approx(part["pimc_made"].mean() - part["dd_made"].mean())
    both = rates.query("players == 3 and seed == 0 and set == 'thumb'").iloc[0]
    assert both["contracts"] == int(df[df["players"] == 3]["thumb_names"].sum())
    assert tables["rule"]["split"] == "fitted on seed 1, measured on seed(s) 2"
    assert tables["rule"]["players"]["3"]["dd_fit"]["count"] in range(2, 13)


def test_main_refuses_another_study(tmp_path, capsys):
    from analysis.studies import run_study

    run_study("carabin-bidding", 1, 1, tmp_path / "b", workers=1, progress=False,
              params={"players": 3})  # fmt: skip
    assert main([str(tmp_path / "out"), str(tmp_path / "b")]) == 2
    assert "not a carabin-realplay-name study" in capsys.readouterr().err
