"""The system prompt: persona, the person's local time, what the companion remembers, how to use it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.engine.language import LANGUAGE_NAMES
from bot.engine.model import RecalledMemory
from bot.engine.persona import Persona

_WEAVE = (
    "Use what you remember the way a close friend would: bring it in naturally when it fits "
    "(ask how the cat is doing, mention the concert they were excited about), and only when it fits. "
    "Never recite memories, never list them, never quote dates or say when or where they told you "
    '("On 3 March you told me…" is exactly what not to do). If a memory looks outdated, ask gently.'
)


@dataclass(frozen=True, slots=True)
class PromptContext:
    persona: Persona
    user_name: str
    local_now: datetime  # in the person's zone
    timezone: str
    language: str
    in_group: bool
    memories: Sequence[RecalledMemory]


def _relative_day(event: datetime, local_now: datetime) -> str:
    days = (event.astimezone(local_now.tzinfo).date() - local_now.date()).days
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    if days == -1:
        return "yesterday"
    if 1 < days <= 60:
        return f"in {days} days"
    if -60 <= days < -1:
        return f"{-days} days ago"
    return event.astimezone(local_now.tzinfo).strftime("%B %Y")


def build_system_prompt(context: PromptContext) -> str:
    who = context.user_name or "the person you are talking with"
    parts = [context.persona.voice()]
    now = context.local_now
    parts.append(
        f"For {who} it is {now.strftime('%A %d %B %Y, %H:%M')} ({context.timezone}). "
        "Keep the time of day and the day of the week in mind (don't say good morning at night)."
    )
    language = LANGUAGE_NAMES.get(context.language, "English")
    parts.append(f"Reply in {language}, the language {who} writes in.")
    if context.in_group:
        parts.append(
            f"This is a group chat; {who} addressed you. Several people read it: keep private matters private."
        )
    if context.memories:
        lines = []
        for memory in context.memories:
            when = f" ({_relative_day(memory.event_at, now)})" if memory.event_at and memory.kind == "temporal" else ""
            lines.append(f"- {memory.text}{when}")
        parts.append(f"Background you remember about {who} (for you only):\n" + "\n".join(lines))
        parts.append(_WEAVE)
    return "\n\n".join(parts)
