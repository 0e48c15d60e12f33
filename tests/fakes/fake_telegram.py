"""A loopback fake of the Telegram Bot API, enough to drive the real python-telegram-bot.

`async with FakeTelegram() as telegram:` then point the bot at `telegram.api_root` (it serves
`/bot<token>/<method>` and `/file/bot<token>/<path>`). Tests push updates (`push_text`, `push_command`,
`push_callback`, `redeliver`), script failures (`fail_next`, `block_chat`), and read what the bot did
(`calls`, `sent`, `wait_for`). Bodies are accepted as JSON, urlencoded or multipart forms whose values
are JSON-encoded (what PTB sends), like the real server.
"""

from __future__ import annotations

import asyncio
from types import TracebackType

from aiohttp import web

from tests.fakes.fake_telegram_methods import TelegramMethods
from tests.fakes.fake_telegram_wire import ApiCall, Failure, JsonObject, blocked, error_response, public, read_params
from tests.fakes.loopback import serve_on_loopback


class FakeTelegram(TelegramMethods):
    def __init__(
        self,
        *,
        token: str = "123456:TEST-token",
        bot_username: str = "souvenir_test_bot",
        bot_name: str = "Souvenir",
        host: str = "127.0.0.1",
    ) -> None:
        super().__init__(token=token, bot_username=bot_username, bot_name=bot_name)
        self._host = host
        self._port = 0
        self._runner: web.AppRunner | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def api_root(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._closing.clear()
        self._runner, self._port = await serve_on_loopback(app, self._host)

    async def stop(self) -> None:
        self._closing.set()  # releases held getUpdates at once
        async with self._changed:
            self._changed.notify_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    # -- serving the API -------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return error_response(Failure(401, "Unauthorized"))
        method = request.match_info["method"]
        params, files = await read_params(request)
        call = ApiCall(method, params, asyncio.get_running_loop().time(), files)
        self.calls.append(call)
        async with self._changed:  # a held long poll is already something to wait for
            self._changed.notify_all()
        try:
            return await self._answer(method.lower(), params, files)
        finally:
            async with self._changed:
                self._changed.notify_all()

    async def _answer(self, method: str, params: JsonObject, files: dict[str, tuple[str, bytes]]) -> web.Response:
        for index, (failing, failure) in enumerate(self._failures):
            if failing.lower() == method:
                del self._failures[index]
                return error_response(failure)
        chat_id = params.get("chat_id")
        sends = ("sendmessage", "senddocument", "sendphoto", "sendvoice", "sendchataction")
        if method in sends and chat_id in self._blocked_chats:
            return error_response(blocked())
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return error_response(Failure(404, "Not Found"))
        result = await handler(params, files)
        return web.json_response({"ok": True, "result": public(result)})

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=401)
        path = request.match_info["path"]
        file_id = path.removeprefix("voice/").removesuffix(".oga")
        if file_id not in self.files:
            return web.Response(status=404)
        self.downloads.append(path)
        async with self._changed:
            self._changed.notify_all()
        return web.Response(body=self.files[file_id], content_type="application/octet-stream")
