"""All of one person's memories as the index holds them (records, dense vectors, keyword terms): what recall's rows
of that person are built from (memory/recall/rows/)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from memory.privacy.crypto import TextCipher
from memory.qdrant.driver import IndexDriver, Where
from memory.qdrant.hit_records import ON_LOOP, records_of
from memory.qdrant.record_cache import RecordCache
from memory.records import MemoryRecord

if TYPE_CHECKING:  # recall's rows read this package (its keyword terms): only their types here
    from memory.recall.rows.keeper import PersonPoints


async def person_points(driver: IndexDriver, cache: RecordCache, cipher: TextCipher, user_key: str) -> PersonPoints:
    """The person's memories with their vectors and keyword terms (the records `cache` keeps where it has them:
    what was worked out for those objects serves), and the key their keyword ids are keyed with (None: plain)."""
    key = (await cipher.opener(user_key)).keyword_key if cipher.enabled else None
    found = await driver.with_vectors(Where(user_key=user_key))
    vectors = {hit.point_id: (dense, terms) for hit, dense, terms in found}
    known = cache.known(user_key, vectors)
    unknown = [hit for hit, _, _ in found if hit.point_id not in known]
    fresh: list[MemoryRecord] = []
    for start in range(0, len(unknown), ON_LOOP):
        # A few at a time on the event loop, its turn given back between them: converted in a worker thread, they
        # held the interpreter's lock, and the loop, for the whole person (memory/qdrant/edge.py `with_vectors`).
        fresh += await records_of(unknown[start : start + ON_LOOP], cipher)
        await asyncio.sleep(0)
    return [(r, *vectors[r.memory_id]) for r in [*known.values(), *fresh]], key
