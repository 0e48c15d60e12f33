"""Unprompted messages (birthday wishes, check-ins) as voice notes for people who turned voice on."""

from __future__ import annotations

from typing import Protocol

from bot.engine.media.picture_ports import PictureMessenger
from bot.engine.media.pictures import Picture
from bot.engine.media.voice_note import VoiceNote
from bot.engine.model import Reply, UserRef


class VoiceDelivery(Protocol):
    """A platform's messenger that can also send a voice note to a person's private chat."""

    async def send_direct(self, user_key: str, text: str) -> None: ...

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        """The note with `text` as its caption, or followed by it; raises like `send_direct`."""
        ...


class Speaker(Protocol):
    async def spoken(self, user: UserRef, reply: Reply) -> Reply: ...


class SpeakingMessenger:
    """The `Messenger` port: the text, spoken when the person asked for voice (and it is short enough)."""

    def __init__(self, messenger: VoiceDelivery, speaker: Speaker) -> None:
        self._messenger = messenger
        self._speaker = speaker

    async def send_direct(self, user_key: str, text: str) -> None:
        platform, _, user_id = user_key.partition(":")
        spoken = await self._speaker.spoken(UserRef(platform, user_id), Reply(text, "en"))
        if spoken.voice is None:
            await self._messenger.send_direct(user_key, text)
        else:
            await self._messenger.send_voice_direct(user_key, spoken.voice, text)

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        """A birthday card: the photo with the text as its caption, not spoken."""
        await send_picture_or_text(self._messenger, user_key, text, picture)


async def send_picture_or_text(messenger: VoiceDelivery, user_key: str, text: str, picture: Picture) -> None:
    """The photo with its caption where the platform's messenger can send one, else the text alone."""
    if isinstance(messenger, PictureMessenger):
        await messenger.send_direct_picture(user_key, text, picture)
    else:
        await messenger.send_direct(user_key, text)
