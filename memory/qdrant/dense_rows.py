"""Each person's dense vectors kept in process, so a recall ranks them by meaning with one matrix product.

The index's dense ranking of one person's ~3,800 memories costs ~1 ms through its worker thread; the product of
the same vectors with the question's, ~0.4 ms. Below `full_scan_threshold` (memory/qdrant/edge.py) the shard
scores every one of the person's points exactly as well (no graph is walked), from vectors stored normalised at
float16: the rows here are those very values, and the question is rounded as the shard rounds it, so the
ranking and its scores are the shard's.

Only where this process is the index's one writer, as for memory/qdrant/record_cache.py. A vector says much of
the words it was made from, so the rows are treated as the words themselves:
- kept per person, filled only from that person's points (read filtered on them) and their own writes; every
  id a ranking gives is still read back through the person's records, which leave out anything not theirs;
- a person's rows go as a whole when any memory of theirs is forgotten or they are erased (the index calls
  `forget` under its write lock, before the index deletes), and a row whose memory is written again is
  replaced, never served beside its new version;
- they are read from the index only under that write lock, so no read overlaps a write and none keeps an old
  version.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from memory.qdrant.driver import Hit, IndexDriver

log = logging.getLogger(__name__)

# Rows kept, all people together: ~2 kB each at 512-d (100 MB at most), about the record cache's 20,000 records.
DENSE_ROWS = 50_000
PERSON_ROWS = 10_000  # more memories than the shard's full-scan threshold: the index's graph ranks them
ROOM = 1.25  # rows read are given a quarter more room, so the memories written next need no copy
_NO_PAYLOAD: dict[str, Any] = {}  # shared by the hits, which are never given one

Matrix = npt.NDArray[np.float32]


def stored(vectors: Sequence[Sequence[float]] | Matrix) -> Matrix:
    """Vectors as the shard keeps them for cosine: scaled to unit length, then rounded to float16."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float16).astype(np.float32)


@dataclass(frozen=True, slots=True)
class DenseRows:
    """One person's vectors: row i is the memory ids[i] (None: written again since, its new row is further on).
    A ranking reads `room[:len(ids)]`; rows written later go after that, so no ranking sees a row change."""

    ids: tuple[str | None, ...]
    room: Matrix  # rows beyond len(ids) are free
    replaced: int  # how many ids are None

    def nearest(self, query: Sequence[float], limit: int) -> list[Hit]:
        """The `limit` rows closest to `query` by cosine, best first (CPU: called in a worker thread)."""
        count = len(self.ids)
        if limit <= 0 or count == 0:
            return []
        scores = self.room[:count] @ stored([query])[0]
        wanted = min(count, limit + self.replaced)
        top = np.argpartition(-scores, wanted - 1)[:wanted] if wanted < count else np.arange(count)
        top = top[np.argsort(-scores[top], kind="stable")]
        hits: list[Hit] = []
        ids = self.ids
        for row, score in zip(top.tolist(), scores[top].tolist(), strict=True):
            memory_id = ids[row]
            if memory_id is not None:
                hits.append(Hit(memory_id, score, _NO_PAYLOAD))
        return hits[:limit]

    def written(self, ids: Sequence[str], vectors: Matrix) -> DenseRows | None:
        """These rows with `ids` (re)written to `vectors` (`stored` ones); None when there is no room left."""
        count = len(self.ids)
        if count + len(ids) > len(self.room):
            return None
        self.room[count : count + len(ids)] = vectors
        rewritten = set(ids)
        kept, replaced = self.ids, self.replaced
        if not rewritten.isdisjoint(self.ids):  # an episode extended with the next message, a corrected fact
            kept = tuple(None if i in rewritten else i for i in self.ids)
            replaced = kept.count(None)
        return DenseRows((*kept, *ids), self.room, replaced)


def rows_of(ids: Sequence[str], vectors: Matrix) -> DenseRows:
    """A person's rows as read from the index (`vectors` as stored there), with room for the next ones."""
    room = np.empty((max(int(len(ids) * ROOM), len(ids) + 64), vectors.shape[1]), dtype=np.float32)
    room[: len(ids)] = vectors
    return DenseRows(tuple(ids), room, 0)


class PersonRows:
    """The rows of the people recalled lately, `capacity` rows at most all together (0: none kept)."""

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._people: OrderedDict[str, DenseRows] = OrderedDict()
        self._too_many: set[str] = set()  # people with more than PERSON_ROWS memories: the index ranks theirs
        self._reading: dict[str, asyncio.Task[None]] = {}

    def ranked_by(self, user_key: str, driver: IndexDriver, writes: asyncio.Lock) -> DenseRows | None:
        """The person's rows; when not kept, None, and they are read meanwhile for the next recall: reading
        takes ~0.1 s at 3,800 memories, which no reply should wait for. Read under `writes`, the index's write
        lock (and not at all while it is held), so no write of anyone's overlaps the read."""
        rows = self.get(user_key)
        if rows is None and self.wanted(user_key) and user_key not in self._reading and not writes.locked():
            self._reading[user_key] = asyncio.create_task(self._read(user_key, driver, writes))
        return rows

    async def _read(self, user_key: str, driver: IndexDriver, writes: asyncio.Lock) -> None:
        try:
            async with writes:
                found = await driver.dense_rows(user_key, PERSON_ROWS)
                self.keep(user_key, None if found is None else await asyncio.to_thread(rows_of, *found))
        except Exception:  # the index ranks them meanwhile, as it did; the next recall tries again
            log.warning("reading a person's vectors for recall failed", exc_info=True)
        finally:
            self._reading.pop(user_key, None)

    async def close(self) -> None:
        reading = list(self._reading.values())
        for task in reading:
            task.cancel()
        await asyncio.gather(*reading, return_exceptions=True)
        self._people.clear()

    @property
    def enabled(self) -> bool:
        return self._capacity > 0

    def get(self, user_key: str) -> DenseRows | None:
        rows = self._people.get(user_key)
        if rows is not None:
            self._people.move_to_end(user_key)
        return rows

    def wanted(self, user_key: str) -> bool:
        """Whether to read this person's rows from the index (they are not kept, and may be)."""
        return self.enabled and user_key not in self._people and user_key not in self._too_many

    def keep(self, user_key: str, rows: DenseRows | None) -> None:
        """What a read found under the write lock (None: too many memories to keep)."""
        if rows is None:
            self._too_many.add(user_key)
            return
        self._people[user_key] = rows
        while sum(len(r.room) for r in self._people.values()) > self._capacity and self._people:
            self._people.popitem(last=False)

    def written(self, user_key: str, ids: Sequence[str], vectors: Sequence[Sequence[float]]) -> None:
        """After the person's points were written (under the write lock): their rows follow, or go when full."""
        rows = self._people.get(user_key)
        if rows is None or not ids:
            return
        grown = rows.written(ids, stored(vectors))
        if grown is None:
            del self._people[user_key]  # read again, with more room, by a later recall
        else:
            self._people[user_key] = grown

    def forget(self, user_key: str) -> None:
        """Before and after any memory of the person is deleted: nothing of theirs stays here."""
        self._people.pop(user_key, None)
        self._too_many.discard(user_key)
