"""/memories web in the terminal chat: a single-use link to the memory page served on this machine when
SOUVENIR_PUBLIC_URL is a loopback address, else one line saying why there is none."""

from __future__ import annotations

import io
from pathlib import Path

import redis.asyncio as aioredis

from adapters.terminal import BrowserLink, TerminalChat
from adapters.web.app import login_links
from bot.engine.model import IncomingMessage, Reply, UserRef
from tests.adapters.web.browser import browser_session, memory_ids, served
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("terminal", "lea", "lea")


class SilentEngine:
    async def handle(self, message: IncomingMessage) -> Reply | None:
        return None


async def _said(redis: aioredis.Redis, clock: FakeClock, link: BrowserLink | None, *, elsewhere: bool = False) -> str:
    commands, _, _ = redis_backed_commands(redis, clock, InMemoryMemoryBrowser())
    out = io.StringIO()
    chat = TerminalChat(engine=SilentEngine(), commands=commands, clock=clock, user_name="lea",
                        stdin=io.StringIO("/memories web\n"), stdout=out, browser_link=link,
                        browser_elsewhere=elsewhere)  # fmt: skip
    await chat.run()
    return out.getvalue()


async def test_without_a_public_url_one_line_says_how_to_turn_it_on(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    unset = await _said(redis_client, clock, None)
    elsewhere = await _said(redis_client, clock, None, elsewhere=True)

    assert "set SOUVENIR_PUBLIC_URL=http://127.0.0.1:8080" in unset
    assert "is not a loopback address" in elsewhere


async def test_a_loopback_public_url_gives_a_link_that_opens_the_page_once(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert web.core.browser is not None
        assert (await web.core.commands.remember(LEA, "My boat is called Zanzibar")).ok
        said = await _said(web.core.redis, clock, login_links(web.core.browser))
        link = next(word for word in said.split() if "/memories/terminal/" in word)
        assert link.startswith("http://127.0.0.1:8080/memories/terminal/") and "10 minutes" in said
        token = link.rpartition("/")[2]

        async with browser.post(f"{web.base}/discord/session", data={"token": token}) as response:
            assert response.status == 403  # a terminal token opens no Discord account (and is burnt)
        token = (await login_links(web.core.browser)(LEA)).rpartition("/")[2]
        async with browser.get(f"{web.base}/terminal/{token}") as response:
            assert response.status == 200 and 'action="/memories/terminal/session"' in await response.text()
        async with browser.post(f"{web.base}/terminal/session", data={"token": token}) as response:
            assert "My boat is called Zanzibar" in memory_ids(await response.text())
        async with browser.post(f"{web.base}/terminal/session", data={"token": token}) as response:
            assert response.status == 403  # once only
