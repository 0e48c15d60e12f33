"""The session cookie each way in: Discord's link opens a top-level page (SameSite=Strict), Telegram Web shows the
Mini App in a frame on web.telegram.org, where only a SameSite=None cookie is sent (Partitioned: kept for this site
inside Telegram's only). Served behind an https:// public URL, as in production."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
import redis.asyncio as aioredis
from aiohttp import web

from adapters.web import BrowserParts, memory_browser_routes
from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions
from tests.adapters.web.browser import TELEGRAM_TOKEN, launch_data
from tests.adapters.web.test_rate_limit import NoMemories
from tests.conftest import FakeClock


@pytest.fixture
async def behind_https(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[tuple[BrowserParts, str]]:
    parts = BrowserParts(
        "https://souvenir.example.org", NoMemories(), RedisWebSessions(redis_client, clock),
        RedisLoginTokens(redis_client, clock), clock, telegram_token=TELEGRAM_TOKEN,
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


def _attributes(set_cookie: str) -> set[str]:
    return {part.strip().lower() for part in set_cookie.split(";")[1:]}


async def test_a_telegram_session_is_sent_inside_telegram_webs_frame(
    behind_https: tuple[BrowserParts, str], clock: FakeClock
) -> None:
    _, base = behind_https
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{base}/telegram/session", data={"init_data": launch_data(clock, 5151)}) as response:
            assert response.status == 200
            cookie = response.headers["Set-Cookie"]
        attributes = _attributes(cookie)
        assert {"httponly", "secure", "samesite=none", "partitioned", "path=/memories"} <= attributes

        session = cookie.split(";")[0]
        async with client.get(f"{base}/", headers={"Cookie": session}) as response:
            assert response.status == 200  # the frame's requests carry it, and it opens the page
            assert "frame-ancestors 'self' https://web.telegram.org" in response.headers["Content-Security-Policy"]
        elsewhere = {"Cookie": session, "Origin": "https://evil.example"}
        async with client.post(f"{base}/forget-all", data={"confirm": "FORGET"}, headers=elsewhere) as response:
            assert response.status == 403  # sent cross-site, it still changes nothing: origin check and CSRF


async def test_a_discord_links_session_stays_strict(behind_https: tuple[BrowserParts, str]) -> None:
    parts, base = behind_https
    token = await parts.logins.issue("discord:98765")
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{base}/discord/session", data={"token": token}, allow_redirects=False) as response:
            assert response.status == 303
            attributes = _attributes(response.headers["Set-Cookie"])
    assert {"httponly", "secure", "samesite=strict"} <= attributes and "partitioned" not in attributes


async def test_on_a_public_address_the_terminal_chats_link_does_not_exist(
    behind_https: tuple[BrowserParts, str],
) -> None:
    parts, base = behind_https
    token = await parts.logins.issue("terminal:lea")
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{base}/terminal/session", data={"token": token}) as response:
            assert response.status in (404, 405)  # served for a loopback public URL only


async def test_a_telegram_page_carries_its_session_where_no_cookie_is_sent(
    behind_https: tuple[BrowserParts, str], clock: FakeClock
) -> None:
    """Inside Telegram Web's frame a browser that blocks third-party cookies sends none: the session the launch
    answered with, carried in the page's forms, opens and changes the page alone (the CSRF token still needed)."""
    _, base = behind_https
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as client:  # never sends a cookie
        async with client.post(f"{base}/telegram/session", data={"init_data": launch_data(clock, 5151)}) as response:
            answer = await response.json()
        assert answer["next"] == "/memories/view" and answer["session"]
        session = {"session": answer["session"]}
        async with client.get(f"{base}/") as response:
            assert response.status == 401  # no cookie: the page by its address opens nothing
        async with client.post(f"{base}/view", data=session) as response:
            html = await response.text()
            assert response.status == 200 and f'name="session" value="{answer["session"]}"' in html
        csrf = html.split('name="csrf" value="')[1].split('"')[0]
        async with client.post(f"{base}/forget-all", data={**session, "confirm": "FORGET"}) as response:
            assert response.status == 403  # no CSRF token
        async with client.post(f"{base}/export", data={**session, "csrf": csrf}) as response:
            assert response.status == 200 and "attachment" in response.headers["Content-Disposition"]
        elsewhere = {"Origin": "https://evil.example"}
        async with client.post(f"{base}/export", data={**session, "csrf": csrf}, headers=elsewhere) as response:
            assert response.status == 403  # from another site: refused whatever it carries


async def test_a_discord_session_is_never_taken_from_a_form(behind_https: tuple[BrowserParts, str]) -> None:
    parts, base = behind_https
    session_id, _ = await parts.sessions.open("discord:98765", "discord:98765")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as client:
        async with client.post(f"{base}/view", data={"session": session_id}) as response:
            assert response.status == 401  # its Strict cookie, or nothing
