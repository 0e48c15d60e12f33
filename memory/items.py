"""Memory records as people see them (/memories, /export) and as the occasion planner sees dated ones."""

from __future__ import annotations

from datetime import date

from bot.engine.model import DatedEvent, MemoryItem
from memory.records import MemoryKind, MemoryRecord
from memory.writing.episodes import VIA, shown_text
from memory.writing.extraction.candidates import PRECISION
from memory.writing.extraction.dated import describe_event
from memory.writing.thread_gist import GIST

BIRTHDAY_LABELS = frozenset({"birthday", "anniversaire", "bday", "anniversaire de naissance"})
ANNIVERSARY_LABELS = frozenset({"anniversary", "wedding anniversary", "anniversaire de mariage"})


def memory_item(record: MemoryRecord, *, full: bool = False) -> MemoryItem:
    extra: dict[str, object] = {"current": record.valid_to is None}
    if record.label:
        extra["label"] = record.label
    if record.local_date:
        extra["date"] = record.local_date
    if record.recurrence:
        extra["recurrence"] = record.recurrence
    if record.subject:
        extra["about"] = record.subject
    if record.attributes.get(VIA):
        extra["via"] = record.attributes[VIA]  # "voice": it was said in a voice note
    if record.supersedes and not full:
        extra["supersedes"] = list(record.supersedes)  # a correction's history, for the memory browser
    if record.valid_to and not full:
        extra["valid_to"] = record.valid_to.isoformat()  # when it stopped being true
    if full:
        extra.update(
            language=record.language,
            importance=record.importance,
            platform=record.source.platform,
            conversation_id=record.source.conversation_id,
            message_ids=list(record.source.message_ids),
            valid_from=record.valid_from.isoformat() if record.valid_from else None,
            valid_to=record.valid_to.isoformat() if record.valid_to else None,
            supersedes=list(record.supersedes),
            timezone=record.timezone,
            indexed_text=record.text,
        )
        if record.attributes.get(GIST):
            extra["gist"] = record.attributes[GIST]  # the model's line of where the conversation stood
    return MemoryItem(record.memory_id, record.kind.value, shown_text(record), record.created_at, record.event_at,
                      record.scope, extra)  # fmt: skip


def dated_event(record: MemoryRecord) -> DatedEvent | None:
    """A current temporal memory with a calendar date, as the planner needs it; None for anything else."""
    if record.kind is not MemoryKind.TEMPORAL or not record.local_date:
        return None
    if record.attributes.get(PRECISION, "day") != "day":
        return None  # "next month" is no day to write on
    try:
        on = date.fromisoformat(record.local_date)
    except ValueError:
        return None
    label = record.label or "event"  # as written: "Arrivée de Paul" keeps its capital
    common = label.lower()
    kind = "birthday" if common in BIRTHDAY_LABELS else "anniversary" if common in ANNIVERSARY_LABELS else "event"
    return DatedEvent(
        memory_id=record.memory_id,
        user_key=record.user_key,
        what=describe_event(label, record.subject, record.language),
        on=on,
        yearly=record.recurrence == "yearly",
        kind=kind,
        about=record.subject,
        language=record.language,
    )
