"""A dated memory's text as the prompt shows it: its calendar date in relative words, whatever its precision."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.engine.model import RecalledMemory
from bot.engine.when.memory_when import with_relative_date

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    ("text", "on", "precision", "shown"),
    [
        ("Exam — 7 December 2026", date(2026, 12, 7), "day", "Exam — in 4 days"),
        ("Mariage (sœur) — janvier 2027", date(2027, 1, 1), "month", "Mariage (sœur) — next month"),
        ("Move — week of 14 December 2026", date(2026, 12, 14), "week", "Move — in 2 weeks"),
        ("Déménagement — semaine du 7 décembre 2026", date(2026, 12, 7), "week", "Déménagement — next week"),
        ("Trip — 2027", date(2027, 1, 1), "year", "Trip — next year"),
        ("Surgery — 1 December 2026", date(2026, 12, 1), "day", "Surgery — 2 days ago"),
    ],
)
def test_the_date_part_is_said_relatively(text: str, on: date, precision: str, shown: str) -> None:
    memory = RecalledMemory("m", "temporal", text, on=on, precision=precision)
    assert with_relative_date(memory, NOW) == shown


def test_a_text_that_does_not_end_with_a_stored_date_is_left_alone() -> None:
    assert with_relative_date(RecalledMemory("m", "temporal", "Dentist", on=date(2026, 12, 7)), NOW) is None
    assert (
        with_relative_date(RecalledMemory("m", "episodic", "Exam — 7 December 2026", on=date(2026, 12, 7)), NOW) is None
    )
