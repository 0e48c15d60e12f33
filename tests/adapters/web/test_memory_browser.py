"""The memory browser as a person uses it, on the core `souvenir run` wires (real Redis, embedded Qdrant): in
from Telegram's Mini App or Discord's link, their memories listed, one corrected (the old one stays, no longer
true, with what replaced it), one forgotten, everything forgotten; another account's never in reach."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from adapters.web.app import login_links
from bot.engine.model import Exchange, Reply, UserRef
from memory.redis.inbox import RedisInbox
from memory.writing.outbox import DEAD_LETTERS, person_tag
from memory.writing.outbox_codec import JsonExchangeCodec
from tests.adapters.web.browser import (
    browser_session,
    csrf_of,
    launch_data,
    memory_ids,
    page,
    served,
    session_of,
    telegram_login,
)
from tests.conftest import FakeClock
from tests.test_app_erasure import message, say

ANA = UserRef("telegram", "5151", "Ana")
BOB = UserRef("telegram", "6262", "Bob")
LEA_DC = UserRef("discord", "98765", "Léa")


async def test_a_telegram_launch_lists_corrects_and_forgets(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert (await core.commands.remember(ANA, "I live in Paris")).ok
        clock.advance(days=3)
        assert (await core.commands.remember(ANA, "My cat is called Miso")).ok
        assert (await core.commands.remember(BOB, "Bob's secret garden")).ok

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        status, html = await page(browser, web)
        assert status == 200
        ids = memory_ids(html)
        assert {"I live in Paris", "My cat is called Miso"} <= set(ids)
        assert "Bob" not in html
        assert "told 3 days ago" in html and "told today" in html

        async with browser.post(
            f"{web.base}/memories/{ids['I live in Paris']}/correct",
            data={"csrf": csrf_of(html), "text": "I live in Lyon"},
        ) as response:
            assert response.status == 200 and "notice=corrected" in str(response.url)
            html = await response.text()
        assert "I live in Lyon" in memory_ids(html)
        old = html[html.index(f"memory-{ids['I live in Paris']}") :]
        old = old[: old.index("</li>")]
        assert "no longer true" in old and "replaced today by:" in old and "I live in Lyon" in old

        async with browser.post(
            f"{web.base}/memories/{ids['My cat is called Miso']}/forget", data={"csrf": csrf_of(html)}
        ) as response:
            html = await response.text()
        assert "Miso" not in html and "Forgotten." in html
        listing = (await core.commands.memories_listing(ANA)).text
        assert "Miso" not in listing and "Lyon" in listing  # the chat's /memories sees the same


async def test_the_page_speaks_the_persons_language(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.set_language(ANA, "fr")).ok
        assert (await web.core.commands.remember(ANA, "J'habite à Lyon")).ok

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        _, html = await page(browser, web)

        assert '<html lang="fr">' in html and "Mes souvenirs" in html and "dit aujourd&#39;hui" in html


async def test_forged_stale_or_missing_launches_open_nothing(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        forged = launch_data(clock, 5151, token="999:another-bot")
        stale = launch_data(clock, 5151)
        clock.advance(minutes=6)

        assert await telegram_login(browser, web, forged) == 403
        assert await telegram_login(browser, web, stale) == 403
        assert await telegram_login(browser, web, "") == 403
        status, html = await page(browser, web)
        assert status == 401 and "session has ended" in html


async def test_changes_need_the_sessions_csrf_token(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        _, html = await page(browser, web)
        memory_id = memory_ids(html)["I live in Paris"]

        for csrf in ("", "forged"):
            async with browser.post(f"{web.base}/memories/{memory_id}/forget", data={"csrf": csrf}) as response:
                assert response.status == 403
        async with browser.post(f"{web.base}/forget-all", data={"confirm": "FORGET"}) as response:
            assert response.status == 403
        elsewhere = {"Origin": "https://evil.example"}  # even with the token, a POST from another site is refused
        async with browser.post(
            f"{web.base}/memories/{memory_id}/forget", data={"csrf": csrf_of(html)}, headers=elsewhere
        ) as response:
            assert response.status == 403
        async with browser.post(
            f"{web.base}/telegram/session", data={"init_data": launch_data(clock, 5151)}, headers=elsewhere
        ) as response:
            assert response.status == 403  # nor can another site sign a browser into its own account

        assert (await web.core.commands.memories_page(ANA, 0, 10)).total == 1


async def test_another_persons_memory_is_out_of_reach(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as ana, browser_session() as bob:
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert await telegram_login(ana, web, launch_data(clock, 5151)) == 200
        anas_id = memory_ids((await page(ana, web))[1])["I live in Paris"]
        assert await telegram_login(bob, web, launch_data(clock, 6262)) == 200
        _, bobs_page = await page(bob, web)

        for action, data in (("forget", {}), ("correct", {"text": "I live in Rome"})):
            async with bob.post(
                f"{web.base}/memories/{anas_id}/{action}", data={"csrf": csrf_of(bobs_page), **data}
            ) as response:
                assert "notice=none" in str(response.url)

        assert [m.text for m in (await web.core.commands.memories_page(ANA, 0, 10)).items] == ["I live in Paris"]
        assert (await web.core.commands.memories_page(BOB, 0, 10)).total == 0


async def test_a_discord_link_opens_its_account_once(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert web.core.browser is not None
        assert (await web.core.commands.remember(LEA_DC, "My boat is called Zanzibar")).ok
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        link = await login_links(web.core.browser)(LEA_DC)  # what /memories web answers
        assert link.startswith("http://127.0.0.1:8080/memories/discord/")
        token = link.rpartition("/")[2]

        async with browser.get(f"{web.base}/discord/{token}") as response:  # a link preview burns nothing
            assert response.status == 200 and 'name="token"' in await response.text()
        async with browser.post(f"{web.base}/discord/session", data={"token": token}) as response:
            html = await response.text()
        assert "My boat is called Zanzibar" in memory_ids(html) and "I live in Paris" not in html

        async with browser_session() as someone_else:
            async with someone_else.post(f"{web.base}/discord/session", data={"token": token}) as response:
                assert response.status == 403 and "already used" in await response.text()
            assert (await page(someone_else, web))[0] == 401


async def test_forget_everything_needs_the_typed_word_and_ends_the_session(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        csrf = csrf_of((await page(browser, web))[1])

        async with browser.post(f"{web.base}/forget-all", data={"csrf": csrf, "confirm": "yes"}) as response:
            assert response.status == 400 and "Nothing was erased" in await response.text()
        assert (await web.core.commands.memories_page(ANA, 0, 10)).total == 1

        async with browser.post(f"{web.base}/forget-all", data={"csrf": csrf, "confirm": "forget"}) as response:
            receipt = await response.text()
        assert response.status == 200 and "Everything is erased" in receipt
        assert "Erased on 2026-03-14 12:00 (UTC)." in receipt
        erased = receipt[receipt.index('class="receipt"') : receipt.index("What stays")]
        assert "Memory index: 1 memory or message kept word for word" in erased  # counted by the store
        assert "Mood series (Redis): 0 mood readings" in erased and "Files: 0 files" in erased
        assert "Short-term state (Redis): 0 recent messages" in erased and "Profile (Redis)" in erased
        assert "Memory browser: 1 session: this one" in erased and "Key store" not in erased  # no encryption: no key
        assert "a one-way hash of your account" in receipt and "encryption at rest is off" in receipt
        assert (await web.core.commands.memories_page(ANA, 0, 10)).total == 0
        assert (await page(browser, web))[0] == 401


async def test_the_receipt_counts_what_each_store_held(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    """A person with something in every store: each one's line on the receipt says how many things went."""
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert (await core.commands.set_birthday(ANA, "March 20")).ok
        assert (await core.commands.set_checkins(ANA, "on")).ok
        assert (await core.commands.remember(ANA, "My cat is called Miso")).ok
        await say(core, clock, "Tell me about Miso, my cat", ANA)
        clock.advance(minutes=5)
        await say(core, clock, "I feel so happy today, Miso is purring", ANA)
        waiting = message(clock, "Are you there?", ANA)
        assert await RedisInbox(core.redis).receive(waiting)  # received, not answered yet
        given_up = Exchange(waiting, Reply("Yes!", "en"), "Europe/Paris", "en")  # a memory write that kept failing
        await core.redis.xadd(DEAD_LETTERS, {"exchange": JsonExchangeCodec().encode(given_up),
                                             "person": person_tag(ANA.key)})  # fmt: skip
        asked = await core.commands.link(ANA)
        code = next(word for word in asked.text.split() if "-" in word and len(word.strip(".:`*")) == 9)
        assert (await core.commands.link(LEA_DC, code.strip(".:`*"))).ok, asked.text
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200  # a second session
        csrf = csrf_of((await page(browser, web))[1])

        async with browser.post(f"{web.base}/forget-all", data={"csrf": csrf, "confirm": "FORGET"}) as response:
            receipt = await response.text()

        erased = receipt[receipt.index('class="receipt"') : receipt.index("What stays")]
        lines = [unescape(line.strip()) for line in re.findall(r"<li>([^<]*)</li>", erased)]
        assert "Short-term state (Redis): 4 recent messages (yours and my replies), 3 marks of messages already " \
            "answered, 1 conversation lock, 1 exchange waiting to be kept as a memory, 1 message waiting for a " \
            "reply" in lines  # fmt: skip
        assert "Reply trail (Redis): what my last replies drew on (2 replies)" in lines
        assert "Memory browser: 2 sessions, this one included" in lines
        assert "Linked accounts (Redis): the link to 1 other account of yours" in lines
        assert (
            "Mood series (Redis): 2 mood readings" in lines
            and "Files: 0 files (charts, voice notes, pictures)" in lines
        )
        assert re.fullmatch(r"Memory index: \d+ memories and messages kept word for word", lines[0]), lines
        assert "Schedule (Redis): 2 dates and messages planned for you" in lines
        # One record each, nothing to count: the profile, the person model, the picture quota.
        uncounted = [line for line in lines if not re.search(r"\d", line)]
        assert [line.split(":")[0] for line in uncounted] == [
            "Profile (Redis)",
            "Person model (Redis)",
            "Pictures (Redis)",
        ], lines


