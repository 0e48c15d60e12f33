"""When unprompted messages fire: pure date and time-zone arithmetic, no I/O.

An *occurrence* is one sending of one scheduled item, identified by its local date: a birthday wish on
2026-03-14, the day-before note of an interview on 2026-05-06. Fire times are computed from the local date
and the configured local time in the person's zone each time, so they follow DST and zone changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.engine.model import DatedEvent, MonthDay
from bot.engine.when.relative_time import yearly_date

# Phases of an occurrence: what the message is about relative to the occasion.
ON_THE_DAY = "day"
DAYS_BEFORE = "soon"  # someone else's birthday/anniversary, a few days ahead
DAY_BEFORE = "before"  # a dated event tomorrow
MORNING_OF = "today"  # a dated event today, when the day-before note could not be sent
DAY_AFTER = "after"  # how did it go?


@dataclass(frozen=True, slots=True)
class Occurrence:
    on: date  # the local date it fires on; the identity of the occurrence
    fire_at: datetime  # UTC
    phase: str
    occasion: date  # the date of the occasion itself (the birthday, the interview)


def zone_named(name: str | None, default: str) -> ZoneInfo:
    """The person's zone; an unknown name (stale data) falls back to the configured default."""
    try:
        return ZoneInfo(name or default)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(default)


def local_today(now: datetime, zone: ZoneInfo) -> date:
    return now.astimezone(zone).date()


def fire_time(day: date, at: time, zone: ZoneInfo) -> datetime:
    """`at` local on `day`, in UTC. A wall time skipped by a spring change moves forward by the gap
    (02:30 on a 02:00→03:00 night fires at 03:30); a repeated one in autumn fires at its first instant."""
    local = datetime.combine(day, at, tzinfo=zone)  # fold=0
    return local.astimezone(UTC)


def _yearly_occurrences(
    month: int, day: int, around: date, at: time, zone: ZoneInfo, days_before: int, phase: str
) -> list[Occurrence]:
    found = []
    for year in (around.year - 1, around.year, around.year + 1):
        occasion = yearly_date(month, day, year)
        on = occasion - timedelta(days=days_before)
        found.append(Occurrence(on, fire_time(on, at, zone), phase, occasion))
    return found


def birthday_occurrences(birthday: MonthDay, around: date, at: time, zone: ZoneInfo) -> list[Occurrence]:
    return _yearly_occurrences(birthday.month, birthday.day, around, at, zone, 0, ON_THE_DAY)


def event_occurrences(
    event: DatedEvent, around: date, at: time, zone: ZoneInfo, *, days_before_others: int, day_before_sent: bool
) -> list[Occurrence]:
    """Yearly occasions: on the day (someone else's: `days_before_others` ahead). Dated events: the day
    before, else the morning of, and the day after."""
    if event.yearly:
        ahead = days_before_others if event.about else 0
        phase = DAYS_BEFORE if ahead else ON_THE_DAY
        return _yearly_occurrences(event.on.month, event.on.day, around, at, zone, ahead, phase)
    day = event.on
    found = [Occurrence(day - timedelta(days=1), fire_time(day - timedelta(days=1), at, zone), DAY_BEFORE, day)]
    if not day_before_sent:
        found.append(Occurrence(day, fire_time(day, at, zone), MORNING_OF, day))
    found.append(Occurrence(day + timedelta(days=1), fire_time(day + timedelta(days=1), at, zone), DAY_AFTER, day))
    return found


def due_occurrence(occurrences: list[Occurrence], now: datetime, zone: ZoneInfo) -> Occurrence | None:
    """The occurrence to send now: today's (local), once its time has come — late is fine, another day is not."""
    today = local_today(now, zone)
    for occurrence in occurrences:
        if occurrence.on == today and occurrence.fire_at <= now:
            return occurrence
    return None


def next_occurrence(
    occurrences: list[Occurrence], now: datetime, zone: ZoneInfo, *, keep_today: bool
) -> Occurrence | None:
    """The first occurrence still ahead. With `keep_today`, today's occurrence counts even when its time has
    passed (it was scheduled and may not have been sent yet); without, it is left for next time."""
    today = local_today(now, zone)
    ahead = [
        o
        for o in occurrences
        if o.on > today or (o.on == today and (o.fire_at > now or keep_today))
    ]
    return min(ahead, key=lambda o: o.fire_at, default=None)


def after_today(occurrences: list[Occurrence], now: datetime, zone: ZoneInfo) -> Occurrence | None:
    """The first occurrence on a later local day: where an item goes once today's has been dealt with."""
    today = local_today(now, zone)
    return min((o for o in occurrences if o.on > today), key=lambda o: o.fire_at, default=None)


def in_quiet_hours(now: datetime, zone: ZoneInfo, quiet: tuple[time, time]) -> bool:
    start, end = quiet
    if start == end:
        return False
    local = now.astimezone(zone).time()
    if start < end:
        return start <= local < end
    return local >= start or local < end


def quiet_hours_end(now: datetime, zone: ZoneInfo, quiet: tuple[time, time]) -> datetime:
    """When the quiet period `now` is in ends (UTC); `now` itself when it is not quiet."""
    if not in_quiet_hours(now, zone, quiet):
        return now
    start, end = quiet
    local = now.astimezone(zone)
    day = local.date()
    if start > end and local.time() >= start:
        day += timedelta(days=1)
    return max(fire_time(day, end, zone), now + timedelta(minutes=1))


def next_local_morning(now: datetime, zone: ZoneInfo, quiet: tuple[time, time]) -> datetime:
    """The start of tomorrow's allowed hours (the end of the quiet period), for a capped day."""
    tomorrow = local_today(now, zone) + timedelta(days=1)
    start, end = quiet
    return fire_time(tomorrow, end if start != end else time(0, 0), zone)
