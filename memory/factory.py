"""The one place the app gets long-term memory from: embedder + index (from `memory.index_factory`) + pipeline."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bot.engine.ports import Clock, LanguageModel, OccasionPlanner
from bot.engine.when.dates import resolve_dates
from memory.index_factory import EmbedderOptions, IndexOptions, open_embedder, open_memory_index
from memory.person.person_model_keeper import PersonModelKeeper, PersonModelStore
from memory.ports import CrisisFollowUps, CrisisNotes, Embedder, ErasureLog, MessageFiles, MoodNotes, SaidTurns
from memory.privacy.crypto import TextCipher
from memory.service import LongTermMemoryService
from memory.store import MemoryStore
from memory.writing.retention import EpisodeRetention, KnownPeople, sweeping


@dataclass(frozen=True)
class MemoryOptions:
    """What long-term memory is opened with: the index, the embedder (opened only when none is given), the
    default time zone, whether the LLM extracts memories (SOUVENIR_LLM_EXTRACTION) and how long episodes last
    (SOUVENIR_EPISODE_FADE_DAYS, 0: they never fade; SOUVENIR_EPISODE_RETENTION_DAYS, None: they are kept)."""

    index: IndexOptions
    embedder: EmbedderOptions = field(default_factory=EmbedderOptions)
    default_timezone: str = "UTC"
    llm_extraction: bool = True
    episode_fade_days: int = 180
    episode_retention_days: int | None = None


@asynccontextmanager
async def open_long_term_memory(
    options: MemoryOptions,
    *,
    clock: Clock,
    llm: LanguageModel | None = None,
    planner: OccasionPlanner | None = None,
    erasures: ErasureLog | None = None,
    said_turns: SaidTurns | None = None,
    message_files: MessageFiles | None = None,
    moods: MoodNotes | None = None,
    embedder: Embedder | None = None,
    cipher: TextCipher | None = None,
    people: KnownPeople | None = None,
    crisis_notes: CrisisNotes | None = None,
    crisis_follow_ups: CrisisFollowUps | None = None,
    index_generation: int = 0,
    index_opened: Callable[[int], Awaitable[None]] | None = None,
    person_models: PersonModelStore | None = None,
) -> AsyncIterator[LongTermMemoryService]:
    """Long-term memory over the configured index; the index is flushed and closed on exit.

    `llm` is used for extraction and consolidation only when SOUVENIR_LLM_EXTRACTION is on; `erasures` fences
    writes in flight against erasure, `said_turns` takes a forgotten memory's words out of recent turns
    and `message_files` the audio of the voice note it was heard from;
    `embedder` (else the configured one is opened here) embeds memories and queries; `cipher` seals what the
    index keeps (none: kept clear); `people` lists everyone for the episode retention sweep
    (SOUVENIR_EPISODE_RETENTION_DAYS); `crisis_notes` and `crisis_follow_ups` take the model's reading of a
    crisis (for the next reply, and the crisis lines sent after it); `index_generation` is the index in use
    (memory/redis/schema.py), `index_opened` is told how many memories it holds before it serves (the start checks
    how its keyword ids were made with it); `person_models` keeps each person's model, rebuilt after their
    memories change."""
    async with AsyncExitStack() as stack:
        if embedder is None:  # else the app's, shared with the mood reader
            embedder = await stack.enter_async_context(open_embedder(options.embedder))
        index = await stack.enter_async_context(
            open_memory_index(
                options.index, embedder, clock=clock, cipher=cipher, generation=index_generation, opened=index_opened
            )
        )
        await _sweep_old_episodes(stack, options, index, clock, people, message_files)
        await asyncio.to_thread(_warm_up_dates, clock.now(), options.default_timezone)
        fade_days = options.episode_fade_days
        service = LongTermMemoryService(
            index,
            default_timezone=options.default_timezone,
            llm=llm if options.llm_extraction else None,
            planner=planner,
            clock=clock,
            episode_fade=timedelta(days=fade_days) if fade_days > 0 else None,
            erasures=erasures,
            said_turns=said_turns,
            message_files=message_files,
            moods=moods,
            crisis_notes=crisis_notes,
            crisis_follow_ups=crisis_follow_ups,
            person_models=_person_model_keeper(index, person_models, clock, options.default_timezone, erasures),
            recall_rows=index.recall_rows,
        )
        try:
            yield service
        finally:
            await service.close()


async def _sweep_old_episodes(
    stack: AsyncExitStack, options: MemoryOptions, index: MemoryStore, clock: Clock, people: KnownPeople | None,
    message_files: MessageFiles | None,
) -> None:  # fmt: skip
    """Episodes older than SOUVENIR_EPISODE_RETENTION_DAYS (and their voice notes' audio) are swept until `stack`
    closes; without that setting, or without the list of everyone, nothing is."""
    if options.episode_retention_days is None or people is None:
        return
    keep = timedelta(days=options.episode_retention_days)
    retention = EpisodeRetention(index, people, clock, keep=keep, message_files=message_files)
    await stack.enter_async_context(sweeping(retention))


def _person_model_keeper(
    index: MemoryStore, models: PersonModelStore | None, clock: Clock, timezone: str, erasures: ErasureLog | None
) -> PersonModelKeeper | None:
    """What rebuilds each person's model after their memories change; none where no model store is given."""
    if models is None:
        return None
    return PersonModelKeeper(index, models, clock, default_timezone=timezone, erasures=erasures)


def _warm_up_dates(now: datetime, timezone: str) -> None:
    """dateparser's first call loads its language data (0.3-0.5 s): at start-up, in a thread, not on a reply."""
    for text, language in (("next Tuesday", "en"), ("mardi prochain", "fr")):
        resolve_dates(text, now, timezone, language)
