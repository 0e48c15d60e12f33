"""The memory page with encryption at rest on (SOUVENIR_ENCRYPTION_KEY, as `souvenir run` takes it): it lists,
corrects and forgets as without it, and afterwards nothing stored (every Redis key and value, every file of the
data directory, the memory index's included) holds the words in clear — neither the memory corrected, nor its
correction, nor the one forgotten."""

from __future__ import annotations

from pathlib import Path

from bot.engine.model import UserRef
from memory.privacy.crypto import new_master_key
from tests.adapters.web.browser import browser_session, csrf_of, launch_data, memory_ids, page, served, telegram_login
from tests.conftest import FakeClock
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_encryption import _files_saying

ANA = UserRef("telegram", "5151", "Ana")
WORDS = ("Quetzalcoatl", "Xochimilco", "Tlaxcala")  # said, corrected to, forgotten


async def test_the_page_lists_corrects_and_forgets_and_nothing_stored_says_the_words(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    said, corrected, forgotten = WORDS
    async with (
        served(redis_url, data_dir, clock, encryption_key=new_master_key()) as web,
        browser_session() as browser,
    ):
        core = web.core
        assert (await core.commands.remember(ANA, f"My lizard is called {said}")).ok
        assert (await core.commands.remember(ANA, f"I grew up in {forgotten}")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        status, html = await page(browser, web)
        ids = memory_ids(html)
        assert status == 200 and {f"My lizard is called {said}", f"I grew up in {forgotten}"} <= set(ids)

        async with browser.post(
            f"{web.base}/memories/{ids[f'My lizard is called {said}']}/correct",
            data={"csrf": csrf_of(html), "text": f"My lizard is called {corrected}"},
        ) as response:
            html = await response.text()
        assert "notice=corrected" in str(response.url) and f"My lizard is called {corrected}" in memory_ids(html)
        async with browser.post(
            f"{web.base}/memories/{ids[f'I grew up in {forgotten}']}/forget", data={"csrf": csrf_of(html)}
        ) as response:
            html = await response.text()
        assert "Forgotten." in html and forgotten not in html
        assert said in html  # still shown, no longer true

        await core.engine.drain()
        assert await redis_mentions(core.redis, *WORDS) == []
        for word in WORDS:
            assert _files_saying(data_dir, word) == [], word
