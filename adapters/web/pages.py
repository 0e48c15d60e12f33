"""The memory browser's own page and its changes: what I know about you, then the memories by kind and time
(with search), each one's history of corrections; correct, forget one, forget everything, export.

Changes are POSTs that carry the session's CSRF token and end in a redirect whose query names only what
happened (`?notice=forgot`): no memory text is ever put in a URL. A search is a POST for the same reason.
A Telegram page carries its session in its forms (see `guard`): it moves by POSTs to /view (a page, a kind, the
mood chart drawn into the page, the export), and a change's redirect is a 307, which sends the form (and the
session in it) on to /view.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from datetime import UTC
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aiohttp import web

from adapters.web.guard import Visitor, csrf_ok, drop_session_cookie, visitor
from adapters.web.ports import BrowserParts
from adapters.web.rendering import render
from adapters.web.texts import TEXTS, days_away, language, relative, say, say_count
from bot.engine.browser.memory_view import KINDS, SEARCH_LIMIT, MemoryBrowsing, ShownMemory
from bot.engine.browser.person_page import PersonPage
from bot.engine.ports import ErasedStore

_MEMORY_ID = "{memory_id:[0-9a-fA-F-]{36}}"
_NOTICES = {"corrected", "forgot", "none", "empty"}
_MAX_SEARCH_CHARS = 200


def _shown(memory: ShownMemory, parts: BrowserParts, lang: str) -> dict[str, Any]:
    now = parts.clock.now()
    item = memory.item
    replaced = memory.replaced_by
    return {
        "id": item.memory_id,
        "text": item.text,
        "kind": item.kind,
        "told": relative(item.created_at, now, lang),
        "told_at": item.created_at.date().isoformat(),
        "current": memory.current,
        "replaced_by": replaced.text if replaced is not None else None,
        "replaced_when": relative(memory.replaced_at, now, lang) if memory.replaced_at else "",
    }


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError):
        return ZoneInfo("UTC")


def _about(page: PersonPage, parts: BrowserParts, lang: str) -> dict[str, Any]:
    settings = page.settings
    now = parts.clock.now()
    today = now.date()
    zone = _zone(settings.timezone)
    switch = {True: say("on", lang), False: say("off", lang)}
    return {
        "dates": [
            {"what": say("your_birthday", lang) if d.own_birthday else d.what, "on": d.on.isoformat(),
             "when": days_away(d.on, today, lang)}
            for d in page.dates
        ],
        "settings": [
            ("setting_timezone", settings.timezone),
            ("setting_language", say(f"language_{settings.language}", lang)),
            ("setting_checkins", switch[settings.checkins]),
            ("setting_birthday_wishes", switch[settings.birthday_wishes]),
            ("setting_groups", switch[settings.groups]),
            ("setting_voice", switch[settings.voice_replies]),
        ],
        "why": [m.text for m in page.why],
        "why_text": page.why_text,
        "replies": [
            {"when": f"{relative(r.at, now, lang)}, {r.at.astimezone(zone):%H:%M}", "at": r.at.isoformat(),
             "memories": [m.text for m in r.memories]}
            for r in page.replies
        ],
    }  # fmt: skip


def _tallied(part: ErasedStore, lang: str) -> str:
    """A store holding several sorts of things: each sort with its count ("12 recent messages, 2 ...")."""
    return ", ".join(
        say_count(f"erased_{t.sort}_n", lang, t.count) if f"erased_{t.sort}_n" in TEXTS else f"{t.count} {t.sort}"
        for t in part.tallies
    )


def receipt(erased: Sequence[ErasedStore], lang: str, *, encrypted: bool) -> list[dict[str, Any]]:
    """What was erased from which store, as the receipt lists it: counts where the store gave them (by sort where
    its erasers told them apart); the erasure marker is what stays (said apart), and without encryption at rest
    there was no data key to destroy."""
    lines = []
    for part in erased:
        if part.store == "erasure_marker" or (part.store == "data_key" and not encrypted):
            continue
        known = f"store_{part.store}" in TEXTS
        store = say(f"store_{part.store}", lang) if known else say("store_other", lang, name=part.store)
        if not part.ok:
            lines.append({"ok": False, "text": say("receipt_failed", lang, store=store)})
            continue
        what = "erased_" + (part.store if known else "other")
        if part.tallies:
            what_text = _tallied(part, lang)
        elif part.count is not None and f"{what}_n" in TEXTS:
            what_text = say_count(f"{what}_n", lang, part.count)
        else:
            what_text = say(what, lang)
        lines.append({"ok": True, "text": say("receipt_store", lang, store=store, what=what_text)})
    return lines


def memories_page(
    parts: BrowserParts, base: str, guest: Visitor, browsing: MemoryBrowsing, about: PersonPage, *, kind: str = "",
    search: str = "", notice: str = "", status: int = 200, mood: bytes | None = None,
) -> web.Response:  # fmt: skip
    """`mood`: the chart's PNG, drawn into the page (a Telegram page asks for it: its <img> would send no session)."""
    lang = browsing.language
    chart = "data:image/png;base64," + base64.b64encode(mood).decode() if mood else ""
    return render(
        "memories.html", lang, base, status=status, csrf=guest.csrf, session=guest.carried, chart=chart,
        known=browsing.known, found=browsing.found,
        memories=[_shown(m, parts, lang) for m in browsing.memories], kinds=KINDS, kind=kind, search=search,
        number=browsing.number, pages=browsing.pages, first=(browsing.number - 1) * SEARCH_LIMIT + 1,
        notice=notice if notice in _NOTICES else "", confirm_word=say("forget_all_word", lang),
        about=_about(about, parts, lang),
    )  # fmt: skip


