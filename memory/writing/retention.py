"""Episode retention (SOUVENIR_EPISODE_RETENTION_DAYS): what people said expires after a while, what was
learnt from it stays.

Episodes (the messages kept word for word, and the digests old ones fade into) created longer ago than the
retention are deleted, with the audio of the voice notes they were heard from (when audio is kept); facts,
moods, dates and /remember notes are not episodes and stay. A sweep runs at
start-up, before anything is served, then every SWEEP_EVERY, over everyone with a profile, in batches;
deleted episodes leave the embedded index's files when it closes (memory.qdrant.edge_rewrite), as any
erasure does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta
from typing import Protocol

from bot.engine.ports import Clock
from memory.ports import MessageFiles
from memory.records import MemoryKind
from memory.store import MemoryStore
from memory.writing.fading import said_in

log = logging.getLogger(__name__)

SWEEP_EVERY = timedelta(hours=1)
BATCH = 500


class KnownPeople(Protocol):
    async def known_user_keys(self) -> list[str]: ...


class EpisodeRetention:
    def __init__(
        self,
        store: MemoryStore,
        people: KnownPeople,
        clock: Clock,
        *,
        keep: timedelta,
        message_files: MessageFiles | None = None,
    ) -> None:
        self._store = store
        self._people = people
        self._clock = clock
        self._keep = keep
        self._message_files = message_files

    async def expire(self, user_key: str) -> int:
        """Delete the person's episodes older than the retention; returns how many went."""
        cutoff = self._clock.now() - self._keep
        expired = 0
        while True:
            batch = await self._store.scroll(user_key, 0, BATCH, kinds=(MemoryKind.EPISODIC,), created_before=cutoff)
            if not batch:
                return expired
            gone = await self._store.remove(user_key, [r.memory_id for r in batch])
            expired += gone
            said = [m for r in batch for m in said_in(r)]
            if gone and said and self._message_files is not None:
                await self._message_files.forget_messages(user_key, said)
            if gone == 0:  # removed by someone else meanwhile: the next sweep looks again
                return expired

    async def sweep(self) -> int:
        """One pass over everyone; a failure for one person is logged and the others are still swept."""
        expired = 0
        for user_key in await self._people.known_user_keys():
            try:
                expired += await self.expire(user_key)
            except Exception:  # an error boundary: the next sweep retries
                log.exception("episode retention failed for one person; the next sweep retries")
        if expired:
            log.info("episode retention: %d message(s) older than %d days expired", expired, self._keep.days)
        return expired


@asynccontextmanager
async def sweeping(retention: EpisodeRetention, *, every: timedelta = SWEEP_EVERY) -> AsyncIterator[None]:
    """Sweep now (before anything is served: expired words are never recalled), then every `every` in the
    background while the context is open."""

    async def sweep() -> None:
        try:
            await retention.sweep()
        except Exception:  # Redis unreachable for the list of people: the next sweep retries
            log.exception("episode retention sweep failed; the next one retries")

    async def loop() -> None:
        while True:
            await asyncio.sleep(every.total_seconds())
            await sweep()

    await sweep()

    task = asyncio.get_running_loop().create_task(loop())
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
