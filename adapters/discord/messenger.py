"""Unprompted messages (birthdays, check-ins) to a person's DMs: the engine's `Messenger` port."""

from __future__ import annotations

import discord

from adapters.discord.incoming import PLATFORM
from adapters.discord.pictures import send_reply
from adapters.discord.voice import send_voice_message
from bot.engine.media.pictures import Picture
from bot.engine.media.voice_note import VoiceNote
from bot.errors import InvalidInput, UserUnreachable

# 50007: "Cannot send messages to this user" (DMs closed, blocked, no shared server); 10013: unknown user.
_UNREACHABLE_CODES = frozenset({50007, 10013})


class DiscordMessenger:
    def __init__(self, client: discord.Client) -> None:
        self._client = client

    def connected(self) -> bool:
        """The gateway is up (read by /healthz)."""
        return self._client.is_ready() and not self._client.is_closed()

    async def send_direct(self, user_key: str, text: str) -> None:
        """Opens (or reuses) the DM channel and sends the text; `UserUnreachable` when Discord refuses."""
        await self._deliver(user_key, text)

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        """A voice message, then its words (a voice message holds no text)."""
        await self._deliver(user_key, text, note=note)

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture | None) -> None:
        """The text with `picture` attached (a birthday card with the birthday message)."""
        await self._deliver(user_key, text, picture=picture)

    async def _deliver(
        self, user_key: str, text: str, *, note: VoiceNote | None = None, picture: Picture | None = None
    ) -> None:
        user_id = discord_user_id(user_key)
        try:
            channel = await self._client.create_dm(discord.Object(id=user_id))
            if note is not None:
                await send_voice_message(self._client, channel.id, note)
            await send_reply(channel, text, picture, None)
        except (discord.Forbidden, discord.NotFound) as exc:
            if exc.code in _UNREACHABLE_CODES or isinstance(exc, discord.NotFound):
                raise UserUnreachable(f"Discord refuses DMs to {user_key} ({exc.code})") from exc
            raise


def discord_user_id(user_key: str) -> int:
    platform, _, raw_id = user_key.partition(":")
    if platform != PLATFORM or not raw_id.isdigit():
        raise InvalidInput(f"not a Discord user key: {user_key!r}")
    return int(raw_id)
