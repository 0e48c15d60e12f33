"""The people's commands, the memory browser's view of them, and the operator's admin socket over the same."""

from __future__ import annotations

from contextlib import AsyncExitStack

from bot.admin.operations import MemoryAdmin
from bot.admin.server import serve_admin
from bot.app.planner import DeferredPlanner
from bot.app.stores import Foundation
from bot.engine.browser.memory_view import MemoryView
from bot.engine.commands.user_commands import UserCommands
from bot.engine.ports import UserDataEraser
from bot.geonames_cities import GeonamesCities
from memory.mood.history import MoodHistoryService
from memory.service import LongTermMemoryService


def user_commands(
    base: Foundation, *, memory: LongTermMemoryService, planner: DeferredPlanner, bot_name: str, cities: GeonamesCities,
    erasers: list[UserDataEraser], voice_speaking: bool,
) -> UserCommands:  # fmt: skip
    settings, stores = base.settings, base.stores
    return UserCommands(
        profiles=stores.profiles,
        memories=memory,
        window=stores.window,
        planner=planner,
        erasers=erasers,
        clock=base.clock,
        default_timezone=settings.default_timezone,
        default_language=settings.default_language,
        bot_name=bot_name,
        window_ttl_hours=settings.window_ttl_hours,
        trail=stores.trail,
        moods=MoodHistoryService(stores.moods, base.clock),
        identities=stores.identities,
        pseudonyms=stores.pseudonyms,
        voice_speaking=voice_speaking,
        cities=cities,
        person_models=memory.person_models,  # first in /memories and /export, lines can be set aside
        ended_at_unlink=[stores.web_sessions],
    )


def memory_view(
    base: Foundation, commands: UserCommands, memory: LongTermMemoryService, planner: DeferredPlanner
) -> MemoryView:
    stores = base.stores
    return MemoryView(commands=commands, memories=memory, profiles=stores.profiles, planner=planner, clock=base.clock,
                      default_timezone=base.settings.default_timezone, person_models=memory.person_models,
                      dated_events=memory, trail=stores.trail)  # fmt: skip


async def serve_admin_socket(
    stack: AsyncExitStack, base: Foundation, commands: UserCommands, memory: LongTermMemoryService
) -> None:
    """With embedded stores, the operator CLI asks this process rather than opening them a second time."""
    if base.lock is None:
        return
    admin = MemoryAdmin(
        commands=commands, memory=memory, people=base.stores.profiles, clock=base.clock,
        recall_limit=base.settings.recall_limit,
    )  # fmt: skip
    await stack.enter_async_context(serve_admin(admin, base.lock, base.settings.data_dir))
