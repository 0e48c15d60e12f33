"""Headless Chromium for the memory page's real-browser tests: Debian's `chromium` and `chromium-driver`
(skipped, saying why, where they are not installed), a phone-sized window, no network beyond loopback."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)
WAIT_S = 20
# No network in tests: Telegram's script is refused at once (the page does not need it).
NO_TELEGRAM = "MAP telegram.org 127.0.0.1:9"


@contextmanager
def started_chromium(*arguments: str, host_rules: str = NO_TELEGRAM) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=412,915",
                     f"--host-resolver-rules={host_rules}", *arguments):  # fmt: skip
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(WAIT_S)
    try:
        yield driver
    finally:
        driver.quit()


def until(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT_S).until(condition)


def main_text_showing(driver: Any, words: str) -> str:
    """The page's `main` text once it shows `words`: a form's answer arrives as a new page, and reading the old
    one while it is replaced raises a stale element, so wait for the new page rather than race it."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def shown(d: Any) -> str | bool:
        try:
            text = str(d.find_element(By.TAG_NAME, "main").text)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
        return text if words in text else False

    return str(until(driver, shown))


def memory_on_the_page(driver: Any, text: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.XPATH, f"//li[contains(@class,'memory')][p[@class='text'][.='{text}']]")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
