"""The rest of what the memory browser shows beside the memories: the dates ahead (the person's birthday and the
dated events memory keeps), their settings, and what the last reply drew on. Pure: the local date is passed in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.engine.model import DatedEvent, UserProfile
from bot.engine.ports import DrawnMemory, TrailReply
from bot.engine.when.relative_time import next_yearly

MAX_DATES = 12
SHOWN_REPLIES = 5  # "why did you say that?": the last few replies, in every conversation


@dataclass(frozen=True, slots=True)
class DateAhead:
    what: str  # "birthday" for the person's own (the page names it in their language), else memory's words
    kind: str  # "birthday" | "anniversary" | "event"
    on: date
    own_birthday: bool = False


@dataclass(frozen=True, slots=True)
class PersonSettings:
    timezone: str
    language: str
    checkins: bool
    birthday_wishes: bool
    groups: bool
    voice_replies: bool


@dataclass(frozen=True, slots=True)
class PersonPage:
    settings: PersonSettings
    dates: tuple[DateAhead, ...]
    why: tuple[DrawnMemory, ...]  # the memories the last reply drew on ("why did you say that?")
    why_text: str  # the chat's /memories why answer, for when it drew on none
    replies: tuple[TrailReply, ...] = ()  # the last few replies, newest first, each with what it drew on


def dates_ahead(profile: UserProfile, events: Sequence[DatedEvent], today: date) -> tuple[DateAhead, ...]:
    """From today on, nearest first: the profile birthday, then each dated event's next occurrence."""
    found: list[DateAhead] = []
    if profile.birthday is not None:
        on = next_yearly(profile.birthday.month, profile.birthday.day, today)
        found.append(DateAhead("birthday", "birthday", on, own_birthday=True))
    for event in events:
        if profile.birthday is not None and event.about is None and event.kind == "birthday":
            continue  # the profile birthday is the one they set on purpose
        on = next_yearly(event.on.month, event.on.day, today) if event.yearly else event.on
        if on >= today:
            found.append(DateAhead(event.what, event.kind, on))
    return tuple(sorted(found, key=lambda d: (d.on, not d.own_birthday))[:MAX_DATES])


def person_settings(profile: UserProfile, default_timezone: str, language: str) -> PersonSettings:
    return PersonSettings(
        timezone=profile.timezone or default_timezone,
        language=language,
        checkins=profile.checkins,
        birthday_wishes=profile.birthday_wishes,
        groups=profile.share_dm_memories_in_groups,
        voice_replies=profile.voice_replies,
    )
