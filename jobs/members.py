"""Names of scheduled items: compact sorted-set members such as "u:telegram:42|b".

Only the kind of item is stored; what to say is derived at send time from the profile and dated events,
so a member costs a few dozen bytes and never goes stale when the person edits their data.
"""

from __future__ import annotations

from dataclasses import dataclass

BIRTHDAY = "b"  # the person's own birthday (profile, else a dated event about them)
CHECKIN = "c"  # a check-in after some days of silence
EVENT_PREFIX = "e:"  # a dated event or someone's birthday/anniversary, by memory id


@dataclass(frozen=True, slots=True)
class Member:
    user_key: str
    item: str  # BIRTHDAY, CHECKIN or "e:<memory_id>"

    @property
    def name(self) -> str:
        return f"u:{self.user_key}|{self.item}"

    @property
    def memory_id(self) -> str | None:
        return self.item[len(EVENT_PREFIX) :] if self.item.startswith(EVENT_PREFIX) else None

    @property
    def platform(self) -> str:
        return self.user_key.split(":", 1)[0]

    def occurrence_field(self, on: str) -> str:
        """The per-occurrence idempotency field, `on` being the local date (ISO)."""
        return f"o|{self.item}|{on}"

    @classmethod
    def parse(cls, name: str) -> Member:
        if not name.startswith("u:") or "|" not in name:
            raise ValueError(f"not a scheduled item: {name!r}")
        user_key, item = name[2:].split("|", 1)
        return cls(user_key, item)


def birthday(user_key: str) -> Member:
    return Member(user_key, BIRTHDAY)


def checkin(user_key: str) -> Member:
    return Member(user_key, CHECKIN)


def event(user_key: str, memory_id: str) -> Member:
    return Member(user_key, EVENT_PREFIX + memory_id)
