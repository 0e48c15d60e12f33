"""Settings of the messages the companion writes first: birthdays, check-ins, quiet hours, the daily cap."""

from __future__ import annotations

import re
from datetime import time

from pydantic import BaseModel, Field, field_validator


class UnpromptedSettings(BaseModel):
    birthday_time: time = time(9, 0)
    birthday_days_before_others: int = Field(default=0, ge=0, le=7)
    checkin_after_days: int = Field(default=3, ge=1)
    quiet_hours: str = "22:00-08:00"
    proactive_daily_cap: int = Field(default=2, ge=1)
    # How long a sweep's hold on a due message lasts without renewal: a killed replica's are taken over after it.
    proactive_lease_s: int = Field(default=30, ge=5, le=3600)

    @field_validator("quiet_hours")
    @classmethod
    def _quiet_hours(cls, value: str) -> str:
        if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d", value.strip()):
            raise ValueError("a local time range HH:MM-HH:MM such as 22:00-08:00")
        return value.strip()

    @property
    def quiet_hours_range(self) -> tuple[time, time]:
        start, end = self.quiet_hours.split("-")
        return time.fromisoformat(start), time.fromisoformat(end)
