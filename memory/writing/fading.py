"""Old episodes fade into digests: what a person keeps of a long-past day is its facts and a digest.

Every message is kept as an episode, so a daily user holds thousands within a year. Episodes older than the
fade age (SOUVENIR_EPISODE_FADE_DAYS) are replaced, per conversation and local day, by one digest episode:
the key words of that day's messages (so recall still finds the day by a word said then), shown as
"3 March 2025 — 12 messages: …". The facts, moods and dates drawn from those messages stay as they are.
An episode a fact says word for word (its twin) and a superseded one give no words: the fact already holds
them, or they are no longer true.

Passes run in the background, never on the reply path: for a person, on their first message this process
sees and every FADE_EVERY_WRITES messages after that. They are idempotent and safe across processes: a
digest's id is derived from the person, conversation and day, merging with what an earlier (or concurrent,
or interrupted) pass wrote, and raw episodes are removed only after their digest is stored. The first pass
also marks twins stored before the writer did (so /memories can leave them out with a filter).
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.ports import Clock
from bot.errors import ErasedMeanwhile
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.store import MemoryStore
from memory.words.sparse import tokenize
from memory.writing.episodes import SAID, shown_text
from memory.writing.extraction.candidates import EPISODE
from memory.writing.extraction.dated import describe_date
from memory.writing.writer import MemoryWriter, is_twin

log = logging.getLogger(__name__)

FADE_EVERY_WRITES = 200
FADE_BATCH = 500
DIGEST_WORDS = 300  # key words kept (indexed) per conversation and day
SHOWN_WORDS = 40  # of which shown in /memories and recall
DIGEST = "digest"  # attributes key: "true" on a digest
MESSAGES = "messages"  # attributes key: the ids of the messages a digest replaced, space-separated
_DIGESTS = uuid.UUID("0b6f2f8e-93a4-4a51-8f3c-5a1e6c2d7b90")  # namespace of digest ids
_WORD = re.compile(r"[\w][\w'’-]*")
_FACT_KINDS = (MemoryKind.SEMANTIC, MemoryKind.EMOTIONAL, MemoryKind.TEMPORAL)


@dataclass(frozen=True, slots=True)
class _Day:
    scope: str
    platform: str
    conversation_id: str
    local_day: date
    timezone: str


def is_digest(record: MemoryRecord) -> bool:
    return record.attributes.get(DIGEST) == "true"


def key_words(text: str) -> list[str]:
    """The words that carry meaning (stopwords and single letters dropped), as written, each once."""
    out: dict[str, str] = {}
    for word in _WORD.findall(text):
        if tokenize(word):
            out.setdefault(word.lower(), word)
    return list(out.values())


def digest_id(user_key: str, day: _Day) -> str:
    parts = (user_key, day.scope, day.conversation_id, day.local_day.isoformat())
    return str(uuid.uuid5(_DIGESTS, "\x1f".join(parts)))


def _day_of(record: MemoryRecord, default_timezone: str) -> _Day:
    zone = record.timezone or default_timezone
    local_day = record.created_at.astimezone(ZoneInfo(zone)).date()
    return _Day(record.scope, record.source.platform, record.source.conversation_id, local_day, zone)


def _message_keys(record: MemoryRecord) -> list[str]:
    return list(record.source.message_ids) or [record.memory_id]


def said_in(record: MemoryRecord) -> list[str]:
    """The messages whose words the record holds: its source's, and for a digest the messages it replaced
    (a kept voice note's audio goes when the last record holding its words goes)."""
    return [*record.source.message_ids, *record.attributes.get(MESSAGES, "").split()]


def build_digest(user_key: str, day: _Day, earlier: MemoryRecord | None, raw: Sequence[MemoryRecord],
                 at: datetime) -> MemoryRecord:  # fmt: skip
    """The digest of `raw` merged into `earlier` (the same day's digest, if any): merging twice is harmless."""
    messages = dict.fromkeys(earlier.attributes.get(MESSAGES, "").split() if earlier else [])
    messages.update(dict.fromkeys(k for r in raw for k in _message_keys(r)))
    words = key_words(earlier.text.partition(": ")[2]) if earlier else []
    for record in raw:
        if record.hidden_by is None and record.is_current(at):
            words = key_words(" ".join([*words, shown_text(record)]))
    words = words[:DIGEST_WORDS]
    languages = [r.language for r in raw] + ([earlier.language] if earlier else [])
    language = max(set(languages), key=languages.count)
    when = describe_date(day.local_day, "day", False, language)
    shown_words = " ".join(words[:SHOWN_WORDS]) + (" …" if len(words) > SHOWN_WORDS else "")
    shown = (
        f"{when} — {len(messages)} messages : {shown_words}" if language == "fr"
        else f"{when} — {len(messages)} messages: {shown_words}"
    )  # fmt: skip
    times = [r.created_at for r in raw] + ([earlier.created_at] if earlier else [])
    return MemoryRecord(
        memory_id=digest_id(user_key, day), user_key=user_key, kind=MemoryKind.EPISODIC,
        text=f"{when}: {' '.join(words)}", language=language, created_at=max(times),
        source=MemorySource(day.platform, day.conversation_id, ()), scope=day.scope, event_at=min(times),
        valid_from=min(times), importance=0.3, timezone=day.timezone, label=DIGEST,
        attributes={SAID: shown, DIGEST: "true", MESSAGES: " ".join(messages)},
    )  # fmt: skip


class EpisodeFader:
    def __init__(
        self,
        store: MemoryStore,
        clock: Clock,
        *,
        fade_after: timedelta | None,
        default_timezone: str = "UTC",
        every_writes: int = FADE_EVERY_WRITES,
        writer: MemoryWriter | None = None,
    ) -> None:
        self._store = store
        # Digests go through the writer's erasure fence: a pass in any process that overlaps a /forget all
        # takes its digest back instead of keeping the person's words.
        self._writer = writer
        self._clock = clock
        self._fade_after = fade_after
        self._default_timezone = default_timezone
        self._every = max(1, every_writes)
        self._writes: dict[str, int] = {}
        self._running: dict[str, asyncio.Task[None]] = {}

    def note_write(self, user_key: str) -> None:
        """Called after each stored message: starts a background pass when one is due for this person."""
        first = user_key not in self._writes
        count = self._writes.get(user_key, 0) + 1
        self._writes[user_key] = count
        if (first or count % self._every == 0) and user_key not in self._running:
            self._running[user_key] = asyncio.get_running_loop().create_task(self._pass(user_key, mark_twins=first))

    async def wait(self, user_key: str) -> None:
        """Until the background pass for this person (if any) is over."""
        task = self._running.get(user_key)
        if task is not None:
            await asyncio.wait([task])

    async def cancel(self, user_key: str) -> None:
        """Before erasing a person: no pass may write a digest of what they are about to lose."""
        task = self._running.get(user_key)
        if task is not None:
            task.cancel()
            await asyncio.wait([task])
            self._running.pop(user_key, None)

    async def close(self) -> None:
        for user_key in list(self._running):
            await self.cancel(user_key)

    async def _pass(self, user_key: str, *, mark_twins: bool) -> None:
        try:
            if mark_twins:
                await self.mark_twins(user_key)
            faded = await self.fade(user_key)
        except asyncio.CancelledError:
            raise
        except Exception:  # an error boundary: the next pass retries
            log.exception("memory maintenance failed for one person; the next pass retries")
            return
        finally:
            self._running.pop(user_key, None)
        if faded:
            log.info("memory maintenance: %d old message(s) faded into digests", faded)

    async def mark_twins(self, user_key: str) -> int:
        """Mark the twins of facts stored before the writer marked them; returns how many changed."""
        marked = 0
        async for facts in self._batches(user_key, _FACT_KINDS, None):
            facts = [f for f in facts if EPISODE in f.attributes]
            found = await self._store.fetch(user_key, [f.attributes[EPISODE] for f in facts])
            episodes = {r.memory_id: r for r in found}
            for fact in facts:
                episode = episodes.get(fact.attributes[EPISODE])
                if episode is not None and episode.hidden_by is None and is_twin(episode, fact):
                    marked += await self._store.hide(user_key, episode.memory_id, fact.memory_id)
        return marked

    async def fade(self, user_key: str) -> int:
        """One pass: the person's raw episodes older than the fade age become digests. Returns how many faded."""
        if self._fade_after is None:
            return 0
        now = self._clock.now()
        epoch = await self._writer.epoch(user_key) if self._writer is not None else None
        faded = 0
        try:
            async for batch in self._batches(user_key, (MemoryKind.EPISODIC,), now - self._fade_after):
                days: dict[_Day, list[MemoryRecord]] = {}
                for record in batch:
                    if not is_digest(record):
                        days.setdefault(_day_of(record, self._default_timezone), []).append(record)
                for day, raw in days.items():
                    faded += await self._fade_day(user_key, day, raw, now, epoch)
        except ErasedMeanwhile:
            log.info("memory maintenance stopped: the person erased their data meanwhile")
        return faded

    async def _batches(
        self, user_key: str, kinds: tuple[MemoryKind, ...], before: datetime | None
    ) -> AsyncIterator[list[MemoryRecord]]:
        """The person's memories of these kinds created before `before`, newest first, a batch at a time.

        Each batch starts below the oldest of the one before (records tied with it at a batch boundary
        wait for the next pass)."""
        while True:
            batch = await self._store.scroll(user_key, 0, FADE_BATCH, kinds=kinds, created_before=before)
            if batch:
                yield batch
            if len(batch) < FADE_BATCH:
                return
            before = min(r.created_at for r in batch)

    async def _fade_day(
        self, user_key: str, day: _Day, raw: list[MemoryRecord], now: datetime, epoch: int | None
    ) -> int:
        ids = [r.memory_id for r in raw]
        found = await self._store.fetch(user_key, [digest_id(user_key, day)])
        earlier = found[0] if found else None
        await self._add(user_key, epoch, build_digest(user_key, day, earlier, raw, now))
        still = await self._store.fetch(user_key, ids)
        if len(still) < len(raw):  # forgotten meanwhile: its words must not live on in the digest
            if still or earlier is not None:
                await self._add(user_key, epoch, build_digest(user_key, day, earlier, still, now))
            else:
                await self._store.remove(user_key, [digest_id(user_key, day)])
        return await self._store.remove(user_key, [r.memory_id for r in still])

    async def _add(self, user_key: str, epoch: int | None, digest: MemoryRecord) -> None:
        if self._writer is None:
            await self._store.add([digest])
        else:
            await self._writer.add_fenced(user_key, epoch, [digest])
