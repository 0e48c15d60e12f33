"""Which items a person has and what each occurrence is about, from their profile and dated events."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.engine.model import DatedEvent, MonthDay, UserProfile
from jobs import occasions as oc
from jobs.members import Member
from jobs.unprompted import CHECKIN, Occasion


@dataclass(frozen=True)
class ScheduleOptions:
    """When unprompted messages go: the local time of birthday and occasion notes (SOUVENIR_BIRTHDAY_TIME), how
    many days ahead someone else's yearly date is announced (SOUVENIR_BIRTHDAY_DAYS_BEFORE_OTHERS), the silence
    before a check-in (SOUVENIR_CHECKIN_AFTER_DAYS), the quiet hours (SOUVENIR_QUIET_HOURS), the daily cap
    (SOUVENIR_PROACTIVE_DAILY_CAP), and the zone of a person who gave none (SOUVENIR_DEFAULT_TIMEZONE)."""

    default_timezone: str = "UTC"
    birthday_time: time = time(9, 0)
    birthday_days_before_others: int = 0
    checkin_after_days: int = 3
    quiet_hours: tuple[time, time] = (time(22, 0), time(8, 0))  # local start and end; equal: never quiet
    daily_cap: int = 2


def own_birthday(profile: UserProfile, events: list[DatedEvent] | None) -> MonthDay | None:
    """The profile's birthday, else one the person mentioned (a dated birthday about themself)."""
    if profile.birthday is not None:
        return profile.birthday
    for event in events or ():
        if event.kind == "birthday" and event.about is None and event.yearly:
            return MonthDay(event.on.month, event.on.day)
    return None


def wanted_event(profile: UserProfile, event: DatedEvent) -> bool:
    """Occasions the person told us about (birthdays, anniversaries, an interview, a wedding) are on by
    default, like birthdays: the note before and the "how did it go?" after are what a friend would send.
    Check-ins about nothing in particular are the opt-in part."""
    if event.kind == "birthday" and event.about is None:
        return False  # folded into the person's own birthday item
    return profile.birthday_wishes


def day_before_matters(event: DatedEvent, now: datetime, zone: ZoneInfo) -> bool:
    """Whether the day-before note's fate decides the morning-of note (today is the day before or the day)."""
    if event.yearly:
        return False
    today = oc.local_today(now, zone)
    return event.on - timedelta(days=1) <= today <= event.on


def birthday_occurrences(
    options: ScheduleOptions, birthday: MonthDay, now: datetime, zone: ZoneInfo
) -> list[oc.Occurrence]:
    return oc.birthday_occurrences(birthday, oc.local_today(now, zone), options.birthday_time, zone)


def event_occurrences(
    options: ScheduleOptions, event: DatedEvent, now: datetime, zone: ZoneInfo, *, day_before_sent: bool
) -> list[oc.Occurrence]:
    return oc.event_occurrences(
        event,
        oc.local_today(now, zone),
        options.birthday_time,
        zone,
        days_before_others=options.birthday_days_before_others,
        day_before_sent=day_before_sent,
    )


def birthday_occasion(profile: UserProfile, occurrence: oc.Occurrence) -> Occasion:
    birthday = profile.birthday
    age = ""
    if birthday is not None and birthday.year is not None:
        age = f" (they turn {occurrence.occasion.year - birthday.year})"
    return Occasion(
        template_key="birthday_self",
        brief=f"It is their birthday today{age}. Wish them a happy birthday, personally.",
        recall_text="birthday, celebration plans, people they love, how they have been feeling lately",
        on=occurrence.occasion,
    )


def event_occasion(event: DatedEvent, occurrence: oc.Occurrence) -> Occasion:
    """The brief names the occasion only as "the occasion quoted below": their own words for it (`what`, and
    whose it is) reach the model quoted as data, never inside an instruction."""
    what, about = event.what, event.about or ""

    def occasion(key: str, brief: str, days: int = 0) -> Occasion:
        recall = f"{what} {about}".strip()
        return Occasion(key, brief, recall, what=what, days=days, on=occurrence.occasion, about=about)

    if event.yearly and not about:
        return occasion("anniversary_self", "Today is a yearly date of theirs, quoted below. Mark it warmly.")
    if event.yearly:
        days = (occurrence.occasion - occurrence.on).days
        if days:
            return occasion("other_soon", f"In {days} days it is the occasion quoted below. A gentle heads-up.", days)
        return occasion("other_day", "Today is the occasion quoted below, of someone they care about. A warm reminder.")
    if about:  # someone else's event (a sister's wedding): warm wishes rather than encouragement
        if occurrence.phase == oc.DAY_BEFORE:
            return occasion("other_event_before", "Tomorrow is the occasion quoted below. Wish them a lovely day.")
        if occurrence.phase == oc.MORNING_OF:
            return occasion("other_event_today", "Today is the occasion quoted below. Wish them a lovely day.")
    elif occurrence.phase == oc.DAY_BEFORE:
        return occasion("event_before", "Tomorrow they have the event quoted below. Encourage them, specifically.")
    elif occurrence.phase == oc.MORNING_OF:
        return occasion("event_today", "Today they have the event quoted below. Encourage them, specifically.")
    return occasion("event_after", "Yesterday they had the event quoted below. Ask how it went, with genuine interest.")


def checkin_occasion(options: ScheduleOptions) -> Occasion:
    return Occasion(
        template_key=CHECKIN,
        brief=(
            f"It has been {options.checkin_after_days} days or more since you last talked. Check in on them "
            "lightly, picking up something from their life; their silence is theirs to keep: don't remark on it."
        ),
        recall_text="what they have been up to lately, plans, worries, how they feel",
    )


def find_event(events: list[DatedEvent], member: Member) -> DatedEvent | None:
    return next((e for e in events if e.memory_id == member.memory_id), None)
