"""Re-embed every memory with a new embedding model (or rebuild its keyword ids, keyed per person once
encryption is on) into a NEW index, then switch to it atomically.

The index in use (memory/redis/schema.py) is only read: replicas keep answering from it while the next generation
is built beside it (`qdrant-n` / `souvenir_memories_n`). The walk goes through the old index in id order a page
at a time; after each page the position is written to `souvenir:reindex`, so a run that stops (Ctrl-C, a
crash, the embedding server down) resumes where it was. Once every point is copied, the schema record points
at the new generation in one transaction, and the checkpoint goes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import redis.asyncio as aioredis

from bot.errors import UnreadableText
from memory.ports import Embedder
from memory.privacy.crypto import PlainCipher, Sealer, TextCipher
from memory.qdrant.driver import Hit, IndexDriver, IndexPoint, Where
from memory.qdrant.keywords import document_terms
from memory.qdrant.payload import USER_KEY, payload_to_record
from memory.qdrant.sealed_payload import SEALED, open_payload
from memory.qdrant.vectors import embed_records
from memory.redis.schema import KEYWORDS_PLAIN, IndexInUse, SchemaRecord

log = logging.getLogger(__name__)

CHECKPOINT_KEY = "souvenir:reindex"
PAGE = 256

Progress = Callable[[int, int], None]  # (points copied so far, total)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    generation: int
    embedding: str
    after: str | None  # the walk resumes after this point id (None: from the start)
    copied: int


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class ReindexCheckpoint:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client

    async def read(self) -> Checkpoint | None:
        fields = {_text(k): _text(v) for k, v in (await self._redis.hgetall(CHECKPOINT_KEY)).items()}  # type: ignore[misc]
        if "generation" not in fields:
            return None
        return Checkpoint(int(fields["generation"] or 0), fields.get("embedding") or "",
                          fields.get("after") or None, int(fields.get("copied") or 0))  # fmt: skip

    async def write(self, checkpoint: Checkpoint) -> None:
        mapping: dict[str | bytes, str | int] = {"generation": checkpoint.generation, "embedding": checkpoint.embedding,
                   "after": checkpoint.after or "", "copied": checkpoint.copied}  # fmt: skip
        await self._redis.hset(CHECKPOINT_KEY, mapping=mapping)  # type: ignore[misc,arg-type]

    async def clear(self) -> None:
        await self._redis.delete(CHECKPOINT_KEY)


def target_of(in_use: IndexInUse, embedding: str, resumed: Checkpoint | None) -> Checkpoint:
    """Where this run writes: the interrupted run's generation when it was for the same model, else a new one."""
    if resumed is not None and resumed.embedding == embedding and resumed.generation > in_use.generation:
        return resumed
    return Checkpoint(in_use.generation + 1, embedding, None, 0)


async def _page_points(
    hits: Sequence[Hit], embedder: Embedder, cipher: TextCipher | None = None
) -> dict[str, list[IndexPoint]]:
    """New vectors for the hits, and with encryption keyword ids keyed by each person's key; their payloads are
    copied as they are (sealed ones stay sealed), the words are opened only to be embedded. A memory whose
    person's data key is gone (erased meanwhile) is not copied."""
    cipher = cipher or PlainCipher()
    kept: list[Hit] = []
    records = []
    keys: list[Sealer | None] = []
    for hit in hits:
        payload = hit.payload
        key: Sealer | None = None
        if cipher.enabled:
            person = str(payload.get(USER_KEY, ""))
            # One written before encryption was on: its person may have no data key yet, and gets one.
            key = await (cipher.opener(person) if SEALED in payload else cipher.sealer(person))
            try:
                payload = open_payload(payload, key)
            except UnreadableText:
                continue
        kept.append(hit)
        records.append(payload_to_record(hit.point_id, payload))
        keys.append(key)
    vectors = await embed_records(embedder, records)
    by_user: dict[str, list[IndexPoint]] = {}
    for hit, record, vector, key in zip(kept, records, vectors, keys, strict=True):
        point = IndexPoint(hit.point_id, vector, document_terms(record, key), dict(hit.payload))
        by_user.setdefault(record.user_key, []).append(point)
    return by_user


async def copy_index(
    source: IndexDriver,
    target: IndexDriver,
    embedder: Embedder,
    checkpoints: ReindexCheckpoint,
    start: Checkpoint,
    *,
    progress: Progress = lambda copied, total: None,
    page: int = PAGE,
    cipher: TextCipher | None = None,
) -> Checkpoint:
    """Copy every point after `start.after` into `target` with `embedder`'s vectors, writing the checkpoint after
    each page; the final checkpoint (its `after` None once the walk is done)."""
    total = await source.total()
    current = start
    await checkpoints.write(current)
    progress(current.copied, total)
    while True:
        hits, following = await source.walk(current.after, page)
        for user_key, points in (await _page_points(hits, embedder, cipher)).items():
            await target.upsert(user_key, points)
        current = Checkpoint(current.generation, current.embedding, following, current.copied + len(hits))
        if following is None:
            progress(current.copied, max(total, current.copied))
            return current
        await checkpoints.write(current)
        progress(current.copied, max(total, current.copied))


def _by_user(hits: Sequence[Hit]) -> dict[str, list[Hit]]:
    grouped: dict[str, list[Hit]] = {}
    for hit in hits:
        grouped.setdefault(str(hit.payload.get(USER_KEY, "")), []).append(hit)
    return grouped


async def reconcile(
    source: IndexDriver, target: IndexDriver, embedder: Embedder, *, page: int = PAGE, cipher: TextCipher | None = None
) -> tuple[int, int]:
    """Catch up with what the running replicas changed in the old index while the copy ran: memories added or
    changed after the walk passed them are (re-)embedded, and memories forgotten meanwhile are removed from the
    new index, so an erasure is never undone by the switch. Returns (re-embedded, removed)."""
    changed = removed = 0
    after: str | None = None
    while True:  # the old index, page by page: what the new one lacks or holds differently
        hits, after = await source.walk(after, page)
        stale: list[Hit] = []
        for user_key, mine in _by_user(hits).items():
            ids = tuple(h.point_id for h in mine)
            held = {h.point_id: h.payload for h in await target.newest(Where(user_key, ids=ids), len(ids))}
            stale += [h for h in mine if held.get(h.point_id) != h.payload]
        for user_key, points in (await _page_points(stale, embedder, cipher)).items():
            await target.upsert(user_key, points)
        changed += len(stale)
        if after is None:
            break
    while True:  # the new index, page by page: what the old one no longer holds
        hits, after = await target.walk(after, page)
        for user_key, mine in _by_user(hits).items():
            ids = tuple(h.point_id for h in mine)
            kept = {h.point_id for h in await source.newest(Where(user_key, ids=ids), len(ids), with_payload=False)}
            if gone := tuple(i for i in ids if i not in kept):
                await target.delete(Where(user_key, ids=gone))
                removed += len(gone)
        if after is None:
            return changed, removed


async def switch_to(schema: SchemaRecord, checkpoints: ReindexCheckpoint, in_use: IndexInUse, done: Checkpoint,
                    dimension: int, keywords: str = KEYWORDS_PLAIN) -> IndexInUse:  # fmt: skip
    """Every replica's next start opens the new generation (its keyword ids made as `keywords`, see
    memory/redis/schema.py); the checkpoint goes."""
    new = IndexInUse(done.generation, done.embedding, dimension, keywords)
    await schema.switch_index(in_use.generation, new)
    await checkpoints.clear()
    log.info("memory index switched to generation %d (%s, %d-d)", new.generation, new.embedding, dimension)
    return new
