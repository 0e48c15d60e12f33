"""The memory browser's own page and its changes: what I know about you, then the memories by kind and time
(with search), each one's history of corrections; correct, forget one, forget everything, export.

Changes are POSTs that carry the session's CSRF token and end in a redirect whose query names only what
happened (`?notice=forgot`): no memory text is ever put in a URL. A search is a POST for the same reason.
A Telegram page carries its session in its forms (see `guard`): it moves by POSTs to /view (a page, a kind, the
mood chart drawn into the page, the export), and a change's redirect is a 307, which sends the form (and the
session in it) on to /view.

This module only names the routes; each handler lives in a small module beside it: `listing` (the page and
search), `changes` (correct, forget), `erasure` (forget everything and its receipt), `export`, `mood_chart`; they
share `access` (the session and CSRF checks, the redirect) and render the page with `memory_page`.
"""

from __future__ import annotations

from functools import partial

from aiohttp import web

from adapters.web.access import Site
from adapters.web.changes import correct, forget
from adapters.web.erasure import forget_all, receipt
from adapters.web.export import export
from adapters.web.listing import home, search, view
from adapters.web.memory_page import memories_page
from adapters.web.mood_chart import mood_chart
from adapters.web.ports import BrowserParts

__all__ = ["memories_page", "page_routes", "receipt"]

_MEMORY_ID = "{memory_id:[0-9a-fA-F-]{36}}"


def page_routes(parts: BrowserParts, base: str) -> list[web.RouteDef]:
    """The page's routes; each handler is given the browser's parts and where it is served (`access.Site`)."""
    site = Site(parts, base)
    return [
        web.get("/", partial(home, site)),
        web.post("/view", partial(view, site)),
        web.post("/search", partial(search, site)),
        web.post(f"/memories/{_MEMORY_ID}/correct", partial(correct, site)),
        web.post(f"/memories/{_MEMORY_ID}/forget", partial(forget, site)),
        web.post("/forget-all", partial(forget_all, site)),
        web.get("/export", partial(export, site)),
        web.post("/export", partial(export, site)),
        web.get("/mood.png", partial(mood_chart, site)),
    ]
