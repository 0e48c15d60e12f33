"""The one place where concrete parts are wired together; backends are chosen here, once.

`open_core` gives the engine and the user commands on real stores (Redis, Qdrant, the LLM);
`run_companion` adds the platform adapters and the scheduler of unprompted messages.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bot.admin.operations import MemoryAdmin
from bot.admin.server import serve_admin
from bot.avatar import BotAvatar, bot_avatar
from bot.config import Settings
from bot.engine.clock import SystemClock
from bot.engine.commands import UserCommands
from bot.engine.engine import Engine, EngineOptions
from bot.engine.metrics import Metrics, NoMetrics
from bot.engine.picture_maker import PictureMaker
from bot.engine.ports import (
    Clock,
    DatedEvents,
    LanguageModel,
    LongTermMemory,
    MemoryBrowser,
    Messenger,
    OccasionPlanner,
    UserDataEraser,
)
from bot.errors import ConfigError, StoreUnavailable
from bot.health import Readiness, platform_probe
from bot.http_status import MetricsPage, serve_status
from bot.llm.factory import open_language_model
from bot.llm.images import open_image_generator
from bot.llm.measured import MeasuredLanguageModel
from bot.persona_file import read_persona
from bot.persona_store import persona_path
from jobs import Planner, open_proactive_jobs
from memory.conversation_locks import RedisConversationLocks
from memory.data_dir_lock import hold_data_dir
from memory.embedded_redis import embedded_redis
from memory.erasure import RedisErasureLog, ShortTermFence
from memory.factory import open_long_term_memory
from memory.identities import RedisIdentities
from memory.index_factory import open_embedder
from memory.mood import find_patterns, open_mood_reader
from memory.mood.history import MoodHistoryService
from memory.mood.journal import MoodJournal
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.mood.series import RedisMoodSeries
from memory.picture_quota import RedisPictureQuota
from memory.redis_connect import redis_client
from memory.redis_stores import RedisConversationWindow, RedisMessageClaims, RedisProfiles
from memory.reply_trail import RedisReplyTrail, TrailForgettingErasureLog

log = logging.getLogger(__name__)


class SchedulePlanner(OccasionPlanner, UserDataEraser, Protocol):
    """The scheduler's side that commands and memory talk to."""


class MemoryService(LongTermMemory, MemoryBrowser, DatedEvents, UserDataEraser, Protocol):
    """Long-term memory as the app uses it: recall and write, browse, dated events, erase."""


class DeferredPlanner:
    """Breaks a cycle: long-term memory reschedules when it learns a date, and the planner reads dates
    from long-term memory. Memory gets this stand-in; the real planner is set as soon as memory exists."""

    def __init__(self) -> None:
        self.target: SchedulePlanner | None = None

    async def plan_user(self, user_key: str) -> None:
        if self.target is not None:
            await self.target.plan_user(user_key)

    async def note_activity(self, user_key: str, at: datetime) -> None:
        if self.target is not None:
            await self.target.note_activity(user_key, at)

    async def forget_user(self, user_key: str) -> None:
        if self.target is not None:
            await self.target.forget_user(user_key)


@dataclass(frozen=True)
class Core:
    settings: Settings
    engine: Engine
    commands: UserCommands
    redis: aioredis.Redis
    profiles: RedisProfiles
    window: RedisConversationWindow
    memory: MemoryService
    planner: DeferredPlanner
    schedule: Planner  # the one planner and due store: commands, memory and the sweep share it
    clock: Clock
    llm: LanguageModel
    readiness: Readiness  # what /healthz reports
    metrics: Metrics
    metrics_page: MetricsPage | None  # None: SOUVENIR_HTTP_PORT unset, nothing exported
    moods: RedisMoodSeries | None = None  # how each person has been feeling (tone, /mood, unprompted messages)
    avatar: BotAvatar | None = None  # the bot's profile picture, set where the platform allows it
    identities: RedisIdentities | None = None  # which accounts are one person (/link)
    pictures: PictureMaker | None = None  # pictures of the companion (off unless SOUVENIR_IMAGES_ENABLED)


async def _connect_redis(stack: AsyncExitStack, settings: Settings) -> aioredis.Redis:
    url = settings.redis_url
    if settings.redis_embedded:
        url = await stack.enter_async_context(embedded_redis(settings.data_dir))
    client = redis_client(settings, url)
    stack.push_async_callback(client.aclose)
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        if url is None:
            service, sentinels = settings.redis_sentinel_service, settings.redis_sentinels
            where = f"the {service} master (SOUVENIR_REDIS_SENTINELS={sentinels})"
        else:
            where = f"{_without_secrets(url)} (SOUVENIR_REDIS_URL)"
        raise StoreUnavailable(f"cannot reach Redis at {where}: {exc}") from None
    return client


