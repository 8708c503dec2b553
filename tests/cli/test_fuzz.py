"""Fuzzing the command line: mutated positions, deals, views, plays and option values.

Every input, valid or not, must end one of two ways: status 2 with exactly one line on
stderr (``tricklab: error: …``, no traceback) and nothing on stdout, or status 0 with
the same answer as the canonical form of the input (what the game's parser reads it
as, printed back). Batch mode (stdin, as bytes) must answer every line, in order.

The default (``ci``) profile runs twenty cases a test; ``HYPOTHESIS_PROFILE=fuzz``
runs thousands with fresh seeds, and ``FUZZ_STATS=path`` appends the counts of cases,
clean rejections and accepted inputs to that file.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli.main import main
from analysis.review import parse_play
from solver.errors import TricklabError
from solver.games import get_game

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
EXAMPLES = 20 if PROFILE == "ci" else settings.get_profile(PROFILE).max_examples
FUZZ = settings(max_examples=EXAMPLES, deadline=None)

#: Valid inputs to mutate, by verb and game (small, so that every answer is quick).
SEEDS: dict[tuple[str, str], list[str]] = {
    ("position", "klabberjass"): [
        "trump=H lead=E E=A.7.. D=K.8..",
        "trump=S lead=D E=KQ..A. D=9...A trick=7D",
        "trump=C lead=E E=AT.K.9. D=K9.A.7.",
    ],
    ("position", "carabin"): [
        "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.",
        "trump=H bidder=0 lead=1 next=L 0=A.../K... 1=.../Q... 2=3.../4... trick=2S",
        "trump=S bidder=0 lead=0 next=L 0=A.../K... 1=2.../3... 2=4.../5... order=left_then_right",
    ],
    ("deal", "klabberjass"): [
        "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S bidder=E",
        "E=AKT9.K.K8.AJ D=8.QT8.A9.KQ8 turn=7C trump=H",
    ],
    ("deal", "carabin"): [
        "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H trump=S bidder=0",
    ],
    ("view", "klabberjass"): [
        "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D",
        "seat=D trump=H turn=JH hand=AT9.KQ.A.AQT played=7S",
    ],
    ("view", "carabin"): [
        "players=3 seat=0 bidder=1 trump=S turn=2C hand=KQJ.../T987... played=AS,3H,4H",
    ],
}
PLAYS = {"klabberjass": "AS KS 7H 8H", "carabin": "JS AS 8D"}
REVIEW_STARTS = {
    "klabberjass": "trump=H lead=E E=A.7.. D=K.8..",
    "carabin": "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8.",
}

#: Characters mutations put in: the notation's own, other digits, controls, separators.
ALPHABET = (
    "AKQJT98765432akqjt10SHDCshdc♠♥♦♣♤♡♢♧EDLRed=./,-_ "
    "²③٣١０\x00\x01\x1b\r\n\t\x7f\x85\u2028\u2029\u200b\u202e\ufeff\udcff😀"
)
BAD_KEYS = ["trik", "", "=", "E", "0", "9", "٣", "players", "x" * 300, "lead\x00"]
NUMBERS = ["0", "1", "2", "-1", "3000000000", "100000", "٣", "²", "1.5", "", "x", "9" * 5000]

STATS: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    path = os.environ.get("FUZZ_STATS")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"profile": PROFILE, **STATS}) + "\n")


def run(argv: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    """``main(argv)`` in this process: its status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def check_rejection(status: int, out: str, err: str) -> None:
    assert status == 2, (status, out, err)
    assert out == "", out
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("tricklab: error: ") and "Traceback" not in err
    assert len(err) < 1200, len(err)


