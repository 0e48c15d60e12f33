"""Records from search hits' payloads: opened with their person's key when sealed, off the event loop when many."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.errors import UnreadableText
from memory.privacy.crypto import Sealer, TextCipher
from memory.qdrant.driver import Hit
from memory.qdrant.payload import USER_KEY, payload_to_record
from memory.qdrant.sealed_payload import open_payload
from memory.records import MemoryRecord

ON_LOOP = 32  # payloads converted on the event loop at most (~10 µs each); more go to a worker thread


async def records_of(hits: list[Hit], cipher: TextCipher) -> list[MemoryRecord]:
    """The hits' records; with encryption, one whose person's data key is gone (erased while it was being
    written) is left out, like a record removed meanwhile."""
    if not cipher.enabled:
        if len(hits) <= ON_LOOP:
            return [payload_to_record(h.point_id, h.payload) for h in hits]
        return await asyncio.to_thread(lambda: [payload_to_record(h.point_id, h.payload) for h in hits])
    openers = {u: await cipher.opener(u) for u in {str(h.payload.get(USER_KEY, "")) for h in hits}}
    if len(hits) <= ON_LOOP:
        return _opened_records(hits, openers)
    return await asyncio.to_thread(_opened_records, hits, openers)


def _opened_records(hits: Sequence[Hit], openers: dict[str, Sealer]) -> list[MemoryRecord]:
    records: list[MemoryRecord] = []
    for hit in hits:
        try:
            payload = open_payload(hit.payload, openers[str(hit.payload.get(USER_KEY, ""))])
        except UnreadableText:
            continue
        records.append(payload_to_record(hit.point_id, payload))
    return records
