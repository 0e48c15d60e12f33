"""The memory browser as a person's browser sees it, for the tests: the core as `souvenir run` wires it with
SOUVENIR_PUBLIC_URL on loopback, its status server on a free port, and an HTTP client that keeps cookies."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import aiohttp

from adapters.web.launch_data import sign_launch_data
from bot.app import Core, open_core, open_status_server
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI

TELEGRAM_TOKEN = "123456:memory-browser-test"


@dataclass
class Served:
    core: Core
    port: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/memories"


@asynccontextmanager
async def served(
    redis_url: str, data_dir: Path, clock: FakeClock, *, port: int = 0, telegram_api_url: str | None = None,
    **overrides: object,
) -> AsyncIterator[Served]:  # fmt: skip
    """`telegram_api_url`: a fake Bot API with TELEGRAM_TOKEN, for tests that start the platforms too;
    `overrides`: more settings."""
    extra = {"telegram_api_url": telegram_api_url, **overrides} if telegram_api_url else dict(overrides)
    async with FakeOpenAI() as llm:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, llm_extraction=False, http_port=port, http_host="127.0.0.1",
            public_url=f"http://127.0.0.1:{port or 8080}", telegram_token=TELEGRAM_TOKEN,
            default_timezone="Europe/Paris", **extra,
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_status_server(core) as bound:
            assert bound is not None
            yield Served(core, bound)


def launch_data(clock: FakeClock, user_id: int, *, language: str = "en", token: str = TELEGRAM_TOKEN) -> str:
    user = json.dumps({"id": user_id, "first_name": "Ana", "language_code": language}, separators=(",", ":"))
    return sign_launch_data({"auth_date": str(int(clock.now().timestamp())), "user": user}, token)


def browser_session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))  # cookies for 127.0.0.1 too


async def telegram_login(client: aiohttp.ClientSession, served: Served, init_data: str) -> int:
    async with client.post(f"{served.base}/telegram/session", data={"init_data": init_data}) as response:
        return response.status


async def page(client: aiohttp.ClientSession, served: Served) -> tuple[int, str]:
    async with client.get(f"{served.base}/") as response:
        return response.status, await response.text()


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def session_of(html: str) -> str:
    """The session a Telegram page carries in its forms."""
    found = re.search(r'name="session" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def memory_ids(html: str) -> dict[str, str]:
    """Each memory's text on the page → its id."""
    found = re.findall(r'id="memory-([0-9a-f-]{36})">\s*<p class="text"[^>]*>([^<]*)</p>', html)
    return {unescape(text): memory_id for memory_id, text in found}
