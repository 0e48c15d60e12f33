"""Fire times in a person's zone: DST both ways, 29 February, quiet hours (pure functions, no Redis)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from bot.engine.model import MonthDay
from jobs import occasions as oc

PARIS = ZoneInfo("Europe/Paris")
NEW_YORK = ZoneInfo("America/New_York")


def test_nine_in_paris_is_eight_utc_in_winter_and_seven_in_summer() -> None:
    assert oc.fire_time(date(2026, 1, 15), time(9), PARIS) == datetime(2026, 1, 15, 8, tzinfo=UTC)
    assert oc.fire_time(date(2026, 7, 15), time(9), PARIS) == datetime(2026, 7, 15, 7, tzinfo=UTC)


def test_a_time_skipped_by_the_spring_change_moves_forward() -> None:
    # 02:30 does not exist on these nights; it fires at 03:30 local.
    assert oc.fire_time(date(2026, 3, 29), time(2, 30), PARIS) == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert oc.fire_time(date(2026, 3, 8), time(2, 30), NEW_YORK) == datetime(2026, 3, 8, 7, 30, tzinfo=UTC)


def test_a_time_repeated_by_the_autumn_change_fires_at_its_first_instant() -> None:
    assert oc.fire_time(date(2026, 10, 25), time(2, 30), PARIS) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert oc.fire_time(date(2026, 11, 1), time(1, 30), NEW_YORK) == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)


def test_29_february_is_kept_on_28_february_in_other_years() -> None:
    assert oc.yearly_date(2, 29, 2027) == date(2027, 2, 28)
    assert oc.yearly_date(2, 29, 2028) == date(2028, 2, 29)
    occurrences = oc.birthday_occurrences(MonthDay(2, 29), date(2027, 1, 1), time(9), PARIS)
    assert [o.on for o in occurrences] == [date(2026, 2, 28), date(2027, 2, 28), date(2028, 2, 29)]


def test_next_occurrence_is_next_year_once_today_is_gone_unless_it_is_kept() -> None:
    occurrences = oc.birthday_occurrences(MonthDay(3, 14), date(2026, 3, 14), time(9), PARIS)
    now = datetime(2026, 3, 14, 15, tzinfo=UTC)
    upcoming = oc.next_occurrence(occurrences, now, PARIS, keep_today=False)
    kept = oc.next_occurrence(occurrences, now, PARIS, keep_today=True)
    assert upcoming is not None and upcoming.on == date(2027, 3, 14)
    assert kept is not None and kept.on == date(2026, 3, 14)
    assert oc.due_occurrence(occurrences, now, PARIS) == kept
    assert oc.due_occurrence(occurrences, datetime(2026, 3, 15, 8, tzinfo=UTC), PARIS) is None


def test_quiet_hours_wrap_midnight_and_end_at_local_morning() -> None:
    quiet = (time(22), time(8))
    assert oc.in_quiet_hours(datetime(2026, 1, 15, 22, 30, tzinfo=UTC), PARIS, quiet)  # 23:30 local
    assert oc.in_quiet_hours(datetime(2026, 1, 15, 6, 30, tzinfo=UTC), PARIS, quiet)  # 07:30 local
    assert not oc.in_quiet_hours(datetime(2026, 1, 15, 7, 0, tzinfo=UTC), PARIS, quiet)  # 08:00 local
    late = datetime(2026, 1, 15, 22, 30, tzinfo=UTC)
    assert oc.quiet_hours_end(late, PARIS, quiet) == datetime(2026, 1, 16, 7, tzinfo=UTC)
    assert not oc.in_quiet_hours(late, PARIS, (time(9), time(9)))  # an empty range means never quiet
