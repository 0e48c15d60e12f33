"""A start whose key store was lost (or is another one) stops with one line instead of making new keys."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.errors import ConfigError
from memory.privacy.crypto import FileKeyStore, new_master_key
from memory.privacy.crypto.startup import cipher_for


async def _start(client: aioredis.Redis, master: str, keys: Path) -> None:
    cipher = await cipher_for(client, master, FileKeyStore(keys))
    await cipher.seal("telegram:4242", "My cat Miso")  # a first write makes the person's data key


async def test_a_lost_key_dir_stops_the_start(tmp_path: Path, redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    master, keys = new_master_key(), tmp_path / "keys"
    try:
        await _start(client, master, keys)
        await _start(client, master, keys)  # the same key store: fine
        shutil.rmtree(keys)
        with pytest.raises(ConfigError, match=r"key store .* holds no record of it"):
            await cipher_for(client, master, FileKeyStore(keys))
        assert not keys.exists() or not any(keys.iterdir())  # no new key was made
        with pytest.raises(ConfigError, match="restore it from its backup"):
            await cipher_for(client, master, FileKeyStore(tmp_path / "fresh"))  # an empty one in its place
    finally:
        await client.aclose()


async def test_another_key_store_stops_the_start(tmp_path: Path, redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    master = new_master_key()
    try:
        await _start(client, master, tmp_path / "keys")
        await client.flushdb()
        await _start(client, master, tmp_path / "other")  # another data set, with its own key store
        with pytest.raises(ConfigError, match="another one"):
            await cipher_for(client, master, FileKeyStore(tmp_path / "keys"))
    finally:
        await client.aclose()
