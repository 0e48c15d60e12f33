"""The reply trail in Redis: the last five replies per person and conversation, gone with what is forgotten."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.ports import DrawnMemory, TrailReply
from memory.privacy.erasure import RedisErasureLog
from memory.redis.reply_trail import RedisReplyTrail, TrailForgettingErasureLog
from tests.fakes.redis_scan import redis_mentions

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
LEA, TOM = "telegram:42", "telegram:43"
LEA_DM, GROUP = "telegram:dm:42", "telegram:chat:-100"
MISO = DrawnMemory("m-miso", "semantic", "Léa has a cat named Miso")
LYON = DrawnMemory("m-lyon", "episodic", "I moved to Lyon")
TOMS = DrawnMemory("m-tom", "semantic", "Tom is afraid of dogs")


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    """Bytes in and out, as the app's client."""
    client = aioredis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


def reply(conversation: str, user: str, minutes: int, *memories: DrawnMemory) -> TrailReply:
    return TrailReply(conversation, user, AT + timedelta(minutes=minutes), memories)


async def test_only_the_last_five_replies_are_kept_newest_first_and_expire(redis_client: aioredis.Redis) -> None:
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=72))
    for n in range(7):
        await trail.note_reply(reply(LEA_DM, LEA, n, DrawnMemory(f"m{n}", "semantic", f"fact {n}")))

    kept = await trail.recent_replies(LEA, LEA_DM)

    assert [r.memories[0].text for r in kept] == ["fact 6", "fact 5", "fact 4", "fact 3", "fact 2"]
    ttls = [await redis_client.ttl(key) async for key in redis_client.scan_iter()]
    assert len(ttls) == 2 and all(0 < ttl <= 72 * 3600 for ttl in ttls)  # the trail and its index expire


async def test_in_a_group_each_person_sees_only_what_their_own_replies_drew_on(redis_client: aioredis.Redis) -> None:
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=2))
    await trail.note_reply(reply(GROUP, LEA, 1, MISO))
    await trail.note_reply(reply(GROUP, TOM, 2, TOMS))
    await trail.note_reply(reply(LEA_DM, LEA, 3, LYON))

    assert [r.memories for r in await trail.recent_replies(LEA, GROUP)] == [(MISO,)]
    assert [r.memories for r in await trail.recent_replies(TOM, GROUP)] == [(TOMS,)]
    assert await trail.recent_replies(TOM, LEA_DM) == []
    everywhere = await trail.recent_replies(LEA)
    assert [(r.conversation_id, r.memories) for r in everywhere] == [(LEA_DM, (LYON,)), (GROUP, (MISO,))]


async def test_a_memory_forgotten_one_by_one_leaves_every_reply_that_drew_on_it(redis_client: aioredis.Redis) -> None:
    log = RedisErasureLog(redis_client)
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=2), forgotten=log)
    await trail.note_reply(reply(LEA_DM, LEA, 1, MISO, LYON))
    await trail.note_reply(reply(GROUP, LEA, 2, MISO))

    # As long-term memory forgets: it names every id it forgets (twins too) to the erasure log first.
    await TrailForgettingErasureLog(log, trail).forgot(LEA, [MISO.memory_id])

    assert [r.memories for r in await trail.recent_replies(LEA)] == [(), (LYON,)]
    assert await redis_mentions(redis_client, "cat named") == []


async def test_a_memory_forgotten_while_its_reply_was_written_is_not_noted(redis_client: aioredis.Redis) -> None:
    log = RedisErasureLog(redis_client)
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=2), forgotten=log)
    await TrailForgettingErasureLog(log, trail).forgot(LEA, [MISO.memory_id])  # recalled before, forgotten since

    await trail.note_reply(reply(LEA_DM, LEA, 1, MISO, LYON))

    assert [r.memories for r in await trail.recent_replies(LEA, LEA_DM)] == [(LYON,)]


async def test_forget_user_leaves_nothing_of_theirs_and_keeps_the_others(redis_client: aioredis.Redis) -> None:
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=2))
    await trail.note_reply(reply(LEA_DM, LEA, 1, LYON))
    await trail.note_reply(reply(GROUP, LEA, 2, MISO))
    await trail.note_reply(reply(GROUP, TOM, 3, TOMS))

    await trail.forget_user(LEA)

    assert await trail.recent_replies(LEA) == []
    assert await redis_mentions(redis_client, "cat named", "Lyon", "42") == []
    assert [r.memories for r in await trail.recent_replies(TOM, GROUP)] == [(TOMS,)]
