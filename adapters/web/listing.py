"""The page's listing: the memories by kind and page (GET, or a Telegram page's POST to /view, which may ask for
the mood chart drawn into the page), and a search (a POST, so that no words go into a URL)."""

from __future__ import annotations

from aiohttp import web

from adapters.web.access import Site, changing, signed_in
from adapters.web.guard import Visitor
from adapters.web.memory_page import memories_page
from bot.engine.browser.memory_view import KINDS

_MAX_SEARCH_CHARS = 200


async def home(site: Site, request: web.Request) -> web.Response:
    guest = await signed_in(site, request)
    return await _page(site, guest, request.query.get("kind", ""), request.query.get("page", "1"),
                        request.query.get("notice", ""))  # fmt: skip


async def view(site: Site, request: web.Request) -> web.Response:
    """The page asked by a form (a Telegram page's way: its session is in the form)."""
    guest = await signed_in(site, request)
    form = await request.post()
    chart = (await site.parts.memories.mood(guest.user)).png if form.get("mood") == "1" else None
    return await _page(site, guest, str(form.get("kind", "")), str(form.get("page", "1")),
                        request.query.get("notice", ""), chart)  # fmt: skip


async def _page(
    site: Site, guest: Visitor, kind: str, number: str, notice: str, mood: bytes | None = None
) -> web.Response:
    kind = kind if kind in KINDS else ""
    parts = site.parts
    browsing = await parts.memories.browse(guest.user, kind=kind, page=int(number[:6]) if number.isdigit() else 1)
    about = await parts.memories.about(guest.user)
    return memories_page(parts, site.base, guest, browsing, about, kind=kind, notice=notice, mood=mood)


async def search(site: Site, request: web.Request) -> web.Response:
    guest, form = await changing(site, request)
    kind = form.get("kind", "")
    kind = kind if kind in KINDS else ""
    words = form.get("q", "").strip()[:_MAX_SEARCH_CHARS]
    number = form.get("page", "1")
    parts = site.parts
    browsing = await parts.memories.browse(guest.user, kind=kind, search=words,
                                           page=int(number[:6]) if number.isdigit() else 1)  # fmt: skip
    about = await parts.memories.about(guest.user)
    return memories_page(parts, site.base, guest, browsing, about, kind=kind, search=words)
