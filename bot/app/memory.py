"""Long-term memory: the embedder, the stored data brought up to date, the mood reader and the memory service."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Protocol

import redis.asyncio as aioredis

from bot.app.planner import DeferredPlanner
from bot.app.stores import Foundation
from bot.config import Settings
from bot.crisis_follow_up import CrisisFollowUp
from bot.engine.browser.memory_view import CorrectableMemories
from bot.engine.ports import DatedEvents, LanguageModel, LongTermMemory, UserDataEraser
from bot.errors import ConfigError
from memory.factory import MemoryOptions, open_long_term_memory
from memory.index_factory import EmbedderOptions, IndexOptions, open_embedder
from memory.mood import find_patterns, open_mood_reader
from memory.mood.journal import MoodJournal
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.privacy.voice_archive import VoiceFiles
from memory.redis.reply_trail import TrailForgettingErasureLog
from memory.redis.schema import IndexInUse, SchemaRecord, check_index, embedding_id, keywords_check, migrate
from memory.service import LongTermMemoryService

log = logging.getLogger(__name__)


class MemoryService(LongTermMemory, CorrectableMemories, DatedEvents, UserDataEraser, Protocol):
    """Long-term memory as the app uses it: recall and write, browse and correct, dated events, erase."""


@dataclass(frozen=True)
class MemoryNeeds:
    """What long-term memory is given beside the stores: the model, the planner, the crisis follow-ups."""

    llm: LanguageModel
    planner: DeferredPlanner
    follow_ups: CrisisFollowUp
    voice_files: VoiceFiles | None  # a forgotten memory's voice note goes with it
    sensitive: LexiconSensitiveTopics


def embedder_options(settings: Settings) -> EmbedderOptions:
    """The embedder (SOUVENIR_EMBEDDING_*); `souvenir doctor` and `souvenir reindex` build theirs here too."""
    return EmbedderOptions(
        provider=settings.embedding_provider,
        model=settings.embedding_model,
        base_url=settings.embedding_base_url,
        api_key=settings.llm_api_key,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def index_options(settings: Settings) -> IndexOptions:
    """Where the memory index is (SOUVENIR_DATA_DIR, SOUVENIR_QDRANT_*); `souvenir reindex` builds its own here."""
    return IndexOptions(
        data_dir=settings.data_dir,
        qdrant_url=settings.qdrant_url,
        qdrant_api_key=settings.qdrant_api_key,
        qdrant_shards=settings.qdrant_shards,
        qdrant_replication=settings.qdrant_replication,
        qdrant_write_consistency=settings.qdrant_write_consistency,
        embedding_provider=settings.embedding_provider,
        embedding_model=settings.embedding_model,
    )


def memory_options(settings: Settings) -> MemoryOptions:
    return MemoryOptions(
        index=index_options(settings),
        embedder=embedder_options(settings),
        default_timezone=settings.default_timezone,
        llm_extraction=settings.llm_extraction,
        episode_fade_days=settings.episode_fade_days,
        episode_retention_days=settings.episode_retention_days,
    )


async def upgrade_stores(client: aioredis.Redis, settings: Settings, dimension: int) -> IndexInUse:
    """Migrate stored data when it is older than this version (`souvenir migrate` does the same), then make sure
    the configured embedder built the memory index in use (else: `souvenir reindex`)."""
    configured = embedding_id(settings.embedding_provider, settings.embedding_model)
    for step in await migrate(client, configured):
        log.info("migrated: %s", step)
    schema = SchemaRecord(client)
    in_use = await schema.index()
    if in_use is None:
        raise ConfigError("the stored data records no memory index; run `souvenir migrate`")
    check_index(in_use, configured, dimension)
    return await schema.note_dimension(in_use, dimension)


async def open_memory(stack: AsyncExitStack, base: Foundation, needs: MemoryNeeds) -> LongTermMemoryService:
    settings, stores, client, cipher = base.settings, base.stores, base.client, base.cipher
    # One embedder for memories and the mood reader (loaded once, before the first message).
    embedder = await stack.enter_async_context(open_embedder(embedder_options(settings)))
    index_in_use = await upgrade_stores(client, settings, embedder.dimension)
    reader = await stack.enter_async_context(
        open_mood_reader(embedder, embedder_is_use=settings.embedding_provider == "use")
    )
    journal = MoodJournal(
        stores.moods, reader=reader, find_patterns=find_patterns, sensitive=needs.sensitive, clock=base.clock,
        erasures=stores.erasures,
    )  # fmt: skip
    return await stack.enter_async_context(
        open_long_term_memory(
            memory_options(settings),
            clock=base.clock,
            llm=needs.llm if settings.llm_extraction else None,
            planner=needs.planner,
            # A forgotten memory leaves the trail too.
            erasures=TrailForgettingErasureLog(stores.erasures, stores.trail),
            said_turns=stores.window,
            message_files=needs.voice_files,
            moods=journal,
            embedder=embedder,
            cipher=cipher,
            people=stores.profiles,  # everyone, for the episode retention sweep
            crisis_notes=stores.profiles,  # the model's reading of a crisis, for the next reply
            crisis_follow_ups=needs.follow_ups,  # and the crisis lines now, when the reply did not carry them
            index_generation=index_in_use.generation,
            index_opened=keywords_check(client, index_in_use, encrypted=cipher.enabled),
            person_models=stores.person_models,
        )
    )
