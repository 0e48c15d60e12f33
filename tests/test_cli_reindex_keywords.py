"""An encrypted store whose keyword ids were written in clear (by an earlier version): a start is refused with
the fix, `souvenir reindex` rebuilds them keyed per person, and keyword search works on the new index."""

from __future__ import annotations

import io
import uuid
import zlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import qdrant_edge as qe
import redis.asyncio as aioredis
from rich.console import Console

from bot.app.memory import embedder_options, index_options
from bot.config import Settings
from bot.errors import ConfigError
from bot.upgrades import run_migrate, run_reindex
from memory.index_factory import open_embedder, open_memory_index
from memory.privacy.crypto import DataKeys, FileKeyStore, PersonCipher, Sealer, new_master_key
from memory.qdrant import index as index_module
from memory.qdrant.driver import SPARSE
from memory.qdrant.keywords import sparse_text
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource
from memory.redis.schema import (
    KEYWORDS_KEYED,
    KEYWORDS_PLAIN,
    IndexInUse,
    SchemaRecord,
    embedding_id,
    keywords_check,
    migrate,
)
from memory.words.sparse import SparseTerms, encode_document
from tests.conftest import FakeClock
from tests.memory.test_index_openai_embedder import FakeEmbeddingServer

LEA = "telegram:4242"
AT = datetime(2026, 3, 1, tzinfo=UTC)
WORDS = ("therapist", "okonkwo", "vodka")


def _memory(n: int) -> MemoryRecord:
    text = f"My therapist Okonkwo says vodka is not a friend ({n})"
    return MemoryRecord(str(uuid.uuid4()), LEA, MemoryKind.SEMANTIC, text, "en", AT, MemorySource("t", "t:dm:1", ()))


def _plain_terms(record: MemoryRecord, sealer: Sealer | None) -> SparseTerms:
    return encode_document(sparse_text(record))  # as a version before keyed ids wrote them


def _crc32_words_on_disk(shard_dir: Path) -> set[str]:
    shard = qe.EdgeShard.load(str(shard_dir))
    try:
        records, _ = shard.scroll(qe.ScrollRequest(limit=100, with_payload=False, with_vector=True))
    finally:
        shard.close()
    ids = {int(i) for r in records if isinstance(r.vector, dict) for i in r.vector[SPARSE].indices}
    return {w for w in WORDS if zlib.crc32(w.encode()) in ids}


@pytest.fixture
async def raw_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


