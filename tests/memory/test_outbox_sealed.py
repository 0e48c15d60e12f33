"""Outbox entries under encryption at rest: sealed with the person's data key, read back by the worker, and
unreadable (never written) once that key is destroyed by /forget all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.writing.outbox import STREAM, RedisOutbox
from tests.memory.test_outbox import ALICE, exchange

SECRET = "my password is tangerine-42"


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    connection = aioredis.from_url(redis_url)
    try:
        yield connection
    finally:
        await connection.aclose()


async def _stream_bytes(client: aioredis.Redis, stream: str) -> bytes:
    return b"".join(v for _id, fields in await client.xrange(stream) for v in fields.values())


async def test_a_sealed_entry_holds_no_words_and_reads_back(client: aioredis.Redis) -> None:
    outbox = RedisOutbox(client, cipher=PersonCipher(RedisDataKeys(client, new_master_key())))
    await outbox.ensure_group()
    await outbox.enqueue(exchange(SECRET, 1))
    assert b"tangerine" not in await _stream_bytes(client, STREAM)
    [entry] = await outbox.read_new("w1", 10, None)
    assert (await outbox.read_exchange(entry)).message.text == SECRET


async def test_an_entry_whose_key_was_destroyed_cannot_be_read(client: aioredis.Redis) -> None:
    cipher = PersonCipher(RedisDataKeys(client, new_master_key()))
    outbox = RedisOutbox(client, cipher=cipher)
    await outbox.ensure_group()
    await outbox.enqueue(exchange(SECRET, 1))
    [entry] = await outbox.read_new("w1", 10, None)
    await cipher.forget_user(ALICE.key)  # crypto-shredding, as /forget all does first
    with pytest.raises(Exception, match="cannot be opened"):
        await outbox.read_exchange(entry)


async def test_without_a_key_entries_stay_clear_json(client: aioredis.Redis) -> None:
    outbox = RedisOutbox(client)
    await outbox.ensure_group()
    await outbox.enqueue(exchange(SECRET, 1))
    assert b"tangerine" in await _stream_bytes(client, STREAM)


async def test_a_buried_sealed_entry_keeps_whose_key_seals_it(client: aioredis.Redis) -> None:
    cipher = PersonCipher(RedisDataKeys(client, new_master_key()))
    outbox = RedisOutbox(client, cipher=cipher)
    await outbox.ensure_group()
    await outbox.enqueue(exchange(SECRET, 1))
    [entry] = await outbox.read_new("w1", 10, None)
    await outbox.bury(entry, "cannot be written")
    [(_, fields)] = await client.xrange("souvenir:outbox:dead")
    assert fields[b"key"].decode() == ALICE.key
    assert SECRET in await cipher.open(ALICE.key, fields[b"exchange"].decode())  # still opens, still erasable
