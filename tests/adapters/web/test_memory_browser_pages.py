"""The memory page beyond its first view: older memories a page away, a search that reaches every memory holding
its words (a hundred a page, with how many were found), a correction made from a later page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.engine.model import UserRef
from tests.adapters.web.browser import browser_session, csrf_of, launch_data, memory_ids, page, served, telegram_login
from tests.conftest import FakeClock

ANA = UserRef("telegram", "5151", "Ana")


async def test_older_memories_are_a_page_away(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        await remember_numbered_facts(web, clock, 52)
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200

        first, second = await first_two_pages(browser, web)

        assert len(memory_ids(first)) == 50 and "Fact number 52" in memory_ids(first)
        assert "Fact number 3" in memory_ids(first) and "Fact number 2" not in memory_ids(first)
        assert "Page 1 of 2" in first and 'name="page" value="2"' in first  # a form: a Telegram page moves by POSTs
        assert set(memory_ids(second)) == {"Fact number 2", "Fact number 1"}  # the oldest, on the second page


async def test_search_and_corrections_reach_beyond_the_first_page(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.remember(ANA, "My sister lives in Valparaiso")).ok
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        paris = memory_ids((await page(browser, web))[1])["I live in Paris"]
        assert (await web.core.browser.memories.correct(ANA, paris, "I live in Lyon")).ok  # type: ignore[union-attr]
        await remember_numbered_facts(web, clock, 60)  # sixty newer ones push both onto the second page
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200

        first, second = await first_two_pages(browser, web)
        async with browser.post(f"{web.base}/search", data={"csrf": csrf_of(first), "q": "valparaiso"}) as response:
            found = await response.text()

        assert "Fact number 60" in memory_ids(first) and "I live in Paris" not in memory_ids(first)
        assert list(memory_ids(second))[:2] == ["Fact number 10", "Fact number 9"]  # the next ones, newest first
        assert {"I live in Lyon", "I live in Paris", "My sister lives in Valparaiso"} <= set(memory_ids(second))
        old = second[second.index(f"memory-{paris}") :]
        old = old[: old.index("</li>")]
        assert "no longer true" in old and "replaced today by:" in old and "I live in Lyon" in old  # its history
        assert list(memory_ids(found)) == ["My sister lives in Valparaiso"] and "1 found" in found


async def test_a_search_with_more_than_a_hundred_matches_says_how_many_and_pages_through_them(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        for n in range(1, 131):
            clock.advance(minutes=1)
            assert (await web.core.commands.remember(ANA, f"Trip {n} to Valparaiso")).ok
        for n in range(1, 21):
            clock.advance(minutes=1)
            assert (await web.core.commands.remember(ANA, f"Fact number {n}")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        csrf = csrf_of((await page(browser, web))[1])

        async with browser.post(f"{web.base}/search", data={"csrf": csrf, "q": "valparaiso"}) as response:
            first = await response.text()
        async with browser.post(
            f"{web.base}/search", data={"csrf": csrf, "q": "valparaiso", "page": "2"}
        ) as response:  # fmt: skip
            second = await response.text()

        assert "130 found: showing 1–100, newest first" in first and "Page 1 of 2" in first
        assert list(memory_ids(first))[:2] == ["Trip 130 to Valparaiso", "Trip 129 to Valparaiso"]
        assert len(memory_ids(first)) == 100 and 'name="page" value="2"' in first  # the next ones, a click away
        assert "130 found: showing 101–130, newest first" in second and "Page 2 of 2" in second
        assert set(memory_ids(second)) == {f"Trip {n} to Valparaiso" for n in range(1, 31)}
        assert 'name="q" value="valparaiso"' in second  # the search's words stay in the form, not in an address


async def remember_numbered_facts(web: Any, clock: FakeClock, count: int) -> None:
    """"Fact number 1" to "Fact number <count>", a minute apart (the newest first on the page)."""
    for n in range(1, count + 1):
        clock.advance(minutes=1)
        assert (await web.core.commands.remember(ANA, f"Fact number {n}")).ok


async def first_two_pages(browser: Any, web: Any) -> tuple[str, str]:
    _, first = await page(browser, web)
    async with browser.get(f"{web.base}/?page=2") as response:
        return first, await response.text()
