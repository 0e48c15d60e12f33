"""The platforms that are configured, then the scheduler that writes first through them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING

from bot.app.core import Core
from bot.app.planner import sweep_options
from bot.app.web import discord_browser_link, telegram_browser_url
from bot.config import Settings
from bot.engine.media.voice_messenger import SpeakingMessenger, VoiceDelivery
from bot.engine.ports import Messenger
from bot.health import Readiness, platform_probe
from jobs import Planner, open_proactive_jobs
from memory.privacy.pseudonyms import ResolvingMessenger

if TYPE_CHECKING:  # each platform's library is imported only when it is configured
    from adapters.discord import DiscordOptions
    from adapters.telegram import TelegramOptions


@asynccontextmanager
async def open_platforms_and_jobs(core: Core) -> AsyncIterator[list[str]]:
    """Start the configured platforms, then the scheduler that writes first through them; yields their names."""
    speaking: dict[str, Messenger] = {}  # what the scheduler writes through: spoken for people with /voice on
    async with AsyncExitStack() as stack:
        # Platform libraries are imported only when configured: they are heavy and most installs use one.
        if core.settings.telegram_token is not None:
            speaking["telegram"] = _started(stack, core, "telegram", await _run_telegram(stack, core))
        if core.settings.discord_token is not None:
            speaking["discord"] = _started(stack, core, "discord", await _run_discord(stack, core))
        await stack.enter_async_context(_proactive_jobs(core, speaking))
        yield sorted(speaking)


def _started(stack: AsyncExitStack, core: Core, name: str, platform: VoiceDelivery) -> Messenger:
    """A platform that runs: its crisis follow-ups and late replies registered, /healthz watching it; returns what
    the scheduler writes through."""
    _follow_ups_through(stack, core, name, platform)
    _watch_platform(stack, core.readiness, name, platform)
    return _outgoing(platform, core)


def telegram_options(settings: Settings) -> TelegramOptions:
    from adapters.telegram import TelegramOptions

    return TelegramOptions(
        token=settings.telegram_token,
        api_url=settings.telegram_api_url,
        webhook_url=settings.telegram_webhook_url,
        webhook_secret=settings.telegram_webhook_secret,
        webhook_listen=settings.telegram_webhook_listen,
        webhook_port=settings.telegram_webhook_port,
        shutdown_grace_s=settings.shutdown_grace_s,
    )


def discord_options(settings: Settings) -> DiscordOptions:
    from adapters.discord import DiscordOptions

    shard_ids = settings.discord_shard_id_list
    return DiscordOptions(
        token=settings.discord_token,
        api_url=settings.discord_api_url,
        gateway_url=settings.discord_gateway_url,
        shards=settings.discord_shards,
        shard_ids=tuple(shard_ids) if shard_ids is not None else None,
        shutdown_grace_s=settings.shutdown_grace_s,
    )


async def _run_telegram(stack: AsyncExitStack, core: Core) -> VoiceDelivery:
    from adapters.telegram import run_telegram

    return await stack.enter_async_context(
        run_telegram(
            telegram_options(core.settings),
            engine=core.conversation or core.engine,
            commands=core.commands,
            avatar=core.avatar,
            voice=core.conversation,
            browser_url=telegram_browser_url(core),  # the memory browser's Mini App
        )
    )


async def _run_discord(stack: AsyncExitStack, core: Core) -> VoiceDelivery:
    from adapters.discord import run_discord
    from adapters.discord.identify_gate import RedisIdentifyGate

    return await stack.enter_async_context(
        run_discord(
            discord_options(core.settings),
            engine=core.conversation or core.engine,
            commands=core.commands,
            avatar=core.avatar,
            voice=core.conversation,
            identify_gate=RedisIdentifyGate(core.redis),  # paced across every process of the bot
            browser_link=discord_browser_link(core),
        )
    )


def _proactive_jobs(core: Core, speaking: dict[str, Messenger]) -> AbstractAsyncContextManager[Planner]:
    return open_proactive_jobs(
        sweep_options(core.settings),
        planner=core.schedule,
        profiles=core.profiles,
        window=core.window,
        dated_events=core.memory,
        memory=core.memory,
        llm=core.llm,
        messengers=speaking,
        clock=core.clock,
        persona=core.engine.persona,
        moods=core.moods,
        metrics=core.metrics,
        identities=core.identities,  # a linked person hears from the companion where last seen
        pictures=core.pictures,  # a birthday card with the birthday message, when pictures are on
    )


def _outgoing(platform: VoiceDelivery, core: Core) -> Messenger:
    """What the scheduler writes through: to the account behind a pseudonymous key (SOUVENIR_PSEUDONYMOUS_KEYS),
    spoken for people who turned voice on."""
    delivery: VoiceDelivery = ResolvingMessenger(platform, core.pseudonyms) if core.pseudonyms else platform
    return SpeakingMessenger(delivery, core.conversation) if core.conversation else delivery


def _follow_ups_through(stack: AsyncExitStack, core: Core, name: str, platform: VoiceDelivery) -> None:
    """Crisis follow-ups and late replies go to the account that wrote, in text (a phone number is read, not
    heard)."""
    if core.front_ends is not None:
        delivery = ResolvingMessenger(platform, core.pseudonyms) if core.pseudonyms else platform
        stack.enter_context(core.front_ends.through(name, delivery))


def _watch_platform(stack: AsyncExitStack, readiness: Readiness, name: str, messenger: Messenger) -> None:
    readiness.watch(name, platform_probe(messenger))
    stack.callback(readiness.waiting, name, "stopped")
