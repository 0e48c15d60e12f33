"""How a UserProfile is stored as a Redis hash's text fields, and which of them are sealed with encryption."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Any

from bot.engine.model import MonthDay, UserProfile

# What a profile says about the person: sealed when encryption is on.
SEALED_FIELDS = {"display_name", "timezone", "language", "preferred_name", "pronouns", "address_form", "birthday"}
_BOOL_FIELDS = {
    "checkins", "birthday_wishes", "reachable", "share_dm_memories_in_groups", "language_chosen", "voice_replies",
    "age_confirmed", "crisis_followed_up", "timezone_offered",
}  # fmt: skip
_TIME_FIELDS = {"first_seen_at", "last_seen_at", "last_disclosed_at"}
# Safety: the age a person gave; when their continued conversation began, their last break reminder.
_TIME_FIELDS |= {"talk_started_at", "break_reminded_at", "crisis_noted_at", "last_crisis_at"}
_TIME_FIELDS |= {"age_pending_at"}  # an adult /age waiting for its confirmation
_INT_FIELDS = {"age", "age_pending"}


def profile_to_fields(profile: UserProfile) -> tuple[dict[str, str], list[str]]:
    present: dict[str, str] = {}
    absent: list[str] = []
    for f in fields(profile):
        if f.name == "user_key":
            continue
        value = getattr(profile, f.name)
        if value is None:
            absent.append(f.name)
        elif f.name in _BOOL_FIELDS:
            present[f.name] = "1" if value else "0"
        elif f.name in _TIME_FIELDS:
            present[f.name] = value.isoformat()
        elif f.name == "birthday":
            present[f.name] = value.isoformat()
        else:
            present[f.name] = str(value)
    return present, absent


def profile_from_fields(user_key: str, data: dict[str, str]) -> UserProfile:
    values: dict[str, Any] = {}
    for name, raw in data.items():
        if name in _BOOL_FIELDS:
            values[name] = raw == "1"
        elif name in _TIME_FIELDS:
            values[name] = datetime.fromisoformat(raw)
        elif name == "birthday":
            values[name] = MonthDay.parse(raw)
        elif name in _INT_FIELDS:
            values[name] = int(raw)
        elif name in ("display_name", "timezone", "language", "preferred_name", "pronouns", "address_form"):
            values[name] = raw
    return UserProfile(user_key=user_key, **values)
