"""The changes to one memory: correct it, forget it. Each ends in a redirect that names only what happened."""

from __future__ import annotations

from aiohttp import web

from adapters.web.access import Site, back, changing


async def correct(site: Site, request: web.Request) -> web.Response:
    guest, form = await changing(site, request)
    text = form.get("text", "").strip()
    if not text:
        raise back(site, guest, "empty")
    done = await site.parts.memories.correct(guest.user, request.match_info["memory_id"], text)
    raise back(site, guest, "corrected" if done.ok else "none")


async def forget(site: Site, request: web.Request) -> web.Response:
    guest, _ = await changing(site, request)
    done = await site.parts.memories.forget_memory(guest.user, request.match_info["memory_id"].lower())
    raise back(site, guest, "forgot" if done.ok else "none")
