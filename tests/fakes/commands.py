"""The real `UserCommands` over real Redis profiles and windows, with the memory side given by the test."""

from __future__ import annotations

from datetime import timedelta
from typing import Protocol

import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.noop import NoPlanner
from bot.engine.ports import Clock, MemoryBrowser, MoodHistory, OccasionPlanner, UserDataEraser
from bot.engine.when.city_zones import Cities
from memory.redis.reply_trail import RedisReplyTrail
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.fakes.memory_browser import InMemoryMemoryBrowser


class ErasableMemories(MemoryBrowser, UserDataEraser, Protocol):
    """A memory browser that also forgets a whole person (the in-memory fakes are both)."""


def redis_backed_commands(
    redis: aioredis.Redis,
    clock: Clock,
    memories: ErasableMemories,
    *,
    planner: OccasionPlanner | None = None,
    schedule_eraser: UserDataEraser | None = None,
    moods: MoodHistory | None = None,
    voice_speaking: bool = False,
    cities: Cities | None = None,
) -> tuple[UserCommands, RedisProfiles, RedisConversationWindow]:
    profiles = RedisProfiles(redis)
    window = RedisConversationWindow(redis, max_turns=20, ttl=timedelta(hours=2))
    trail = RedisReplyTrail(redis, ttl=timedelta(hours=2))  # `RedisReplyTrail(redis, …)` in a test sees it
    if isinstance(memories, InMemoryMemoryBrowser):
        memories.on_forgot = trail.forget_memories
    erasers: list[UserDataEraser] = [memories, profiles, window, trail]
    if schedule_eraser is not None:
        erasers.append(schedule_eraser)
    commands = UserCommands(
        profiles=profiles,
        memories=memories,
        window=window,
        planner=planner or NoPlanner(),
        erasers=erasers,
        clock=clock,
        default_timezone="UTC",
        default_language="en",
        bot_name="Souvenir",
        window_ttl_hours=2,
        trail=trail,
        moods=moods,
        voice_speaking=voice_speaking,
        cities=cities,
    )
    return commands, profiles, window
