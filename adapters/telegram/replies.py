"""A reply's form on Telegram, decided in one place: a voice note, a photo, or text.

Every path that answers (a message, a voice note, /picture, an unprompted message) sends its `Reply` through
`send_reply`; the sender below it only knows how to send each form.
"""

from __future__ import annotations

import logging
import math

from telegram.constants import MessageLimit
from telegram.error import BadRequest

from adapters.telegram.sending import TelegramSender
from bot.engine.model import Reply

log = logging.getLogger(__name__)

PHOTO_CAPTION_LIMIT = 1024  # Telegram's limit on a photo's caption


async def send_reply(
    sender: TelegramSender, chat_id: int, reply: Reply, *, reply_to: int | None = None, thread_id: int | None = None
) -> None:
    """The reply as a voice note (its text the caption), as a photo (the text its caption), or as text. A caption
    too long for Telegram follows the voice note or the photo as text."""
    if reply.voice is not None:
        await _send_spoken(sender, chat_id, reply, reply_to=reply_to, thread_id=thread_id)
    elif reply.picture is not None:
        await _send_photo(sender, chat_id, reply, reply_to=reply_to, thread_id=thread_id)
    else:
        await sender.send_text(chat_id, reply.text, reply_to=reply_to, thread_id=thread_id)


async def _send_spoken(
    sender: TelegramSender, chat_id: int, reply: Reply, *, reply_to: int | None, thread_id: int | None
) -> None:
    note = reply.voice
    assert note is not None  # checked by the caller
    fits = len(reply.text) <= MessageLimit.CAPTION_LENGTH
    try:
        await sender.send_voice(
            chat_id, note.audio, math.ceil(note.duration_s), caption=reply.text if fits else None,
            reply_to=reply_to, thread_id=thread_id,
        )  # fmt: skip
    except BadRequest as exc:
        if "voice_messages_forbidden" not in exc.message.lower():
            raise
        # The person's privacy settings refuse voice notes: the words still reach them.
        log.info("a Telegram user refuses voice notes; sent the reply as text")
        fits = False
    if not fits:
        await sender.send_text(chat_id, reply.text, thread_id=thread_id)


async def _send_photo(
    sender: TelegramSender, chat_id: int, reply: Reply, *, reply_to: int | None, thread_id: int | None
) -> None:
    picture = reply.picture
    assert picture is not None  # checked by the caller
    fits = len(reply.text) <= PHOTO_CAPTION_LIMIT
    await sender.send_photo(
        chat_id, picture.image, picture.filename, reply.text if fits else "", reply_to=reply_to, thread_id=thread_id
    )
    if not fits:
        await sender.send_text(chat_id, reply.text, thread_id=thread_id)
