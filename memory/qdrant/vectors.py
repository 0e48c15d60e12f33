"""The dense vectors the index already has, so a text is embedded once: embedding is most of a write's cost.

- texts embedded lately: query texts (recall searches twice with one text; consolidation searches for a fact
  with the text it then writes), texts embedded ahead for a batch of exchanges (memory/writing/ingest.py), and the
  messages that episodes' vectors are composed of (memory/writing/dense_parts.py: each message is embedded once, then
  lends its vector to the episodes of the messages after it);
- memories written lately, by id, with the text their vector was made from: an episode rewritten with the
  start of the next message appended keeps the vector it had (the appended words still reach keyword search).

They hold people's words: the index clears them whenever something is forgotten.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeVar

from memory.ports import Embedder
from memory.records import MemoryRecord
from memory.writing.dense_parts import DenseParts, compose, dense_parts, texts_of

# Recent texts whose embedding is kept: a batch's messages and facts (up to 64 exchanges, a few texts each),
# the messages the next episodes are composed of, and recent queries.
TEXT_VECTORS = 1024
WRITTEN_VECTORS = 256  # recently written memories whose vector is kept: the next message extends them
T = TypeVar("T")


class KnownVectors:
    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._texts: OrderedDict[str, list[float]] = OrderedDict()
        self._written: OrderedDict[str, tuple[str, list[float]]] = OrderedDict()  # id -> (text, vector)
        # Texts being embedded now, and the call that will give their vectors: a recall whose question was
        # embedded ahead (LongTermMemory.prepare_recall) waits for that call rather than embedding it again.
        self._embedding: dict[str, asyncio.Future[dict[str, list[float]]]] = {}
        self._generation = 0  # moved on by `clear`: vectors of a call begun before are not kept

    def clear(self) -> None:
        self._texts.clear()
        self._written.clear()
        self._generation += 1

    async def _texts_known(self, texts: Sequence[str]) -> dict[str, list[float]]:
        """The vectors of `texts`: those kept, those another call is embedding now, and the others embedded now
        in one call."""
        known: dict[str, list[float]] = {}
        wanted: list[str] = []
        awaited: dict[asyncio.Future[dict[str, list[float]]], list[str]] = {}
        for text in dict.fromkeys(texts):
            if text in self._texts:
                self._texts.move_to_end(text)
                known[text] = self._texts[text]
            elif (call := self._embedding.get(text)) is not None:
                awaited.setdefault(call, []).append(text)
            else:
                wanted.append(text)
        if wanted:
            known.update(await self._embed(wanted))
        for call, waiting in awaited.items():
            # asyncio.wait neither raises the call's error nor cancels the call when this caller is cancelled.
            await asyncio.wait([call])
            given = call.result() if not call.cancelled() and call.exception() is None else {}
            missing = [t for t in waiting if t not in given]
            known.update({t: given[t] for t in waiting if t in given})
            if missing:  # that call failed: try again here
                known.update(await self._embed(missing))
        _trim(self._texts, max(TEXT_VECTORS, len(known)))
        return {text: known[text] for text in texts}

    async def _embed(self, texts: list[str]) -> dict[str, list[float]]:
        call: asyncio.Future[dict[str, list[float]]] = asyncio.get_running_loop().create_future()
        for text in texts:
            self._embedding[text] = call
        generation = self._generation
        try:
            vectors = dict(zip(texts, await self._embedder.embed(texts), strict=True))
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                call.cancel()
            else:
                call.set_exception(exc)
                call.exception()  # retrieved: the callers waiting on it try again themselves
            raise
        finally:
            for text in texts:
                if self._embedding.get(text) is call:
                    del self._embedding[text]
        call.set_result(vectors)
        if generation == self._generation:  # nothing was forgotten meanwhile
            self._texts.update(vectors)
        return vectors

    async def ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        """One embedding call for what a batch of exchanges will search for (`texts`) and write (`memories`),
        instead of a call each (~2.5 ms through the worker thread, against ~1 ms a text in a batch). A memory's
        vector is kept as if it had just been written: extended with the next message before it is, it keeps
        the vector it was first written with, as when written one exchange at a time."""
        recipes = [dense_parts(m) for m in memories]
        known = await self._texts_known([*texts, *texts_of(recipes)])
        for memory, parts in zip(memories, recipes, strict=True):
            self._written[memory.memory_id] = (memory.text, compose(parts, known))
        _trim(self._written, WRITTEN_VECTORS)

    async def of_query(self, text: str) -> list[float]:
        return (await self._texts_known([text]))[text]

    async def of_records(self, records: Sequence[MemoryRecord]) -> list[list[float]]:
        """Each record's dense vector: kept from its first write when only words were appended since, or
        composed from the vectors of its parts (those not known embedded now, all in one call)."""
        fresh = {}
        for record in records:
            kept = self._written.get(record.memory_id)
            if kept is None or not record.text.startswith(kept[0]):
                fresh[record.memory_id] = dense_parts(record)
        known = await self._texts_known(texts_of(list(fresh.values()))) if fresh else {}
        for record in records:
            parts = fresh.get(record.memory_id)
            if parts is not None:
                self._written[record.memory_id] = (record.text, compose(parts, known))
            self._written.move_to_end(record.memory_id)
        vectors = [self._written[r.memory_id][1] for r in records]
        _trim(self._written, max(WRITTEN_VECTORS, len(records)))
        return vectors


async def embed_records(embedder: Embedder, records: Sequence[MemoryRecord]) -> list[list[float]]:
    """The records' vectors, as the index makes them (re-indexing with another embedder): each part once."""
    recipes: list[DenseParts] = [dense_parts(r) for r in records]
    texts = texts_of(recipes)
    known = dict(zip(texts, await embedder.embed(texts), strict=True)) if texts else {}
    return [compose(parts, known) for parts in recipes]


def _trim(kept: OrderedDict[str, T], size: int) -> None:
    while len(kept) > size:
        kept.popitem(last=False)
