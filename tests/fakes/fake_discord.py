"""A loopback fake of Discord (gateway websocket + REST) that the real discord.py client connects to.

async with FakeDiscord.running() as fake:
    settings = load_settings(discord_token="t", discord_api_url=fake.api_root,
                             discord_gateway_url=fake.gateway_url)
    ... run the bot, then fake.send_dm(...), await fake.wait_for(...)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

from aiohttp import web

from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord_gateway import FakeGateway
from tests.fakes.fake_discord_rest import FakeRest, RestState, Sent
from tests.fakes.loopback import serve_on_loopback

Payload = dict[str, Any]
T = TypeVar("T")


class FakeDiscord:
    def __init__(self) -> None:
        self.bot = p.user("Souvenir", bot=True)
        self.bot_id = int(self.bot["id"])
        self.application_id = p.snowflake()
        self.guilds: dict[int, Payload] = {}
        self.rest = RestState(bot=self.bot, application_id=self.application_id, gateway_url="")
        self.gateway = FakeGateway(ready_payload=self._ready, guilds_of_shard=self._guilds_of)
        self._changed = asyncio.Event()
        self.rest.changed = self.gateway.changed = self._changed.set
        self.api_root = ""
        self.gateway_url = ""

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls) -> AsyncIterator[FakeDiscord]:
        fake = cls()
        app = web.Application()
        app.router.add_get("/gateway", fake.gateway.handle)
        app.router.add_routes(FakeRest(fake.rest).routes())
        runner, port = await serve_on_loopback(app)
        fake.api_root = f"http://127.0.0.1:{port}"
        fake.gateway_url = fake.rest.gateway_url = f"ws://127.0.0.1:{port}/gateway"
        try:
            yield fake
        finally:
            await fake.gateway.close()
            await runner.cleanup()

    # --- world building ---------------------------------------------------------------------------

    def add_guild(self, name: str = "Friends") -> tuple[int, int]:
        """A guild the bot is in, with one text channel; announced unavailable in READY, then GUILD_CREATE."""
        # Guilds made in one millisecond would share a shard ((id >> 22) % shards): spread their timestamps.
        guild_id, channel_id = p.snowflake() + (len(self.guilds) << 22), p.snowflake()
        channel = p.text_channel(channel_id, guild_id, "general")
        self.guilds[guild_id] = p.guild(guild_id, name, [channel], owner_id=self.bot["id"])
        return guild_id, channel_id

    def refuse_dms_from_bot(self, user_id: int) -> None:
        self.rest.unreachable_user_ids.add(user_id)

    # --- what people do ---------------------------------------------------------------------------

    async def send_dm(self, author: Payload, content: str) -> Payload:
        channel_id = self.rest.dm_channels.setdefault(int(author["id"]), p.snowflake())
        self.rest.channel_recipients[channel_id] = author
        message = p.message(channel_id, author, content)
        await self.gateway.dispatch("MESSAGE_CREATE", message)
        return message

    async def send_voice_dm(
        self, author: Payload, audio: bytes, *, duration_secs: float = 3.0, size: int | None = None
    ) -> Payload:
        """A voice message in the person's DM: flag 8192, one OGG/Opus attachment with duration and waveform,
        served at the attachment's URL. `size` is what Discord reports (defaults to the real size)."""
        channel_id = self.rest.dm_channels.setdefault(int(author["id"]), p.snowflake())
        self.rest.channel_recipients[channel_id] = author
        message = p.message(channel_id, author, "", flags=8192)
        attachment_id = p.snowflake()
        self.rest.attachment_files[attachment_id] = audio
        url = f"{self.api_root}/attachments/{attachment_id}/voice-message.ogg"
        message["attachments"] = [{
            "id": str(attachment_id), "filename": "voice-message.ogg", "content_type": "audio/ogg",
            "size": len(audio) if size is None else size, "url": url, "proxy_url": url,
            "duration_secs": duration_secs, "waveform": base64.b64encode(bytes(range(0, 256, 4))).decode(),
        }]  # fmt: skip
        await self.gateway.dispatch("MESSAGE_CREATE", message)
        return message

    async def send_dm_with_image(self, author: Payload, content: str, filename: str = "me.jpg") -> Payload:
        """A DM carrying an uploaded image (an attachment, as Discord describes one)."""
        channel_id = self.rest.dm_channels.setdefault(int(author["id"]), p.snowflake())
        self.rest.channel_recipients[channel_id] = author
        message = p.message(channel_id, author, content)
        attachment_id = p.snowflake()
        message["attachments"] = [{
            "id": str(attachment_id), "filename": filename, "size": 2048, "content_type": "image/jpeg",
            "url": f"https://cdn.example/{attachment_id}/{filename}", "proxy_url": f"https://media.example/{filename}",
            "width": 64, "height": 64,
        }]  # fmt: skip
        await self.gateway.dispatch("MESSAGE_CREATE", message)
        return message

    async def send_in_guild(
        self,
        guild_id: int,
        channel_id: int,
        author: Payload,
        content: str,
        *,
        mention_bot: bool = False,
        reply_to: Payload | None = None,
    ) -> Payload:
        mentions = [self.bot] if mention_bot else []
        if reply_to is not None and reply_to["author"]["id"] == self.bot["id"]:
            mentions = [self.bot]  # Discord lists the replied-to author when the reply pings
        message = p.message(channel_id, author, content, guild_id=guild_id, mentions=mentions, referenced=reply_to)
        await self.gateway.dispatch("MESSAGE_CREATE", message, shard_id=self.shard_of(guild_id))
        return message

    async def slash(
        self,
        author: Payload,
        name: str,
        options: dict[str, Any] | None = None,
        *,
        locale: str = "en-US",
        guild_channel: tuple[int, int] | None = None,
    ) -> str:
        """Runs /name with the given option values; returns the interaction token. A name the bot never
        synced stands for a stale registration Discord still shows (from an older version of the bot)."""
        command = next((c for c in self.rest.command_syncs[-1] if c["name"] == name), {})
        data = {
            "id": command.get("id", str(p.snowflake())),
            "name": name,
            "type": 1,
            "options": [{"name": k, "type": 3, "value": v} for k, v in (options or {}).items()],
        }
        return await self._interact(2, author, data, locale=locale, guild_channel=guild_channel)

    async def autocomplete(self, author: Payload, name: str, option: str, typed: str) -> str:
        data = {
            "id": str(p.snowflake()),
            "name": name,
            "type": 1,
            "options": [{"name": option, "type": 3, "value": typed, "focused": True}],
        }
        return await self._interact(4, author, data)

    async def press(self, author: Payload, sent: Sent, custom_id: str, *, locale: str = "en-US") -> str:
        """Presses a button (by custom_id) on a message the bot sent; returns the interaction token."""
        message = self.rest.messages[sent.message_id]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, author, data, locale=locale, for_message=message)

    async def _interact(
        self,
        kind: int,
        author: Payload,
        data: Payload,
        *,
        locale: str = "en-US",
        guild_channel: tuple[int, int] | None = None,
        for_message: Payload | None = None,
    ) -> str:
        if guild_channel is None:
            channel_id = self.rest.dm_channels.setdefault(int(author["id"]), p.snowflake())
            channel = p.dm_channel(channel_id, author)
            guild_id = None
        else:
            guild_id, channel_id = guild_channel
            channel = p.text_channel(channel_id, guild_id, "general")
        payload, token = p.interaction(
            kind=kind,
            application_id=self.application_id,
            author=author,
            channel=channel,
            data=data,
            locale=locale,
            guild_id=guild_id,
            for_message=for_message,
        )
        self.rest.interactions[token] = payload
        if for_message is not None:
            self.rest.original_by_token[token] = int(for_message["id"])
        await self.gateway.dispatch("INTERACTION_CREATE", payload, shard_id=self.shard_of(guild_id))
        return token

    # --- observing the bot ------------------------------------------------------------------------

    async def wait_for(self, check: Callable[[], T | None], within_s: float = 5.0) -> T:
        """Waits until `check()` returns something truthy: re-checked on the fake's traffic, and every 20 ms
        for what happens in the bot without traffic (the engine seeing a message it then stays silent on)."""
        async with asyncio.timeout(within_s):
            while not (result := check()):
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.02)
        return result

    async def replies_in(self, channel_id: int, count: int = 1) -> list[Sent]:
        """Waits until the bot has sent at least `count` messages in the channel; returns them all."""
        return await self.wait_for(lambda: self.sent_in(channel_id) if len(self.sent_in(channel_id)) >= count else None)

    def sent_in(self, channel_id: int) -> list[Sent]:
        return [s for s in self.rest.sent if s.channel_id == channel_id]

    def for_interaction(self, token: str) -> list[Sent]:
        message_id = self.rest.original_by_token.get(token)
        return [s for s in self.rest.sent if s.message_id == message_id]

    def shard_of(self, guild_id: int | None) -> int:
        sessions = self.gateway.sessions
        count = next(iter(sessions.values())).shard_count if sessions else 1
        return 0 if guild_id is None else (guild_id >> 22) % count

    def _guilds_of(self, shard_id: int, shard_count: int) -> list[Payload]:
        return [g for gid, g in self.guilds.items() if (gid >> 22) % shard_count == shard_id]

    def _ready(self, shard_id: int, shard_count: int) -> Payload:
        return {
            "v": 10,
            "user": self.bot | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g["id"], "unavailable": True} for g in self._guilds_of(shard_id, shard_count)],
            "private_channels": [],
            "relationships": [],
            "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.application_id), "flags": 0},
        }
