"""A loopback fake of the Telegram Bot API, enough to drive the real python-telegram-bot.

`async with FakeTelegram() as telegram:` then point the bot at `telegram.api_root` (it serves
`/bot<token>/<method>` and `/file/bot<token>/<path>`). Tests push updates (`push_text`, `push_command`,
`push_callback`, `redeliver`), script failures (`fail_next`, `block_chat`), and read what the bot did
(`calls`, `sent`, `wait_for`). Bodies are accepted as JSON, urlencoded or multipart forms whose values
are JSON-encoded (what PTB sends), like the real server.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from aiohttp import web

from tests.fakes.loopback import serve_on_loopback

JsonObject = dict[str, Any]

# Parameters Telegram treats as plain strings: never JSON-decode them ("123" must stay a string).
_STRING_PARAMETERS = {
    "text", "caption", "callback_query_id", "secret_token", "url", "language_code", "action",
    "parse_mode", "inline_message_id", "description", "short_description", "name",
}  # fmt: skip
_BLOCKED = "Forbidden: bot was blocked by the user"


@dataclass(frozen=True, slots=True)
class ApiCall:
    method: str
    params: JsonObject
    at: float  # loop time when the request arrived
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # part name -> (filename, content)


@dataclass(frozen=True, slots=True)
class Failure:
    status: int
    description: str
    retry_after: int | None = None


def too_many_requests(retry_after: int = 1) -> Failure:
    return Failure(429, f"Too Many Requests: retry after {retry_after}", retry_after)


def blocked() -> Failure:
    return Failure(403, _BLOCKED)


class FakeTelegram:
    def __init__(
        self,
        *,
        token: str = "123456:TEST-token",
        bot_username: str = "souvenir_test_bot",
        bot_name: str = "Souvenir",
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":")[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.calls: list[ApiCall] = []
        self.commands: dict[tuple[str, str | None], list[JsonObject]] = {}  # (scope type, language) -> menu
        self.profile_photos: list[bytes] = []  # images the bot set as its profile photo (setMyProfilePhoto)
        self.webhook: JsonObject | None = None
        self._host = host
        self._port = 0
        self._runner: web.AppRunner | None = None
        self._updates: list[JsonObject] = []  # pending: not yet acknowledged by an offset
        self._redeliveries: list[JsonObject] = []  # sent once more whatever the offset says
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._callback_ids = itertools.count(1)
        self._bot_messages: dict[tuple[int, int], JsonObject] = {}
        self._failures: deque[tuple[str, Failure]] = deque()
        self._blocked_chats: set[int] = set()
        self._changed = asyncio.Condition()
        self._closing = asyncio.Event()
        self.files: dict[str, bytes] = {}  # file_id -> content: what getFile and file downloads serve
        self.downloads: list[str] = []  # file paths the bot downloaded

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

    # -- building updates ----------------------------------------------------------------------

    def user(self, user_id: int, first_name: str = "Ana", language_code: str | None = "en") -> JsonObject:
        user: JsonObject = {"id": user_id, "is_bot": False, "first_name": first_name}
        if language_code:
            user["language_code"] = language_code
        return user

    def bot_user(self) -> JsonObject:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_name, "username": self.bot_username}

    def user_message(
        self,
        user_id: int,
        text: str,
        *,
        chat_id: int | None = None,
        chat_type: str = "private",
        first_name: str = "Ana",
        language_code: str | None = "en",
        entities: list[JsonObject] | None = None,
        reply_to: JsonObject | None = None,
        message_id: int | None = None,
    ) -> JsonObject:
        chat: JsonObject = {"id": chat_id if chat_id is not None else user_id, "type": chat_type}
        if chat_type == "private":
            chat["first_name"] = first_name
        else:
            chat["title"] = "A group"
        message: JsonObject = {
            "message_id": message_id if message_id is not None else next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": self.user(user_id, first_name, language_code),
            "text": text,
        }
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return message

    async def push_update(self, update: JsonObject) -> JsonObject:
        """Queue an update (an `update_id` is given unless present) for the next getUpdates."""
        update = {"update_id": next(self._update_ids), **update}
        async with self._changed:
            self._updates.append(update)
            self._changed.notify_all()
        return update

    async def push_text(self, user_id: int, text: str, **message: Any) -> JsonObject:
        return await self.push_update({"message": self.user_message(user_id, text, **message)})

    async def push_command(self, user_id: int, command: str, argument: str = "", **message: Any) -> JsonObject:
        """A "/command argument" message carrying the bot_command entity real clients add."""
        word = command if command.startswith("/") else f"/{command}"
        text = f"{word} {argument}".strip()
        entity = {"type": "bot_command", "offset": 0, "length": len(word.encode("utf-16-le")) // 2}
        return await self.push_text(user_id, text, entities=[entity], **message)

    async def push_photo(self, user_id: int, caption: str, **message: Any) -> JsonObject:
        """A photo the person sends, with a caption."""
        sent = self.user_message(user_id, "", **message)
        del sent["text"]
        sent["caption"] = caption
        sent["photo"] = [{"file_id": "their-photo", "file_unique_id": "their-photo-u", "width": 90, "height": 90}]
        return await self.push_update({"message": sent})

    async def push_callback(self, user_id: int, data: str, message: JsonObject, **user: Any) -> JsonObject:
        """A press on an inline button of `message` (a message the bot sent, as recorded in `sent`)."""
        query = {
            "id": str(next(self._callback_ids)),
            "from": self.user(user_id, **user),
            "chat_instance": f"instance-{message['chat']['id']}",
            "data": data,
            "message": _public(self._bot_messages.get((message["chat"]["id"], message["message_id"]), message)),
        }
        return await self.push_update({"callback_query": query})

    async def push_voice(
        self,
        user_id: int,
        audio: bytes,
        *,
        duration: int = 3,
        kind: str = "voice",
        mime_type: str = "audio/ogg",
        file_name: str | None = None,
        file_size: int | None = None,
        **message: Any,
    ) -> JsonObject:
        """A voice note (`kind="voice"`) or audio file (`"audio"`) the person sent; getFile serves `audio`.
        `file_size` is what Telegram reports (defaults to the real size)."""
        built = self.user_message(user_id, "", **message)
        del built["text"]
        file_id = f"voice-file-{built['message_id']}"
        self.files[file_id] = audio
        media: JsonObject = {
            "file_id": file_id, "file_unique_id": f"u{file_id}", "duration": duration, "mime_type": mime_type,
            "file_size": len(audio) if file_size is None else file_size,
        }  # fmt: skip
        if file_name is not None:
            media["file_name"] = file_name
        built[kind] = media
        return await self.push_update({"message": built})

    async def redeliver(self, update: JsonObject) -> None:
        """Deliver an update again, same update_id, as Telegram does when an acknowledgment was lost."""
        async with self._changed:
            self._redeliveries.append(update)
            self._changed.notify_all()

    # -- scripting -----------------------------------------------------------------------------

    def fail_next(self, method: str, *failures: Failure) -> None:
        """The next calls of `method` fail with these, in order."""
        self._failures.extend((method, failure) for failure in failures)

    def block_chat(self, chat_id: int) -> None:
        """The person blocked the bot: every send to their chat gets a 403."""
        self._blocked_chats.add(chat_id)

    # -- reading what the bot did --------------------------------------------------------------

    def calls_of(self, method: str) -> list[ApiCall]:
        return [call for call in self.calls if call.method.lower() == method.lower()]

    def sent(self, chat_id: int | None = None) -> list[JsonObject]:
        """Messages the bot sent (text and documents), in order, as they are now (after edits)."""
        return [message for (chat, _), message in self._bot_messages.items() if chat_id is None or chat == chat_id]

    def texts(self, chat_id: int | None = None) -> list[str]:
        return [str(message.get("text") or message.get("caption") or "") for message in self.sent(chat_id)]

    async def wait_for(self, condition: Callable[[], bool], within: float = 5.0) -> None:
        """Wait until `condition()` holds after some API call; TimeoutError says what never happened."""
        async with asyncio.timeout(within):
            async with self._changed:
                await self._changed.wait_for(condition)

    # -- the API -------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(Failure(401, "Unauthorized"))
        method = request.match_info["method"]
        params, files = await _read_params(request)
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
                return _error(failure)
        chat_id = params.get("chat_id")
        sends = ("sendmessage", "senddocument", "sendphoto", "sendvoice", "sendchataction")
        if method in sends and chat_id in self._blocked_chats:
            return _error(blocked())
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            return _error(Failure(404, "Not Found"))
        result = await handler(params, files)
        return web.json_response({"ok": True, "result": _public(result)})

    async def _api_getme(self, params: JsonObject, files: Any) -> JsonObject:
        return {
            **self.bot_user(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    async def _api_setmyprofilephoto(self, params: JsonObject, files: dict[str, tuple[str, bytes]]) -> bool:
        photo = params["photo"]
        attached = str(photo.get("photo", "")).removeprefix("attach://") if isinstance(photo, dict) else ""
        self.profile_photos.append(files[attached][1] if attached in files else b"")
        return True

    async def _api_deletewebhook(self, params: JsonObject, files: Any) -> bool:
        if params.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = None
        return True

    async def _api_setwebhook(self, params: JsonObject, files: Any) -> bool:
        self.webhook = params
        return True

    async def _api_getupdates(self, params: JsonObject, files: Any) -> list[JsonObject]:
        offset = int(params.get("offset") or 0)
        limit = int(params.get("limit") or 100)
        timeout = float(params.get("timeout") or 0)

        def ready() -> bool:
            return (
                self._closing.is_set()
                or bool(self._redeliveries)
                or any(u["update_id"] >= offset for u in self._updates)
            )

        async with self._changed:
            # An offset acknowledges every update before it: those are never sent again.
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if timeout > 0 and not ready():
                try:
                    async with asyncio.timeout(timeout):
                        await self._changed.wait_for(ready)
                except TimeoutError:
                    pass
            again, self._redeliveries = self._redeliveries, []
            return (again + [u for u in self._updates if u["update_id"] >= offset])[:limit]

    async def _api_sendmessage(self, params: JsonObject, files: Any) -> JsonObject:
        message = self._new_bot_message(params)
        message["text"] = params["text"]
        return message

    async def _api_senddocument(self, params: JsonObject, files: dict[str, tuple[str, bytes]]) -> JsonObject:
        filename, content = files.get("document", ("document", b""))
        message = self._new_bot_message(params)
        message["document"] = {
            "file_id": f"file-{message['message_id']}",
            "file_unique_id": f"unique-{message['message_id']}",
            "file_name": filename,
            "mime_type": "application/json",
            "file_size": len(content),
        }
        message["caption"] = params.get("caption", "")
        message["_content"] = content  # not Telegram's: lets tests read the upload
        return message

    async def _api_sendphoto(self, params: JsonObject, files: dict[str, tuple[str, bytes]]) -> JsonObject:
        filename, content = files.get("photo", ("photo", b""))
        message = self._new_bot_message(params)
        size = {"file_unique_id": f"unique-{message['message_id']}", "width": 1000, "height": 520}
        message["photo"] = [{"file_id": f"photo-{message['message_id']}", **size, "file_size": len(content)}]
        message["caption"] = params.get("caption", "")
        message["_content"] = content  # not Telegram's: lets tests read the upload
        message["_file_name"] = filename
        return message

    async def _api_getfile(self, params: JsonObject, files: Any) -> JsonObject:
        file_id = str(params["file_id"])
        content = self.files[file_id]
        return {"file_id": file_id, "file_unique_id": f"u{file_id}", "file_size": len(content),
                "file_path": f"voice/{file_id}.oga"}  # fmt: skip

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

    async def _api_sendvoice(self, params: JsonObject, files: dict[str, tuple[str, bytes]]) -> JsonObject:
        filename, content = files.get("voice", ("voice", b""))
        message = self._new_bot_message(params)
        message["voice"] = {
            "file_id": f"voice-{message['message_id']}", "file_unique_id": f"unique-{message['message_id']}",
            "duration": int(params.get("duration") or 0), "mime_type": "audio/ogg", "file_size": len(content),
        }  # fmt: skip
        if params.get("caption"):
            message["caption"] = params["caption"]
        message["_content"] = content  # not Telegram's: lets tests read the upload
        message["_file_name"] = filename
        return message

    async def _api_sendchataction(self, params: JsonObject, files: Any) -> bool:
        return True

    async def _api_setmycommands(self, params: JsonObject, files: Any) -> bool:
        scope = (params.get("scope") or {"type": "default"})["type"]
        self.commands[(scope, params.get("language_code") or None)] = params["commands"]
        return True

    async def _api_getmycommands(self, params: JsonObject, files: Any) -> list[JsonObject]:
        scope = (params.get("scope") or {"type": "default"})["type"]
        return self.commands.get((scope, params.get("language_code") or None), [])

    async def _api_answercallbackquery(self, params: JsonObject, files: Any) -> bool:
        return True

    async def _api_editmessagetext(self, params: JsonObject, files: Any) -> JsonObject:
        key = (params["chat_id"], params["message_id"])
        message = self._bot_messages[key]
        message["text"] = params["text"]
        message["edit_date"] = int(time.time())
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        else:
            message.pop("reply_markup", None)
        return message

    async def _api_close(self, params: JsonObject, files: Any) -> bool:
        return True

    async def _api_logout(self, params: JsonObject, files: Any) -> bool:
        return True

    def _new_bot_message(self, params: JsonObject) -> JsonObject:
        chat_id = int(params["chat_id"])
        chat: JsonObject = {"id": chat_id, "type": "private" if chat_id > 0 else "group"}
        chat["first_name" if chat_id > 0 else "title"] = "Ana" if chat_id > 0 else "A group"
        message: JsonObject = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat,
            "from": self.bot_user(),
        }
        reply = params.get("reply_parameters")
        if isinstance(reply, dict) and "message_id" in reply:
            message["_reply_to_message_id"] = reply["message_id"]  # not Telegram's: for assertions
        if params.get("message_thread_id") is not None:
            message["message_thread_id"] = params["message_thread_id"]
        if params.get("reply_markup"):
            message["reply_markup"] = params["reply_markup"]
        self._bot_messages[(chat_id, message["message_id"])] = message
        return message


async def _read_params(request: web.Request) -> tuple[JsonObject, dict[str, tuple[str, bytes]]]:
    if request.content_type == "application/json":
        body = await request.json()
        return (body if isinstance(body, dict) else {}), {}
    params: JsonObject = {}
    files: dict[str, tuple[str, bytes]] = {}
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = (value.filename, value.file.read())
        elif name in _STRING_PARAMETERS:
            params[name] = value
        else:
            params[name] = _decoded(str(value))
    for name, value in request.query.items():
        params.setdefault(name, value if name in _STRING_PARAMETERS else _decoded(value))
    return params, files


def _public(result: Any) -> Any:
    """What Telegram would answer: without the fake's own bookkeeping keys (those start with "_")."""
    if isinstance(result, dict):
        return {key: value for key, value in result.items() if not key.startswith("_")}
    return result


def _decoded(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def _error(failure: Failure) -> web.Response:
    body: JsonObject = {"ok": False, "error_code": failure.status, "description": failure.description}
    if failure.retry_after is not None:
        body["parameters"] = {"retry_after": failure.retry_after}
    return web.json_response(body, status=failure.status)
