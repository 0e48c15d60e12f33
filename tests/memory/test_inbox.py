"""The durable inbox: a message is claimed and kept in one step, held under a lease while it is answered, taken
over by one process once its holder stops renewing, sealed at rest, and erased with its person."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import redis.asyncio as aioredis

from bot.engine.model import IncomingMessage, UserRef
from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.redis.inbox import RedisInbox
from tests.fakes.redis_scan import redis_mentions

LEA = UserRef("telegram", "4242", "Léa")
AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


class Wall:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _message(n: int = 1, user: UserRef = LEA) -> IncomingMessage:
    return IncomingMessage(user, f"telegram:dm:{user.user_id}", str(n), f"My cat Miso is ill ({n})", AT)


async def test_a_message_is_received_once_and_answered_messages_leave(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    wall = Wall()
    inbox = RedisInbox(client, lease_s=30, wall=wall)
    try:
        assert await inbox.receive(_message())
        assert not await inbox.receive(_message())  # a redelivery
        assert await inbox.pending() == 1
        assert await inbox.overdue(10, ("telegram",)) == []  # its holder's lease still runs
        await inbox.done(_message())
        wall.now += 60
        assert await inbox.overdue(10, ("telegram",)) == [] and await inbox.pending() == 0
        assert not await inbox.receive(_message())  # answered: a redelivery later is still refused
    finally:
        await client.aclose()


async def test_an_overdue_message_is_taken_over_by_one_process(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    wall = Wall()
    killed, first, second = (RedisInbox(client, lease_s=30, wall=wall) for _ in range(3))
    try:
        assert await killed.receive(_message())
        wall.now += 31  # it stopped renewing
        assert await first.overdue(10, ("discord",)) == []  # not a platform it can answer on
        [taken] = await first.overdue(10, ("telegram",))
        assert (taken.message, taken.attempts) == (_message(), 1)
        assert await second.overdue(10, ("telegram",)) == []  # held by `first` now
        wall.now += 31
        [again] = await second.overdue(10, ("telegram",))  # `first` died too
        assert again.attempts == 2
    finally:
        await client.aclose()


async def test_a_lease_is_renewed_while_held(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    holder, other = RedisInbox(client, lease_s=0.3), RedisInbox(client, lease_s=0.3)
    try:
        assert await holder.receive(_message())
        async with holder.held(_message()):
            await asyncio.sleep(0.8)  # the model answers slowly
            assert await other.overdue(10, ("telegram",)) == []
        await asyncio.sleep(0.4)
        assert len(await other.overdue(10, ("telegram",))) == 1  # no longer renewed
    finally:
        await client.aclose()


async def test_messages_are_sealed_and_erased_with_their_person(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    cipher = PersonCipher(RedisDataKeys(client, new_master_key()))
    wall = Wall()
    inbox = RedisInbox(client, lease_s=30, cipher=cipher, wall=wall)
    max_ = UserRef("telegram", "77", "Max")
    try:
        assert await inbox.receive(_message(1)) and await inbox.receive(_message(2, max_))
        assert await redis_mentions(client, "Miso", "ill") == []
        await inbox.forget_user(LEA.key)
        wall.now += 31
        [left] = await inbox.overdue(10, ("telegram",))
        assert left.message.user == max_ and left.message.text == "My cat Miso is ill (2)"

        assert await inbox.receive(_message(3))
        await cipher.forget_user(LEA.key)  # erased meanwhile: an entry left behind no longer opens
        wall.now += 31
        assert [o.message.user for o in await inbox.overdue(10, ("telegram",))] == [max_]
        assert await inbox.pending() == 1
    finally:
        await client.aclose()
