"""The memory page as a person with a screen reader or only a keyboard meets it (every field named by a label,
every action a real button, link or summary, nothing taken out of the tab order, no inline handler), and what it
leaves behind: no memory text and no word searched in the operator's logs or in any address the browser went
through; `/forget all` said in the chat ends the page's session; the memories shown by kind."""

from __future__ import annotations

import logging
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.engine.model import UserRef
from tests.adapters.web.browser import (
    browser_session,
    csrf_of,
    launch_data,
    memory_ids,
    page,
    served,
    telegram_login,
)
from tests.conftest import FakeClock
from tests.test_app_erasure import say

ANA = UserRef("telegram", "5151", "Ana")
SECRET = "Quetzalcoatlus"
FIELDS = ("input", "select", "textarea")


class Controls(HTMLParser):
    """What a page offers to a keyboard and a screen reader, as its HTML says."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.labelled: set[str] = set()  # the ids a <label for=…> names
        self.fields: list[dict[str, str]] = []  # every visible form field
        self.buttons: list[str] = []  # each button's text
        self.images: list[dict[str, str]] = []
        self.handlers: list[str] = []  # inline on…= attributes
        self.out_of_order: list[str] = []  # tabindex other than 0
        self._button: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = a.get("lang", "")
        if tag == "label" and a.get("for"):
            self.labelled.add(a["for"])
        if tag in FIELDS and a.get("type") != "hidden":
            self.fields.append({"tag": tag, **a})
        if tag == "button":
            self._button = []
        if tag == "img":
            self.images.append(a)
        self.handlers += [f"{tag} {name}" for name in a if name.startswith("on")]
        if "tabindex" in a and a["tabindex"] != "0":
            self.out_of_order.append(tag)

    def handle_data(self, data: str) -> None:
        if self._button is not None:
            self._button.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._button is not None:
            self.buttons.append("".join(self._button).strip())
            self._button = None


def controls_of(html: str) -> Controls:
    parsed = Controls()
    parsed.feed(html)
    return parsed


def assert_usable(html: str, lang: str) -> None:
    c = controls_of(html)
    assert c.lang == lang
    unlabelled = [f for f in c.fields if f.get("id") not in c.labelled and not f.get("aria-label")]
    assert unlabelled == [], unlabelled
    assert all(c.buttons), c.buttons  # every button says what it does
    assert all(image.get("alt") for image in c.images), c.images
    assert c.handlers == [] and c.out_of_order == []


@pytest.mark.parametrize("language", ["en", "fr"])
async def test_every_field_has_a_label_and_every_action_is_a_button(
    redis_url: str, data_dir: Path, clock: FakeClock, language: str
) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert (await core.commands.set_language(ANA, language)).ok
        assert (await core.commands.set_birthday(ANA, "March 20")).ok
        assert (await core.commands.remember(ANA, "I live in Paris")).ok
        await say(core, clock, "Tell me about Paris", ANA)
        assert await telegram_login(browser, web, launch_data(clock, 5151, language=language)) == 200
        _, html = await page(browser, web)
        paris = memory_ids(html)["I live in Paris"]
        async with browser.post(
            f"{web.base}/memories/{paris}/correct", data={"csrf": csrf_of(html), "text": "I live in Lyon"}
        ) as response:
            corrected = await response.text()
        word = "OUBLIER" if language == "fr" else "FORGET"
        async with browser.post(
            f"{web.base}/forget-all", data={"csrf": csrf_of(corrected), "confirm": word}
        ) as response:  # fmt: skip
            receipt = await response.text()

        assert "<details>" in corrected and "<summary" in corrected  # the correct form opens from the keyboard
        assert len(controls_of(corrected).buttons) >= 5 and len(controls_of(corrected).fields) >= 4
        for html in (corrected, receipt):
            assert_usable(html, language)
        async with browser.get(f"{web.base}/telegram") as response:
            assert controls_of(await response.text()).handlers == []


async def test_no_memory_text_in_logs_or_addresses_and_forget_all_in_the_chat_ends_the_session(
    redis_url: str, data_dir: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    addresses: list[str] = []
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        core = web.core
        assert (await core.commands.remember(ANA, f"My boat is called {SECRET}")).ok
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200
        _, html = await page(browser, web)
        boat = memory_ids(html)[f"My boat is called {SECRET}"]

        for path, data in (
            ("/search", {"csrf": csrf_of(html), "q": SECRET.lower()}),
            (f"/memories/{boat}/correct", {"csrf": csrf_of(html), "text": f"My boat is now called {SECRET}II"}),
        ):
            async with browser.post(f"{web.base}{path}", data=data) as response:
                assert response.status == 200, path
                addresses += [str(r.url) for r in (*response.history, response)]
                html = await response.text()
        new = memory_ids(html)[f"My boat is now called {SECRET}II"]
        async with browser.post(f"{web.base}/memories/{new}/forget", data={"csrf": csrf_of(html)}) as response:
            addresses += [str(r.url) for r in (*response.history, response)]
        async with browser.get(f"{web.base}/export") as response:
            assert SECRET in await response.text()  # the export holds it; no address or log line does
            addresses.append(str(response.url))

        assert (await core.commands.forget_everything(ANA)).ok  # /forget all, said in the chat
        assert (await page(browser, web))[0] == 401

    assert all(SECRET.lower() not in address.lower() for address in addresses), addresses
    logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records if r.levelno >= logging.INFO)
    assert SECRET.lower() not in logged.lower()


async def test_the_memories_can_be_shown_by_kind(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with served(redis_url, data_dir, clock) as web, browser_session() as browser:
        assert (await web.core.commands.remember(ANA, "I live in Paris")).ok  # a fact
        await say(web.core, clock, "Tell me something nice tonight", ANA)  # a message kept word for word
        assert await telegram_login(browser, web, launch_data(clock, 5151)) == 200

        shown = {}
        for kind in ("semantic", "episodic"):
            async with browser.get(f"{web.base}/?kind={kind}") as response:
                shown[kind] = set(memory_ids(await response.text()))

        assert "I live in Paris" in shown["semantic"] and "Tell me something nice tonight" not in shown["semantic"]
        assert shown["episodic"] == {"Tell me something nice tonight"}
