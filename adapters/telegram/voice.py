"""Voice notes on Telegram: `voice` and `audio` messages in, `sendVoice` out.

A received note is described to the engine as a `VoiceClip` (Telegram reports its duration and size; the
download through getFile happens only once the limits allow it). A reply that carries a voice note is sent
by `replies.py`.
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import replace
from datetime import UTC, timedelta
from typing import Protocol

from telegram import Audio, Bot, Message, Update, Voice
from telegram.constants import ChatType
from telegram.ext import ContextTypes
from telegram.warnings import PTBDeprecationWarning

from adapters.telegram.normalise import language_hint, thread_of, user_ref
from adapters.telegram.replies import send_reply
from adapters.telegram.sending import TelegramSender, typing_indicator
from bot.engine.media.voice import VoiceClip
from bot.engine.model import ChatKind, IncomingMessage, Reply, dm_conversation_id, group_conversation_id

log = logging.getLogger(__name__)

_GROUP_TYPES = {ChatType.GROUP, ChatType.SUPERGROUP}
_EXTENSIONS = {"audio/mpeg": ".mp3", "audio/mp3": ".mp3", "audio/ogg": ".ogg", "audio/x-wav": ".wav",
               "audio/wav": ".wav", "audio/mp4": ".m4a", "audio/x-m4a": ".m4a", "audio/webm": ".webm",
               "audio/flac": ".flac"}  # fmt: skip


class VoiceEngine(Protocol):
    async def handle_voice(self, message: IncomingMessage, clip: VoiceClip) -> Reply | None: ...


class VoiceMessages:
    def __init__(self, engine: VoiceEngine, sender: TelegramSender, *, typing_interval: float) -> None:
        self._engine = engine
        self._sender = sender
        self._typing_interval = typing_interval

    async def on_voice(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None:
            return
        heard = voice_incoming(message, context.bot)
        if heard is None:
            return
        incoming, clip = heard
        thread_id = thread_of(message)
        async with typing_indicator(context.bot, message.chat.id, interval=self._typing_interval, thread_id=thread_id):
            reply = await self._engine.handle_voice(incoming, clip)
        if reply is None:
            log.info("Skipped a re-delivered Telegram voice note %s", incoming.dedup_key)
            return
        in_group = incoming.chat_kind is ChatKind.GROUP
        spoken_or_written = replace(reply, picture=None)  # a voice note is answered in words, never with a photo
        await send_reply(self._sender, message.chat.id, spoken_or_written,
                         reply_to=message.message_id if in_group else None, thread_id=thread_id)  # fmt: skip


def voice_incoming(message: Message, bot: Bot) -> tuple[IncomingMessage, VoiceClip] | None:
    """The voice note as the engine sees it (its text comes from the transcript), or None when it is not for
    the bot: in groups only a voice note that replies to one of the bot's messages is."""
    sender = message.from_user
    media: Voice | Audio | None = message.voice or message.audio
    if sender is None or sender.is_bot or media is None:
        return None
    user = user_ref(sender)
    reply_to = message.reply_to_message
    if reply_to is not None and reply_to.forum_topic_created is not None:
        reply_to = None
    if message.chat.type == ChatType.PRIVATE:
        kind, conversation_id = ChatKind.PRIVATE, dm_conversation_id(user)
    elif message.chat.type in _GROUP_TYPES:
        if reply_to is None or reply_to.from_user is None or reply_to.from_user.id != bot.id:
            return None
        kind, conversation_id = ChatKind.GROUP, group_conversation_id("telegram", str(message.chat.id))
    else:
        return None
    incoming = IncomingMessage(
        user=user,
        conversation_id=conversation_id,
        message_id=str(message.message_id),
        text="",
        sent_at=message.date.astimezone(UTC),
        chat_kind=kind,
        language_hint=language_hint(sender),
        reply_to_message_id=str(reply_to.message_id) if reply_to is not None else None,
        by_voice=True,
    )
    file_id = media.file_id

    async def fetch() -> bytes:
        file = await bot.get_file(file_id)  # Telegram serves bots files up to 20 MB
        return bytes(await file.download_as_bytearray())

    return incoming, VoiceClip(_filename(media), fetch, duration_s=_seconds(media), size_bytes=media.file_size)


def _filename(media: Voice | Audio) -> str:
    """Voice notes are OGG/Opus, sent as ".ogg" (the transcription API reads the format from the name)."""
    if isinstance(media, Voice):
        return "voice.ogg"
    if media.file_name and "." in media.file_name:
        return media.file_name
    return "audio" + _EXTENSIONS.get((media.mime_type or "").lower(), ".mp3")


def _seconds(media: Voice | Audio) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)  # PTB 22: int unless PTB_TIMEDELTA is set
        value = media.duration
    return value.total_seconds() if isinstance(value, timedelta) else float(value)
