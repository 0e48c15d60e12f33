"""`open_core`: the parts opened in order (stores, model, memory, engine, commands) and closed in reverse."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta

from bot.app.commands import memory_view, serve_admin_socket, user_commands
from bot.app.companion import Companion, load_companion
from bot.app.conversation import (
    EngineParts,
    audio_endpoint,
    build_engine,
    loading_cities,
    open_llm,
    open_pictures,
    start_background_work,
    voice_conversation,
)
from bot.app.core import Core
from bot.app.erasure import person_erasers
from bot.app.memory import MemoryNeeds, open_memory
from bot.app.planner import DeferredPlanner, schedule_options
from bot.app.stores import Foundation, make_data_dir, open_foundation
from bot.app.web import memory_browser, open_metrics, readiness_for
from bot.config import Settings
from bot.crisis_follow_up import CrisisFollowUp
from bot.engine.ports import Clock
from bot.engine.when.clock import SystemClock
from bot.front_ends import FrontEnds
from bot.health import Readiness
from bot.http_status import MetricsPage
from bot.llm.audio import open_audio
from jobs import Planner
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.privacy.person_files import PersonFiles
from memory.privacy.voice_archive import VoiceFiles
from memory.service import LongTermMemoryService


@asynccontextmanager
async def open_core(settings: Settings, *, clock: Clock | None = None) -> AsyncIterator[Core]:
    """The engine and the user commands on real stores (Redis, Qdrant, the LLM), for as long as the block runs."""
    async with AsyncExitStack() as stack:
        make_data_dir(settings.data_dir)
        companion = await load_companion(settings)
        metrics, metrics_page = open_metrics(settings)
        base = await open_foundation(stack, settings, clock or SystemClock(), metrics)
        readiness = readiness_for(settings, base.client)
        yield await _open_core_parts(stack, base, companion, readiness, metrics_page)


async def _open_core_parts(
    stack: AsyncExitStack, base: Foundation, companion: Companion, readiness: Readiness,
    metrics_page: MetricsPage | None,
) -> Core:  # fmt: skip
    settings, stores = base.settings, base.stores
    follow_ups = CrisisFollowUp(claims=stores.claims, lines=companion.crisis_lines, metrics=base.metrics)
    llm = await open_llm(stack, settings, base.metrics)
    planner = DeferredPlanner()
    sensitive = LexiconSensitiveTopics()
    voice_files = VoiceFiles(settings.data_dir / "voice-notes") if settings.voice_keep_audio else None
    memory = await open_memory(stack, base, MemoryNeeds(llm, planner, follow_ups, voice_files, sensitive))
    readiness.watch("qdrant", lambda: memory.list_memories("healthz:probe", 0, 1))
    schedule = _schedule(base, memory, planner)
    pictures = await open_pictures(stack, base, companion)
    parts = EngineParts(companion, llm, memory, planner, sensitive, loading_cities(), pictures)
    engine = await build_engine(base, parts)
    late_replies = await start_background_work(stack, base, engine)
    audio = await stack.enter_async_context(open_audio(audio_endpoint(settings)))  # None: voice is off
    person_files = PersonFiles(settings.data_dir / "people")
    commands = user_commands(
        base, memory=memory, planner=planner, bot_name=companion.persona.name, cities=parts.cities,
        erasers=person_erasers(base, memory, planner, voice_files, person_files), voice_speaking=audio is not None,
    )  # fmt: skip
    view = memory_view(base, commands, memory, planner)
    browser = memory_browser(settings, view, stores.web_sessions, base.client, base.clock)
    await serve_admin_socket(stack, base, commands, memory)
    return Core(
        settings, engine, commands, base.client, stores.profiles, stores.window, memory, planner, schedule,
        base.clock, llm, readiness, base.metrics, metrics_page, stores.moods, companion.avatar, stores.identities,
        stores.pseudonyms, voice_conversation(base, engine, audio, companion, voice_files), pictures, person_files,
        follow_ups, FrontEnds(follow_ups, late_replies), browser,
    )  # fmt: skip


def _schedule(base: Foundation, memory: LongTermMemoryService, planner: DeferredPlanner) -> Planner:
    """The one planner: it works without the scheduler running, so /birthday and erasure keep schedules right
    everywhere. Long-term memory has had the stand-in until now."""
    stores = base.stores
    schedule = Planner(
        schedule_options(base.settings), redis=base.client, profiles=stores.profiles, dated_events=memory,
        clock=base.clock, lease=timedelta(seconds=base.settings.proactive_lease_s), erasures=stores.erasures,
    )  # fmt: skip
    planner.target = schedule
    return schedule
