"""What every page handler shares: the browser's parts and where it is served (`Site`), the session check, the
check a change also passes (its CSRF token), and the redirect a change ends in."""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from adapters.web.guard import Visitor, csrf_ok, visitor
from adapters.web.ports import BrowserParts
from adapters.web.rendering import render
from adapters.web.texts import language


@dataclass(frozen=True)
class Site:
    """The page handlers' shared dependencies: the browser's parts and the path its routes live under."""

    parts: BrowserParts
    base: str


async def signed_in(site: Site, request: web.Request) -> Visitor:
    guest = await visitor(request, site.parts)
    if guest is None:
        lang = language(request.headers.get("Accept-Language", ""))
        raise web.HTTPUnauthorized(
            text=render("message.html", lang, site.base, key="signed_out").text, content_type="text/html"
        )
    return guest


async def changing(site: Site, request: web.Request) -> tuple[Visitor, dict[str, str]]:
    guest = await signed_in(site, request)
    form = {key: str(value) for key, value in (await request.post()).items()}
    if not csrf_ok(guest, form):
        raise web.HTTPForbidden(text="This form has expired; reload the page.")
    return guest, form


def back(site: Site, guest: Visitor, notice: str) -> web.HTTPException:
    """To the page, saying what happened; a Telegram page's form goes along (307) with its session."""
    if guest.carried:
        return web.HTTPTemporaryRedirect(f"{site.base}/view?notice={notice}")
    return web.HTTPSeeOther(f"{site.base}/?notice={notice}")
