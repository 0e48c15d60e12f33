"""Which occasions the chat prompt mentions: the person's birthday and dated events, today and just ahead."""

from __future__ import annotations

from datetime import date

from bot.engine.model import DatedEvent, MonthDay
from bot.engine.when.upcoming import MAX_SHOWN, Occasion, upcoming_occasions

TODAY = date(2026, 3, 14)


def _event(what: str, on: date, *, yearly: bool = True, kind: str = "birthday", about: str | None = None) -> DatedEvent:
    return DatedEvent(f"id-{what}", "telegram:42", what, on, yearly, kind, about)


def test_the_profile_birthday_today_and_not_the_day_before() -> None:
    assert upcoming_occasions(MonthDay(3, 14), [], TODAY) == [Occasion("birthday", "birthday", True, 0)]
    assert upcoming_occasions(MonthDay(3, 15), [], TODAY) == [Occasion("birthday", "birthday", True, 1)]
    assert upcoming_occasions(MonthDay(3, 13), [], TODAY) == []  # passed: next year is far off


def test_a_yearly_event_told_years_ago_comes_back_each_year() -> None:
    told_in_2023 = _event("Marc's birthday", date(2023, 3, 16), about="Marc")
    assert upcoming_occasions(None, [told_in_2023], TODAY) == [Occasion("Marc's birthday", "birthday", False, 2)]


def test_a_one_off_event_only_on_its_own_date() -> None:
    interview = _event("job interview", date(2026, 3, 14), yearly=False, kind="event")
    assert upcoming_occasions(None, [interview], TODAY) == [Occasion("job interview", "event", True, 0)]
    assert upcoming_occasions(None, [interview], date(2027, 3, 14)) == []


def test_29_february_birthday_is_on_28_february_in_other_years() -> None:
    assert upcoming_occasions(MonthDay(2, 29), [], date(2027, 2, 28)) == [Occasion("birthday", "birthday", True, 0)]


def test_the_profile_birthday_and_a_remembered_own_birthday_are_one() -> None:
    remembered = _event("birthday", date(2025, 3, 14))
    assert upcoming_occasions(MonthDay(3, 14), [remembered], TODAY) == [Occasion("birthday", "birthday", True, 0)]


def test_nearest_first_today_first_and_only_a_few() -> None:
    events = [_event(f"friend {n}'s birthday", date(2020, 3, 14 + n), about=f"friend {n}") for n in range(7)]
    found = upcoming_occasions(MonthDay(3, 14), events, TODAY)
    assert len(found) == MAX_SHOWN
    assert found[0] == Occasion("birthday", "birthday", True, 0)
    assert [o.in_days for o in found] == sorted(o.in_days for o in found)


def test_far_occasions_are_left_out() -> None:
    assert upcoming_occasions(MonthDay(3, 30), [], TODAY) == []


def test_a_french_own_birthday_is_named_by_its_kind_and_someone_elses_keeps_its_words() -> None:
    mine = DatedEvent("b1", "telegram:42", "anniversaire", date(2020, 3, 14), True, "birthday", language="fr")
    sister = DatedEvent("b2", "telegram:42", "anniversaire (sœur)", date(2020, 3, 15), True, "birthday", "sœur", "fr")
    assert upcoming_occasions(None, [mine, sister], TODAY) == [
        Occasion("birthday", "birthday", True, 0),
        Occasion("anniversaire (sœur)", "birthday", False, 1),
    ]
