"""The memory browser's page, rendered: what I know about you, then the memories by kind and time (with search),
each one's history of corrections."""

from __future__ import annotations

import base64
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from aiohttp import web

from adapters.web.guard import Visitor
from adapters.web.ports import BrowserParts
from adapters.web.rendering import render
from adapters.web.texts import days_away, relative, say
from adapters.web.timeline import history
from bot.engine.browser.memory_view import KINDS, SEARCH_LIMIT, MemoryBrowsing, ShownMemory
from bot.engine.browser.person_page import PersonPage

_NOTICES = {"corrected", "forgot", "none", "empty"}


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
        "history": history(memory, now, lang),
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
