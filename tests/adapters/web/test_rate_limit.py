"""Each account gets so many pages and changes a minute from the memory browser; others are not slowed by it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
import redis.asyncio as aioredis
from aiohttp import web

from adapters.web import BrowserParts, memory_browser_routes
from bot.engine.browser.memory_view import MemoryBrowsing
from bot.engine.browser.person_page import PersonPage, PersonSettings
from bot.engine.commands.results import CommandResult, MoodChart
from bot.engine.model import UserRef
from memory.redis.rate_limit import RedisRateLimiter
from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions
from tests.adapters.web.browser import browser_session
from tests.conftest import FakeClock


class NoMemories:
    """The memory side of the browser, empty: this test is about the requests only."""

    async def person(self, user: UserRef) -> UserRef:
        return user

    async def language(self, user: UserRef) -> str:
        return "en"

    async def browse(self, user: UserRef, *, kind: str = "", search: str = "", page: int = 1) -> MemoryBrowsing:
        return MemoryBrowsing("en", (), ())

    async def about(self, user: UserRef) -> PersonPage:
        return PersonPage(PersonSettings("UTC", "en", False, True, False, False), (), (), "")

    async def correct(self, user: UserRef, memory_id: str, text: str) -> CommandResult:
        return CommandResult("", ok=False)

    async def forget_memory(self, user: UserRef, reference: str, hint: str | None = None) -> CommandResult:
        return CommandResult("", ok=False)

    async def forget_everything(self, user: UserRef, hint: str | None = None) -> CommandResult:
        return CommandResult("")

    async def export(self, user: UserRef) -> bytes:
        return b"{}"

    async def mood(self, user: UserRef, argument: str = "", hint: str | None = None) -> MoodChart:
        return MoodChart("")


@pytest.fixture
async def limited(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[tuple[BrowserParts, str]]:
    parts = BrowserParts(
        "http://127.0.0.1", NoMemories(), RedisWebSessions(redis_client, clock), RedisLoginTokens(redis_client, clock),
        clock, limiter=RedisRateLimiter(redis_client, clock, per_minute=3),
    )  # fmt: skip
    app = web.Application()
    base = memory_browser_routes(app, parts)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield parts, f"http://127.0.0.1:{runner.addresses[0][1]}{base}"
    finally:
        await runner.cleanup()


async def _signed_in(parts: BrowserParts, base: str, account: str, client: aiohttp.ClientSession) -> None:
    token = await parts.logins.issue(account)
    async with client.post(f"{base}/discord/session", data={"token": token}) as response:
        assert response.status == 200


async def test_past_the_limit_an_account_waits_and_others_do_not(
    limited: tuple[BrowserParts, str], clock: FakeClock
) -> None:
    parts, base = limited
    async with browser_session() as ana, browser_session() as bob:
        await _signed_in(parts, base, "discord:1", ana)  # the page after signing in is the first of three
        await _signed_in(parts, base, "discord:2", bob)
        statuses = []
        for _ in range(3):
            async with ana.get(f"{base}/") as response:
                statuses.append(response.status)
        async with bob.get(f"{base}/") as response:
            assert response.status == 200

        assert statuses == [200, 200, 429]
        clock.advance(minutes=1)
        async with ana.get(f"{base}/") as response:
            assert response.status == 200
            assert response.headers["Cache-Control"] == "no-store"
