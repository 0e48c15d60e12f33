"""Pictures on Telegram: /picture asks the engine for one (its reply goes out as a photo with its caption, see
`replies.py`), and a photo sent with a request to turn it into a picture is kindly refused."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from datetime import UTC
from typing import Any, Protocol, runtime_checkable

from telegram import Message, Update
from telegram.constants import ChatType
from telegram.ext import Application, CommandHandler, ContextTypes, MessageHandler, filters

from adapters.telegram.normalise import PLATFORM, language_hint, thread_of, user_ref
from adapters.telegram.replies import send_reply
from adapters.telegram.sending import TelegramSender, typing_indicator
from bot.engine.media.picture_requests import asks_for_picture
from bot.engine.model import ChatKind, IncomingMessage, Reply, dm_conversation_id, group_conversation_id
from bot.engine.texts.pictures import say_picture

log = logging.getLogger(__name__)


@runtime_checkable
class PictureEngine(Protocol):
    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None: ...


class PictureMessages:
    def __init__(self, engine: PictureEngine, sender: TelegramSender, *, typing_interval: float) -> None:
        self._engine = engine
        self._sender = sender
        self._typing_interval = typing_interval

    async def on_picture(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/picture <what>: in a private chat or a group (where the command itself is the explicit ask)."""
        message = update.message
        if message is None or message.from_user is None or message.from_user.is_bot:
            return
        what = " ".join(context.args or [])
        incoming = _command_message(message, what)
        in_group = incoming.chat_kind is ChatKind.GROUP
        thread_id = thread_of(message)
        async with typing_indicator(context.bot, message.chat.id, interval=self._typing_interval, thread_id=thread_id):
            reply = await self._engine.handle_picture(incoming, what)
        if reply is None:
            return
        await send_reply(self._sender, message.chat.id, reply, reply_to=message.message_id if in_group else None,
                         thread_id=thread_id)  # fmt: skip

    async def on_photo(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A photo in a private chat whose caption asks for a picture: never made from a real person's photo."""
        message = update.message
        if message is None or not message.caption or not asks_for_picture(message.caption):
            return  # photos are otherwise not read, as before
        log.info("refused to make a picture from a photo someone sent")
        language = language_hint(message.from_user)
        await self._sender.send_text(message.chat.id, say_picture("picture_real_person", language))


def _command_message(message: Message, what: str) -> IncomingMessage:
    sender = message.from_user
    assert sender is not None  # checked by the caller
    user = user_ref(sender)
    private = message.chat.type == ChatType.PRIVATE
    return IncomingMessage(
        user=user,
        conversation_id=dm_conversation_id(user) if private else group_conversation_id(PLATFORM, str(message.chat.id)),
        message_id=str(message.message_id),
        text=f"/picture {what}".strip(),
        sent_at=message.date.astimezone(UTC),
        chat_kind=ChatKind.PRIVATE if private else ChatKind.GROUP,
        language_hint=language_hint(sender),
    )


Handler = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


def register_pictures(application: Application, *, on_picture: Handler, on_photo: Handler) -> None:
    """Registered before the catch-all handlers (the first match wins): /picture works in groups too, where
    the command itself is the explicit ask."""
    fresh = filters.UpdateType.MESSAGE
    application.add_handler(CommandHandler("picture", on_picture, filters=fresh))
    application.add_handler(MessageHandler(fresh & filters.ChatType.PRIVATE & filters.PHOTO, on_photo))