async def test_clear_keyword_ids_are_refused_at_start_and_rebuilt_keyed_by_reindex(
    redis_url: str,
    raw_client: aioredis.Redis,
    tmp_path: Path,
    data_dir: Path,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    master = new_master_key()
    # The data keys in a key store of their own: reindex must open the memories with the keys from there.
    cipher = PersonCipher(DataKeys(FileKeyStore(tmp_path / "keys"), master))
    async with FakeEmbeddingServer() as server:
        settings = Settings(data_dir=data_dir, redis_url=redis_url, embedding_provider="openai-compatible",
                            embedding_model="embed-a", embedding_base_url=server.base_url,
                            encryption_key=master, key_store="file", key_dir=tmp_path / "keys")  # fmt: skip
        await migrate(raw_client, embedding_id(settings.embedding_provider, settings.embedding_model))
        schema = SchemaRecord(raw_client)
        in_use = await schema.index()
        assert in_use is not None and in_use.keywords is None  # a store from before they were recorded
        in_use = await schema.note_dimension(in_use, 3)
        with monkeypatch.context() as patched:
            patched.setattr(index_module, "document_terms", _plain_terms)
            async with open_embedder(embedder_options(settings)) as embedder:
                async with open_memory_index(index_options(settings), embedder, clock=clock, cipher=cipher) as index:
                    await index.add([_memory(n) for n in range(12)])
        assert _crc32_words_on_disk(data_dir / "qdrant") == set(WORDS)  # what the attack read

        with pytest.raises(ConfigError, match="souvenir reindex"):
            await keywords_check(raw_client, in_use, encrypted=True)(12)  # what a start does once the index opens
        assert (await schema.index()) == IndexInUse(0, in_use.embedding, 3, KEYWORDS_PLAIN)

        out = io.StringIO()
        assert await run_reindex(settings, Console(file=out, width=300)) == 0
        said = out.getvalue()
        assert "rebuilding every memory's keyword ids keyed per person" in said
        assert "switched: 12 memories" in said
        now = await schema.index()
        assert now is not None and (now.generation, now.keywords) == (1, KEYWORDS_KEYED)
        assert _crc32_words_on_disk(data_dir / "qdrant-1") == set()
        await keywords_check(raw_client, now, encrypted=True)(12)  # the next start opens it

        async with open_embedder(embedder_options(settings)) as embedder:
            index_at = index_options(settings)
            async with open_memory_index(index_at, embedder, clock=clock, cipher=cipher, generation=1) as index:
                found = await index.search(IndexQuery(LEA, "Okonkwo", AT, limit=20))
        assert len(found) == 12

        out = io.StringIO()
        assert await run_reindex(settings, Console(file=out, width=300)) == 0
        assert "nothing to reindex" in out.getvalue()


async def test_a_new_store_is_keyed_from_the_start_and_a_clear_one_stays_clear(raw_client: aioredis.Redis) -> None:
    settings = Settings(embedding_provider="openai-compatible", embedding_base_url="http://127.0.0.1:9/v1")
    await migrate(raw_client, embedding_id(settings.embedding_provider, settings.embedding_model))
    schema = SchemaRecord(raw_client)
    fresh = await schema.index()
    assert fresh is not None
    await keywords_check(raw_client, fresh, encrypted=True)(0)  # nothing stored yet: keyed from the first memory
    assert (await schema.index()) == IndexInUse(0, fresh.embedding, None, KEYWORDS_KEYED)
    with pytest.raises(ConfigError, match="SOUVENIR_ENCRYPTION_KEY"):
        await keywords_check(raw_client, fresh, encrypted=False)(5)
    await keywords_check(raw_client, fresh, encrypted=False)(0)  # still empty: nothing to rebuild, crc32 from now
    assert (await schema.index()) == IndexInUse(0, fresh.embedding, None, KEYWORDS_PLAIN)
    await keywords_check(raw_client, fresh, encrypted=True)(0)  # encryption turned on before any memory
    assert (await schema.index()) == IndexInUse(0, fresh.embedding, None, KEYWORDS_KEYED)

    await raw_client.hdel("souvenir:schema", "index_keywords")
    await keywords_check(raw_client, fresh, encrypted=False)(5)  # an unencrypted store with memories: crc32, fine
    assert (await schema.index()) == IndexInUse(0, fresh.embedding, None, KEYWORDS_PLAIN)


async def test_migrate_says_when_the_keyword_ids_need_a_reindex(raw_client: aioredis.Redis, redis_url: str) -> None:
    base = {"redis_url": redis_url, "embedding_provider": "openai-compatible",
            "embedding_base_url": "http://127.0.0.1:9/v1"}  # fmt: skip
    encrypted, clear = Settings(**base, encryption_key=new_master_key()), Settings(**base)

    async def said(settings: Settings) -> str:
        out = io.StringIO()
        assert await run_migrate(settings, Console(file=out, width=300)) == 0
        return out.getvalue()

    assert "souvenir reindex" not in await said(encrypted)  # a new store: keyed from its first memory
    schema = SchemaRecord(raw_client)
    in_use = await schema.index()
    assert in_use is not None
    await schema.note_dimension(in_use, 3)  # a start of an earlier version opened it: its ids were crc32
    assert "if it holds memories, run `souvenir reindex`" in await said(encrypted)
    assert "souvenir reindex" not in await said(clear)

    await raw_client.hset("souvenir:schema", "index_keywords", KEYWORDS_PLAIN)  # recorded by a start in clear
    assert "run `souvenir reindex` to rebuild the memory index's keyword ids keyed per person" in await said(encrypted)
    assert "souvenir reindex" not in await said(clear)
    await raw_client.hset("souvenir:schema", "index_keywords", KEYWORDS_KEYED)
    assert "souvenir reindex" not in await said(encrypted)
    assert "keyword ids in clear (SOUVENIR_ENCRYPTION_KEY is not set)" in await said(clear)
