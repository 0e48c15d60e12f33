"""Records a search read a moment ago, kept by id so the next recall does not read them again.

A recall ranks a pool of ~250 candidates; reading their payloads from the index and turning them into
records was most of its cost (LoCoMo: ~9 of 18 ms a question), and the same person's candidates come back
question after question. Only safe where this process is the index's one writer — the embedded engine,
locked to one process by its data dir — so the index enables it there and nowhere else: with a server,
another replica's supersede or erasure would leave a record here stale, and a memory that is wrong is
worse than a slower one.

Every write bumps the generation before and after it changes the index: a read that overlapped a write
does not store what it read (it may be the old version), so the cache never holds a record older than the
index, whatever the interleaving.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from memory.records import MemoryRecord


class RecordCache:
    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._records: OrderedDict[str, MemoryRecord] = OrderedDict()
        self.generation = 0

    @property
    def enabled(self) -> bool:
        return self._capacity > 0

    def __len__(self) -> int:
        return len(self._records)

    def known(self, user_key: str, ids: Iterable[str]) -> dict[str, MemoryRecord]:
        """The cached records among `ids` that are this person's (an id of someone else's is never served)."""
        out: dict[str, MemoryRecord] = {}
        for memory_id in ids:
            record = self._records.get(memory_id)
            if record is not None and record.user_key == user_key:
                self._records.move_to_end(memory_id)
                out[memory_id] = record
        return out

    def keep(self, records: Sequence[MemoryRecord], read_at_generation: int) -> None:
        """Store what a read that started at `read_at_generation` found, unless a write overlapped it."""
        if not self.enabled or read_at_generation != self.generation:
            return
        for record in records:
            self._records[record.memory_id] = record
            self._records.move_to_end(record.memory_id)
        while len(self._records) > self._capacity:
            self._records.popitem(last=False)

    def changing(self, memory_ids: Iterable[str] = (), user_key: str | None = None) -> None:
        """Called before and after a write: reads in flight will not store, and the records it changes go."""
        self.generation += 1
        for memory_id in memory_ids:
            self._records.pop(memory_id, None)
        if user_key is not None:
            for memory_id in [i for i, r in self._records.items() if r.user_key == user_key]:
                del self._records[memory_id]

    def clear(self) -> None:
        self.generation += 1
        self._records.clear()
