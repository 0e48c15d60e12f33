"""Forget everything: the confirmed erasure, which ends the session, and its receipt (what was erased from which
store)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import Any

from aiohttp import web

from adapters.web.access import Site, changing
from adapters.web.guard import drop_session_cookie
from adapters.web.rendering import render
from adapters.web.texts import TEXTS, say, say_count
from bot.engine.ports import ErasedStore


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


async def forget_all(site: Site, request: web.Request) -> web.Response:
    guest, form = await changing(site, request)
    parts = site.parts
    lang = await parts.memories.language(guest.user)
    if form.get("confirm", "").strip().upper() != say("forget_all_word", lang):
        return render("message.html", lang, site.base, status=400, key="forget_all_wrong", back=True,
                      session=guest.carried)  # fmt: skip
    result = await parts.memories.forget_everything(guest.user)
    await parts.sessions.end(guest.session_id)
    when = parts.clock.now().astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    marker = any(p.store == "erasure_marker" and p.ok for p in result.erased)
    response = render("erased.html", lang, site.base, status=200 if result.ok else 500, result=result.text,
                      ok=result.ok, when=when, encrypted=parts.encrypted, marker=marker,
                      erased=receipt(result.erased, lang, encrypted=parts.encrypted))  # fmt: skip
    drop_session_cookie(parts, response, guest, site.base)
    return response
