"""How a person gets in: Telegram's Mini App launch (the page hands its signed launch data over, a session is
opened when the signature holds, and the page carries its id from then on) and Discord's single-use link (a
button that redeems the token: a link preview that fetches the page burns nothing)."""

from __future__ import annotations

import ipaddress
import json
import logging
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler

from adapters.web.guard import account_of, open_session
from adapters.web.launch_data import read_launch_data
from adapters.web.ports import BrowserParts
from adapters.web.rendering import render
from adapters.web.texts import language
from bot.engine.model import UserRef

log = logging.getLogger(__name__)


def _asked_language(request: web.Request) -> str:
    return language(request.headers.get("Accept-Language", ""))


def entry_routes(parts: BrowserParts, base: str) -> list[web.RouteDef]:
    async def telegram_page(request: web.Request) -> web.Response:
        return render("launch.html", _asked_language(request), base)

    async def telegram_session(request: web.Request) -> web.Response:
        form = await request.post()
        init_data = str(form.get("init_data", ""))
        token = parts.telegram_token
        launch = read_launch_data(init_data, token, parts.clock) if token else None
        if launch is None:
            log.info("a Mini App launch was refused (bad signature, stale or no user)")
            return web.json_response({"ok": False}, status=403)
        response = web.json_response({"ok": True})
        session_id = await open_session(parts, response, UserRef("telegram", launch.user_id), base, framed=True)
        # The page carries its session from here (in a frame on another site, the cookie may never be sent).
        response.text = json.dumps({"ok": True, "next": f"{base}/view", "session": session_id})
        return response

    def link_page(platform: str) -> Handler:
        async def page(request: web.Request) -> web.Response:
            return render("discord.html", _asked_language(request), base, token=request.match_info["token"],
                          action=f"{base}/{platform}/session")  # fmt: skip

        return page

    def link_session(platform: str) -> Handler:
        async def session(request: web.Request) -> web.Response:
            form = await request.post()
            account_key = await parts.logins.redeem(str(form.get("token", "")))
            if account_key is None or not account_key.startswith(f"{platform}:"):
                return render("message.html", _asked_language(request), base, status=403, key="expired")
            response = web.HTTPSeeOther(f"{base}/")
            await open_session(parts, response, account_of(account_key), base)
            raise response

        return session

    routes = [
        web.get("/telegram", telegram_page),
        web.post("/telegram/session", telegram_session),
        web.get("/discord/{token}", link_page("discord")),
        web.post("/discord/session", link_session("discord")),
    ]
    if is_loopback(parts.public_url):  # the terminal chat's link: only where the page is this machine's alone
        routes += [web.get("/terminal/{token}", link_page("terminal")),
                   web.post("/terminal/session", link_session("terminal"))]  # fmt: skip
    return routes


def is_loopback(public_url: str) -> bool:
    """A public URL only this machine reaches (localhost, 127.0.0.0/8, ::1)."""
    host = (urlsplit(public_url).hostname or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
