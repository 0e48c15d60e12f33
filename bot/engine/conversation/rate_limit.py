"""How many messages a person may send before the companion asks them to slow down (a port; the app gives a
Redis token bucket shared by every replica)."""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class Admission(StrEnum):
    ALLOWED = "allowed"
    NOTICE = "notice"  # over the limit: tell them kindly, once
    SILENT = "silent"  # over the limit and already told: no reply at all


class RateLimiter(Protocol):
    async def admit(self, person_key: str) -> Admission:
        """Take one message's worth from the person's allowance."""
        ...
