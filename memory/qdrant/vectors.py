"""The dense vectors the index already has, so a text is embedded once: embedding is most of a write's cost.

- query texts searched for lately (recall searches twice with one text; consolidation searches for a fact
  with the text it then writes);
- texts embedded ahead for a batch of exchanges (memory/ingest.py), in one call;
- memories written lately, by id, with the text their vector was made from: an episode rewritten with the
  start of the next message appended keeps the vector of what it said first (the appended words still reach
  keyword search).

They hold people's words: the index clears them whenever something is forgotten.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeVar

from memory.ports import Embedder
from memory.records import MemoryRecord

QUERY_VECTORS = 64  # recent query texts whose embedding is kept: recall searches twice with one text
WRITTEN_VECTORS = 256  # recently written memories whose embedding is kept: the next message extends them
AHEAD_VECTORS = 512  # texts embedded ahead for a batch of exchanges (their writes and searches follow)
T = TypeVar("T")


class KnownVectors:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._queries: OrderedDict[str, list[float]] = OrderedDict()
        self._ahead: OrderedDict[str, list[float]] = OrderedDict()
        self._written: OrderedDict[str, tuple[str, list[float]]] = OrderedDict()  # id -> (text embedded, vector)

    def clear(self) -> None:
        self._queries.clear()
        self._ahead.clear()
        self._written.clear()

    async def ahead(self, texts: Sequence[str], memories: Sequence[tuple[str, str]] = ()) -> None:
        """One embedding call for what a batch of exchanges will search for (`texts`) and write (`memories`:
        memory id and text), instead of a call each (~2.5 ms through the worker thread, against ~1 ms a text in
        a batch). A memory's vector is kept as if it had just been written: extended with the next message
        before it is, it keeps the vector of what it said first, as when written one exchange at a time."""
        known = {t for t in texts if t in self._ahead or t in self._queries}
        wanted = list(dict.fromkeys([*(t for t in texts if t not in known), *(t for _, t in memories)]))
        vectors = dict(zip(wanted, await self._embedder.embed(wanted), strict=True)) if wanted else {}
        for text in texts:
            if text in vectors:
                self._ahead[text] = vectors[text]
        for memory_id, text in memories:
            self._written[memory_id] = (text, vectors[text])
        _trim(self._ahead, AHEAD_VECTORS)
        _trim(self._written, WRITTEN_VECTORS)

    def _known(self, text: str) -> list[float] | None:
        vector = self._queries.get(text)
        return vector if vector is not None else self._ahead.get(text)

    async def of_query(self, text: str) -> list[float]:
        vector = self._known(text)
        if vector is None:
            [vector] = await self._embedder.embed([text])
        self._queries[text] = vector
        self._queries.move_to_end(text)
        _trim(self._queries, QUERY_VECTORS)
        return vector

    async def of_records(self, records: Sequence[MemoryRecord]) -> list[list[float]]:
        """Each record's dense vector: kept from its first write when only words were appended since, known
        from a search or a batch for its text, or embedded now (all the missing ones in one call)."""
        out: list[list[float] | None] = []
        for record in records:
            kept = self._written.get(record.memory_id)
            if kept is not None and record.text.startswith(kept[0]):
                out.append(kept[1])
                continue
            # a fact is first searched for (consolidation), with its own text
            vector = self._known(record.text)
            if vector is not None:
                self._written[record.memory_id] = (record.text, vector)
            out.append(vector)
        missing = [i for i, v in enumerate(out) if v is None]
        fresh = await self._embedder.embed([records[i].text for i in missing]) if missing else []
        for i, vector in zip(missing, fresh, strict=True):
            out[i] = vector
            self._written[records[i].memory_id] = (records[i].text, vector)
        for record in records:
            self._written.move_to_end(record.memory_id)
        _trim(self._written, WRITTEN_VECTORS)
        return [v for v in out if v is not None]


def _trim(kept: OrderedDict[str, T], size: int) -> None:
    while len(kept) > size:
        kept.popitem(last=False)
