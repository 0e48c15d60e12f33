"""How the adapter sends each form of message: paced, split, plain text, retried after a 429. Which form a reply
takes is decided above this, in `replies.py`."""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ChatAction
from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

from adapters.telegram.split import split_message
from adapters.telegram.throttle import SendThrottle
from bot.engine.media.voice_note import VOICE_FILENAME

log = logging.getLogger(__name__)

T = TypeVar("T")


class TelegramSender:
    """Sends as plain text (no parse_mode: nothing the LLM writes can inject Markdown or HTML),
    waits its turn in the throttle, and honours Telegram's retry_after a bounded number of times."""

    def __init__(self, bot: Bot, throttle: SendThrottle, *, max_retries: int = 3, max_retry_wait: float = 60.0) -> None:
        self._bot = bot
        self._throttle = throttle
        self._max_retries = max_retries
        self._max_retry_wait = max_retry_wait

    async def send_text(
        self,
        chat_id: int,
        text: str,
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
        reply_markup: InlineKeyboardMarkup | None = None,
    ) -> list[Message]:
        """One message per piece of `split_message(text)`; a keyboard goes on the last piece, and only
        the first piece replies to `reply_to`."""
        pieces = split_message(text)
        sent: list[Message] = []
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            reply = _replying_to(reply_to) if index == 0 else None

            def call(
                piece: str = piece, reply: ReplyParameters | None = reply, last: bool = last
            ) -> Awaitable[Message]:
                return self._bot.send_message(
                    chat_id,
                    piece,
                    message_thread_id=thread_id,
                    reply_parameters=reply,
                    reply_markup=reply_markup if last else None,
                )

            sent.append(await self._with_retries(chat_id, call))
        return sent

    async def send_document(self, chat_id: int, data: bytes, filename: str, caption: str) -> Message:
        return await self._with_retries(
            chat_id,
            lambda: self._bot.send_document(chat_id, InputFile(data, filename=filename), caption=caption),
        )

    async def send_photo(
        self,
        chat_id: int,
        data: bytes,
        filename: str,
        caption: str,
        *,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> Message:
        return await self._with_retries(
            chat_id,
            lambda: self._bot.send_photo(
                chat_id,
                InputFile(data, filename=filename),
                caption=caption or None,
                message_thread_id=thread_id,
                reply_parameters=_replying_to(reply_to),
            ),
        )

    async def send_voice(
        self,
        chat_id: int,
        ogg_opus: bytes,
        duration_s: int,
        *,
        caption: str | None = None,
        reply_to: int | None = None,
        thread_id: int | None = None,
    ) -> Message:
        """A voice note (sendVoice plays OGG/Opus only), with the reply's text as its caption."""
        return await self._with_retries(
            chat_id,
            lambda: self._bot.send_voice(
                chat_id, InputFile(ogg_opus, filename=VOICE_FILENAME), duration=duration_s, caption=caption,
                reply_parameters=_replying_to(reply_to), message_thread_id=thread_id,
            ),
        )  # fmt: skip

    async def _with_retries(self, chat_id: int, call: Callable[[], Awaitable[T]]) -> T:
        attempt = 0
        while True:
            await self._throttle.wait_turn(chat_id)
            try:
                return await call()
            except RetryAfter as exc:
                wait = retry_after_seconds(exc)
                attempt += 1
                if attempt > self._max_retries or wait > self._max_retry_wait:
                    raise
                log.warning("Telegram asked to slow down; retrying in %.0f s (attempt %d)", wait, attempt)
                await asyncio.sleep(wait)


def retry_after_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():
        # PTB 22 returns int seconds with a deprecation warning unless PTB_TIMEDELTA is set.
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def _replying_to(message_id: int | None) -> ReplyParameters | None:
    """Reply to `message_id` if there is one; sent all the same if it was deleted meanwhile."""
    return ReplyParameters(message_id, allow_sending_without_reply=True) if message_id else None


@asynccontextmanager
async def typing_indicator(
    bot: Bot, chat_id: int, *, interval: float, thread_id: int | None = None
) -> AsyncIterator[None]:
    """Shows "typing…" until the block ends; Telegram clears the status after ~5 s, so repeat it."""

    async def keep_typing() -> None:
        while True:
            try:
                await bot.send_chat_action(chat_id, ChatAction.TYPING, message_thread_id=thread_id)
            except Exception as exc:  # cosmetic: never let it break the reply
                log.debug("send_chat_action failed: %s", exc)
            await asyncio.sleep(interval)

    task = asyncio.create_task(keep_typing(), name=f"telegram-typing-{chat_id}")
    try:
        yield
    finally:
        task.cancel()
        await asyncio.wait([task])
