"""A fact corrected twice on the memory page (Paris → Lyon → Grenoble), in English and in French: the page shows
the whole chain, oldest first, when the first was said and since when each next one held; the engine's browse
(on the stores `souvenir run` wires) gives the same chain."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest

from bot.engine.model import UserRef
from tests.adapters.web.browser import browser_session, launch_data, memory_ids, page, served, telegram_login
from tests.conftest import FakeClock

ANA = UserRef("telegram", "5151", "Ana")
SAID = {
    "en": ("I live in Paris", "I live in Lyon", "I live in Grenoble"),
    "fr": ("J'habite à Paris", "J'habite à Lyon", "J'habite à Grenoble"),
}
CHAIN = {
    "en": "I live in Paris, said 14 March → I live in Lyon since 23 April → I live in Grenoble since 22 June",
    "fr": "J'habite à Paris, dit le 14 mars → J'habite à Lyon depuis le 23 avril → "
    "J'habite à Grenoble depuis le 22 juin",
}


def _words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split()).replace(" ,", ",")


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_two_corrections_show_as_one_timeline(
    redis_url: str, data_dir: Path, clock: FakeClock, language: str
) -> None:
    paris, lyon, grenoble = SAID[language]
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert core.browser is not None
        view = core.browser.memories
        assert (await core.commands.set_language(ANA, language)).ok
        assert (await core.commands.remember(ANA, paris)).ok  # 14 March
        [first] = [m for m in (await view.browse(ANA)).memories if m.item.text == paris]
        clock.advance(days=40)  # 23 April
        assert (await view.correct(ANA, first.item.memory_id, lyon)).ok
        [second] = [m for m in (await view.browse(ANA)).memories if m.item.text == lyon and m.current]
        clock.advance(days=60)  # 22 June
        assert (await view.correct(ANA, second.item.memory_id, grenoble)).ok

        browsed = {m.item.text: m for m in (await view.browse(ANA)).memories}
        for old in (paris, lyon):
            assert [s.item.text for s in browsed[old].history] == [paris, lyon, grenoble]
        assert browsed[grenoble].current and browsed[grenoble].history == ()

        assert await telegram_login(browser, web, launch_data(clock, 5151, language=language)) == 200
        _, html = await page(browser, web)
        ids = memory_ids(html)
        for old in (paris, lyon):
            shown = html[html.index(f"memory-{ids[old]}") :]
            shown = shown[: shown.index('<div class="actions">')]
            assert CHAIN[language] in _words(shown), _words(shown)
        current = html[html.index(f"memory-{ids[grenoble]}") :]
        assert paris not in current[: current.index('<div class="actions">')]