# ---------------------------------------------------------------- mutations


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to three mutations of its tokens or characters."""
    tokens = text.split(" ")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                [
                    "drop_token",
                    "double_token",
                    "swap_tokens",
                    "drop_char",
                    "double_char",
                    "swap_chars",
                    "replace_char",
                    "insert",
                    "bad_key",
                    "bad_value",
                    "case",
                    "lower_value",
                    "other_digit",
                    "long",
                ]
            )
        )
        i = draw(st.integers(0, len(tokens) - 1)) if tokens else 0
        if not tokens:
            tokens = [draw(st.text(ALPHABET, max_size=8))]
        elif kind == "drop_token":
            del tokens[i]
        elif kind == "double_token":
            tokens.insert(i, tokens[i])
        elif kind == "swap_tokens":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif kind == "case":
            tokens[i] = tokens[i].swapcase()
        elif kind == "lower_value":  # another valid spelling of cards, suits and seats
            key, eq, value = tokens[i].partition("=")
            tokens[i] = key + eq + value.lower()
        elif kind == "other_digit":  # an ASCII digit replaced by a Unicode one
            digits = [k for k, ch in enumerate(tokens[i]) if ch in "0123456789"]
            if digits:
                k = draw(st.sampled_from(digits))
                other = draw(st.sampled_from(["²", "③", "٣", "١", "０", "𝟙"]))
                tokens[i] = tokens[i][:k] + other + tokens[i][k + 1 :]
        elif kind == "bad_key":
            _, _, value = tokens[i].partition("=")
            tokens[i] = f"{draw(st.sampled_from(BAD_KEYS))}={value}"
        elif kind == "bad_value":
            key, _, _ = tokens[i].partition("=")
            tokens[i] = f"{key}={draw(st.sampled_from(NUMBERS + ['-', ',', '/', '...', 'L']))}"
        elif kind == "long":
            tokens[i] += draw(st.sampled_from(["A", ".", "7S,", "٣", "\x00"])) * draw(
                st.sampled_from([100, 5000, 1_000_000])
            )
        else:
            tok = tokens[i]
            k = draw(st.integers(0, max(len(tok) - 1, 0)))
            if kind == "drop_char":
                tok = tok[:k] + tok[k + 1 :]
            elif kind == "double_char":
                tok = tok[: k + 1] + tok[k:]
            elif kind == "swap_chars" and len(tok) > 1:
                k = min(k, len(tok) - 2)
                tok = tok[:k] + tok[k + 1] + tok[k] + tok[k + 2 :]
            elif kind == "replace_char":
                tok = tok[:k] + draw(st.sampled_from(ALPHABET)) + tok[k + 1 :]
            else:  # insert
                tok = tok[:k] + draw(st.text(ALPHABET, min_size=1, max_size=4)) + tok[k:]
            tokens[i] = tok
    return " ".join(tokens)


def seed_and_mutation(kind: str, game: str) -> st.SearchStrategy[str]:
    return st.sampled_from(SEEDS[(kind, game)]).flatmap(
        lambda text: st.one_of(st.just(text), mutated(text))
    )


def canonical(kind: str, game: str, text: str) -> str:
    """The text the game's parser reads ``text`` as, printed back."""
    g = get_game(game)
    parse = {"position": g.parse_position, "deal": g.parse_deal, "view": g.parse_view}[kind]
    return str(parse(text))


def check(argv: list[str], canonical_argv: list[str] | None, as_json: bool = True) -> None:
    """One case: a clean rejection, or the canonical input's answer."""
    STATS["cases"] += 1
    status, out, err = run(argv)
    if status == 1 and argv[0] == "puzzles":  # fewer puzzles found than asked: one line
        assert err.startswith("tricklab: error: found ") and err.count("\n") == 1, err
        STATS["accepted"] += 1
        return
    if status == 2:
        check_rejection(status, out, err)
        STATS["rejected"] += 1
        return
    assert status == 0 and err == "", (status, err)
    assert canonical_argv is not None, f"accepted, but the parser refuses it: {argv!r}"
    STATS["accepted"] += 1
    if canonical_argv != argv:
        again = run(canonical_argv)
        assert again == (0, out, ""), (argv, canonical_argv)
    if as_json:
        json.loads(out)


def parsed(kind: str, game: str, text: str) -> str | None:
    try:
        return canonical(kind, game, text)
    except TricklabError:
        return None


# ---------------------------------------------------------------- the verbs

GAMES = ["klabberjass", "carabin"]


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_solve(game: str, data: st.DataObject) -> None:
    text = data.draw(seed_and_mutation("position", game))
    moves = data.draw(st.sampled_from([[], ["--moves"]]))
    good = parsed("position", game, text)
    canon = None if good is None else ["solve", game, good, "--json", *moves]
    check(["solve", game, text, "--json", *moves], canon)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_deal(game: str, data: st.DataObject) -> None:
    text = data.draw(seed_and_mutation("deal", game))
    good = parsed("deal", game, text)
    check(["deal", game, text, "--json"], None if good is None else ["deal", game, good, "--json"])


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_tree(game: str, data: st.DataObject) -> None:
    text = data.draw(seed_and_mutation("position", game))
    extra = data.draw(st.sampled_from([[], ["--per-class"], ["--all", "--depth", "2"]]))
    good = parsed("position", game, text)
    canon = None if good is None else ["tree", game, good, "--json", *extra]
    check(["tree", game, text, "--json", *extra], canon)


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_advise(game: str, data: st.DataObject) -> None:
    text = data.draw(seed_and_mutation("view", game))
    opts = ["--json", "--samples", "4", "--seed", "1", "--workers", "1"]
    good = parsed("view", game, text)
    check(["advise", game, text, *opts], None if good is None else ["advise", game, good, *opts])


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_review(game: str, data: st.DataObject) -> None:
    start = data.draw(st.one_of(st.just(REVIEW_STARTS[game]), mutated(REVIEW_STARTS[game])))
    play = data.draw(st.one_of(st.just(PLAYS[game]), mutated(PLAYS[game])))
    good = parsed("position", game, start)
    try:
        cards = " ".join(str(c) for c in parse_play(play))
    except TricklabError:
        cards = None
    argv = ["review", game, start, "--play", play, "--json"]
    canon = None if good is None or cards is None else ["review", game, good, "--play", cards]
    check(argv, None if canon is None else [*canon, "--json"])


