"""The memory browser as Telegram Web shows a Mini App: inside a frame on https://web.telegram.org, in a real
browser (headless Chromium, driven by Selenium). The page is listed, a memory corrected, one forgotten, the
export downloaded and everything forgotten with the typed word, all inside the frame, and each change is read
back from the engine.

Why this is cross-site: Chromium resolves web.telegram.org to a small https server of the test's own (a
self-signed certificate, accepted with --ignore-certificate-errors), whose page frames the bot's page at
http://127.0.0.1:<port>. The top-level site (https, telegram.org) and the frame's (http, 127.0.0.1) differ, so
the browser neither keeps the SameSite=Strict cookie a loopback launch sets nor would send it; the test also
clears every cookie before each step and checks none was kept: the page works only if it carries its session
itself. (A second port on 127.0.0.1 would not do: ports do not make sites differ, and the cookie would be sent.)
Framing from the real Telegram origin also holds the page's own frame-ancestors to it: another site's frame of
the same page stays empty.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import ssl
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.engine.model import UserRef
from tests.adapters.web.browser import launch_data, served
from tests.adapters.web.chromium import (
    free_port,
    main_text_showing,
    memory_on_the_page,
    needs_chromium,
    started_chromium,
    until,
)
from tests.conftest import FakeClock

pytestmark = needs_chromium
ANA = UserRef("telegram", "5151", "Ana")


def _certificate(folder: Path) -> ssl.SSLContext:
    """A self-signed certificate for web.telegram.org and evil.example (the browser is told to accept it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "web.telegram.org")])
    now = dt.datetime.now(dt.UTC)
    names = x509.SubjectAlternativeName([x509.DNSName("web.telegram.org"), x509.DNSName("evil.example")])
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=1)).add_extension(names, critical=False)
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    (folder / "cert.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    return context


@asynccontextmanager
async def telegram_web(framed: str, port: int, folder: Path) -> AsyncIterator[None]:
    """The https server Chromium reaches as web.telegram.org (and evil.example): a page that frames `framed`."""

    async def client(_: web.Request) -> web.Response:
        html = f'<!doctype html><title>Telegram</title><iframe id="app" src="{framed}" width="400" height="800">'
        return web.Response(text=html, content_type="text/html")

    app = web.Application()
    app.router.add_get("/k/", client)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port, ssl_context=_certificate(folder)).start()
    try:
        yield
    finally:
        await runner.cleanup()


@contextmanager
def chromium_reaching(port: int, downloads: Path) -> Iterator[Any]:
    rules = f"MAP web.telegram.org 127.0.0.1:{port}, MAP evil.example 127.0.0.1:{port}, MAP telegram.org 127.0.0.1:9"
    with started_chromium("--ignore-certificate-errors", host_rules=rules) as driver:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        yield driver


def _no_cookie(driver: Any) -> None:
    """Whatever the browser kept is thrown away, after checking it kept no session."""
    kept = driver.execute_cdp_cmd("Network.getAllCookies", {})["cookies"]
    assert not [c for c in kept if c["name"] == "souvenir_session"], kept
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})


def _in_the_frame(driver: Any) -> None:
    from selenium.webdriver.common.by import By

    driver.switch_to.default_content()
    driver.switch_to.frame(driver.find_element(By.ID, "app"))


def open_in_the_frame(driver: Any, telegram: str) -> str:
    from selenium.webdriver.common.by import By

    driver.get(telegram)
    _in_the_frame(driver)
    until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "li.memory"))
    assert "tgWebAppData" not in driver.execute_script("return location.href")  # the launch data left
    return main_text_showing(driver, "My cat is called Miso")


