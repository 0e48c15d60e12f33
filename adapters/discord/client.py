"""The discord.py client: answers DMs, @mentions and replies through the engine; hosts the slash commands.

Every event handler is an error boundary: a failure is logged and the bot carries on with the next event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from adapters.discord.components import COMPONENT_ITEMS, answer_expired_button
from adapters.discord.incoming import to_incoming
from adapters.discord.pictures import PictureHandler, add_picture_command, send_reply, uploaded_photo_refusal
from adapters.discord.slash import BrowserLink, SouvenirCommandTree, add_slash_commands
from adapters.discord.translations import FrenchTranslator
from adapters.discord.voice import VoiceEngine, send_spoken_reply, voice_incoming
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import ChatKind, IncomingMessage, Reply

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


class IdentifyGate(Protocol):
    """Paces IDENTIFY across every process of the bot (Discord allows one per rate-limit bucket per 5 s)."""

    async def wait_turn(self, bucket: int) -> None: ...


class MessageHandler(Protocol):
    """The engine as this adapter sees it. None means "already answered" (a platform re-delivery)."""

    async def handle(self, message: IncomingMessage) -> Reply | None: ...


def souvenir_intents() -> discord.Intents:
    """No privileged intent: DMs, @mentions and replies to the bot carry their text without message_content."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.dm_messages = True
    return intents


@dataclass(frozen=True, slots=True)
class GatewayTimings:
    """Waits Discord imposes or discord.py defaults to; tests against the loopback fake shorten them."""

    ready_timeout_s: float = 60.0  # how long `run_discord` waits for READY before giving up
    guild_ready_s: float = 2.0  # discord.py waits this long after the last GUILD_CREATE before READY
    identify_interval_s: float = 5.0  # Discord allows one IDENTIFY per 5 s (matters with several shards)


DEFAULT_TIMINGS = GatewayTimings()


class SouvenirClient(discord.Client):
    def __init__(
        self,
        *,
        handler: MessageHandler,
        user_commands: UserCommands,
        timings: GatewayTimings = DEFAULT_TIMINGS,
        identify_gate: IdentifyGate | None = None,
        voice: VoiceEngine | None = None,
        browser_link: BrowserLink | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            intents=souvenir_intents(), allowed_mentions=NO_PINGS, guild_ready_timeout=timings.guild_ready_s, **options
        )
        self.timings = timings
        self.handler = handler
        self.user_commands = user_commands
        self.voice = voice  # voice messages are transcribed and answered (None: they are not answered)
        self.tree = SouvenirCommandTree(self)
        add_slash_commands(self.tree, user_commands, browser_link)
        if isinstance(handler, PictureHandler):
            add_picture_command(self.tree, handler)
        self._answering: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self._identify_gate = identify_gate
        self._max_concurrency = 1  # Discord's session_start_limit, read once logged in (when a gate paces us)

    async def setup_hook(self) -> None:
        if self._identify_gate is not None:
            await self._read_max_concurrency()
        self.add_dynamic_items(*COMPONENT_ITEMS)
        await self.tree.set_translator(FrenchTranslator())
        try:
            synced = await self.tree.sync()
        except discord.HTTPException:
            # Conversations still work without slash commands; the next start syncs again.
            log.exception("could not sync the slash commands with Discord")
        else:
            log.info("synced %d slash commands", len(synced))

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        if self._identify_gate is not None:  # shared with the bot's other processes, through Redis
            await self._identify_gate.wait_turn((shard_id or 0) % self._max_concurrency)
        elif not initial:
            await asyncio.sleep(self.timings.identify_interval_s)

    async def _read_max_concurrency(self) -> None:
        try:
            _, _, limits = await self.http.get_bot_gateway()
            self._max_concurrency = max(1, int(limits["max_concurrency"]))
        except (discord.HTTPException, discord.GatewayNotFound, KeyError, TypeError, ValueError):
            log.warning("could not read Discord's max_concurrency; identifying one shard at a time")

    async def on_message(self, message: discord.Message) -> None:
        if self._stopping:
            return  # no new work once stopping has begun
        task = asyncio.current_task()
        if task is not None:
            self._answering.add(task)
        try:
            await self._answer(message)
        except Exception:
            log.exception("could not answer a Discord message")
        finally:
            if task is not None:
                self._answering.discard(task)

    async def finish_answering(self, within_s: float) -> None:
        """Before close(): take no new message, give the replies being written `within_s` seconds to go
        out (close() would pull the HTTP session from under them), then cancel what is left."""
        self._stopping = True
        answering = set(self._answering)
        if not answering:
            return
        log.info("finishing %d Discord message(s) in flight, for up to %.0f s", len(answering), within_s)
        try:
            await asyncio.wait(answering, timeout=within_s)
        finally:  # also when the wait itself is cut short (a second stop signal)
            late = {task for task in answering if not task.done()}
            if late:
                log.warning("%d Discord message(s) left unanswered after the grace", len(late))
                for task in late:
                    task.cancel()
                await asyncio.wait(late)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await answer_expired_button(interaction)
        except Exception:
            log.exception("could not answer a press on an expired button")

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("Discord event handler %s failed", event_method)

    async def _answer(self, message: discord.Message) -> None:
        if self.user is None:
            return
        heard = voice_incoming(message, bot_user_id=self.user.id) if self.voice is not None else None
        incoming = heard[0] if heard is not None else to_incoming(message, bot_user_id=self.user.id)
        if incoming is None:
            return
        reference = None if incoming.chat_kind is ChatKind.PRIVATE else message.to_reference(fail_if_not_exists=False)
        refusal = uploaded_photo_refusal(message, incoming)
        if refusal is not None:
            await send_reply(message.channel, refusal, None, reference)
            return
        async with _typing(message.channel):
            if heard is not None and self.voice is not None:
                reply = await self.voice.handle_voice(*heard)
            else:
                reply = await self.handler.handle(incoming)
        if reply is None:
            return  # the engine has answered this message before (gateway RESUME replay)
        if reply.voice is not None:  # /voice on: a voice message, then its words
            await send_spoken_reply(self, message.channel, message.channel.id, reply, reference)
            return
        await send_reply(message.channel, reply.text, reply.picture, reference)  # a picture goes with the text


class ShardedSouvenirClient(SouvenirClient, discord.AutoShardedClient):
    """The same bot over several gateway shards (large bots; `SOUVENIR_DISCORD_SHARDS`)."""


@contextlib.asynccontextmanager
async def _typing(channel: discord.abc.Messageable) -> AsyncIterator[None]:
    """Shows the typing indicator while the engine thinks; a channel refusing it must not cost the reply."""
    async with contextlib.AsyncExitStack() as stack:
        try:
            await stack.enter_async_context(channel.typing())
        except discord.HTTPException:
            log.warning("could not show the typing indicator")
        yield
