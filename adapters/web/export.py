"""The export: everything kept about the person, as a JSON download (a GET, or a Telegram page's POST, which
carries its session and CSRF token in the form)."""

from __future__ import annotations

from aiohttp import web

from adapters.web.access import Site, changing, signed_in


async def export(site: Site, request: web.Request) -> web.Response:
    guest = (await changing(site, request))[0] if request.method == "POST" else await signed_in(site, request)
    body = await site.parts.memories.export(guest.user)
    return web.Response(
        body=body,
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="souvenir-export.json"'},
    )