def page_routes(parts: BrowserParts, base: str) -> list[web.RouteDef]:
    async def signed_in(request: web.Request) -> Visitor:
        guest = await visitor(request, parts)
        if guest is None:
            lang = language(request.headers.get("Accept-Language", ""))
            raise web.HTTPUnauthorized(
                text=render("message.html", lang, base, key="signed_out").text, content_type="text/html"
            )
        return guest

    async def changing(request: web.Request) -> tuple[Visitor, dict[str, str]]:
        guest = await signed_in(request)
        form = {key: str(value) for key, value in (await request.post()).items()}
        if not csrf_ok(guest, form):
            raise web.HTTPForbidden(text="This form has expired; reload the page.")
        return guest, form

    async def home(request: web.Request) -> web.Response:
        guest = await signed_in(request)
        return await shown(guest, request.query.get("kind", ""), request.query.get("page", "1"),
                           request.query.get("notice", ""))  # fmt: skip

    async def view(request: web.Request) -> web.Response:
        """The page asked by a form (a Telegram page's way: its session is in the form)."""
        guest = await signed_in(request)
        form = await request.post()
        chart = (await parts.memories.mood(guest.user)).png if form.get("mood") == "1" else None
        return await shown(guest, str(form.get("kind", "")), str(form.get("page", "1")),
                           request.query.get("notice", ""), chart)  # fmt: skip

    async def shown(guest: Visitor, kind: str, number: str, notice: str, mood: bytes | None = None) -> web.Response:
        kind = kind if kind in KINDS else ""
        browsing = await parts.memories.browse(guest.user, kind=kind, page=int(number[:6]) if number.isdigit() else 1)
        about = await parts.memories.about(guest.user)
        return memories_page(parts, base, guest, browsing, about, kind=kind, notice=notice, mood=mood)

    def back(guest: Visitor, notice: str) -> web.HTTPException:
        """To the page, saying what happened; a Telegram page's form goes along (307) with its session."""
        if guest.carried:
            return web.HTTPTemporaryRedirect(f"{base}/view?notice={notice}")
        return web.HTTPSeeOther(f"{base}/?notice={notice}")

    async def search(request: web.Request) -> web.Response:
        guest, form = await changing(request)
        kind = form.get("kind", "")
        kind = kind if kind in KINDS else ""
        words = form.get("q", "").strip()[:_MAX_SEARCH_CHARS]
        number = form.get("page", "1")
        browsing = await parts.memories.browse(guest.user, kind=kind, search=words,
                                               page=int(number[:6]) if number.isdigit() else 1)  # fmt: skip
        about = await parts.memories.about(guest.user)
        return memories_page(parts, base, guest, browsing, about, kind=kind, search=words)

    async def correct(request: web.Request) -> web.Response:
        guest, form = await changing(request)
        text = form.get("text", "").strip()
        if not text:
            raise back(guest, "empty")
        done = await parts.memories.correct(guest.user, request.match_info["memory_id"], text)
        raise back(guest, "corrected" if done.ok else "none")

    async def forget(request: web.Request) -> web.Response:
        guest, _ = await changing(request)
        done = await parts.memories.forget_memory(guest.user, request.match_info["memory_id"].lower())
        raise back(guest, "forgot" if done.ok else "none")

    async def forget_all(request: web.Request) -> web.Response:
        guest, form = await changing(request)
        lang = await parts.memories.language(guest.user)
        if form.get("confirm", "").strip().upper() != say("forget_all_word", lang):
            return render("message.html", lang, base, status=400, key="forget_all_wrong", back=True,
                          session=guest.carried)  # fmt: skip
        result = await parts.memories.forget_everything(guest.user)
        await parts.sessions.end(guest.session_id)
        when = parts.clock.now().astimezone(UTC).strftime("%Y-%m-%d %H:%M")
        marker = any(p.store == "erasure_marker" and p.ok for p in result.erased)
        response = render("erased.html", lang, base, status=200 if result.ok else 500, result=result.text,
                          ok=result.ok, when=when, encrypted=parts.encrypted, marker=marker,
                          erased=receipt(result.erased, lang, encrypted=parts.encrypted))  # fmt: skip
        drop_session_cookie(parts, response, guest, base)
        return response

    async def mood_chart(request: web.Request) -> web.Response:
        guest = await signed_in(request)
        chart = await parts.memories.mood(guest.user)
        if chart.png is None:
            raise web.HTTPNotFound(text=chart.text)
        return web.Response(body=chart.png, content_type="image/png")

    async def export(request: web.Request) -> web.Response:
        guest = (await changing(request))[0] if request.method == "POST" else await signed_in(request)
        body = await parts.memories.export(guest.user)
        return web.Response(
            body=body,
            content_type="application/json",
            charset="utf-8",
            headers={"Content-Disposition": 'attachment; filename="souvenir-export.json"'},
        )

    return [
        web.get("/", home),
        web.post("/view", view),
        web.post("/search", search),
        web.post(f"/memories/{_MEMORY_ID}/correct", correct),
        web.post(f"/memories/{_MEMORY_ID}/forget", forget),
        web.post("/forget-all", forget_all),
        web.get("/export", export),
        web.post("/export", export),
        web.get("/mood.png", mood_chart),
    ]
