"""Who is asking: the session behind the cookie, checked server-side on every request, with its CSRF token on
every change and a per-account rate limit.

The cookie holds a random session id only (HttpOnly, SameSite=Strict, Secure unless the public URL is a
loopback http:// one). A session names an account; every operation resolves that account to its person again
(so a /link made since is followed), and a session ended by /forget all or /unlink opens nothing.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web

from adapters.web.ports import BrowserParts
from bot.engine.conversation.rate_limit import Admission
from bot.engine.model import UserRef

COOKIE = "souvenir_session"


@dataclass(frozen=True, slots=True)
class Visitor:
    """The account a live session belongs to, and the session's CSRF token."""

    user: UserRef
    csrf: str
    session_id: str


def secure_cookies(public_url: str) -> bool:
    return urlsplit(public_url).scheme == "https"


def account_of(account_key: str) -> UserRef:
    platform, _, user_id = account_key.partition(":")
    return UserRef(platform, user_id)


async def open_session(parts: BrowserParts, response: web.StreamResponse, user: UserRef, base: str) -> None:
    """A new session for the account, its cookie set on `response`."""
    person = await parts.memories.person(user)  # with pseudonymous keys, the account as its pseudonym
    session_id, _ = await parts.sessions.open(person.account_key, person.key)
    response.set_cookie(
        COOKIE,
        session_id,
        path=base,
        httponly=True,
        secure=secure_cookies(parts.public_url),
        samesite="Strict",
        max_age=3600,
    )


async def visitor(request: web.Request, parts: BrowserParts) -> Visitor | None:
    """The account behind the request's cookie; None without a live session. Rate-limited per account."""
    session_id = request.cookies.get(COOKIE, "")
    found = await parts.sessions.find(session_id) if session_id else None
    if found is None:
        return None
    account_key, csrf = found
    user = account_of(account_key)
    if parts.limiter is not None and await parts.limiter.admit(f"web:{account_key}") is not Admission.ALLOWED:
        raise web.HTTPTooManyRequests(text="Too many requests; wait a minute.")
    return Visitor(user, csrf, session_id)


def csrf_ok(visitor: Visitor, form: dict[str, str]) -> bool:
    return hmac.compare_digest(form.get("csrf", ""), visitor.csrf)
