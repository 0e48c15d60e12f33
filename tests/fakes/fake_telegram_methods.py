"""The Bot API methods the fake Telegram answers (getUpdates, sendMessage, editMessageText, …) over its state."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.fakes.fake_telegram_state import TelegramState
from tests.fakes.fake_telegram_wire import JsonObject


class TelegramMethods(TelegramState):
    """Each `_api_<method>` answers the Bot API method of that name (lowercased)."""

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
