"""Ordinary messages: normalise, show typing while the engine thinks, send its reply once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from adapters.telegram.normalise import language_hint, thread_of, to_incoming
from adapters.telegram.replies import send_reply
from adapters.telegram.sending import TelegramSender, typing_indicator
from bot.engine.model import IncomingMessage, Reply
from bot.engine.texts.say import say

log = logging.getLogger(__name__)

Callback = Callable[[Update, ContextTypes.DEFAULT_TYPE], Coroutine[Any, Any, None]]


class ConversationEngine(Protocol):
    async def handle(self, message: IncomingMessage) -> Reply | None:
        """The reply, or None when this message was already handled (a platform re-delivery)."""
        ...


class TextMessages:
    def __init__(self, engine: ConversationEngine, sender: TelegramSender, *, typing_interval: float) -> None:
        self._engine = engine
        self._sender = sender
        self._typing_interval = typing_interval

    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None:
            return
        bot = context.bot
        incoming = to_incoming(message, bot_id=bot.id, bot_username=bot.username)
        if incoming is None:
            return
        chat_id = message.chat.id
        thread_id = thread_of(message)
        async with typing_indicator(bot, chat_id, interval=self._typing_interval, thread_id=thread_id):
            reply = await self._engine.handle(incoming)
        if reply is None:
            log.info("Skipped a re-delivered Telegram message %s", incoming.dedup_key)
            return
        in_group = message.chat.type != ChatType.PRIVATE
        await send_reply(  # text, a voice note (/voice on) or a photo, each with its words
            self._sender, chat_id, reply, reply_to=message.message_id if in_group else None, thread_id=thread_id
        )


class UpdateBoundary:
    """Wraps every handler in an error boundary that logs, tells a private-chat user something went
    wrong, and carries on. (One update at a time, in order, within a chat — so "/forget all" then
    "/memories" can't overtake each other — is the update processor's job: see ordering.py.)"""

    def __init__(self, sender: TelegramSender) -> None:
        self._sender = sender

    def wrap(self, name: str, callback: Callback) -> Callback:
        async def boundary(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
            try:
                await callback(update, context)
            except Exception:
                log.exception("Telegram %s handler failed", name)
                await _apologise(update, self._sender)

        return boundary


async def _apologise(update: Update, sender: TelegramSender) -> None:
    try:
        if update.callback_query is not None:
            await update.callback_query.answer()
            return
        chat = update.effective_chat
        if chat is None or chat.type != ChatType.PRIVATE:
            return
        await sender.send_text(chat.id, say("fallback", language_hint(update.effective_user)))
    except Exception:
        log.exception("Could not tell the user about a failed Telegram update")


async def log_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """PTB's error handler: the last boundary, for errors outside our callbacks (polling, network)."""
    log.error("Telegram update %r failed", getattr(update, "update_id", None), exc_info=context.error)
