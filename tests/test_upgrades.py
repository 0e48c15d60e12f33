"""Upgrades: stored data carries a schema version; `souvenir migrate` brings an old store up once and then
changes nothing; a start migrates by itself, and refuses an index built with another embedding model."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.app import open_core
from bot.config import load_settings
from bot.engine.model import UserProfile
from bot.errors import ConfigError
from memory.redis.schema import SCHEMA_KEY
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_souvenir, souvenir_env


async def _everything(client: aioredis.Redis) -> dict[str, object]:
    """Every key with its type and value, to compare a store before and after."""
    found: dict[str, object] = {}
    async for key in client.scan_iter():
        kind = await client.type(key)
        if kind == "hash":
            found[key] = await client.hgetall(key)  # type: ignore[misc]
        elif kind == "string":
            found[key] = await client.get(key)
        else:
            found[key] = kind
    return found


async def _old_layout_store(client: aioredis.Redis) -> None:
    """What a Souvenir from before schema versions left: people's data, no `souvenir:schema`."""
    await RedisProfiles(client).save_profile(UserProfile("telegram:7", timezone="Europe/Paris", language="fr"))
    await client.set("souvenir:claim:telegram:7:1", "1")


async def test_migrate_brings_an_old_store_up_once_and_then_changes_nothing(
    redis_url: str, redis_client: aioredis.Redis, data_dir: Path
) -> None:
    await _old_layout_store(redis_client)
    before = await _everything(redis_client)
    env = souvenir_env(data_dir, "http://127.0.0.1:9/v1", redis_url)

    code, out, err = await run_souvenir(env, "migrate")
    assert code == 0, err
    assert "migrated: schema 0 → 1" in out
    after_first = await _everything(redis_client)
    assert {k: v for k, v in after_first.items() if k != SCHEMA_KEY} == before  # nothing stored is touched
    assert await redis_client.hget(SCHEMA_KEY, "version") == "1"  # type: ignore[misc]
    assert await redis_client.hget(SCHEMA_KEY, "index_generation") == "0"  # type: ignore[misc]

    code, out, err = await run_souvenir(env, "migrate")
    assert code == 0, err
    assert "nothing to migrate" in out and "migrated" not in out
    assert await _everything(redis_client) == after_first


async def test_a_store_from_a_newer_souvenir_is_refused(
    redis_url: str, redis_client: aioredis.Redis, data_dir: Path
) -> None:
    await redis_client.hset(SCHEMA_KEY, "version", 99)  # type: ignore[misc]
    code, _, err = await run_souvenir(souvenir_env(data_dir, "http://127.0.0.1:9/v1", redis_url), "migrate")
    assert code == 2
    assert "schema version 99" in err and "upgrade Souvenir" in err and "Traceback" not in err


async def test_a_start_migrates_then_refuses_an_index_built_by_another_model(
    redis_url: str, redis_client: aioredis.Redis, data_dir: Path, clock: FakeClock
) -> None:
    await _old_layout_store(redis_client)
    async with FakeOpenAI() as llm:
        settings = load_settings(data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible",
                                 llm_base_url=llm.base_url, llm_max_retries=0)  # fmt: skip
        async with open_core(settings, clock=clock):
            pass
        record = await redis_client.hgetall(SCHEMA_KEY)  # type: ignore[misc]
        assert record["version"] == "1" and record["index_embedding"].startswith("use:")
        assert record["index_dimension"] == "512"  # learnt from the embedder at start

        await redis_client.hset(SCHEMA_KEY, "index_embedding", "openai-compatible:nomic-embed-text")  # type: ignore[misc]
        with pytest.raises(ConfigError) as refused:
            async with open_core(settings, clock=clock):
                pass
    assert "nomic-embed-text" in str(refused.value) and "souvenir reindex" in str(refused.value)
