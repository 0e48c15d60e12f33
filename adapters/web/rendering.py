"""Pages rendered on the server with Jinja2 from the package's templates (autoescaped: memory text is data)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from aiohttp import web

from adapters.web.texts import say

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")

_environment = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    enable_async=False,
)


def render(template: str, lang: str, base: str, *, status: int = 200, **values: Any) -> web.Response:
    """The page in `lang`; `base` is where the browser's routes live (links and forms point under it)."""

    def t(key: str, **more: object) -> str:
        return say(key, lang, **more)

    html = _environment.get_template(template).render(lang=lang, base=base, t=t, **values)
    return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")
