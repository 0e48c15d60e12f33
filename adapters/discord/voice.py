"""Voice messages on Discord: a voice-message attachment in, a flagged voice message out.

Discord marks a voice message with the IS_VOICE_MESSAGE flag (8192) and gives its attachment a duration and
a waveform. Sending one needs the same: the flag, and `duration_secs` and a base64 `waveform` on the
attachment, which discord.py's `send()` has no parameters for, so the message is built with its own
`handle_message_parameters` and posted through its HTTP client. A voice message holds no text: the words
follow it as an ordinary message.
"""

from __future__ import annotations

import base64
import io
from typing import Any, Protocol

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING

from adapters.discord.outgoing import split_message
from bot.engine.media.voice import VoiceClip
from bot.engine.media.voice_note import VOICE_FILENAME, VoiceNote
from bot.engine.model import ChatKind, IncomingMessage, Reply, UserRef, dm_conversation_id, group_conversation_id

PLATFORM = "discord"
NO_PINGS = discord.AllowedMentions.none()
_ANSWERABLE_TYPES = frozenset({discord.MessageType.default, discord.MessageType.reply})


class VoiceEngine(Protocol):
    async def handle_voice(self, message: IncomingMessage, clip: VoiceClip) -> Reply | None: ...


def voice_incoming(message: discord.Message, *, bot_user_id: int) -> tuple[IncomingMessage, VoiceClip] | None:
    """A voice message for the bot (any in DMs; in servers, one that replies to the bot), as the engine sees
    it; None for everything else."""
    author = message.author
    if author.bot or author.id == bot_user_id or message.webhook_id is not None:
        return None
    if message.type not in _ANSWERABLE_TYPES or not message.flags.voice:
        return None
    attachment = next((a for a in message.attachments if a.is_voice_message()), None)
    if attachment is None:
        return None
    private = isinstance(message.channel, discord.DMChannel)
    resolved = message.reference.resolved if message.reference is not None else None
    if not private and not (isinstance(resolved, discord.Message) and resolved.author.id == bot_user_id):
        return None
    user = UserRef(PLATFORM, str(author.id), author.display_name)
    reference = message.reference
    conversation = dm_conversation_id(user) if private else group_conversation_id(PLATFORM, str(message.channel.id))
    incoming = IncomingMessage(
        user=user,
        conversation_id=conversation,
        message_id=str(message.id),
        text="",
        sent_at=message.created_at,
        chat_kind=ChatKind.PRIVATE if private else ChatKind.GROUP,
        reply_to_message_id=str(reference.message_id) if reference is not None and reference.message_id else None,
        by_voice=True,
    )
    clip = VoiceClip(attachment.filename or VOICE_FILENAME, attachment.read, attachment.duration, attachment.size)
    return incoming, clip


class VoiceMessageFile(discord.File):
    """An OGG/Opus upload that Discord plays as a voice message (with the message's voice flag)."""

    def __init__(self, note: VoiceNote) -> None:
        super().__init__(io.BytesIO(note.audio), filename=VOICE_FILENAME)
        self.note = note

    def to_dict(self, index: int) -> dict[str, Any]:
        attachment = super().to_dict(index)
        attachment["duration_secs"] = self.note.duration_s
        attachment["waveform"] = base64.b64encode(self.note.waveform).decode()
        return attachment


async def send_voice_message(
    client: discord.Client, channel_id: int, note: VoiceNote, reference: discord.MessageReference | None = None
) -> None:
    params = handle_message_parameters(
        file=VoiceMessageFile(note),
        flags=discord.MessageFlags(voice=True),
        allowed_mentions=NO_PINGS,
        message_reference=reference.to_message_reference_dict() if reference is not None else MISSING,
    )
    with params:
        await client.http.send_message(channel_id, params=params)


async def send_spoken_reply(
    client: discord.Client,
    channel: discord.abc.Messageable,
    channel_id: int,
    reply: Reply,
    reference: discord.MessageReference | None = None,
) -> None:
    """The voice message, then its words (voice messages carry no text)."""
    if reply.voice is not None:
        await send_voice_message(client, channel_id, reply.voice, reference)
    for piece in split_message(reply.text):
        await channel.send(piece, allowed_mentions=NO_PINGS)
