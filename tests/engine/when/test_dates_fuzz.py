"""Dates in any text: never an impossible one, never an error; February 29 is a real birthday."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.when import dates
from bot.engine.when.dates import parse_birthday, resolve_dates
from bot.errors import InvalidInput
from memory.writing.extraction.dated import extract_dated

FUZZ = settings(max_examples=200, deadline=None)
AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)  # 2026, 2027 and 2025 have no February 29
_DATE_WORDS = st.sampled_from(
    ["30 février", "Feb 29 2027", "February 29", "29 février", "31 avril 1990", "2027-02-29", "31/04", "le 32/13",
     "0 mars", "my birthday is ", "mon anniversaire c'est le ", "next ", "in 99999999 years", "il y a 10**9 jours",
     "yesterday", "jeudi", "\ud800", "\x00", "\u202e", "9" * 30, "March 14 -5", " ", "-"]
)  # fmt: skip
TEXT = st.lists(st.one_of(st.text(st.characters(codec=None, categories=None), max_size=15), _DATE_WORDS), max_size=8)
ZONES = st.sampled_from(["UTC", "Europe/Paris", "Pacific/Kiritimati", "America/Adak", "Asia/Kathmandu"])


@FUZZ
@given(words=TEXT, zone=ZONES, language=st.sampled_from(["en", "fr", None]))
def test_any_text_yields_only_real_dates_and_never_raises(words: list[str], zone: str, language: str | None) -> None:
    text = "".join(words)
    for found in resolve_dates(text, AT, zone, language):
        assert isinstance(found.local_date, date) and text[found.start : found.end] == found.text
    for candidate in extract_dated(text, AT, zone, language or "en"):
        assert candidate.local_date is not None
        date.fromisoformat(candidate.local_date)  # a day that exists


@FUZZ
@given(words=TEXT, language=st.sampled_from(["en", "fr"]))
def test_any_birthday_argument_is_a_real_day_or_a_clear_refusal(words: list[str], language: str) -> None:
    text = "".join(words)
    try:
        birthday = parse_birthday(text, language)
    except InvalidInput as refused:
        assert str(refused)
        return
    date(birthday.year or 2024, birthday.month, birthday.day)  # 2024: February 29 exists


@pytest.mark.parametrize("text", ["30 février", "Feb 29 2027", "2027-02-29", "31 avril", "le 31/04"])
def test_impossible_dates_are_never_stored_from_conversation(text: str) -> None:
    said = f"my birthday is {text}" if text[0].isalpha() and text[0].isupper() else f"mon anniversaire c'est le {text}"
    assert [f.local_date for f in resolve_dates(said, AT, "UTC") if f.precision == "day"] == []
    assert extract_dated(said, AT, "UTC", "fr") == []


@pytest.mark.parametrize(("said", "language"), [("my birthday is February 29", "en"),
                                                 ("mon anniversaire c'est le 29 février", "fr")])  # fmt: skip
def test_a_february_29_birthday_without_a_year_is_remembered(said: str, language: str) -> None:
    # From March 2026 the next February 29 is in 2028: two years on, not one.
    [candidate] = extract_dated(said, AT, "Europe/Paris", language)

    assert candidate.recurrence == "yearly" and candidate.local_date == "2028-02-29"
    assert "29" in candidate.text


_WORDS = st.sampled_from(
    [*dates.MONTHS, *dates.WEEKDAYS, *dates._DAY_WORD_OFFSET, *dates.NUMBERS, "in", "en", "dans", "il y a", "ago",
     "next", "last", "this", "la", "le", "l'", "ce", "cette", "prochaine", "weeks", "mois", "ans", "week-end",
     "weekend", "during", "depuis", "au mois de", "d'", "the", "I", "cat", "was", "went", "_", "-", ".", ",", "!",
     # digits (a date only in "2026-03-14", "14/03", "14.03" or beside a date word), and what a phone types
     # beyond ASCII: characters without case ("I’m", "—", a combining accent), and letters with one ("é", "K")
     "3", "14", "2026", "1990", "14/03", "3.5", "2026-03-14", "٣", "I’m", "—", "…", "🙂", "«", "»", "é", "e\u0301",
     "\u212a", "\u017f", "ı", "İ"]
)  # fmt: skip
SPACES = st.sampled_from(["", " ", "  ", "-", "'", "\n", "/", ".", "\u00a0", "\u202f", "’"])


@settings(max_examples=3000, deadline=None)
@given(words=st.lists(st.tuples(_WORDS, SPACES, st.booleans()), max_size=8))
def test_the_quick_no_never_skips_a_date(words: list[tuple[str, str, bool]]) -> None:
    """Most messages hold no date and are turned down before the patterns run: never one that holds one."""
    text = "".join((w.upper() if shout else w) + gap for w, gap, shout in words)
    if dates._cannot_hold_a_date(text):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(dates, "_cannot_hold_a_date", lambda _: False)
            assert dates.resolve_dates(text, AT, "Europe/Paris", "fr") == []


@pytest.mark.parametrize(
    "text", ["le 14 février", "en août", "in 3 days", "2026-03-14", "on 14/03", "I’m off on 14 March",
             "dans 3\u00a0jours", "il y a 2 ans — déjà"]
)  # fmt: skip
def test_the_quick_no_lets_every_date_through(text: str) -> None:
    assert not dates._cannot_hold_a_date(text)
    assert resolve_dates(text, AT, "Europe/Paris", "fr") != []


@pytest.mark.parametrize("text", ["I’m 30 and I have 2 cats — lol 🙂", "« ok » … 3 km", "it’s 5 o’clock"])
def test_a_message_with_numbers_but_no_date_is_turned_down_at_once(text: str) -> None:
    assert dates._cannot_hold_a_date(text)
