"""Episodic memories: every message a person sends is kept, so nothing is lost when extraction misses it.

The text people see (`attributes["said"]`) is what they wrote. The text that is indexed (`text`) adds what
makes it findable later: the date it was said, the dates it mentions resolved to calendar dates, and a
little context — the person's previous and next messages in that conversation, the gist of the reply.

The previous message comes from the exchange (`Exchange.previous_turns`, the engine's short-term window),
and an episode's id is derived from who said what, where and when, so the next message finds the episode
of the one before it in the store — after a restart, and from any process.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.engine.model import ChatTurn, Exchange
from bot.engine.when.dates import FoundDate
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.words.text_caches import text_cache
from memory.writing.extraction.dated import dates_in, describe_date

SAID = "said"  # attributes key: the message as written, shown in /memories and in recall
# attributes keys: the ids of the episodes whose words are indexed with this one (space-separated), so that
# forgetting one of them takes its words out of this one's indexed text too
PREVIOUS = "previous"
NEXT = "next"
# attributes key: the first date the message gave relative to when it was said, as "2026-04-01 month" ("" when
# none): worked out once, on writing
SAID_ON = "said_on"
VIA = "via"  # attributes key: "voice" when the message was a voice note (its transcript is what is kept)
CONTEXT_WORDS = 50
SEPARATOR = " | "  # before each context message in the indexed text (memory/writing/dense_parts.py splits on it)
# messages before an episode that are indexed with it (one after is added for keywords only). Two: an answer
# often replies to the question asked two messages up; three drowned the message's own words (LoCoMo 0.755).
CONTEXT_TURNS = 2
REPLY_GIST_WORDS = 15
_EPISODES = uuid.UUID("5d1c7a4e-3b0f-4f6e-9a51-2f7c1b8e6d30")  # namespace of episode ids


def shown_text(record: MemoryRecord) -> str:
    """What a person (and the companion's prompt) sees of a memory."""
    return record.attributes.get(SAID) or record.text


@text_cache(maxsize=4096)
def _first_relative(said: str, at: datetime, timezone: str, language: str) -> FoundDate | None:
    # dates_in: on writing, the dates the message's indexed text just read, not read again
    return next((found for found in dates_in(said, at, timezone, language) if found.relative), None)


def _said_on(found: FoundDate | None) -> str:
    return f"{found.local_date.isoformat()} {found.precision}" if found is not None else ""


def said_date(record: MemoryRecord, shown: str | None = None) -> tuple[date, str] | None:
    """The day and precision of the first date a message gave relative to when it was said ("next month",
    "hier"), resolved against that moment: shown as it is, "next month" would still sound upcoming long after
    it has passed. Read from the episode when it was worked out on writing (reading dates costs ~0.1 ms a
    message, on every first recall of it otherwise). `shown`: the part of the message shown, when it was cut
    to a few of its sentences; the date is then the first one that part gives, if any."""
    if record.kind is not MemoryKind.EPISODIC or not record.timezone:
        return None
    stored = record.attributes.get(SAID_ON)
    if stored == "":
        return None  # the message gives no relative date, so no part of it does
    if shown is not None and shown != shown_text(record):
        found = _first_relative(shown, record.created_at, record.timezone, record.language)
        return (found.local_date, found.precision) if found is not None else None
    if stored is not None:
        day, _, precision = stored.partition(" ")
        try:
            return date.fromisoformat(day), precision or "day"
        except ValueError:
            pass  # not written by this code: read the message again
    found = _first_relative(shown_text(record), record.created_at, record.timezone, record.language)
    return (found.local_date, found.precision) if found is not None else None


def _clip(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def episode_id(user_key: str, conversation_id: str, at: datetime, said: str) -> str:
    """The id of the episode of a message: the same for the same person, conversation, time and words."""
    return str(uuid.uuid5(_EPISODES, "\x1f".join((user_key, conversation_id, at.isoformat(), said))))


def earlier_turns(exchange: Exchange, turns: int = CONTEXT_TURNS) -> tuple[ChatTurn, ...]:
    """The last messages before this one by the same person (their episodes are its context)."""
    key = exchange.message.user.key
    mine = [t for t in exchange.previous_turns if t.role == "user" and t.author_key in (None, key)]
    return tuple(mine[-turns:]) if turns > 0 else ()


def context_of_turns(turns: tuple[ChatTurn, ...]) -> str | None:
    """The words of the previous messages, each clipped, oldest first."""
    return SEPARATOR.join(_clip(t.text, CONTEXT_WORDS) for t in turns) or None


def _context_part(said: str) -> str:
    return f"{SEPARATOR}{_clip(said, CONTEXT_WORDS)}"


def _ids(record: MemoryRecord, key: str) -> list[str]:
    return record.attributes.get(key, "").split()


def with_next(previous: MemoryRecord, said_next: str, next_id: str) -> MemoryRecord:
    """The previous episode, its indexed text followed by the start of the next message (once)."""
    addition = _context_part(said_next)
    if previous.text.endswith(addition):
        return previous  # the same next message again (a redelivery): nothing to add
    following = " ".join(dict.fromkeys([*_ids(previous, NEXT), next_id]))
    return replace(previous, text=previous.text + addition, attributes={**previous.attributes, NEXT: following})


def neighbour_ids(episode: MemoryRecord) -> list[str]:
    """The episodes indexed with this one's words (the messages just before and after it)."""
    return [*_ids(episode, PREVIOUS), *_ids(episode, NEXT)]


def links(episode: MemoryRecord) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ids of the episodes said before this one (oldest first) and after it; none for another kind. Read once
    a record, with the rest the selection reads of it (`memory.recall.shown_facts`)."""
    if episode.kind is not MemoryKind.EPISODIC:
        return (), ()
    return tuple(_ids(episode, PREVIOUS)), tuple(_ids(episode, NEXT))


def without_neighbour(record: MemoryRecord, forgotten: MemoryRecord) -> MemoryRecord:
    """`record` with the words of the forgotten episode taken out of its indexed text."""
    return without_words(record, forgotten.memory_id, shown_text(forgotten))


def without_words(record: MemoryRecord, forgotten_id: str, forgotten_said: str) -> MemoryRecord:
    """`record` with the words of the forgotten episode `forgotten_id`, which said `forgotten_said`, taken out."""
    text = record.text.replace(_context_part(forgotten_said), "")
    attributes = dict(record.attributes)
    for key in (PREVIOUS, NEXT):
        kept = [i for i in _ids(record, key) if i != forgotten_id]
        if kept:
            attributes[key] = " ".join(kept)
        else:
            attributes.pop(key, None)
    return replace(record, text=text, attributes=attributes)


def indexed_text(said: str, at: datetime, timezone: str, language: str, previous: str | None, reply: str) -> str:
    local_day = at.astimezone(ZoneInfo(timezone)).date()
    parts = [f"{describe_date(local_day, 'day', False, language)}: {said}"]
    mentioned = [
        describe_date(found.local_date, found.precision, False, language)
        for found in dates_in(said, at, timezone, language)
        if found.relative
    ]
    if mentioned:
        parts.append(f"({', '.join(dict.fromkeys(mentioned))})")
    if previous:
        parts.append(f"| {previous}")  # one `_context_part` per previous message
    if reply.strip():
        parts.append(f"| {_clip(reply, REPLY_GIST_WORDS)}")
    return " ".join(parts)


def episodic_record(exchange: Exchange, earlier: tuple[ChatTurn, ...] = ()) -> MemoryRecord:
    """The episode of the exchange's message, indexed with the words of the `earlier` messages."""
    message = exchange.message
    user = message.user.key
    previous_ids = [episode_id(user, message.conversation_id, t.at, t.text) for t in earlier]
    return MemoryRecord(
        memory_id=episode_id(message.user.key, message.conversation_id, message.sent_at, message.text),
        user_key=message.user.key,
        kind=MemoryKind.EPISODIC,
        text=indexed_text(
            message.text,
            message.sent_at,
            exchange.timezone,
            exchange.language,
            context_of_turns(earlier),
            "" if exchange.reply.fallback else exchange.reply.text,  # "sorry, I can't think" is no context
        ),
        language=exchange.language,
        created_at=message.sent_at,
        source=MemorySource(message.user.platform, message.conversation_id, (message.message_id,)),
        scope=message.scope,
        event_at=message.sent_at,
        valid_from=message.sent_at,
        importance=0.3,
        timezone=exchange.timezone,
        attributes={
            SAID: message.text,
            SAID_ON: _said_on(_first_relative(message.text, message.sent_at, exchange.timezone,
                                              exchange.language)),
            **({PREVIOUS: " ".join(previous_ids)} if previous_ids else {}),
            **({VIA: "voice"} if message.by_voice else {}),
        },
    )
