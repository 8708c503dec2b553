"""Bad input through the command line: one clean error line, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import assert_one_error_line

K_POSITION = "trump=H lead=E E=A.7.. D=K.8.."
C_POSITION = "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."
C_DEAL = "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H"
C_VIEW = "players=3 seat=0 bidder=0 trump=S turn=2C hand=AKQJ.../T987... played="

# Unicode digits that str.isdigit() accepts: superscript two, circled three, Arabic-Indic
# three and one (int() reads the last two as 3 and 1).
DIGITS = ["²", "③", "٣", "١", "1²", "０"]


def _carabin_cases(digit: str) -> list[tuple[list[str], str]]:
    return [
        (["solve", "carabin", C_POSITION.replace("bidder=2", f"bidder={digit}")], digit),
        (["solve", "carabin", C_POSITION.replace("lead=1", f"lead={digit}")], digit),
        (["tree", "carabin", C_POSITION.replace("lead=1", f"lead={digit}")], digit),
        (["deal", "carabin", f"{C_DEAL} bidder={digit}"], digit),
        (
            ["review", "carabin", f"{C_DEAL} trump=S bidder={digit}", "--play", "AS"],
            digit,
        ),
        (["advise", "carabin", C_VIEW.replace("players=3", f"players={digit}")], digit),
        (["advise", "carabin", C_VIEW.replace("seat=0", f"seat={digit}")], digit),
        (["advise", "carabin", C_VIEW.replace("bidder=0", f"bidder={digit}")], digit),
    ]


@pytest.mark.parametrize(
    "argv, named", [case for d in DIGITS for case in _carabin_cases(d)], ids=repr
)
def test_a_unicode_digit_is_not_a_number(cli, argv: list[str], named: str) -> None:
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, f"'{named}'")


@pytest.mark.parametrize("digit", DIGITS)
def test_a_unicode_digit_in_batch_mode(cli, digit: str) -> None:
    bad = C_POSITION.replace("bidder=2", f"bidder={digit}")
    status, out, err = cli("solve", "carabin", "-", "--json", stdin=f"{C_POSITION}\n{bad}\n")
    assert status == 2
    lines = out.splitlines()
    assert len(lines) == 2 and '"points"' in lines[0]
    assert lines[1].startswith('{"error": "invalid seat') and '"line": 2' in lines[1]
    assert err.count("\n") == 1 and "line 2" in err and "Traceback" not in err


@pytest.mark.parametrize("digit", DIGITS)
def test_a_unicode_digit_in_klabberjass_is_refused(cli, digit: str) -> None:
    status, out, err = cli("solve", "klabberjass", K_POSITION.replace("lead=E", f"lead={digit}"))
    assert_one_error_line(status, out, err, f"'{digit}'")


def test_a_seat_with_too_many_digits_is_refused(cli) -> None:
    seat = "0" * 5000 + "1"  # int() of over 4300 digits raises a plain ValueError
    status, out, err = cli("solve", "carabin", C_POSITION.replace("bidder=2", f"bidder={seat}"))
    assert_one_error_line(status, out, err, "invalid seat")


K_VIEW = "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D"
_NUMBER_CASES = [
    (["solve", "klabberjass", K_POSITION, "--tt-mb"], "--tt-mb", ["3000000000", "100000"]),
    (["solve", "carabin", C_POSITION, "--tt-mb"], "--tt-mb", ["3000000000", "100000"]),
    (["tree", "klabberjass", K_POSITION, "--max-nodes"], "--max-nodes", ["3000000000"]),
    (["tree", "carabin", C_POSITION, "--max-nodes"], "--max-nodes", ["3000000000"]),
    (["tree", "klabberjass", K_POSITION, "--all", "--depth"], "--depth", ["3000000000"]),
    (["advise", "klabberjass", K_VIEW, "--samples"], "--samples", ["1000000000"]),
    (["advise", "carabin", C_VIEW, "--samples"], "--samples", ["1000000000"]),
    (["advise", "klabberjass", K_VIEW, "--workers"], "--workers", ["100000"]),
    (["deal", "carabin", "--random", "--players"], "--players", ["7"]),
    (["bench", "klabberjass", "--deals"], "--deals", ["3000000000"]),
    (["bench", "carabin", "--deals"], "--deals", ["3000000000"]),
    (["bench", "klabberjass", "--reference-deals"], "--reference-deals", ["100000"]),
    (["puzzles", "generate", "klabberjass", "--count"], "--count", ["1000000000"]),
    (["puzzles", "generate", "carabin", "--max-candidates"], "--max-candidates", ["10**12"]),
    (["puzzles", "generate", "carabin", "--cards"], "--cards", ["100"]),
    (["puzzles", "generate", "carabin", "--players"], "--players", ["9"]),
    (["puzzles", "generate", "carabin", "--min-decisions"], "--min-decisions", ["1000"]),
]
_EVERYWHERE_BAD = ["0", "-5", "٣", "²", "1.5", "lots", "", "1_000", " 3", "9" * 5000]


@pytest.mark.parametrize(
    "argv, option, value",
    [
        (argv, option, value)
        for argv, option, too_big in _NUMBER_CASES
        for value in too_big + _EVERYWHERE_BAD
        if not (value == "0" and option in ("--reference-deals", "--min-decisions"))
    ],
    ids=lambda x: x if isinstance(x, str) and len(x) < 20 else "…",
)
def test_every_count_option_is_checked_where_it_is_parsed(
    cli, argv: list[str], option: str, value: str
) -> None:
    status, out, err = cli(*argv, value)
    assert_one_error_line(status, out, err, f"invalid {option} ", "a whole number from ")
    if value == "100000" and option == "--tt-mb":
        assert "half this machine's memory" in err
    assert len(err) < 700  # a long token is cut, not quoted whole


@pytest.mark.parametrize("option", ["--seed"])
@pytest.mark.parametrize("value", ["٣", "²", "lots", "1e3", "9" * 5000])
def test_seeds_are_ascii_whole_numbers(cli, option: str, value: str) -> None:
    status, out, err = cli("deal", "klabberjass", "--random", option, value)
    assert_one_error_line(status, out, err, f"invalid {option} ")


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "١", "x"])
def test_min_rating_is_a_finite_number(cli, value: str) -> None:
    status, out, err = cli("puzzles", "generate", "klabberjass", f"--min-rating={value}")
    assert_one_error_line(status, out, err, "invalid --min-rating ")


def test_carabin_players_zero_is_refused_not_read_as_the_default(cli) -> None:
    status, out, err = cli("deal", "carabin", "--random", "--players", "0")
    assert_one_error_line(status, out, err, "invalid --players 0")
    status, out, _ = cli("deal", "carabin", "--random", "--players", "3", "--seed", "3", "--json")
    assert status == 0 and out.count("/") == 3


def test_a_big_valid_table_size_is_still_taken(cli) -> None:
    status, out, _ = cli("solve", "klabberjass", K_POSITION, "--tt-mb", "64", "--json")
    assert status == 0 and '"points": {"E": 25, "D": 0}' in out


def test_illegal_play_in_review_names_the_reason(cli) -> None:
    start = "0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H trump=S bidder=0"
    status, out, err = cli("review", "carabin", start, "--play", "TS")
    assert_one_error_line(status, out, err, "TS", "legal: AS KS QS JS")


# ---------------------------------------------------------------- batch mode

K_DEAL = "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S bidder=E"
GOOD = {
    ("solve", "klabberjass"): [K_POSITION, "trump=H lead=E E=A... D=K..."],
    ("solve", "carabin"): [
        C_POSITION,
        "trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..",
    ],
    ("deal", "klabberjass"): [K_DEAL, K_DEAL.replace("trump=S", "trump=H")],
    ("deal", "carabin"): [f"{C_DEAL} bidder=0 trump=S", f"{C_DEAL} bidder=1 trump=H"],
}
BAD_LINES = [
    "",
    "   ",
    "x",
    "trump=H lead=\x1b[31mE",
    "lead=E\x00",
    "bidder=²",
    "\u2028",
    "Q" * 100_000,
]


@pytest.mark.parametrize("verb, game", list(GOOD))
@pytest.mark.parametrize("as_json", [True, False])
def test_batch_every_line_is_answered_in_order(cli, verb: str, game: str, as_json: bool) -> None:
    one, two = GOOD[(verb, game)]
    lines = [one, *BAD_LINES[:4], two, *BAD_LINES[4:], one]
    flags = ["--json"] if as_json else []
    _, alone_one, _ = cli(verb, game, one, *flags)
    _, alone_two, _ = cli(verb, game, two, *flags)
    status, out, err = cli(verb, game, "-", *flags, stdin="\n".join(lines) + "\n")
    assert status == 2 and "Traceback" not in err
    errors = err.splitlines()
    bad_numbers = [i for i, line in enumerate(lines, 1) if line not in (one, two)]
    assert [e.split(":")[2] for e in errors] == [f" line {n}" for n in bad_numbers]
    assert all(e.startswith("tricklab: error: line ") and len(e) < 700 for e in errors)
    if as_json:
        answers = out.splitlines()
        assert len(answers) == len(lines)
        for number, (line, answer) in enumerate(zip(lines, answers, strict=True), 1):
            if line == one:
                assert answer + "\n" == alone_one
            elif line == two:
                assert answer + "\n" == alone_two
            else:
                data = json.loads(answer)
                assert set(data) == {"error", "line"} and data["line"] == number
                assert data["error"] in err
    else:
        assert out == "\n".join([alone_one, alone_two, alone_one])


def test_batch_unicode_line_separators_do_not_split_lines(cli) -> None:
    # U+2028 inside a line is part of it (str.splitlines would cut there)
    text = f"{K_POSITION}\u2028{K_POSITION}\n{K_POSITION}\n"
    status, out, err = cli("solve", "klabberjass", "-", "--json", stdin=text)
    answers = out.splitlines()
    assert status == 2 and len(answers) == 2 and json.loads(answers[0])["line"] == 1
    assert "\\u2028" in err and "\u2028" not in err


def _run_module(argv: list[str], data: bytes, **env: str) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[2]
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIO"))}
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", "analysis.cli.main", *argv],
        input=data,
        capture_output=True,
        cwd=root,
        env=environ,
        check=False,
    )


LOCALES = [
    {"LC_ALL": "en_US.UTF-8", "PYTHONIOENCODING": "utf-8"},
    {"LC_ALL": "de_DE.UTF-8"},
    {"LC_ALL": "C", "PYTHONIOENCODING": "latin-1"},
    {"LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
]


@pytest.mark.parametrize("env", LOCALES, ids=lambda e: "-".join(e.values()))
def test_batch_reads_bytes_whatever_the_locale(env: dict[str, str]) -> None:
    good = K_POSITION.encode()
    data = b"\xef\xbb\xbf" + good + b"\n" + b"trump=H lead=E E=A\xff... D=K...\n"
    data += b"trump=H lead=E E=A\xc3... D=K...\r\n" + "trump=H lead=E E=A... D=٣...".encode()
    data += b"\n" + good + b"\r\n"
    done = _run_module(["solve", "klabberjass", "-", "--json"], data, **env)
    assert done.returncode == 2, done.stderr
    answers = [json.loads(line) for line in done.stdout.decode("ascii").splitlines()]
    assert len(answers) == 5
    assert answers[0] == answers[4] and answers[0]["points"] == {"E": 25, "D": 0}
    assert [a.get("line") for a in answers] == [None, 2, 3, 4, None]
    assert "invalid UTF-8 at byte 19" in answers[1]["error"] and "ff" in answers[1]["error"]
    assert "invalid UTF-8" in answers[2]["error"] and "c3" in answers[2]["error"]
    assert "invalid rank" in answers[3]["error"]
    err = done.stderr.decode("utf-8", "replace")
    assert err.count("\n") == 3 and "Traceback" not in err


@pytest.mark.parametrize("env", LOCALES[2:], ids=lambda e: "-".join(e.values()))
def test_diagrams_and_errors_survive_a_narrow_locale(env: dict[str, str]) -> None:
    done = _run_module(["solve", "klabberjass", K_POSITION], b"", **env)
    assert done.returncode == 0 and b"Trump" in done.stdout, done.stderr
    done = _run_module(["solve", "carabin", C_POSITION.replace("lead=1", "lead=٣")], b"", **env)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and b"invalid seat" in done.stderr


def test_a_byte_order_mark_only_counts_on_the_first_line(cli) -> None:
    text = f"\ufeff{K_POSITION}\n\ufeff{K_POSITION}\n"
    status, out, err = cli("solve", "klabberjass", "-", "--json", stdin=text)
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 2 and "points" in answers[0] and answers[1]["line"] == 2
    assert "\\ufeff" in answers[1]["error"]


@pytest.mark.parametrize("token", ["\x1b[2J", "\r", "\u2028", "\u2029", "\u202e", "\x00", "\x7f"])
def test_control_characters_are_escaped_in_the_error_line(cli, token: str) -> None:
    status, out, err = cli("solve", "klabberjass", f"trump=H lead=E E=A{token}... D=K...")
    assert_one_error_line(status, out, err, "invalid ")  # a rank, or a field (whitespace)
    assert token not in err


def test_a_one_megabyte_token_gives_a_short_line(cli) -> None:
    status, out, err = cli("solve", "klabberjass", f"trump=H lead=E E={'A' * 1_000_000} D=K...")
    assert_one_error_line(status, out, err, "characters cut")
    assert len(err) < 600


def test_an_out_folder_that_cannot_be_made_is_refused_before_the_search(cli, tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    argv = ["puzzles", "generate", "klabberjass", "--count", "1", "--out", str(blocker / "x")]
    status, out, err = cli(*argv)
    assert_one_error_line(status, out, err, "invalid --out", str(blocker / "x"))


def test_a_file_error_is_one_line(cli, monkeypatch) -> None:
    from analysis.cli import solve

    def refuse(args):
        raise PermissionError(13, "Permission denied", "/root/out")

    monkeypatch.setattr(solve, "run", refuse)
    status, out, err = cli("solve", "klabberjass", K_POSITION)
    assert_one_error_line(status, out, err, "Permission denied '/root/out'")