def correct_in_the_frame(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    _no_cookie(driver)
    paris = memory_on_the_page(driver, "I live in Paris")
    paris.find_element(By.TAG_NAME, "summary").click()
    box = paris.find_element(By.TAG_NAME, "textarea")
    box.clear()
    box.send_keys("I live in Lyon")
    paris.find_element(By.CSS_SELECTOR, "form button").click()
    until(driver, lambda d: "notice=corrected" in d.execute_script("return location.href"))
    return main_text_showing(driver, "Corrected.")


def forget_in_the_frame(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    _no_cookie(driver)
    memory_on_the_page(driver, "My cat is called Miso").find_element(By.CSS_SELECTOR, "button.forget").click()
    until(driver, lambda d: "notice=forgot" in d.execute_script("return location.href"))
    return main_text_showing(driver, "Forgotten.")


def export_in_the_frame(driver: Any, downloads: Path) -> str:
    from selenium.webdriver.common.by import By

    _no_cookie(driver)
    driver.find_element(By.CSS_SELECTOR, "form.export button").click()
    export = downloads / "souvenir-export.json"
    until(driver, lambda _: export.exists() and export.stat().st_size > 0)
    return export.read_text(encoding="utf-8")


def erase_in_the_frame(driver: Any) -> tuple[str, str]:
    """A wrong word first (and back to the page, its session carried), then the right one."""
    from selenium.webdriver.common.by import By

    _no_cookie(driver)
    driver.find_element(By.ID, "confirm").send_keys("please")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    wrong = main_text_showing(driver, "the confirmation did not match")
    _no_cookie(driver)
    driver.find_element(By.CSS_SELECTOR, "main form button").click()
    until(driver, lambda d: d.find_elements(By.ID, "confirm"))
    _no_cookie(driver)
    driver.find_element(By.ID, "confirm").send_keys("FORGET")
    driver.find_element(By.CSS_SELECTOR, "button.danger").click()
    erased = main_text_showing(driver, "Everything is erased")
    _no_cookie(driver)
    return wrong, erased


def framed_by_another_site(driver: Any, evil: str) -> int:
    from selenium.webdriver.common.by import By

    driver.get(evil)
    _in_the_frame(driver)
    return len(driver.find_elements(By.ID, "launch-status"))


async def test_telegram_webs_frame_lists_corrects_forgets_exports_and_erases_with_no_cookie(
    redis_url: str, data_dir: Path, clock: FakeClock, tmp_path: Path
) -> None:
    port, telegram_port = free_port(), free_port()
    async with served(redis_url, data_dir, clock, port=port) as bot:
        assert bot.core.browser is not None
        view = bot.core.browser.memories
        assert (await bot.core.commands.remember(ANA, "I live in Paris")).ok
        assert (await bot.core.commands.remember(ANA, "My cat is called Miso")).ok

        async def kept() -> dict[str, bool]:
            return {m.item.text: m.current for m in (await view.browse(ANA)).memories}

        fragment = urlencode({"tgWebAppData": launch_data(clock, 5151), "tgWebAppVersion": "8.0"})
        async with telegram_web(f"{bot.base}/telegram#{fragment}", telegram_port, tmp_path):
            with chromium_reaching(telegram_port, tmp_path) as driver:
                listed = await asyncio.to_thread(open_in_the_frame, driver, "https://web.telegram.org/k/")
                assert "I live in Paris" in listed and "My cat is called Miso" in listed

                corrected = await asyncio.to_thread(correct_in_the_frame, driver)
                assert "Corrected." in corrected and "I live in Lyon" in corrected
                assert await kept() == {"I live in Lyon": True, "I live in Paris": False, "My cat is called Miso": True}

                forgot = await asyncio.to_thread(forget_in_the_frame, driver)
                assert "Forgotten." in forgot and "Miso" not in forgot
                assert await kept() == {"I live in Lyon": True, "I live in Paris": False}

                exported = json.dumps(json.loads(await asyncio.to_thread(export_in_the_frame, driver, tmp_path)))
                assert "I live in Lyon" in exported and "Miso" not in exported

                wrong, erased = await asyncio.to_thread(erase_in_the_frame, driver)
                assert "the confirmation did not match" in wrong and "Everything is erased" in erased
                assert await kept() == {}

                # Another site's frame of the same page stays empty (frame-ancestors: Telegram's origins only).
                assert await asyncio.to_thread(framed_by_another_site, driver, "https://evil.example/k/") == 0
