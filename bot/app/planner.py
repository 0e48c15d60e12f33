"""The scheduler's stand-in that long-term memory is given before the scheduler exists."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.engine.ports import OccasionPlanner, Tally, UserDataEraser


class SchedulePlanner(OccasionPlanner, UserDataEraser, Protocol):
    """The scheduler's side that commands and memory talk to."""


class DeferredPlanner:
    """Breaks a cycle: long-term memory reschedules when it learns a date, and the planner reads dates
    from long-term memory. Memory gets this stand-in; the real planner is set as soon as memory exists."""

    def __init__(self) -> None:
        self.target: SchedulePlanner | None = None

    async def plan_user(self, user_key: str) -> None:
        if self.target is not None:
            await self.target.plan_user(user_key)

    async def note_activity(self, user_key: str, at: datetime) -> None:
        if self.target is not None:
            await self.target.note_activity(user_key, at)

    async def forget_user(self, user_key: str) -> int | Tally | None:
        """What the real planner unscheduled (the receipt counts it); None before it exists."""
        return await self.target.forget_user(user_key) if self.target is not None else None
