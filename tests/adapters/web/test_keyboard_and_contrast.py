"""The memory page for a person who uses only a keyboard, a screen reader or weak eyes: in a real browser (headless
Chromium), Tab reaches every action (search, correct, forget one, export, forget everything), each focused element
is visible and outlined, Enter and Space activate; each "Correct" and "Forget this" names the memory it acts on
(aria-describedby: its text on the page, never in an address); and every text colour of the stylesheet, light and
dark, stands out from its background by WCAG's 4.5:1.

The browser part is skipped, saying why, where Chromium and its driver are not installed.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from adapters.web.rendering import STATIC
from bot.engine.model import UserRef
from tests.adapters.web.browser import launch_data, served
from tests.adapters.web.chromium import free_port, main_text_showing, needs_chromium, started_chromium, until
from tests.conftest import FakeClock

ANA = 5151
MEMORIES = ("I live in Paris", "My cat is called Miso")

# What each element in focus is, and whether it shows it has the focus (in view, outlined).
_FOCUSED = """
const e = document.activeElement, box = e.getBoundingClientRect(), style = getComputedStyle(e);
const form = e.closest('form');
return {tag: e.tagName.toLowerCase(), id: e.id, cls: e.className, text: (e.innerText || '').trim(),
        action: form ? form.getAttribute('action') : '', focusVisible: e.matches(':focus-visible'),
        outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        inView: box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight,
        described: (e.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
                     .map(i => (document.getElementById(i) || {}).textContent || '').join(' ')};
"""


@pytest.fixture
def chromium() -> Iterator[Any]:
    with started_chromium() as driver:
        yield driver


def _press(driver: Any, key: str) -> dict[str, Any]:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()
    return dict(driver.execute_script(_FOCUSED))


def _tab_to(driver: Any, wanted: Any) -> dict[str, Any]:
    from selenium.webdriver.common.keys import Keys

    for _ in range(200):
        focused = _press(driver, Keys.TAB)
        if wanted(focused):
            return focused
    raise AssertionError("never reached by Tab")


def walk_with_the_keyboard(driver: Any, launch_url: str) -> dict[str, Any]:
    """Tab through the whole page once, then correct, forget and forget everything by keys alone."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(launch_url)
    until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "li.memory")) == len(MEMORIES))
    walked: list[dict[str, Any]] = []
    for _ in range(200):
        focused = _press(driver, Keys.TAB)
        if walked and focused == walked[0]:
            break  # round the page once
        walked.append(focused)
        if focused["tag"] == "body":
            break

    # Correct "I live in Paris": Enter opens the form, the words are typed, Space saves.
    _tab_to(driver, lambda f: f["tag"] == "summary" and f["described"] == MEMORIES[0])
    _press(driver, Keys.ENTER)
    box = _tab_to(driver, lambda f: f["tag"] == "textarea")
    assert box["described"] == MEMORIES[0]
    active = driver.switch_to.active_element
    active.send_keys(Keys.CONTROL, "a")
    active.send_keys("I live in Lyon")
    _tab_to(driver, lambda f: f["tag"] == "button" and f["described"] == MEMORIES[0])
    _press(driver, Keys.SPACE)
    until(driver, lambda d: "notice=corrected" in d.current_url)
    corrected = str(driver.find_element(By.TAG_NAME, "main").text)

    # Forget "My cat is called Miso": Enter on its button.
    _tab_to(driver, lambda f: "forget" in f["cls"] and f["described"] == MEMORIES[1])
    _press(driver, Keys.ENTER)
    until(driver, lambda d: "notice=forgot" in d.current_url)
    forgot = str(driver.find_element(By.TAG_NAME, "main").text)

    # Search by keys: type, Enter.
    _tab_to(driver, lambda f: f["id"] == "q")
    driver.switch_to.active_element.send_keys("Lyon", Keys.ENTER)
    main_text_showing(driver, "1 found")

    # Forget everything: the word typed, Space on the button.
    _tab_to(driver, lambda f: f["id"] == "confirm")
    driver.switch_to.active_element.send_keys("FORGET")
    _tab_to(driver, lambda f: "danger" in f["cls"])
    _press(driver, Keys.SPACE)
    main_text_showing(driver, "Everything is erased")
    return {"walked": walked, "corrected": corrected, "forgot": forgot, "url": driver.current_url}


