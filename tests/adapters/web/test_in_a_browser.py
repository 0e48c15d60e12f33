"""The memory browser in a real browser (headless Chromium, driven by Selenium): opened as Telegram opens a Mini
App, with signed launch data in the address's fragment, and from the link Discord's `/memories web` answers (through
the fake Discord gateway and REST API); a memory corrected and one forgotten by clicking and typing, and the
changes seen in the chat's /memories through the fake Bot API or the fake Discord.

Skipped, saying why, where Chromium and its driver are not installed (`apt-get install chromium
chromium-driver`, as `.ci/run` does).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from bot.app import open_platforms_and_jobs
from bot.engine.model import UserRef
from tests.adapters.web.browser import TELEGRAM_TOKEN, launch_data, served
from tests.adapters.web.chromium import (
    WAIT_S,
    free_port,
    main_text_showing,
    memory_on_the_page,
    needs_chromium,
    started_chromium,
    until,
)
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as payloads
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_telegram import FakeTelegram
from tests.test_link_both_platforms import answered

pytestmark = needs_chromium
ANA = 5151
LEA_DC = UserRef("discord", "98765", "Léa")


@pytest.fixture
def chromium() -> Iterator[Any]:
    with started_chromium() as driver:
        yield driver


def correct_and_forget(driver: Any, launch_url: str) -> str:
    """What a person does on the page, in the browser (a thread: Selenium waits, the bot's loop serves)."""
    from selenium.webdriver.common.by import By

    driver.get(launch_url)
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.memory"))
    assert "tgWebAppData" not in driver.current_url  # the launch data left the address bar
    return _correct_and_forget_on_the_page(driver)


def correct_and_forget_from_a_link(driver: Any, link: str) -> str:
    """Discord's way in: the single-use link, its button, then the same as on Telegram."""
    from selenium.webdriver.common.by import By

    driver.get(link)
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.memory"))
    assert link.rpartition("/")[2] not in driver.current_url  # the page's address holds no token
    return _correct_and_forget_on_the_page(driver)


def _correct_and_forget_on_the_page(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    paris = memory_on_the_page(driver, "I live in Paris")
    paris.find_element(By.TAG_NAME, "summary").click()
    box = paris.find_element(By.TAG_NAME, "textarea")
    box.clear()
    box.send_keys("I live in Lyon")
    paris.find_element(By.CSS_SELECTOR, "form button").click()
    until(driver, lambda d: "notice=corrected" in d.current_url)
    old = memory_on_the_page(driver, "I live in Paris").text
    assert "no longer true" in old and "I live in Lyon" in old, old
    memory_on_the_page(driver, "My cat is called Miso").find_element(By.CSS_SELECTOR, "button.forget").click()
    until(driver, lambda d: "notice=forgot" in d.current_url)
    return str(driver.find_element(By.TAG_NAME, "main").text)


def open_discord_link(driver: Any, link: str) -> str:
    from selenium.webdriver.common.by import By

    driver.get(link)
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.memory"))
    return str(driver.find_element(By.TAG_NAME, "main").text)


async def test_a_telegram_launch_corrects_and_forgets_in_a_real_browser(
    chromium: Any, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeTelegram(token=TELEGRAM_TOKEN) as telegram:
        port = free_port()
        async with served(redis_url, data_dir, clock, port=port, telegram_api_url=telegram.api_root) as web:
            person = UserRef("telegram", str(ANA), "Ana")
            assert (await web.core.commands.remember(person, "I live in Paris")).ok
            assert (await web.core.commands.remember(person, "My cat is called Miso")).ok
            fragment = urlencode({"tgWebAppData": launch_data(clock, ANA), "tgWebAppVersion": "8.0"})

            page = await asyncio.to_thread(correct_and_forget, chromium, f"{web.base}/telegram#{fragment}")

            assert "Forgotten." in page and "Miso" not in page
            async with open_platforms_and_jobs(web.core):
                await telegram.push_command(ANA, "memories")
                await telegram.wait_for(lambda: any("Lyon" in t for t in telegram.texts(ANA)), within=WAIT_S)
            [listing] = telegram.texts(ANA)
            assert "I live in Lyon" in listing and "Miso" not in listing
            assert "I live in Paris (no longer true)" in listing


async def test_a_discord_link_from_slash_memories_corrects_and_forgets_in_a_real_browser(
    chromium: Any, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeTelegram(token=TELEGRAM_TOKEN) as telegram, FakeDiscord.running() as discord:
        port = free_port()
        async with served(
            redis_url, data_dir, clock, port=port, telegram_api_url=telegram.api_root, discord_token="fake-token",
            discord_api_url=discord.api_root, discord_gateway_url=discord.gateway_url,
        ) as web:  # fmt: skip
            lea = payloads.user("Léa")
            person = UserRef("discord", str(lea["id"]), "Léa")
            assert (await web.core.commands.remember(person, "I live in Paris")).ok
            assert (await web.core.commands.remember(person, "My cat is called Miso")).ok
            async with open_platforms_and_jobs(web.core):
                [answer] = await answered(discord, await discord.slash(lea, "memories", {"page": "web"}))
                assert answer.ephemeral, answer
                link = re.search(r"http://\S+/memories/discord/\S+", answer.content)
                assert link is not None, answer.content

                page = await asyncio.to_thread(correct_and_forget_from_a_link, chromium, link.group(0))

                assert "Forgotten." in page and "Miso" not in page
                [listing] = await answered(discord, await discord.slash(lea, "memories"))
            assert "I live in Lyon" in listing.content and "Miso" not in listing.content
            assert "I live in Paris (no longer true)" in listing.content


async def test_a_discord_link_opens_the_page_in_a_real_browser(
    chromium: Any, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    port = free_port()
    async with served(redis_url, data_dir, clock, port=port) as web:
        assert web.core.browser is not None
        assert (await web.core.commands.remember(LEA_DC, "My boat is called Zanzibar")).ok
        link = f"{web.base}/discord/{await web.core.browser.logins.issue(LEA_DC.account_key)}"

        page = await asyncio.to_thread(open_discord_link, chromium, link)
        assert "My boat is called Zanzibar" in page

        again = await asyncio.to_thread(open_discord_link_again, chromium, link)
        assert "already used" in again


def open_discord_link_again(driver: Any, link: str) -> str:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(link)
    driver.find_element(By.CSS_SELECTOR, "button.primary").click()
    return main_text_showing(driver, "already used")
