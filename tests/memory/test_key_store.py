"""One contract for every key store backend (a directory of files, a Redis): what the data keys need."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from memory.privacy.crypto import DataKeys, FileKeyStore, KeyStore, PersonCipher, RedisKeyStore, new_master_key
from memory.privacy.crypto.keys import move_data_keys, rewrap_data_keys


@pytest.fixture(params=["file", "redis"])
async def store(
    request: pytest.FixtureRequest, tmp_path: Path, redis_client: aioredis.Redis
) -> AsyncIterator[KeyStore]:
    yield FileKeyStore(tmp_path / "keys") if request.param == "file" else RedisKeyStore(redis_client)


async def test_the_first_key_written_wins_and_others_read_it(store: KeyStore) -> None:
    assert await store.get("abc") is None
    results = await asyncio.gather(*(store.create("abc", f"key{n}".encode()) for n in range(8)))
    assert results.count(True) == 1
    assert await store.get("abc") == f"key{results.index(True)}".encode()
    assert [kid async for kid in store.ids()] == ["abc"]


async def test_a_replace_only_swaps_the_key_it_read(store: KeyStore) -> None:
    await store.create("abc", b"one")
    assert not await store.replace("abc", b"other", b"two")
    assert await store.replace("abc", b"one", b"two") and await store.get("abc") == b"two"
    await store.delete("abc")
    assert not await store.replace("abc", b"two", b"three")  # an erased key is not brought back
    assert await store.get("abc") is None and [kid async for kid in store.ids()] == []


async def test_a_person_erased_cannot_be_read_and_a_new_key_starts_afresh(store: KeyStore) -> None:
    cipher = PersonCipher(DataKeys(store, new_master_key()))
    sealed = await cipher.seal("lea", "my boat is called Quetzalcoatlus")
    assert await cipher.open("lea", sealed) == "my boat is called Quetzalcoatlus"
    await cipher.forget_user("lea")
    assert [kid async for kid in store.ids()] == []
    assert await cipher.open("lea", await cipher.seal("lea", "new")) == "new"


async def test_rotating_the_master_key_rewraps_every_key(store: KeyStore, redis_client: aioredis.Redis) -> None:
    old, new = new_master_key(), new_master_key()
    sealed = await PersonCipher(DataKeys(store, old)).seal("lea", "hello")
    assert await rewrap_data_keys(redis_client, old, new, store) == 1
    assert await PersonCipher(DataKeys(store, new)).open("lea", sealed) == "hello"


async def test_keys_kept_in_the_datas_redis_move_to_the_key_store(tmp_path: Path, redis_client: aioredis.Redis) -> None:
    master = new_master_key()
    sealed = await PersonCipher(DataKeys(RedisKeyStore(redis_client), master)).seal("lea", "hello")
    files = FileKeyStore(tmp_path / "keys")
    assert await move_data_keys(RedisKeyStore(redis_client), files) == 1
    assert [kid async for kid in RedisKeyStore(redis_client).ids()] == []
    assert await PersonCipher(DataKeys(files, master)).open("lea", sealed) == "hello"


async def test_key_files_are_private_and_an_erased_one_leaves_nothing(tmp_path: Path) -> None:
    store = FileKeyStore(tmp_path / "keys")
    await store.create("abc", b"wrapped")
    assert stat.S_IMODE((tmp_path / "keys").stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "keys" / "abc.key").stat().st_mode) == 0o600
    await store.delete("abc")
    assert list((tmp_path / "keys").iterdir()) == []
