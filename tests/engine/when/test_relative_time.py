"""Relative times the prompt shows next to memories: counted in the person's local days, never a bare date."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.engine.when.relative_time import local_day, next_yearly, relative_day, yearly_date

TODAY = date(2026, 3, 14)  # a Saturday


def _ago(days: int) -> str:
    return relative_day(TODAY - timedelta(days=days), TODAY)


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (1, "yesterday"),
        (2, "2 days ago"),
        (6, "6 days ago"),
        (13, "13 days ago"),
        (14, "2 weeks ago"),
        (20, "2 weeks ago"),
        (21, "3 weeks ago"),
        (30, "4 weeks ago"),
    ],
)
def test_days_then_weeks_in_the_past(days: int, words: str) -> None:
    assert _ago(days) == words


def test_today_is_named_as_the_caller_says() -> None:
    assert relative_day(TODAY, TODAY) == "today"
    assert relative_day(TODAY, TODAY, today_word="earlier today") == "earlier today"


@pytest.mark.parametrize(
    ("day", "words"),
    [
        (date(2026, 2, 10), "a month ago"),  # 32 days, not yet two calendar months
        (date(2026, 1, 14), "2 months ago"),
        (date(2026, 1, 15), "a month ago"),  # the 15th has not come round again
        (date(2025, 4, 20), "10 months ago"),
        (date(2025, 3, 15), "11 months ago"),
        (date(2025, 3, 14), "in March last year"),
        (date(2025, 1, 2), "in January last year"),
        (date(2024, 3, 2), "in March 2 years ago"),
        (date(2020, 6, 1), "6 years ago"),
    ],
)
def test_months_then_named_months_then_years(day: date, words: str) -> None:
    assert relative_day(day, TODAY) == words


def test_last_year_is_the_calendar_year_before_this_one_with_its_month_named() -> None:
    # Thirteen months back across New Year: December of two calendar years ago, named so it is not misread.
    assert relative_day(date(2025, 12, 20), date(2027, 1, 5)) == "in December 2 years ago"
    assert relative_day(date(2026, 1, 5), date(2027, 1, 5)) == "in January last year"


@pytest.mark.parametrize(
    ("day", "words"),
    [
        (date(2026, 3, 15), "tomorrow"),
        (date(2026, 3, 16), "in 2 days"),
        (date(2026, 3, 26), "in 12 days"),
        (date(2026, 4, 13), "in 30 days"),
        (date(2026, 4, 20), "in a month"),
        (date(2026, 6, 14), "in 3 months"),
        (date(2027, 2, 1), "in 10 months"),
        (date(2027, 3, 20), "in March next year"),
        (date(2029, 3, 20), "in 3 years"),
    ],
)
def test_future_days_then_months(day: date, words: str) -> None:
    assert relative_day(day, TODAY) == words


@pytest.mark.parametrize(
    ("day", "precision", "words"),
    [
        (date(2026, 4, 1), "month", "next month"),
        (date(2026, 3, 1), "month", "this month"),
        (date(2026, 2, 1), "month", "last month"),
        (date(2026, 7, 1), "month", "in 4 months"),
        (date(2026, 3, 16), "week", "next week"),  # the Monday after this Saturday
        (date(2026, 3, 9), "week", "this week"),
        (date(2026, 2, 23), "week", "2 weeks ago"),
        (date(2027, 1, 1), "year", "next year"),
        (date(2025, 1, 1), "year", "last year"),
    ],
)
def test_a_month_or_week_without_a_day_is_named_as_a_whole(day: date, precision: str, words: str) -> None:
    assert relative_day(day, TODAY, precision=precision) == words


def test_the_local_day_decides_not_the_utc_date() -> None:
    new_york = ZoneInfo("America/New_York")
    # 23:30 on Friday 13 March in New York is already Saturday 14 March in UTC.
    told = datetime(2026, 3, 13, 23, 30, tzinfo=new_york).astimezone(UTC)
    now = datetime(2026, 3, 14, 9, 0, tzinfo=new_york)
    assert told.date() == now.date()  # in UTC both are the 14th…
    assert relative_day(local_day(told, new_york), now.date()) == "yesterday"  # …but she wrote it last night


def test_a_dst_change_does_not_shift_the_day() -> None:
    paris = ZoneInfo("Europe/Paris")
    # Summer time starts on 29 March 2026 at 02:00 in Paris: a 23-hour day.
    told = datetime(2026, 3, 28, 23, 30, tzinfo=paris).astimezone(UTC)
    now = datetime(2026, 3, 29, 23, 0, tzinfo=paris)
    assert relative_day(local_day(told, paris), local_day(now, paris)) == "yesterday"


def test_29_february_falls_on_28_february_in_other_years() -> None:
    assert yearly_date(2, 29, 2027) == date(2027, 2, 28)
    assert yearly_date(2, 29, 2028) == date(2028, 2, 29)
    assert next_yearly(2, 29, date(2027, 2, 28)) == date(2027, 2, 28)
    assert next_yearly(2, 29, date(2027, 3, 1)) == date(2028, 2, 29)


def test_next_yearly_counts_today_then_next_year() -> None:
    assert next_yearly(3, 14, TODAY) == TODAY
    assert next_yearly(3, 13, TODAY) == date(2027, 3, 13)
    assert next_yearly(3, 26, TODAY) == date(2026, 3, 26)
