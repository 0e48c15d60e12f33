"""Per-person data keys wrapped by the master key: sealing, opening, shredding, rotation, the start-up check."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from bot.errors import UnreadableText
from memory.privacy.crypto import (
    PersonCipher,
    PlainCipher,
    RedisDataKeys,
    WrongMasterKey,
    new_master_key,
    open_json,
    rewrap_data_keys,
    seal_json,
)
from memory.privacy.crypto.keys import CHECK_KEY, data_key_name, master_key_state
from tests.fakes.redis_scan import redis_mentions

LEA, MARC = "telegram:4242", "telegram:5151"


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    """Bytes in and out, as the app's client."""
    connection = aioredis.from_url(redis_url)
    try:
        yield connection
    finally:
        await connection.aclose()


def cipher(client: aioredis.Redis, master: str) -> PersonCipher:
    return PersonCipher(RedisDataKeys(client, master))  # a fresh one: nothing cached, as in another process


async def test_a_sealed_text_opens_with_its_person_key_only_and_says_nothing_in_redis(
    client: aioredis.Redis,
) -> None:
    master = new_master_key()
    sealed = await cipher(client, master).seal(LEA, "Mon chat Miso ronronne")

    assert "Miso" not in sealed
    assert await cipher(client, master).open(LEA, sealed) == "Mon chat Miso ronronne"
    assert await redis_mentions(client, "4242", "Miso") == []  # the key's name is a hash, no id
    with pytest.raises(UnreadableText):
        (await cipher(client, master).opener(MARC)).open(sealed)  # Marc's key does not open Léa's text
    assert await cipher(client, master).seal(LEA, "x") != await cipher(client, master).seal(LEA, "x")


async def test_after_forget_user_no_copy_of_a_sealed_text_opens_any_more(client: aioredis.Redis) -> None:
    master = new_master_key()
    running = cipher(client, master)
    backup = await running.seal(LEA, "Mon chat Miso ronronne")  # a copy kept in a backup or an old file
    kept = await running.seal(MARC, "Marc aime le thé")

    await running.forget_user(LEA)

    assert await client.exists(data_key_name(LEA)) == 0
    for reader in (running, cipher(client, master)):  # this process's cache and any other process
        with pytest.raises(UnreadableText):
            await reader.open(LEA, backup)
        assert await reader.open(MARC, kept) == "Marc aime le thé"
    fresh = await running.seal(LEA, "nouveau départ")  # a later message gets a new key
    assert await running.open(LEA, fresh) == "nouveau départ"
    with pytest.raises(UnreadableText):
        await running.open(LEA, backup)


async def test_a_changed_byte_does_not_open_and_a_text_from_before_encryption_reads_as_it_is(
    client: aioredis.Redis,
) -> None:
    running = cipher(client, new_master_key())
    sealed = await running.seal(LEA, "secret")
    tampered = sealed[:-6] + ("A" if sealed[-6] != "A" else "B") + sealed[-5:]
    with pytest.raises(UnreadableText):
        await running.open(LEA, tampered)
    assert await running.open(LEA, "written before encryption") == "written before encryption"


async def test_json_documents_seal_whole_for_the_outbox(client: aioredis.Redis) -> None:
    running = cipher(client, new_master_key())
    entry = {"user": LEA, "text": "Mon chat Miso", "at": "2026-03-01T10:00:00+00:00"}
    sealed = await seal_json(running, LEA, entry)
    assert "Miso" not in sealed
    assert await open_json(running, LEA, sealed.encode()) == entry
    assert await open_json(PlainCipher(), LEA, await seal_json(PlainCipher(), LEA, entry)) == entry


async def test_plain_cipher_keeps_texts_and_refuses_sealed_ones(client: aioredis.Redis) -> None:
    sealed = await cipher(client, new_master_key()).seal(LEA, "secret")
    assert await PlainCipher().seal(LEA, "hello") == "hello"
    with pytest.raises(UnreadableText):
        await PlainCipher().open(LEA, sealed)


async def test_the_start_up_check_tells_right_wrong_and_missing_keys_apart(client: aioredis.Redis) -> None:
    master = new_master_key()
    assert await master_key_state(client, None) == "new"
    assert await master_key_state(client, master) == "ok"  # first start with a key: check record written
    assert await client.exists(CHECK_KEY) == 1
    assert await master_key_state(client, master) == "ok"
    assert await master_key_state(client, new_master_key()) == "wrong"
    assert await master_key_state(client, None) == "missing"

    await client.delete(CHECK_KEY)  # only data keys left: they tell too
    await cipher(client, master).seal(LEA, "x")
    assert await master_key_state(client, None) == "missing"
    assert await master_key_state(client, new_master_key()) == "wrong"


async def test_rotation_rewraps_every_data_key_without_touching_the_data(client: aioredis.Redis) -> None:
    old, new = new_master_key(), new_master_key()
    assert await master_key_state(client, old) == "ok"
    sealed = {who: await cipher(client, old).seal(who, f"words of {who}") for who in (LEA, MARC)}

    assert await rewrap_data_keys(client, old, new) == 2
    assert await rewrap_data_keys(client, old, new) == 2  # cut short and run again: still fine

    assert await master_key_state(client, new) == "ok"
    assert await master_key_state(client, old) == "wrong"
    for who, text in sealed.items():
        assert await cipher(client, new).open(who, text) == f"words of {who}"
    with pytest.raises(WrongMasterKey):
        await rewrap_data_keys(client, new_master_key(), new_master_key())


async def test_another_process_never_writes_with_a_key_destroyed_elsewhere(client: aioredis.Redis) -> None:
    master, now = new_master_key(), [0.0]
    here = PersonCipher(RedisDataKeys(client, master), monotonic=lambda: now[0])
    there = cipher(client, master)
    before = await here.seal(LEA, "avant")
    assert await here.open(LEA, before) == "avant"  # here has Léa's key cached now

    await there.forget_user(LEA)  # erased through the other process

    after = await here.seal(LEA, "après")  # sealed with a new key, never the destroyed one
    assert await there.open(LEA, after) == "après"
    now[0] += 60  # past the time a cached key is trusted for opening
    with pytest.raises(UnreadableText):
        await here.open(LEA, before)
    assert await here.open(LEA, after) == "après"


def test_a_new_master_key_never_looks_like_a_command_line_option() -> None:
    keys = {new_master_key() for _ in range(2000)}  # about 30 would start with "-" if drawn plainly
    assert len(keys) == 2000 and not any(key.startswith("-") for key in keys)
