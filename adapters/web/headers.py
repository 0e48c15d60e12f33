"""The headers every memory browser response carries: a strict Content-Security-Policy (no inline script, no
third-party origin but Telegram's `telegram-web-app.js`), nothing cached, no referrer to other sites, no
sniffing; and a POST from another origin is refused whatever it carries (beside the CSRF token and SameSite)."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

# Telegram's script for Mini Apps, the one third-party script a page loads (launch.html): named whole, so no other
# script of telegram.org may run either.
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
# The Telegram clients that show a Mini App in a frame (Telegram Web's K and A versions, and their older own
# addresses); no other site may frame the page (clickjacking).
TELEGRAM_FRAMERS = ("https://web.telegram.org", "https://webk.telegram.org", "https://webz.telegram.org")
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self' " + TELEGRAM_SCRIPT,
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'self' " + " ".join(TELEGRAM_FRAMERS),
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Cache-Control": "no-store",
    "Pragma": "no-cache",
    "Referrer-Policy": "same-origin",  # no referrer to other sites; "no-referrer" would make Origin "null"
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def security_headers(public_url: str) -> Middleware:
    """The middleware for a browser served at `public_url`."""
    own_origin = origin_of(public_url)

    @web.middleware
    async def secured(request: web.Request, handler: Handler) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if request.method == "POST" and origin is not None and origin.lower() != own_origin:
            raise web.HTTPForbidden(text="This request came from another site.", headers=SECURITY_HEADERS)
        return await _with_headers(request, handler)

    return secured


async def _with_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:  # redirects and errors carry them too
        exc.headers.update(SECURITY_HEADERS)
        raise
    response.headers.update(SECURITY_HEADERS)
    return response