OPTIONS = [
    (["solve", "klabberjass", SEEDS[("position", "klabberjass")][0], "--json"], "--tt-mb"),
    (["solve", "carabin", SEEDS[("position", "carabin")][0], "--json"], "--tt-mb"),
    (["tree", "klabberjass", SEEDS[("position", "klabberjass")][0], "--json"], "--max-nodes"),
    (["tree", "carabin", SEEDS[("position", "carabin")][0], "--all", "--json"], "--depth"),
    (["advise", "klabberjass", SEEDS[("view", "klabberjass")][0], "--json"], "--samples"),
    (["advise", "carabin", SEEDS[("view", "carabin")][0], "--json", "--samples", "2"], "--seed"),
    (["deal", "carabin", "--random", "--json"], "--players"),
    (["deal", "klabberjass", "--random", "--json"], "--seed"),
    (["bench", "klabberjass", "--json", "--reference-deals", "0"], "--deals"),
    (
        ["puzzles", "generate", "klabberjass", "--json", "--cards", "2", "--max-candidates", "50"],
        "--count",
    ),
    (
        ["puzzles", "generate", "carabin", "--json", "--count", "1", "--max-candidates", "50"],
        "--cards",
    ),
]
#: Larger accepted values are made negative (refused): they would only make slow runs.
SMALL_ENOUGH = {
    "--deals": 3,
    "--count": 1,
    "--samples": 8,
    "--max-nodes": 10**6,
    "--players": 3,
    "--cards": 2,
    "--depth": 3,
}


@pytest.mark.parametrize("argv, option", OPTIONS, ids=lambda x: x if isinstance(x, str) else "")
@FUZZ
@given(data=st.data())
def test_fuzz_option_values(argv: list[str], option: str, data: st.DataObject) -> None:
    value = data.draw(
        st.one_of(
            st.sampled_from(NUMBERS),
            st.integers(-(10**12), 10**12).map(str),
            st.integers(-3, 20).map(str),
            st.text(ALPHABET, max_size=6),
        )
    )
    number = value.isascii() and value.removeprefix("-").isdigit() and len(value) < 30
    if number and int(value) > SMALL_ENOUGH.get(option, 10**30):
        value = "-" + value  # keep the accepted runs short: a large count is refused
    if option in ("--samples", "--workers") and "--workers" not in argv:
        argv = [*argv, "--workers", "1"]
    if "--seed" not in argv and option != "--seed":
        argv = [*argv, "--seed", "1"]
    full = [*argv, f"{option}={value}"]
    canon = None
    if number:
        canon = [*argv, f"{option}={int(value)}"]
    check(full, canon)


# ---------------------------------------------------------------- batch mode (stdin as bytes)


@st.composite
def batch_lines(draw: st.DrawFn, kind: str, game: str) -> list[bytes]:
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        text = draw(seed_and_mutation(kind, game))
        line = text.encode("utf-8", "surrogateescape")
        if draw(st.booleans()) and len(line) > 2:
            k = draw(st.integers(0, len(line) - 1))
            line = line[:k] + draw(st.binary(min_size=1, max_size=3)) + line[k:]
        lines.append(line.replace(b"\n", b" "))
    return lines


@pytest.mark.parametrize("verb, kind", [("solve", "position"), ("deal", "deal")])
@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_fuzz_batch(verb: str, kind: str, game: str, data: st.DataObject) -> None:
    lines = data.draw(batch_lines(kind, game))
    ending = data.draw(st.sampled_from([b"\n", b"\r\n"]))
    bom = data.draw(st.sampled_from([b"", b"\xef\xbb\xbf"]))
    status, out, err = run([verb, game, "-", "--json"], bom + ending.join(lines) + ending)
    STATS["batch runs"] += 1
    answers = out.splitlines()
    assert len(answers) == len(lines), (lines, out)
    assert "Traceback" not in err
    errors = err.splitlines()
    bad = 0
    for number, (line, answer) in enumerate(zip(lines, answers, strict=True), 1):
        obj = json.loads(answer)
        STATS["batch lines"] += 1
        if "error" in obj:
            bad += 1
            STATS["batch lines rejected"] += 1
            assert obj["line"] == number and set(obj) == {"error", "line"}
            assert f"tricklab: error: line {number}: {obj['error']}" in errors
            continue
        text = line.decode("utf-8").strip()
        if number == 1 and not bom:  # the line's own byte-order mark is skipped
            text = text.removeprefix("\ufeff")
        good = canonical(kind, game, text)  # an answered line must parse
        single = run([verb, game, good, "--json"])
        assert single == (0, answer + "\n", "")
    assert len(errors) == bad and status == (2 if bad else 0)
