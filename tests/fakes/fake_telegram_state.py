"""What the fake Telegram holds and records: pending updates, the bot's messages and files; how tests push
updates, script failures and read what the bot did."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from tests.fakes.fake_telegram_wire import ApiCall, Failure, JsonObject, public


class TelegramState:
    def __init__(self, *, token: str, bot_username: str, bot_name: str) -> None:
        self.token = token
        self.bot_id = int(token.split(":")[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.calls: list[ApiCall] = []
        self.commands: dict[tuple[str, str | None], list[JsonObject]] = {}  # (scope type, language) -> menu
        self.profile_photos: list[bytes] = []  # images the bot set as its profile photo (setMyProfilePhoto)
        self.webhook: JsonObject | None = None
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
            "message": public(self._bot_messages.get((message["chat"]["id"], message["message_id"]), message)),
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
