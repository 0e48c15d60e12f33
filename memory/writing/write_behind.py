"""A store that holds back writes while a batch of exchanges is written, and writes them in one go.

Writing several exchanges one after the other costs an index write (a hop to the index's worker thread, and
an embedding call) for each of them; most of what they write is read again by nothing but the next exchange
(the previous message's episode, which it extends). This wrapper keeps added records pending and writes them
together, while every read sees what a write-through store would show:

- `fetch` answers pending records from here (the version last added), the rest from the index;
- a dense search (the only kind consolidation runs) is passed through as it is unless a pending record could
  be among its results (same person and kind); cosine scores do not depend on other points. Any other search,
  and every change (supersede, hide, remove, erasure), writes the pending records first.

Pending records are written through `fence` (MemoryWriter.add_fenced of the real index) with the erasure epoch
read for their exchange, so an erasure or a forgotten memory that came meanwhile still wins: the records of a
person whose data was erased are dropped, never written.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.errors import ErasedMeanwhile
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.store import MemoryStore

log = logging.getLogger(__name__)

Fence = Callable[[str, int | None, list[MemoryRecord]], Awaitable[list[MemoryRecord]]]


class WriteBehindStore:
    def __init__(self, store: MemoryStore, fence: Fence) -> None:
        self._store = store
        self._fence = fence
        self._pending: dict[str, dict[str, MemoryRecord]] = {}  # user key -> memory id -> record
        self._epochs: dict[str, int | None] = {}  # user key -> the erasure epoch its pending records were read at

    async def writing_for(self, user_key: str, epoch: int | None) -> None:
        """The next records of `user_key` are written at `epoch` (that of the exchange being written); what is
        pending for them at another epoch is written first, fenced by its own."""
        if self._epochs.get(user_key, epoch) != epoch:
            await self.flush(user_key)
        self._epochs[user_key] = epoch

    def epoch_of(self, user_key: str) -> int | None:
        """The erasure epoch the person's latest records were written at."""
        return self._epochs.get(user_key)

    async def flush(self, user_key: str | None = None) -> None:
        """Write what is pending (for `user_key`, or everyone), one index write per person."""
        people = list(self._pending) if user_key is None else [user_key]
        for person in people:
            records = self._pending.pop(person, {})
            if not records:
                continue
            try:
                await self._fence(person, self._epochs.get(person), list(records.values()))
            except ErasedMeanwhile:
                log.info("memory writes were dropped: the person erased their data meanwhile")

    # ---- MemoryIndex ----

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        for record in records:
            self._pending.setdefault(record.user_key, {})[record.memory_id] = record

    async def embed_ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        await self._store.embed_ahead(texts, memories)

    async def text_vector(self, text: str) -> list[float]:
        return await self._store.text_vector(text)

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        if query.mode != "dense" or self._could_find(query.user_key, query.kinds):
            await self.flush()
        return await self._store.search(query)

    def _could_find(self, user_key: str, kinds: Sequence[MemoryKind] | None) -> bool:
        pending = self._pending.get(user_key, {})
        return any(kinds is None or r.kind in kinds for r in pending.values())

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        await self.flush()
        return await self._store.supersede(user_key, memory_ids, at)

    async def hide(self, user_key: str, episode_id: str, fact_id: str) -> int:
        await self.flush()
        return await self._store.hide(user_key, episode_id, fact_id)

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        await self.flush()
        return await self._store.remove(user_key, memory_ids)

    # ---- MemoryCatalog ----

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        pending = self._pending.get(user_key, {})
        unwritten = [i for i in memory_ids if i not in pending]
        found = {r.memory_id: r for r in await self._store.fetch(user_key, unwritten)} if unwritten else {}
        found.update({i: pending[i] for i in memory_ids if i in pending})
        return [found[i] for i in dict.fromkeys(memory_ids) if i in found]

    async def scroll(
        self,
        user_key: str,
        offset: int,
        limit: int,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
        created_before: datetime | None = None,
    ) -> list[MemoryRecord]:
        await self.flush()
        return await self._store.scroll(user_key, offset, limit, current_only=current_only, kinds=kinds,
                                        listed_only=listed_only, created_before=created_before)  # fmt: skip

    async def count(
        self,
        user_key: str,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> int:
        await self.flush()
        return await self._store.count(user_key, current_only=current_only, kinds=kinds, listed_only=listed_only)

    async def matching(
        self, user_key: str, text: str, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> list[MemoryRecord]:  # fmt: skip
        await self.flush()
        return await self._store.matching(user_key, text, limit, kinds=kinds, listed_only=listed_only)

    async def holding_words(
        self, user_key: str, text: str, offset: int, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> tuple[list[MemoryRecord], int] | None:  # fmt: skip
        await self.flush()
        return await self._store.holding_words(user_key, text, offset, limit, kinds=kinds, listed_only=listed_only)

    async def forget_user(self, user_key: str) -> int:
        self._pending.pop(user_key, None)
        return await self._store.forget_user(user_key)