async def test_every_page_is_locked_down(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        cookie = next(c for c in browser.cookie_jar if c.key == "souvenir_session")
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == "/memories"

        for path in ("/", "/telegram", "/static/launch.js", "/export"):
            async with browser.get(f"{web.base}{path}") as response:
                assert response.status == 200, path
                csp = response.headers["Content-Security-Policy"]
                assert "script-src 'self' https://telegram.org/js/telegram-web-app.js;" in csp
                assert "unsafe-inline" not in csp and "https://telegram.org " not in csp
                assert response.headers["Cache-Control"] == "no-store"
                body = await response.text()
                if path == "/export":
                    assert "attachment" in response.headers["Content-Disposition"] and "Paris" in body
                elif path != "/static/launch.js":
                    assert "<script>" not in body and " on" + "click=" not in body  # no inline script
        async with browser.get(f"http://127.0.0.1:{web.port}/healthz") as response:
            assert response.status in (200, 503)  # the status server still answers beside it


async def test_unlink_and_link_follow_the_person(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert core.browser is not None
        assert (await core.commands.remember(ANA, "My boat is called Zanzibar")).ok
        asked = await core.commands.link(ANA)
        code = next(word for word in asked.text.split() if "-" in word and len(word.strip(".:`*")) == 9)
        assert (await core.commands.link(LEA_DC, code.strip(".:`*"))).ok, asked.text

        token = await core.browser.logins.issue(LEA_DC.account_key)
        async with browser.post(f"{web.base}/discord/session", data={"token": token}) as response:
            assert "My boat is called Zanzibar" in memory_ids(await response.text())  # the linked person's

        assert (await core.commands.unlink(LEA_DC)).ok
        assert (await page(browser, web))[0] == 401  # /unlink ended the session


async def test_a_change_told_in_conversation_shows_as_a_timeline(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        await say(web.core, clock, "I live in Paris", ANA)
        clock.advance(days=40)
        await say(web.core, clock, "I moved, I live in Lyon now", ANA)

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        _, html = await page(browser, web)

        ids = memory_ids(html)
        assert list(ids) == ["I moved, I live in Lyon now", "I live in Paris"]  # newest first, each said once
        old = html[html.index(f"memory-{ids['I live in Paris']}") :]
        old = old[: old.index("</li>")]
        assert "told 5 weeks ago" in old and "no longer true" in old
        assert "replaced today by:" in old and "I moved, I live in Lyon now" in old
        assert "Lives in Lyon" in html  # what I know about you


async def test_dates_settings_and_why_come_with_the_memories(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert (await core.commands.set_birthday(ANA, "March 20")).ok
        assert (await core.commands.set_checkins(ANA, "on")).ok
        assert (await core.commands.set_group_sharing(ANA, "on")).ok
        assert (await core.commands.set_language(ANA, "en")).ok
        assert (await core.commands.remember(ANA, "My cat is called Miso")).ok
        assert (await core.commands.remember(ANA, "My boat is called Zanzibar")).ok
        await say(core, clock, "Tell me about Miso, my cat", ANA)
        clock.advance(minutes=5)
        await say(core, clock, "And my boat Zanzibar?", ANA)

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        _, html = await page(browser, web)

        dates = html[html.index('id="dates-title"') : html.index('id="why-title"')]
        assert "in 6 days</time> — Your birthday" in dates
        why = html[html.index('id="why-title"') : html.index('id="memories-title"')]
        replies = why.split("<li><p>")[1:]  # the last replies, newest first, each with what it drew on
        assert len(replies) == 2
        assert "today, 13:07</time> — my reply drew on:" in replies[0] and "Zanzibar" in replies[0]  # Paris time
        assert "today, 13:01</time>" in replies[1] and "My cat is called Miso" in replies[1]
        settings = html[html.index('id="settings-title"') :]
        assert "<dt>Time zone</dt><dd>Europe/Paris</dd>" in settings
        assert "<dt>Check-ins</dt><dd>on</dd>" in settings and "<dt>Voice replies</dt><dd>off</dd>" in settings
        assert "<dt>Language</dt><dd>English</dd>" in settings
        assert "<dt>Private memories in groups</dt><dd>on</dd>" in settings


async def test_the_mood_chart_is_drawn_on_request(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        async with browser.get(f"{web.base}/mood.png") as response:
            assert response.status == 404  # not enough messages yet: no chart
        for text in ("I'm so tired tonight.", "Work was great today!", "A calm evening.", "Sad news today."):
            clock.advance(hours=20)
            await say(web.core, clock, text, ANA)

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200  # a day later: a new visit
        _, html = await page(browser, web)
        async with browser.get(f"{web.base}/mood.png") as response:
            chart = await response.read()

        async with browser.post(f"{web.base}/view", data={"session": session_of(html), "mood": "1"}) as shown:
            drawn = await shown.text()

        assert 'name="mood" value="1"' in html and "data:image/png" not in html  # drawn when asked only
        assert response.status == 200 and response.content_type == "image/png" and chart.startswith(b"\x89PNG")
        assert '<img src="data:image/png;base64,iVBOR' in drawn  # into the page: a framed <img> sends no session


async def test_with_pseudonymous_keys_no_session_names_the_account(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with served(redis_url, data_dir, clock, pseudonymous_keys=True) as web, browser_session() as browser:
        assert web.core.browser is not None
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok
        assert (await web.core.commands.remember(LEA_DC, "My boat is called Zanzibar")).ok

        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        assert "I live in Paris" in memory_ids((await page(browser, web))[1])
        token = await web.core.browser.logins.issue((await web.core.browser.memories.person(LEA_DC)).account_key)
        async with browser_session() as lea:
            async with lea.post(f"{web.base}/discord/session", data={"token": token}) as response:
                assert "My boat is called Zanzibar" in memory_ids(await response.text())

        redis = web.core.redis
        stored = [key async for key in redis.scan_iter(match="souvenir:web:*")]
        assert stored
        for key in stored:
            kind = (await redis.type(key)).decode()
            held = await (redis.smembers(key) if kind == "set" else redis.get(key))
            assert "5151" not in f"{key!r}{held!r}" and "98765" not in f"{key!r}{held!r}"