@needs_chromium
async def test_tab_reaches_every_action_and_enter_or_space_does_it(
    chromium: Any, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    port = free_port()
    async with served(redis_url, data_dir, clock, port=port) as web:
        person = UserRef("telegram", str(ANA), "Ana")
        for text in MEMORIES:
            assert (await web.core.commands.remember(person, text)).ok
        fragment = urlencode({"tgWebAppData": launch_data(clock, ANA), "tgWebAppVersion": "8.0"})

        done = await asyncio.to_thread(walk_with_the_keyboard, chromium, f"{web.base}/telegram#{fragment}")

    walked = done["walked"]
    actions = {f["action"].rpartition("/")[2] for f in walked if f["tag"] == "button"}
    assert {"search", "forget", "export", "forget-all"} <= actions, actions  # "Correct" opens from its summary
    assert any(f["id"] == "q" for f in walked) and any(f["id"] == "confirm" for f in walked)
    for text in MEMORIES:  # each memory's actions say which memory to a screen reader
        assert any(f["tag"] == "summary" and f["described"] == text for f in walked), walked
        assert any("forget" in f["cls"] and f["described"] == text for f in walked), walked
    hidden = [f for f in walked if f["tag"] != "body" and not (f["focusVisible"] and f["outlined"] and f["inView"])]
    assert hidden == [], hidden
    assert "Corrected." in done["corrected"] and "I live in Lyon" in done["corrected"]
    assert "Forgotten." in done["forgot"] and "Miso" not in done["forgot"]
    assert "Paris" not in done["url"] and "Miso" not in done["url"]


def _luminance(colour: str) -> float:
    hex_ = colour.lstrip("#")
    if len(hex_) == 3:
        hex_ = "".join(c * 2 for c in hex_)
    channels = [int(hex_[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two sRGB colours (#rrggbb)."""
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _palettes(css: str) -> dict[str, dict[str, str]]:
    """The stylesheet's colours by name, light (the :root's) and dark (its prefers-color-scheme: dark)."""
    light = re.search(r":root\s*{([^}]*)}", css)
    dark = re.search(r"prefers-color-scheme:\s*dark\)\s*{\s*:root\s*{([^}]*)}", css)
    assert light and dark, "the stylesheet names its colours in :root, light and dark"
    named = {"light": dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", light.group(1)))}
    named["dark"] = {**named["light"], **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", dark.group(1)))}
    return named


def _pairs(css: str) -> set[tuple[str, str]]:
    """Every (text, background) the rules set: a rule's color on its own background, else on the page's or a
    no-longer-true memory's (where any text may sit)."""
    found: set[tuple[str, str]] = set()
    for selector, body in re.findall(r"([^{}]+){([^{}]*)}", css):
        ink = re.search(r"(?<![-\w])color:\s*var\(--([\w-]+)\)", body)
        paper = re.search(r"background:\s*var\(--([\w-]+)\)", body)
        if ink is None or ":root" in selector:
            continue
        grounds = [paper.group(1)] if paper else ["paper", "old"]
        found |= {(ink.group(1), ground) for ground in grounds}
    return found


def test_every_text_colour_stands_out_from_its_background() -> None:
    css = (STATIC / "style.css").read_text(encoding="utf-8")
    pairs = _pairs(css)
    assert {("ink", "paper"), ("soft", "paper"), ("accent", "paper"), ("danger", "old")} <= pairs, pairs

    weak = [
        (scheme, ink, ground, round(contrast(colours[ink], colours[ground]), 2))
        for scheme, colours in _palettes(css).items()
        for ink, ground in sorted(pairs)
        if contrast(colours[ink], colours[ground]) < 4.5
    ]

    assert weak == []


def test_the_contrast_ratio_is_wcags() -> None:
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48  # just under AA: the test would catch it
