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
