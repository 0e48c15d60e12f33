"""The memory browser as an aiohttp sub-application, mounted on the status server beside /healthz."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web

from adapters.web.entry import entry_routes
from adapters.web.headers import security_headers
from adapters.web.pages import page_routes
from adapters.web.ports import BrowserParts
from adapters.web.rendering import STATIC
from bot.engine.model import UserRef

MOUNT = "/memories"


def browser_base(public_url: str) -> str:
    """Where the browser's routes live on the server: the public URL's own path, then /memories."""
    return urlsplit(public_url).path.rstrip("/") + MOUNT


def memory_browser_routes(app: web.Application, parts: BrowserParts) -> str:
    """Mount the browser on `app`; returns the path it lives under."""
    base = browser_base(parts.public_url)
    browser = web.Application(middlewares=[security_headers(parts.public_url)])
    browser.add_routes(entry_routes(parts, base))
    browser.add_routes(page_routes(parts, base))
    browser.router.add_static("/static", STATIC)
    app.add_subapp(base, browser)
    return base


def telegram_launch_url(public_url: str) -> str:
    """What Telegram's web_app button opens."""
    return public_url.rstrip("/") + MOUNT + "/telegram"


def discord_login_url(public_url: str, token: str) -> str:
    """The single-use link `/memories web` answers on Discord."""
    return public_url.rstrip("/") + MOUNT + "/discord/" + token


def login_links(parts: BrowserParts) -> Callable[[UserRef], Awaitable[str]]:
    """Makes `/memories web`'s link for an account: a fresh single-use token each time (Discord's, or the terminal
    chat's where the public URL is a loopback one)."""

    async def link(user: UserRef) -> str:
        account = (await parts.memories.person(user)).account_key  # a pseudonym's, with pseudonymous keys
        token = await parts.logins.issue(account)
        if user.platform == "terminal":
            return parts.public_url.rstrip("/") + MOUNT + "/terminal/" + token
        return discord_login_url(parts.public_url, token)

    return link
