"""The pieces of a person's /export document, as JSON-ready values (one place for every field's format)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from bot.engine.model import ChatTurn, MemoryItem, UserProfile
from bot.engine.mood import TimedReading


def profile_json(profile: UserProfile) -> dict[str, Any]:
    data = asdict(profile)
    for key, value in data.items():
        if isinstance(value, datetime):
            data[key] = value.isoformat()
    data["birthday"] = profile.birthday.isoformat() if profile.birthday else None
    return data


def memories_json(memories: Sequence[MemoryItem]) -> list[dict[str, Any]]:
    return [
        {
            "id": m.memory_id,
            "kind": m.kind,
            "text": m.text,
            "created_at": m.created_at.isoformat(),
            "event_at": m.event_at.isoformat() if m.event_at else None,
            "scope": m.scope,
            **({"details": m.extra} if m.extra else {}),
        }
        for m in memories
    ]


def turns_json(turns: Sequence[ChatTurn]) -> list[dict[str, Any]]:
    return [{"role": t.role, "text": t.text, "at": t.at.isoformat()} for t in turns]


def mood_readings_json(readings: Sequence[TimedReading]) -> list[dict[str, Any]]:
    return [
        {"at": r.at.isoformat(), "label": r.reading.label, "valence": r.reading.valence,
         "intensity": r.reading.intensity, **({"topics": list(r.topics)} if r.topics else {})}
        for r in readings
    ]  # fmt: skip
