"""Birthdays as people type them, and dates inside messages resolved against the message time."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.engine.model import MonthDay
from bot.engine.when.dates import parse_birthday, resolve_dates
from bot.errors import InvalidInput

# Saturday 14 March 2026, 12:00 UTC.
AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("March 14", "en", MonthDay(3, 14)),
        ("march 14th", "en", MonthDay(3, 14)),
        ("14 mars", "fr", MonthDay(3, 14)),
        ("le 1er mai", "fr", MonthDay(5, 1)),
        ("14/03", "fr", MonthDay(3, 14)),
        ("14/03", "en", MonthDay(3, 14)),
        ("03/04", "fr", MonthDay(4, 3)),
        ("1990-03-14", None, MonthDay(3, 14, 1990)),
        ("14 March 1990", "en", MonthDay(3, 14, 1990)),
        ("le 29 février", "fr", MonthDay(2, 29)),
        ("Feb 29", "en", MonthDay(2, 29)),
        ("  June 2. ", "en", MonthDay(6, 2)),
        ("14 déc.", "fr", MonthDay(12, 14)),
    ],
)
def test_birthdays_people_type_are_read(text: str, language: str | None, expected: MonthDay) -> None:
    assert parse_birthday(text, language) == expected


@pytest.mark.parametrize(
    "text", ["30 février", "Feb 30", "13/13", "31/04", "banana", "", "1990-02-30", "32 mars", "le 14"]
)
def test_impossible_or_unreadable_birthdays_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_birthday(text, "fr")


def test_refusal_message_is_in_the_persons_language() -> None:
    with pytest.raises(InvalidInput, match="date"):
        parse_birthday("n'importe quoi", "fr")
    with pytest.raises(InvalidInput, match="can't read"):
        parse_birthday("whatever", "en")


def _dates(text: str, language: str = "en", timezone: str = "UTC", at: datetime = AT) -> list[date]:
    return [found.local_date for found in resolve_dates(text, at, timezone, language)]


def test_birthday_in_a_sentence() -> None:
    (found,) = resolve_dates("my birthday is March 14", AT, "UTC", "en")
    assert found.local_date == date(2026, 3, 14)
    assert found.text == "March 14"
    assert not found.year_given and not found.relative
    assert found.month_day() == MonthDay(3, 14)
    assert _dates("mon anniversaire c'est le 14 mars", "fr") == [date(2026, 3, 14)]


def test_future_dates_come_after_the_message_past_ones_before() -> None:
    assert _dates("the concert is on February 2") == [date(2027, 2, 2)]
    assert _dates("we went to the concert on February 2") == [date(2026, 2, 2)]


def test_relative_dates_resolve_against_the_message_time() -> None:
    assert _dates("ma sœur se marie le mois prochain", "fr") == [date(2026, 4, 1)]
    assert _dates("exam in two weeks") == [date(2026, 3, 28)]
    assert _dates("dans trois jours", "fr") == [date(2026, 3, 17)]
    assert _dates("jeudi", "fr") == [date(2026, 3, 19)]
    assert _dates("jeudi prochain", "fr") == [date(2026, 3, 19)]
    assert _dates("I saw her last Thursday") == [date(2026, 3, 12)]
    assert _dates("tomorrow is my interview") == [date(2026, 3, 15)]
    assert _dates("c'était hier", "fr") == [date(2026, 3, 13)]
    assert _dates("two days ago") == [date(2026, 3, 12)]
    assert _dates("il y a une semaine", "fr") == [date(2026, 3, 7)]
    assert _dates("next year") == [date(2027, 1, 1)]


def test_relative_dates_use_the_persons_zone() -> None:
    late_evening_in_la = datetime(2026, 3, 15, 5, 0, tzinfo=UTC)  # still 14 March in Los Angeles
    (found,) = resolve_dates("tomorrow", late_evening_in_la, "America/Los_Angeles", "en")
    assert found.local_date == date(2026, 3, 15)
    assert found.event_at.date() == date(2026, 3, 15)
    assert found.event_at.tzinfo is UTC


def test_explicit_years_and_months() -> None:
    assert _dates("On 8 May, 2023 we met") == [date(2023, 5, 8)]
    (found,) = resolve_dates("back in May 2022", AT, "UTC", "en")
    assert (found.local_date, found.precision, found.year_given) == (date(2022, 5, 1), "month", True)
    assert _dates("1990-03-14") == [date(1990, 3, 14)]


def test_impossible_dates_in_messages_are_not_dates() -> None:
    assert _dates("mon anniversaire est le 30 février", "fr") == []
    assert _dates("on Feb 30") == []


def test_scores_and_habits_are_not_dates() -> None:
    assert _dates("I give that film 4/5") == []
    assert _dates("Sundays are hard") == []
    assert _dates("je suis triste", "fr") == []


def test_a_weekday_in_a_feeling_or_a_habit_is_no_date_but_a_plan_on_a_weekday_is() -> None:
    wednesday = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
    for text, language in (
        ("dimanche difficile", "en"),
        ("Sunday is hard", "en"),
        ("Sunday nights are so lonely", "en"),
        ("every Sunday I go running", "en"),
        ("le lundi c'est dur", "fr"),
        ("chaque dimanche je déprime", "fr"),
    ):
        assert resolve_dates(text, wednesday, "UTC", language) == [], text
    for text, language in (
        ("on Sunday I have my exam", "en"),
        ("Sunday is going to be hard", "en"),
        ("dimanche j'ai mon examen", "fr"),
    ):
        assert [f.local_date for f in resolve_dates(text, wednesday, "UTC", language)] == [date(2026, 12, 6)], text


def test_several_dates_in_order() -> None:
    found = _dates("Exam on 2/6/2026 and party the day after tomorrow", "fr")
    assert found == [date(2026, 6, 2), date(2026, 3, 16)]


def test_a_month_alone_is_a_month() -> None:
    (found,) = resolve_dates("When did Melanie go camping in June?", AT, "UTC", "en")
    assert (found.local_date, found.precision) == (date(2025, 6, 1), "month")
    (found,) = resolve_dates("je pars en août", AT, "UTC", "fr")
    assert (found.local_date, found.precision) == (date(2026, 8, 1), "month")
    assert _dates("I may go there") == []
