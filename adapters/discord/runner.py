"""Runs the Discord bot inside the application's event loop, next to Telegram and the scheduler."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
from pydantic import SecretStr

from adapters.discord.client import (
    DEFAULT_TIMINGS,
    GatewayTimings,
    IdentifyGate,
    MessageHandler,
    ShardedSouvenirClient,
    SouvenirClient,
)
from adapters.discord.endpoints import point_discord_at
from adapters.discord.messenger import DiscordMessenger
from adapters.discord.slash import BrowserLink
from adapters.discord.voice import VoiceEngine
from bot.avatar import BotAvatar
from bot.engine.commands.user_commands import UserCommands
from bot.errors import ConfigError

log = logging.getLogger(__name__)

_STOP_TIMEOUT_S = 10.0
_AVATAR_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class DiscordOptions:
    """The bot's token and where Discord is (SOUVENIR_DISCORD_*), its shards, and how long a stop waits."""

    token: SecretStr | None
    api_url: str | None = None  # None: Discord's own (else e.g. a proxy, or the tests' fake)
    gateway_url: str | None = None
    shards: int | None = None  # None: discord.py's single client, one shard
    shard_ids: tuple[int, ...] | None = None  # with `shards`, those run here (None: all of them)
    shutdown_grace_s: float = 10.0  # replies under way are given this long to finish on exit


@contextlib.asynccontextmanager
async def run_discord(
    options: DiscordOptions,
    *,
    engine: MessageHandler,
    commands: UserCommands,
    timings: GatewayTimings = DEFAULT_TIMINGS,
    avatar: BotAvatar | None = None,
    identify_gate: IdentifyGate | None = None,
    voice: VoiceEngine | None = None,
    browser_link: BrowserLink | None = None,
) -> AsyncIterator[DiscordMessenger]:
    """Logs in, syncs the slash commands, waits for the gateway's READY, then yields the messenger.

    With `identify_gate`, each shard's IDENTIFY waits for its turn across every process of the bot.

    The client runs as a task of the current loop and is closed on exit, including on cancellation.
    """
    if options.token is None:
        raise ConfigError("SOUVENIR_DISCORD_TOKEN: required to run the Discord bot")
    point_discord_at(options.api_url, options.gateway_url)
    client: SouvenirClient
    if options.shards is not None:
        client = ShardedSouvenirClient(
            handler=engine,
            user_commands=commands,
            timings=timings,
            identify_gate=identify_gate,
            voice=voice,
            browser_link=browser_link,
            shard_count=options.shards,
            shard_ids=list(options.shard_ids) if options.shard_ids is not None else None,  # None: every shard
        )
    else:
        client = SouvenirClient(
            handler=engine, user_commands=commands, timings=timings, identify_gate=identify_gate, voice=voice,
            browser_link=browser_link,
        )  # fmt: skip
    async with client:
        running = asyncio.create_task(client.start(options.token.get_secret_value()), name="discord")
        try:
            await _until_ready(client, running, timings.ready_timeout_s)
            log.info("Discord bot ready as %s", client.user)
            await _set_avatar(client, avatar)
            yield DiscordMessenger(client)
        finally:
            try:
                await client.finish_answering(options.shutdown_grace_s)
            finally:
                await client.close()
                await _stopped(running)


async def _set_avatar(client: discord.Client, avatar: BotAvatar | None) -> None:
    """The persona's picture as the bot's avatar, when it changed. Never stops the bot: Discord allows only a
    few changes an hour, and a refusal is logged for the operator."""
    if avatar is None or client.user is None or not await avatar.changed_for("discord"):
        return
    try:
        async with asyncio.timeout(_AVATAR_TIMEOUT_S):  # a rate limit must not hold up start-up
            await client.user.edit(avatar=avatar.image)
    except (discord.HTTPException, ValueError, TimeoutError) as exc:
        log.warning("Discord did not take the persona's avatar (%s); keeping the current one", exc)
        return
    await avatar.mark_set("discord")
    log.info("Discord avatar set from the persona")


async def _until_ready(client: discord.Client, running: asyncio.Task[None], within_s: float) -> None:
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait({ready, running}, timeout=within_s, return_when=asyncio.FIRST_COMPLETED)
    finally:
        ready.cancel()
    if ready in done:
        return
    if running in done:
        error = running.exception()
        if isinstance(error, discord.LoginFailure):
            raise ConfigError("SOUVENIR_DISCORD_TOKEN: Discord rejected the token") from error
        raise ConfigError(f"Discord: could not connect ({_root_cause(error)!r})") from error
    raise ConfigError(
        f"Discord: not ready after {within_s:.0f} s — check SOUVENIR_DISCORD_TOKEN and that Discord "
        "(or SOUVENIR_DISCORD_API_URL / SOUVENIR_DISCORD_GATEWAY_URL) is reachable"
    )


def _root_cause(error: BaseException | None) -> BaseException | None:
    # discord.py can trip over its own state after the first failure; the first failure is what tells.
    while error is not None and (error.__cause__ or error.__context__) is not None:
        error = error.__cause__ or error.__context__
    return error


async def _stopped(running: asyncio.Task[None]) -> None:
    """Waits for the client task to end after close(); cancels it if it lingers. Never raises its errors."""
    await asyncio.wait({running}, timeout=_STOP_TIMEOUT_S)
    running.cancel()
    try:
        await running
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if current is not None and current.cancelling():
            raise  # we are being cancelled ourselves: let it through
    except Exception:
        log.debug("the Discord client ended with an error while stopping", exc_info=True)
