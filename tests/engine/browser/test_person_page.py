"""The dates ahead on the memory page: the person's birthday and the dated events memory keeps, nearest first,
from today on; the profile birthday wins over a remembered "my birthday"."""

from __future__ import annotations

from datetime import date

from bot.engine.browser.person_page import dates_ahead
from bot.engine.model import DatedEvent, MonthDay, UserProfile

TODAY = date(2026, 3, 14)


def _event(what: str, on: date, *, yearly: bool = False, kind: str = "event", about: str | None = None) -> DatedEvent:
    return DatedEvent("m-" + what, "telegram:1", what, on, yearly, kind, about)


def test_birthday_and_events_come_nearest_first_and_past_ones_are_left_out() -> None:
    profile = UserProfile("telegram:1", birthday=MonthDay(3, 20))
    events = [
        _event("sister's wedding", date(2026, 6, 12)),
        _event("job interview", date(2026, 3, 1)),  # past
        _event("Marc's birthday", date(1990, 3, 16), yearly=True, kind="birthday", about="Marc"),
        _event("my birthday", date(1991, 3, 20), yearly=True, kind="birthday"),  # the profile's wins
    ]

    shown = dates_ahead(profile, events, TODAY)

    assert [(d.what, d.on) for d in shown] == [
        ("Marc's birthday", date(2026, 3, 16)),
        ("birthday", date(2026, 3, 20)),
        ("sister's wedding", date(2026, 6, 12)),
    ]
    assert [d.own_birthday for d in shown] == [False, True, False]


def test_a_birthday_passed_this_year_is_next_years() -> None:
    shown = dates_ahead(UserProfile("telegram:1", birthday=MonthDay(1, 5)), [], TODAY)

    assert [d.on for d in shown] == [date(2027, 1, 5)]
