"""Who is asking: the session behind the cookie or the page, checked server-side on every request, with its
CSRF token on every change and a per-account rate limit.

The cookie holds a random session id only (HttpOnly, Secure unless the public URL is a loopback http:// one).
Discord's link opens a top-level page: its cookie is SameSite=Strict, and a Discord session is only ever taken
from it. Telegram Web (web.telegram.org) and Telegram Desktop show a Mini App in a frame on another site, where a
SameSite=Strict (or Lax) cookie is never sent and a browser that blocks third-party cookies sends none at all: a
Telegram session is carried by the page itself, its id in a hidden `session` field of every form (the page
moves by POSTs, never by a link that would need the cookie), and taken from there for Telegram accounts only.
Its cookie is still set (SameSite=None and Partitioned over https: kept for this site inside Telegram's only;
Strict without https, where a browser refuses SameSite=None), for a Mini App opened top-level, but nothing
needs it. CSRF tokens and the same-origin check on every POST stand where SameSite no longer does.

A session names an account; every operation resolves that account to its person again (so a /link made since
is followed), and a session ended by /forget all or /unlink opens nothing.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import hdrs, web

from adapters.web.ports import BrowserParts
from bot.engine.conversation.rate_limit import Admission
from bot.engine.model import UserRef

COOKIE = "souvenir_session"
CARRIED = "session"  # the form field a Telegram page carries its session in
SESSION_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class Visitor:
    """The account a live session belongs to, and the session's CSRF token."""

    user: UserRef
    csrf: str
    session_id: str

    @property
    def carried(self) -> str:
        """The session id the page carries in its forms (a Telegram session's), or "" (the cookie's alone)."""
        return self.session_id if self.user.platform == "telegram" else ""


def secure_cookies(public_url: str) -> bool:
    return urlsplit(public_url).scheme == "https"


def account_of(account_key: str) -> UserRef:
    platform, _, user_id = account_key.partition(":")
    return UserRef(platform, user_id)


def _session_cookie(value: str, base: str, max_age: int, *, secure: bool, framed: bool) -> str:
    """The Set-Cookie line (written out: Python's cookie module before 3.14 knows no Partitioned)."""
    parts = [f"{COOKIE}={value}", f"Path={base}", f"Max-Age={max_age}", "HttpOnly"]
    if max_age == 0:
        parts.append("Expires=Thu, 01 Jan 1970 00:00:00 GMT")
    if secure:
        parts.append("Secure")
    parts += ["SameSite=None", "Partitioned"] if framed and secure else ["SameSite=Strict"]
    return "; ".join(parts)


async def open_session(
    parts: BrowserParts, response: web.StreamResponse, user: UserRef, base: str, *, framed: bool = False
) -> str:
    """A new session for the account, its cookie set on `response`; its id. `framed`: the page may be shown in
    a frame on another site (Telegram Web), so the cookie may be sent there too where the browser allows it."""
    person = await parts.memories.person(user)  # with pseudonymous keys, the account as its pseudonym
    session_id, _ = await parts.sessions.open(person.account_key, person.key)
    cookie = _session_cookie(session_id, base, SESSION_SECONDS, secure=secure_cookies(parts.public_url), framed=framed)
    response.headers.add(hdrs.SET_COOKIE, cookie)
    return session_id


def drop_session_cookie(parts: BrowserParts, response: web.StreamResponse, guest: Visitor, base: str) -> None:
    """The session's cookie expired on `response`, with the attributes it was set with (a partitioned cookie is
    only replaced by a partitioned one); only a Telegram launch opens a framed session."""
    framed = guest.user.platform == "telegram"
    response.headers.add(hdrs.SET_COOKIE, _session_cookie("", base, 0, secure=secure_cookies(parts.public_url),
                                                          framed=framed))  # fmt: skip


async def visitor(request: web.Request, parts: BrowserParts) -> Visitor | None:
    """The account behind the session the form carries, else the cookie's; None without a live session.
    Rate-limited per account."""
    carried = str((await request.post()).get(CARRIED, "")) if request.method == "POST" else ""
    session_id = carried or request.cookies.get(COOKIE, "")
    found = await parts.sessions.find(session_id) if session_id else None
    if found is None:
        return None
    account_key, csrf = found
    user = account_of(account_key)
    if carried and user.platform != "telegram":  # a Discord session comes by its Strict cookie only
        return None
    if parts.limiter is not None and await parts.limiter.admit(f"web:{account_key}") is not Admission.ALLOWED:
        raise web.HTTPTooManyRequests(text="Too many requests; wait a minute.")
    return Visitor(user, csrf, session_id)


def csrf_ok(visitor: Visitor, form: dict[str, str]) -> bool:
    return hmac.compare_digest(form.get("csrf", ""), visitor.csrf)
