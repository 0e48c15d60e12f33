"""Changing the embedding model: detected at start, and `reindex` re-embeds every memory into a new index
(resumable from its checkpoint) while the old one keeps answering, then switches to it."""

from __future__ import annotations

import math
import uuid
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.app.memory import index_options
from bot.config import Settings
from bot.errors import ConfigError
from memory.index_factory import open_index_driver, open_memory_index
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource
from memory.redis.schema import SchemaRecord, check_index, embedding_id, migrate
from memory.words.sparse import tokenize
from memory.writing.reindex import ReindexCheckpoint, copy_index, reconcile, switch_to, target_of
from tests.conftest import FakeClock

AT = datetime(2026, 3, 1, tzinfo=UTC)
USERS = ("telegram:1", "telegram:2", "discord:3")
PER_USER = 40


class SizedEmbedder:
    """Hashed words in `dimension` slots; can be made to fail after some calls (the embedding server going down)."""

    def __init__(self, dimension: int, *, fail_after_calls: int | None = None) -> None:
        self._dimension = dimension
        self._fail_after = fail_after_calls
        self.calls = 0
        self.embedded: list[str] = []

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self._fail_after is not None and self.calls >= self._fail_after:
            raise ConnectionError("the embedding server went away")
        self.calls += 1
        self.embedded += texts
        return [self._vector(text) for text in texts]

    def _vector(self, text: str) -> list[float]:
        out = [0.0] * self._dimension
        for token in tokenize(text):
            out[zlib.crc32(token.encode()) % self._dimension] += 1.0
        norm = math.sqrt(sum(v * v for v in out)) or 1.0
        return [v / norm for v in out]


def _settings(tmp_path: Path, model: str) -> Settings:
    return Settings(data_dir=tmp_path, embedding_provider="openai-compatible", embedding_model=model,
                    embedding_base_url="http://127.0.0.1:9/v1")  # fmt: skip


def _embedding(settings: Settings) -> str:
    return embedding_id(settings.embedding_provider, settings.embedding_model)


def _memory(user: str, n: int) -> MemoryRecord:
    text = f"memory number {n} of {user}: I adopted a cat called Miso{n}"
    return MemoryRecord(str(uuid.uuid4()), user, MemoryKind.SEMANTIC, text, "en", AT, MemorySource("t", "t:dm:1", ()))


async def _finds(index: QdrantMemoryIndex, user: str, n: int) -> bool:
    found = await index.search(IndexQuery(user, f"cat called Miso{n}", AT, limit=3))
    return any(f"Miso{n}" in hit.record.text.split() or f"Miso{n}" in hit.record.text for hit in found)


