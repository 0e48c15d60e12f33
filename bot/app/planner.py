"""The scheduler's options, built from the settings, and the stand-in that long-term memory is given before the
scheduler exists."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from bot.config import Settings
from bot.engine.ports import OccasionPlanner, Tally, UserDataEraser
from jobs import ScheduleOptions, SweepOptions


def schedule_options(settings: Settings) -> ScheduleOptions:
    """When unprompted messages go (SOUVENIR_BIRTHDAY_*, SOUVENIR_CHECKIN_AFTER_DAYS, SOUVENIR_QUIET_HOURS,
    SOUVENIR_PROACTIVE_DAILY_CAP, SOUVENIR_DEFAULT_TIMEZONE): the planner's and the sweep's."""
    return ScheduleOptions(
        default_timezone=settings.default_timezone,
        birthday_time=settings.birthday_time,
        birthday_days_before_others=settings.birthday_days_before_others,
        checkin_after_days=settings.checkin_after_days,
        quiet_hours=settings.quiet_hours_range,
        daily_cap=settings.proactive_daily_cap,
    )


def sweep_options(settings: Settings) -> SweepOptions:
    return SweepOptions(
        schedule=schedule_options(settings),
        default_language=settings.default_language,
        disclosure=settings.disclosure_policy,
    )


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
