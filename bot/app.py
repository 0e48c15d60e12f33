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
from bot.llm.factory import open_language_model
from bot.persona_file import read_persona
from bot.persona_store import persona_path
from jobs import Planner, open_proactive_jobs
from memory.data_dir_lock import hold_data_dir
from memory.embedded_redis import embedded_redis
from memory.erasure import RedisErasureLog, ShortTermFence
from memory.factory import open_long_term_memory
from memory.redis_stores import RedisConversationWindow, RedisMessageClaims, RedisProfiles

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
    avatar: BotAvatar | None = None  # the bot's profile picture, set where the platform allows it


async def _connect_redis(stack: AsyncExitStack, settings: Settings) -> aioredis.Redis:
    url = settings.redis_url
    if url is None:
        url = await stack.enter_async_context(embedded_redis(settings.data_dir))
    client = aioredis.from_url(url)
    stack.push_async_callback(client.aclose)
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        shown = _without_secrets(url)
        raise StoreUnavailable(f"cannot reach Redis at {shown} (SOUVENIR_REDIS_URL): {exc}") from None
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
        embedded = settings.redis_url is None or settings.qdrant_url is None
        lock = stack.enter_context(hold_data_dir(settings.data_dir)) if embedded else None
        client = await _connect_redis(stack, settings)
        profiles = RedisProfiles(client)
        window = RedisConversationWindow(
            client, max_turns=settings.window_turns, ttl=timedelta(hours=settings.window_ttl_hours)
        )
        claims = RedisMessageClaims(client)
        erasures = RedisErasureLog(client)
        llm = await stack.enter_async_context(open_language_model(settings))
        planner = DeferredPlanner()
        memory = await stack.enter_async_context(
            open_long_term_memory(
                settings,
                clock=clock,
                llm=llm if settings.llm_extraction else None,
                planner=planner,
                erasures=erasures,
                said_turns=window,
            )
        )
        # Planning works without the scheduler running, so /birthday and erasure keep schedules right everywhere.
        schedule = Planner(
            settings, redis=client, profiles=profiles, dated_events=memory, clock=clock, erasures=erasures
        )
        planner.target = schedule
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
            fence=ShortTermFence(erasures, [profiles, window]),
        )
        stack.push_async_callback(engine.drain, settings.shutdown_grace_s)  # a hung write must not block stopping
        commands = UserCommands(
            profiles=profiles,
            memories=memory,
            window=window,
            planner=planner,
            # The erasure log first: writes in flight see the new epoch before anything is deleted.
            erasers=[erasures, memory, profiles, window, claims, planner],
            clock=clock,
            default_timezone=settings.default_timezone,
            default_language=settings.default_language,
            bot_name=persona.name,
            window_ttl_hours=settings.window_ttl_hours,
        )
        if lock is not None:
            # The operator CLI asks this process rather than opening the embedded stores a second time.
            admin = MemoryAdmin(
                commands=commands, memory=memory, people=profiles, clock=clock, recall_limit=settings.recall_limit
            )
            await stack.enter_async_context(serve_admin(admin, lock, settings.data_dir))
        yield Core(
            settings, engine, commands, client, profiles, window, memory, planner, schedule, clock, llm, avatar=avatar
        )



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
        if settings.discord_token is not None:
            from adapters.discord import run_discord

            messengers["discord"] = await stack.enter_async_context(
                run_discord(settings, engine=core.engine, commands=core.commands, avatar=core.avatar)
            )
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
            )
        )
        yield sorted(messengers)
