"""Bad input through the command line: one clean error line, never a traceback."""

from __future__ import annotations

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
