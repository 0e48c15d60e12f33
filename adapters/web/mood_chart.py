"""The mood chart as a PNG of its own (the page's <img>; a Telegram page has it drawn into the page instead)."""

from __future__ import annotations

from aiohttp import web

from adapters.web.access import Site, signed_in


async def mood_chart(site: Site, request: web.Request) -> web.Response:
    guest = await signed_in(site, request)
    chart = await site.parts.memories.mood(guest.user)
    if chart.png is None:
        raise web.HTTPNotFound(text=chart.text)
    return web.Response(body=chart.png, content_type="image/png")
