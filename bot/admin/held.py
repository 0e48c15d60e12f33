"""What is held about a person, counted for the operator: read from their export, the one place that gathers
every store under the person (linked accounts and pseudonymous keys included), before an erasure removes it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import UserRef

# The profile settings worth naming when they are set (the rest is bookkeeping: when they were last seen…).
_NAMED_SETTINGS = ("preferred_name", "pronouns", "birthday", "timezone", "language", "age")


@dataclass(frozen=True, slots=True)
class HeldAbout:
    user_key: str
    linked_accounts: tuple[str, ...]  # other accounts of the same person, erased with them
    memories: dict[str, str]  # id → text
    mood_readings_at: tuple[datetime, ...]
    recent_messages: int  # of their private chat, theirs and the replies
    has_profile: bool
    profile_settings: tuple[str, ...]  # the named settings that are set

    def mood_readings_since(self, since: datetime) -> int:
        return sum(1 for at in self.mood_readings_at if at >= since)


async def held_about(commands: UserCommands, user: UserRef) -> HeldAbout:
    document: dict[str, Any] = json.loads(await commands.export(user))
    profile: dict[str, Any] = document.get("profile") or {}
    return HeldAbout(
        user_key=user.key,
        linked_accounts=tuple(a for a in document.get("accounts", []) if a != user.key),
        memories={m["id"]: m["text"] for m in document.get("memories", [])},
        mood_readings_at=tuple(datetime.fromisoformat(r["at"]) for r in document.get("mood_readings", [])),
        recent_messages=len(document.get("recent_private_messages", [])),
        has_profile=profile.get("first_seen_at") is not None or any(profile.get(s) for s in _NAMED_SETTINGS),
        profile_settings=tuple(s.replace("_", " ") for s in _NAMED_SETTINGS if profile.get(s)),
    )


def counted(n: int, thing: str, things: str = "") -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {things or thing + 's'}"


def erased_text(held: HeldAbout) -> str:
    """`memories forget --all`, done: who, and how much of what was erased."""
    who = held.user_key
    if held.linked_accounts:
        who += f" (with the linked {', '.join(held.linked_accounts)})"
    parts = [
        counted(len(held.memories), "memory", "memories"),
        counted(len(held.mood_readings_at), "mood reading"),
        counted(held.recent_messages, "recent private message"),
    ]
    if held.has_profile:
        settings = f" ({', '.join(held.profile_settings)})" if held.profile_settings else ""
        parts.append(f"their profile{settings}")
    listed = ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Erased {who}: {listed}. Nothing else about them is left in any store.\n"


def too_few_moods_text(held: HeldAbout, *, days: int, now: datetime, needed: int) -> str:
    """`mood` without a chart: how many readings there are against how many the chart needs."""
    shown = held.mood_readings_since(now - timedelta(days=days))
    total = len(held.mood_readings_at)
    readings = counted(shown, "mood reading")
    if shown == total:
        return f"{held.user_key}: only {readings} so far; the chart needs at least {needed}\n"
    return (
        f"{held.user_key}: only {readings} in the last {days} days ({total} in all, see --days); "
        f"the chart needs at least {needed}\n"
    )
