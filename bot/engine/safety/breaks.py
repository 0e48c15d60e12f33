"""Break reminders for minors: one every 3 hours of continued conversation.

A conversation continues while messages keep coming; a pause of more than 30 minutes starts a new one. Its
start is kept on the profile (`talk_started_at`), with the last reminder (`break_reminded_at`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.engine.model import UserProfile

BREAK_EVERY = timedelta(hours=3)
PAUSE = timedelta(minutes=30)  # a longer silence ends the continued conversation


def talk_started(profile: UserProfile, now: datetime) -> datetime:
    """When the conversation this message continues began (now, after a pause)."""
    last = profile.last_seen_at
    if profile.talk_started_at is None or last is None or now - last > PAUSE:
        return now
    return profile.talk_started_at


def break_due(profile: UserProfile, started: datetime, now: datetime) -> bool:
    """Whether 3 hours of this continued conversation went by since it began or since the last reminder."""
    since = started
    if profile.break_reminded_at is not None and profile.break_reminded_at >= started:
        since = profile.break_reminded_at
    return now - since >= BREAK_EVERY
