"""MemoryRecord <-> Qdrant payload, lossless, shared by both backends.

Datetimes are stored as ISO strings (exact, readable in the Qdrant dashboard) plus two float
timestamps that exist only for the engine's indexes: `created_at_ts` (newest-first listing) and
`valid_to_ts` (current-only filtering; far future while the memory has not been superseded).
`hidden_by` (indexed, absent on most records) marks an episode whose fact says the same words.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from memory.records import MemoryKind, MemoryRecord, MemorySource

PAYLOAD_VERSION = 1

# Field names the backends filter, index or order on.
USER_KEY = "user_key"
KIND = "kind"
SCOPE = "scope"
CREATED_AT_TS = "created_at_ts"
VALID_TO_TS = "valid_to_ts"
HIDDEN_BY = "hidden_by"  # absent unless the episode is a fact's twin: "is empty" selects what /memories lists
KEYWORD_FIELDS = (USER_KEY, KIND, SCOPE, HIDDEN_BY)
FLOAT_FIELDS = (CREATED_AT_TS, VALID_TO_TS)
_ALWAYS = frozenset((*KEYWORD_FIELDS, *FLOAT_FIELDS, "text", "created_at", "v"))

# "Valid forever": a float comparable with timestamps (year ~33658), where null would need an OR.
NOT_SUPERSEDED_TS = 1.0e12


def timestamp(value: datetime) -> float:
    if value.tzinfo is None:
        raise ValueError("memory datetimes must be timezone-aware")
    return value.timestamp()


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("memory datetimes must be timezone-aware")
    return value.astimezone(UTC).isoformat()


def _datetime(value: Any) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def valid_to_fields(valid_to: datetime | None) -> dict[str, Any]:
    """The payload fields that say until when a memory is current."""
    return {
        "valid_to": _iso(valid_to),
        VALID_TO_TS: NOT_SUPERSEDED_TS if valid_to is None else timestamp(valid_to),
    }


def record_to_payload(record: MemoryRecord) -> dict[str, Any]:
    """Empty optional fields are left out (smaller shard); the indexed fields are always present."""
    payload = {
        "v": PAYLOAD_VERSION,
        USER_KEY: record.user_key,
        KIND: record.kind.value,
        "text": record.text,
        "language": record.language,
        "created_at": _iso(record.created_at),
        CREATED_AT_TS: timestamp(record.created_at),
        "source": {
            "platform": record.source.platform,
            "conversation_id": record.source.conversation_id,
            "message_ids": list(record.source.message_ids),
        },
        SCOPE: record.scope,
        "event_at": _iso(record.event_at),
        "valid_from": _iso(record.valid_from),
        **valid_to_fields(record.valid_to),
        "importance": float(record.importance),
        "access_count": int(record.access_count),
        "last_accessed_at": _iso(record.last_accessed_at),
        "recurrence": record.recurrence,
        "local_date": record.local_date,
        "timezone": record.timezone,
        "subject": record.subject,
        "label": record.label,
        "supersedes": list(record.supersedes),
        HIDDEN_BY: record.hidden_by,
        "attributes": dict(record.attributes),
    }
    return {k: v for k, v in payload.items() if k in _ALWAYS or v not in (None, [], {})}


def payload_to_record(memory_id: str, payload: dict[str, Any]) -> MemoryRecord:
    source = payload.get("source") or {}
    return MemoryRecord(
        memory_id=memory_id,
        user_key=str(payload[USER_KEY]),
        kind=MemoryKind(payload[KIND]),
        text=str(payload.get("text", "")),
        language=str(payload.get("language", "")),
        created_at=datetime.fromisoformat(str(payload["created_at"])),
        source=MemorySource(
            platform=str(source.get("platform", "")),
            conversation_id=str(source.get("conversation_id", "")),
            message_ids=tuple(str(m) for m in source.get("message_ids") or ()),
        ),
        scope=str(payload.get(SCOPE, "dm")),
        event_at=_datetime(payload.get("event_at")),
        valid_from=_datetime(payload.get("valid_from")),
        valid_to=_datetime(payload.get("valid_to")),
        importance=float(payload.get("importance", 0.5)),
        access_count=int(payload.get("access_count", 0)),
        last_accessed_at=_datetime(payload.get("last_accessed_at")),
        recurrence=payload.get("recurrence"),
        local_date=payload.get("local_date"),
        timezone=payload.get("timezone"),
        subject=payload.get("subject"),
        label=payload.get("label"),
        supersedes=tuple(str(s) for s in payload.get("supersedes") or ()),
        hidden_by=payload.get(HIDDEN_BY),
        attributes={str(k): str(v) for k, v in (payload.get("attributes") or {}).items()},
    )
