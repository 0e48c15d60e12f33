"""The memory browser's login tokens and sessions in Redis: single use, short-lived, bound to one account,
ended by erasure; shared by every replica (two store objects on one Redis)."""

from __future__ import annotations

import redis.asyncio as aioredis

from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions
from tests.conftest import FakeClock

ANA, BOB = "discord:4242", "discord:5353"


async def test_a_login_token_opens_its_account_once_on_any_replica(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    here, there = RedisLoginTokens(redis_client, clock), RedisLoginTokens(redis_client, clock)
    token = await here.issue(ANA)

    assert await there.redeem(token) == ANA
    assert await here.redeem(token) is None  # burnt on first use
    assert await there.redeem(token) is None


async def test_a_login_token_expires_after_ten_minutes(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    tokens = RedisLoginTokens(redis_client, clock)
    late, in_time = await tokens.issue(ANA), await tokens.issue(ANA)
    clock.advance(minutes=9)
    assert await tokens.redeem(in_time) == ANA
    clock.advance(minutes=2)

    assert await tokens.redeem(late) is None


async def test_a_login_token_opens_only_the_account_it_was_issued_to(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    tokens = RedisLoginTokens(redis_client, clock)
    anas, bobs = await tokens.issue(ANA), await tokens.issue(BOB)

    assert (await tokens.redeem(bobs), await tokens.redeem(anas)) == (BOB, ANA)
    assert await tokens.redeem(anas[:-1] + ("A" if anas[-1] != "A" else "B")) is None
    assert await tokens.redeem("") is None
    keys = [k.decode() async for k in redis_client.scan_iter(match="souvenir:web:*")]
    assert not any(anas in key or bobs in key for key in keys)  # only their hashes are ever stored


async def test_a_session_names_its_account_until_it_expires(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    sessions = RedisWebSessions(redis_client, clock)
    session_id, csrf = await sessions.open(ANA, ANA)

    assert await sessions.find(session_id) == (ANA, csrf)
    assert await sessions.find("not-a-session") is None
    clock.advance(hours=1, minutes=1)
    assert await sessions.find(session_id) is None


async def test_erasing_an_account_or_its_person_ends_its_sessions_only(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    sessions = RedisWebSessions(redis_client, clock)
    on_discord, _ = await sessions.open(ANA, "telegram:77")  # linked: the person's key is the Telegram account's
    on_telegram, _ = await sessions.open("telegram:77", "telegram:77")
    bobs, _ = await sessions.open(BOB, BOB)

    await sessions.forget_user("telegram:77")

    assert await sessions.find(on_discord) is None and await sessions.find(on_telegram) is None
    assert await sessions.find(bobs) is not None
    await sessions.forget_user(BOB)
    assert await sessions.find(bobs) is None
    await sessions.forget_user("nobody:1")  # nothing to end: no error