def _without_secrets(url: str) -> str:
    """The URL to show: no user, password or query (redis-py also reads `?password=`)."""
    parts = urlsplit(url)
    try:
        netloc = f"{parts.hostname or ''}:{parts.port}" if parts.port else parts.hostname or ""
    except ValueError:
        netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _make_data_dir(path: Path) -> None:
    """The data folder, or one line saying why it cannot be (a settings problem: exit code 2)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"SOUVENIR_DATA_DIR: cannot create {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"SOUVENIR_DATA_DIR: {path} is not writable by this user")


@asynccontextmanager
async def open_core(settings: Settings, *, clock: Clock | None = None) -> AsyncIterator[Core]:
    clock = clock or SystemClock()
    async with AsyncExitStack() as stack:
        _make_data_dir(settings.data_dir)
        loaded = read_persona(persona_path(settings.persona_file, settings.data_dir))
        persona = loaded.persona
        avatar = bot_avatar(settings.persona_avatar, loaded.card.avatar if loaded.card else None, settings.data_dir)
        # Embedded stores belong to one process: taken before any starts, so a second one never does.
        embedded = settings.redis_embedded or settings.qdrant_url is None
        lock = stack.enter_context(hold_data_dir(settings.data_dir)) if embedded else None
        client = await _connect_redis(stack, settings)
        metrics, metrics_page = _open_metrics(settings)
        readiness = Readiness()
        readiness.watch("redis", client.ping)
        for platform in _configured_platforms(settings):
            readiness.waiting(platform)
        profiles = RedisProfiles(client)
        window = RedisConversationWindow(
            client, max_turns=settings.window_turns, ttl=timedelta(hours=settings.window_ttl_hours)
        )
        claims = RedisMessageClaims(client)
        erasures = RedisErasureLog(client)
        trail = RedisReplyTrail(client, ttl=timedelta(hours=settings.window_ttl_hours), forgotten=erasures)
        llm: LanguageModel = await stack.enter_async_context(open_language_model(settings))
        llm = MeasuredLanguageModel(llm, provider=settings.llm_provider, metrics=metrics)
        planner = DeferredPlanner()
        moods = RedisMoodSeries(client)
        sensitive = LexiconSensitiveTopics()
        # One embedder for memories and the mood reader (loaded once, before the first message).
        embedder = await stack.enter_async_context(open_embedder(settings))
        reader = await stack.enter_async_context(open_mood_reader(settings, embedder))
        journal = MoodJournal(
            moods, reader=reader, find_patterns=find_patterns, sensitive=sensitive, clock=clock, erasures=erasures
        )
        memory = await stack.enter_async_context(
            open_long_term_memory(
                settings,
                clock=clock,
                llm=llm if settings.llm_extraction else None,
                planner=planner,
                erasures=TrailForgettingErasureLog(erasures, trail),  # a forgotten memory leaves the trail too
                said_turns=window,
                moods=journal,
                embedder=embedder,
            )
        )
        readiness.watch("qdrant", lambda: memory.list_memories("healthz:probe", 0, 1))
        # Planning works without the scheduler running, so /birthday and erasure keep schedules right everywhere.
        schedule = Planner(
            settings, redis=client, profiles=profiles, dated_events=memory, clock=clock, erasures=erasures
        )
        planner.target = schedule
        locks = RedisConversationLocks(client)  # one reply at a time per conversation, across replicas
        identities = RedisIdentities(client, clock)  # accounts linked into one person (/link)
        picture_quota = RedisPictureQuota(client)
        pictures = PictureMaker(
            persona=persona,
            generator=await stack.enter_async_context(open_image_generator(settings)),
            quota=picture_quota,
            daily_limit=settings.images_daily_limit,
            # The same face in every picture: the avatar as the reference (edits take PNG or JPEG).
            reference=avatar.image if avatar is not None and avatar.format in ("png", "jpeg") else None,
        )
        engine = Engine(
            llm=llm,
            window=window,
            claims=claims,
            profiles=profiles,
            memory=memory,
            planner=planner,
            dated_events=memory,
            persona=persona,
            clock=clock,
            options=EngineOptions(
                default_timezone=settings.default_timezone,
                default_language=settings.default_language,
                recall_limit=settings.recall_limit,
                recall_max_words=settings.recall_max_words,
                disclosure=settings.disclosure_policy,
                max_message_chars=settings.max_message_chars,
                context_tokens=settings.llm_context_tokens,
            ),
            fence=ShortTermFence(erasures, [profiles, window, trail]),
            trail=trail,
            moods=moods,
            sensitive=sensitive,
            metrics=metrics,
            locks=locks,
            identities=identities,
            pictures=pictures,
        )
        stack.push_async_callback(engine.drain, settings.shutdown_grace_s)  # a hung write must not block stopping
        commands = UserCommands(
            profiles=profiles,
            memories=memory,
            window=window,
            planner=planner,
            # The erasure log first: writes in flight see the new epoch before anything is deleted.
            erasers=[erasures, memory, profiles, window, trail, claims, planner, moods, locks, picture_quota],
            clock=clock,
            default_timezone=settings.default_timezone,
            default_language=settings.default_language,
            bot_name=persona.name,
            window_ttl_hours=settings.window_ttl_hours,
            trail=trail,
            moods=MoodHistoryService(moods, clock),
            identities=identities,
        )
        if lock is not None:
            # The operator CLI asks this process rather than opening the embedded stores a second time.
            admin = MemoryAdmin(
                commands=commands, memory=memory, people=profiles, clock=clock, recall_limit=settings.recall_limit
            )
            await stack.enter_async_context(serve_admin(admin, lock, settings.data_dir))
        yield Core(
            settings, engine, commands, client, profiles, window, memory, planner, schedule, clock, llm,
            readiness, metrics, metrics_page, moods, avatar, identities, pictures,
        )  # fmt: skip


def _open_metrics(settings: Settings) -> tuple[Metrics, MetricsPage | None]:
    if settings.http_port is None:
        return NoMetrics(), None
    from bot.prometheus_metrics import PrometheusMetrics

    exported = PrometheusMetrics()
    return exported, MetricsPage(exported.render, exported.content_type)


def _configured_platforms(settings: Settings) -> list[str]:
    names = {"telegram": settings.telegram_token, "discord": settings.discord_token}
    return [name for name, token in names.items() if token is not None]


@asynccontextmanager
async def open_status_server(core: Core) -> AsyncIterator[int | None]:
    """/healthz and /metrics on SOUVENIR_HTTP_PORT for as long as the core runs; yields the bound port."""
    port = core.settings.http_port
    if port is None:
        yield None
        return
    async with serve_status(core.readiness, core.metrics_page, host=core.settings.http_host, port=port) as bound:
        yield bound



@asynccontextmanager
async def open_platforms_and_jobs(core: Core) -> AsyncIterator[list[str]]:
    """Start the configured platforms, then the scheduler that writes first through them."""
    settings = core.settings
    messengers: dict[str, Messenger] = {}
    async with AsyncExitStack() as stack:
        # Platform libraries are imported only when configured: they are heavy and most installs use one.
        if settings.telegram_token is not None:
            from adapters.telegram import run_telegram

            messengers["telegram"] = await stack.enter_async_context(
                run_telegram(settings, engine=core.engine, commands=core.commands, avatar=core.avatar)
            )
            _watch_platform(stack, core.readiness, "telegram", messengers["telegram"])
        if settings.discord_token is not None:
            from adapters.discord import run_discord

            messengers["discord"] = await stack.enter_async_context(
                run_discord(settings, engine=core.engine, commands=core.commands, avatar=core.avatar)
            )
            _watch_platform(stack, core.readiness, "discord", messengers["discord"])
        await stack.enter_async_context(
            open_proactive_jobs(
                settings,
                planner=core.schedule,
                profiles=core.profiles,
                window=core.window,
                dated_events=core.memory,
                memory=core.memory,
                llm=core.llm,
                messengers=messengers,
                clock=core.clock,
                persona=core.engine.persona,
                moods=core.moods,
                metrics=core.metrics,
                identities=core.identities,  # a linked person hears from the companion where last seen
                pictures=core.pictures,  # a birthday card with the birthday message, when pictures are on
            )
        )
        yield sorted(messengers)


def _watch_platform(stack: AsyncExitStack, readiness: Readiness, name: str, messenger: Messenger) -> None:
    readiness.watch(name, platform_probe(messenger))
    stack.callback(readiness.waiting, name, "stopped")
