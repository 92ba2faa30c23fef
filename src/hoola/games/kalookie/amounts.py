"""Amounts of money and points as records write them: exact, bounded, never floats.

>>> format_number(Fraction(5, 2)), format_number(Fraction(1, 3)), read_number("1/3", "pool")
('2.5', '"1/3"', Fraction(1, 3))
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Final

from hoola.core.errors import RecordError
from hoola.core.records import format_number

__all__ = ["format_number", "read_number"]

LIMIT: Final = 10**12  # no stake, payment or total of a real game comes near
_DECIMAL: Final = re.compile(r"-?\d{1,13}(\.\d{1,12})?")
_FRACTION: Final = re.compile(r"-?\d{1,13}/\d{1,13}")


def read_number(value: Any, where: str) -> Fraction:
    """A number from a record (an integer, a decimal, or a string ``"5/2"``), within bounds."""
    number: Fraction | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = Fraction(value) if abs(value) <= LIMIT else None
    elif isinstance(value, float):
        text = repr(value)
        number = Fraction(text) if _DECIMAL.fullmatch(text) else None
    elif isinstance(value, str):
        text = value.strip()
        if _DECIMAL.fullmatch(text) or (_FRACTION.fullmatch(text) and not text.endswith("/0")
                                        and int(text.split("/")[1])):
            number = Fraction(text)
    if number is None or abs(number) > LIMIT:
        raise RecordError(f"{where} must be a number such as 3, 2.5 or \"1/3\" (at most "
                          f"{LIMIT:,} in size), not {value!r}", "bad-number")
    return number
