"""What the HTTP port serves: /healthz, /metrics and the memory browser (each only when configured)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import redis.asyncio as aioredis

from bot.app.core import Core
from bot.config import Settings
from bot.engine.browser.memory_view import MemoryView
from bot.engine.metrics import Metrics, NoMetrics
from bot.engine.model import UserRef
from bot.engine.ports import Clock
from bot.health import Readiness
from bot.http_status import MetricsPage, serve_status
from memory.redis.rate_limit import RedisRateLimiter
from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions

if TYPE_CHECKING:
    from adapters.web import BrowserParts


def open_metrics(settings: Settings) -> tuple[Metrics, MetricsPage | None]:
    if settings.http_port is None:
        return NoMetrics(), None
    from bot.prometheus_metrics import PrometheusMetrics

    exported = PrometheusMetrics()
    return exported, MetricsPage(exported.render, exported.content_type)


def readiness_for(settings: Settings, client: aioredis.Redis) -> Readiness:
    """What /healthz reports: Redis from the start, each configured platform once it runs."""
    readiness = Readiness()
    readiness.watch("redis", client.ping)
    names = {"telegram": settings.telegram_token, "discord": settings.discord_token}
    for platform in (name for name, token in names.items() if token is not None):
        readiness.waiting(platform)
    return readiness


def memory_browser(
    settings: Settings, view: MemoryView, sessions: RedisWebSessions, client: aioredis.Redis, clock: Clock
) -> BrowserParts | None:
    """The memory browser's parts when SOUVENIR_PUBLIC_URL is set (its modules imported only then)."""
    if settings.public_url is None:
        return None
    from adapters.web import BrowserParts

    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    logins = RedisLoginTokens(client, clock)
    limiter = RedisRateLimiter(client, clock, per_minute=60)  # pages and changes per account and minute
    encrypted = settings.encryption_key is not None
    return BrowserParts(settings.public_url, view, sessions, logins, clock, token, limiter, encrypted)


def telegram_browser_url(core: Core) -> str | None:
    """The memory browser's Mini App address for Telegram's button (None: it is off)."""
    if core.browser is None:
        return None
    from adapters.web.app import telegram_launch_url

    return telegram_launch_url(core.browser.public_url)


def discord_browser_link(core: Core) -> Callable[[UserRef], Awaitable[str]] | None:
    """What makes Discord's single-use link to the memory browser (None: it is off)."""
    if core.browser is None:
        return None
    from adapters.web.app import login_links

    return login_links(core.browser)


@asynccontextmanager
async def open_status_server(core: Core) -> AsyncIterator[int | None]:
    """/healthz and /metrics on SOUVENIR_HTTP_PORT for as long as the core runs; yields the bound port."""
    port = core.settings.http_port
    if port is None:
        yield None
        return
    mount = None
    if core.browser is not None:  # the memory browser beside /healthz
        from adapters.web import memory_browser_routes

        mount = functools.partial(memory_browser_routes, parts=core.browser)
    async with serve_status(
        core.readiness, core.metrics_page, host=core.settings.http_host, port=port, mount=mount
    ) as bound:
        yield bound