async def test_a_new_model_is_detected_and_reindexed_while_the_old_index_answers(
    tmp_path: Path, redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    old_settings, new_settings = _settings(tmp_path, "model-a"), _settings(tmp_path, "model-b")
    schema, checkpoints = SchemaRecord(redis_client), ReindexCheckpoint(redis_client)
    await migrate(redis_client, _embedding(old_settings))
    in_use = await schema.index()
    assert in_use is not None
    in_use = await schema.note_dimension(in_use, 16)

    old_driver = await open_index_driver(index_options(old_settings), 16, in_use.generation)
    old = QdrantMemoryIndex(old_driver, SizedEmbedder(16), clock)  # the running bot's index
    await old.add([_memory(user, n) for user in USERS for n in range(PER_USER)])

    with pytest.raises(ConfigError) as mismatch:  # a start with the new model is refused, with the way out
        check_index(in_use, _embedding(new_settings), 24)
    assert "model-a, 16-d" in str(mismatch.value) and "souvenir reindex" in str(mismatch.value)

    # A first run stops half-way (the embedding server goes down after two pages).
    target = await open_index_driver(index_options(new_settings), 24, 1)
    start = target_of(in_use, _embedding(new_settings), await checkpoints.read())
    with pytest.raises(ConnectionError):
        await copy_index(old_driver, target, SizedEmbedder(24, fail_after_calls=2), checkpoints, start, page=25)
    stopped = await checkpoints.read()
    assert stopped is not None and stopped.copied == 50 and stopped.generation == 1
    assert await schema.index() == in_use  # nothing switched: every replica still reads the old index
    assert await _finds(old, "telegram:2", 7)  # and it still answers
    # Meanwhile the running bot forgets a memory already copied, and learns a new one.
    copied, _ = await target.walk(None, 50)
    # A memory of telegram:2, whom nothing below looks up again.
    forgotten = next(point for point in copied if point.payload["user_key"] == "telegram:2")
    assert await old.remove(str(forgotten.payload["user_key"]), [forgotten.point_id]) == 1
    late = _memory("telegram:1", 999)
    await old.add([late])

    # The second run resumes from the checkpoint, embeds only what is left, then switches.
    resumed_embedder = SizedEmbedder(24)
    start = target_of(in_use, _embedding(new_settings), await checkpoints.read())
    seen: list[tuple[int, int]] = []
    done = await copy_index(old_driver, target, resumed_embedder, checkpoints, start, page=25,
                            progress=lambda copied, total: seen.append((copied, total)))  # fmt: skip
    assert stopped.after is not None
    late_in_walk = uuid.UUID(late.memory_id).int >= uuid.UUID(stopped.after).int  # ids are walked in order
    assert len(resumed_embedder.embedded) == len(USERS) * PER_USER - 50 + late_in_walk  # nothing embedded twice
    assert seen[0] == (50, 120) and seen[-1][0] == seen[-1][1] == 50 + len(resumed_embedder.embedded)
    # Before switching: what changed behind the walk is caught up, and the forgotten memory does not come back.
    assert await reconcile(old_driver, target, resumed_embedder) == (0 if late_in_walk else 1, 1)
    expected = {user: await old.count(user) for user in USERS}
    await target.close()
    switched = await switch_to(schema, checkpoints, in_use, done, 24)
    await old.close()

    assert await schema.index() == switched and switched.generation == 1 and switched.dimension == 24
    assert await checkpoints.read() is None
    check_index(switched, _embedding(new_settings), 24)  # the next start with the new model is accepted
    async with open_memory_index(index_options(new_settings), SizedEmbedder(24), clock=clock, generation=1) as new:
        assert {user: await new.count(user) for user in USERS} == expected
        assert await _finds(new, "discord:3", 33) and await _finds(new, "telegram:1", 999)
        assert await new.fetch(str(forgotten.payload["user_key"]), [forgotten.point_id]) == []


async def test_a_stale_switch_is_refused(tmp_path: Path, redis_client: aioredis.Redis) -> None:
    settings = _settings(tmp_path, "model-a")
    schema, checkpoints = SchemaRecord(redis_client), ReindexCheckpoint(redis_client)
    await migrate(redis_client, _embedding(settings))
    in_use = await schema.index()
    assert in_use is not None
    done = target_of(in_use, "openai-compatible:model-b", None)
    await switch_to(schema, checkpoints, in_use, done, 24)
    with pytest.raises(ConfigError):  # a second reindex that started from generation 0 must not switch back
        await switch_to(schema, checkpoints, in_use, target_of(in_use, "openai-compatible:model-c", None), 8)


async def test_sealed_memories_are_reembedded_from_their_words_and_stay_sealed(
    tmp_path: Path, redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key

    cipher = PersonCipher(RedisDataKeys(redis_client, new_master_key()))
    old_settings, new_settings = _settings(tmp_path, "model-a"), _settings(tmp_path, "model-b")
    schema, checkpoints = SchemaRecord(redis_client), ReindexCheckpoint(redis_client)
    await migrate(redis_client, _embedding(old_settings))
    in_use = await schema.index()
    assert in_use is not None
    old_driver = await open_index_driver(index_options(old_settings), 16, in_use.generation)
    old = QdrantMemoryIndex(old_driver, SizedEmbedder(16), clock, cipher=cipher)
    await old.add([_memory(user, n) for user in USERS for n in range(5)])
    target = await open_index_driver(index_options(new_settings), 24, 1)
    embedder = SizedEmbedder(24)
    start = target_of(in_use, _embedding(new_settings), None)
    await copy_index(old_driver, target, embedder, checkpoints, start, cipher=cipher)
    assert all("Miso" in text for text in embedder.embedded)  # the words, not the sealed form, were embedded
    copied, _ = await target.walk(None, 100)
    assert copied and all("Miso" not in str(hit.payload) for hit in copied)  # still sealed in the new index
    new = QdrantMemoryIndex(target, SizedEmbedder(24), clock, cipher=cipher)
    assert await _finds(new, "discord:3", 3)
    await new.close()
    await old.close()
