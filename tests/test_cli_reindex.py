"""`souvenir reindex` as an operator runs it after changing SOUVENIR_EMBEDDING_MODEL: every memory re-embedded
into a new index with a progress bar, the switch recorded for every replica, and a second run has nothing to do."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

import redis.asyncio as aioredis

from bot.app.memory import embedder_options, index_options
from bot.config import Settings
from memory.index_factory import open_embedder, open_memory_index
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.redis.schema import SCHEMA_KEY, SchemaRecord, embedding_id, migrate
from tests.conftest import FakeClock
from tests.fakes.souvenir_process import run_souvenir, souvenir_env
from tests.memory.test_index_openai_embedder import FakeEmbeddingServer


def _settings(data_dir: Path, redis_url: str, server: FakeEmbeddingServer, model: str) -> Settings:
    return Settings(data_dir=data_dir, redis_url=redis_url, embedding_provider="openai-compatible",
                    embedding_model=model, embedding_base_url=server.base_url)  # fmt: skip


async def test_reindex_re_embeds_everything_and_switches_once(
    redis_url: str, redis_client: aioredis.Redis, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeEmbeddingServer() as server:
        old = _settings(data_dir, redis_url, server, "embed-a")
        await migrate(redis_client, embedding_id(old.embedding_provider, old.embedding_model))
        schema = SchemaRecord(redis_client)
        in_use = await schema.index()
        assert in_use is not None
        await schema.note_dimension(in_use, 3)
        at = datetime(2026, 3, 1, tzinfo=UTC)
        async with open_embedder(embedder_options(old)) as embedder, open_memory_index(
            index_options(old), embedder, clock=clock
        ) as index:
            await index.add([
                MemoryRecord(str(uuid.uuid4()), f"telegram:{n % 5}", MemoryKind.SEMANTIC, f"fact {n}", "en", at,
                             MemorySource("t", "t:dm:1", ()))
                for n in range(30)
            ])  # fmt: skip
        server.requests.clear()

        env = {
            **souvenir_env(data_dir, "http://127.0.0.1:9/v1", redis_url),
            "SOUVENIR_EMBEDDING_PROVIDER": "openai-compatible",
            "SOUVENIR_EMBEDDING_MODEL": "embed-b",
            "SOUVENIR_EMBEDDING_BASE_URL": server.base_url,
        }
        code, out, err = await run_souvenir(env, "reindex")
        assert code == 0, err
        out = " ".join(out.split())  # rich wraps long lines
        assert "switched: 30 memories re-embedded with openai-compatible:embed-b" in out
        assert str(data_dir / "qdrant-1") in out.replace(" ", "")  # a path has no spaces; rich may break it anywhere
        embedded = [text for body in server.requests if body["model"] == "embed-b" for text in body["input"]]  # type: ignore[union-attr]
        embedded.remove("dimension probe")  # the embedder asks its vector size first
        assert sorted(embedded) == sorted(f"fact {n}" for n in range(30))
        record = await redis_client.hgetall(SCHEMA_KEY)  # type: ignore[misc]
        assert (record["index_generation"], record["index_embedding"]) == ("1", "openai-compatible:embed-b")

        code, out, err = await run_souvenir(env, "reindex")
        assert code == 0, err
        assert "nothing to reindex" in out
