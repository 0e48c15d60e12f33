"""The conversation engine on its parts, the work it keeps doing in the background, and voice notes around it."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass
from datetime import timedelta

from bot.app.companion import Companion
from bot.app.planner import DeferredPlanner
from bot.app.stores import Foundation
from bot.config import Settings
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.voice import VoiceLimits
from bot.engine.media.voice_conversation import VoiceConversation
from bot.engine.metrics import Metrics
from bot.engine.ports import LanguageModel
from bot.engine.safety.crisis_lines import CrisisLines
from bot.engine.safety.rules import SafetyOptions
from bot.geonames_cities import GeonamesCities
from bot.late_replies import LateReplies
from bot.llm.audio import AudioEndpoint, AudioModels, OpenAIAudio
from bot.llm.endpoint import ChatEndpoint
from bot.llm.factory import open_language_model
from bot.llm.images import ImagesEndpoint, open_image_generator
from bot.llm.measured import MeasuredLanguageModel
from memory.crisis.reader import LearnedCrisisReader
from memory.crisis.reader import load_head as load_crisis_head
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.privacy.erasure import ShortTermFence
from memory.privacy.voice_archive import VoiceFiles
from memory.service import LongTermMemoryService
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker, WorkerOptions, running_worker


@dataclass(frozen=True)
class EngineParts:
    """What the engine is given beside the Redis stores."""

    companion: Companion
    llm: LanguageModel
    memory: LongTermMemoryService
    planner: DeferredPlanner
    sensitive: LexiconSensitiveTopics
    cities: GeonamesCities  # "/timezone Lyon", "I live in Lyon"
    pictures: PictureMaker | None


def chat_endpoint(settings: Settings) -> ChatEndpoint:
    """Where the language model answers (SOUVENIR_LLM_*); the CLI and `souvenir doctor` build theirs here too."""
    return ChatEndpoint(
        provider=settings.llm_provider,
        model=settings.resolved_llm_model,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def images_endpoint(settings: Settings) -> ImagesEndpoint | None:
    """Where pictures are made (None: pictures are off); unset, the base URL and key are the LLM's for OpenAI."""
    if not settings.images_enabled:
        return None
    return ImagesEndpoint(
        base_url=settings.resolved_images_base_url,
        api_key=settings.resolved_images_api_key,
        model=settings.images_model,
        timeout_s=max(settings.llm_timeout_s, 120.0),  # pictures take longer than words
        max_retries=settings.llm_max_retries,
    )


async def open_llm(stack: AsyncExitStack, settings: Settings, metrics: Metrics) -> LanguageModel:
    llm = await stack.enter_async_context(open_language_model(chat_endpoint(settings)))
    return MeasuredLanguageModel(llm, provider=settings.llm_provider, metrics=metrics)


def loading_cities() -> GeonamesCities:
    """The city database, being read in a worker thread: the start does not wait for it (~0.7 s), the first
    look-up ("/timezone Lyon", "I live in Lyon") waits for what is left of it."""
    cities = GeonamesCities()
    cities.start_loading()
    return cities


async def open_pictures(stack: AsyncExitStack, base: Foundation, companion: Companion) -> PictureMaker | None:
    """Off unless enabled: the model is not told it can send pictures, and /picture says so in one line."""
    settings, avatar = base.settings, companion.avatar
    if not settings.images_enabled:
        return None
    return PictureMaker(
        persona=companion.persona,
        generator=await stack.enter_async_context(open_image_generator(images_endpoint(settings))),
        quota=base.stores.picture_quota,
        daily_limit=settings.images_daily_limit,
        # The same face in every picture: the avatar as the reference (edits take PNG or JPEG).
        reference=avatar.image if avatar is not None and avatar.format in ("png", "jpeg") else None,
    )


def engine_options(settings: Settings, crisis_lines: CrisisLines) -> EngineOptions:
    return EngineOptions(
        default_timezone=settings.default_timezone,
        default_language=settings.default_language,
        recall_limit=settings.recall_limit,
        recall_max_words=settings.recall_max_words,
        disclosure=settings.disclosure_policy,
        max_message_chars=settings.max_message_chars,
        context_tokens=settings.llm_context_tokens,
        thread_pause=timedelta(hours=settings.thread_pause_hours),
        safety=SafetyOptions(adult_content=settings.adult_content, crisis_lines=crisis_lines),
    )


async def build_engine(base: Foundation, parts: EngineParts) -> Engine:
    stores, memory = base.stores, parts.memory
    return Engine(
        llm=parts.llm,
        window=stores.window,
        claims=stores.claims,
        profiles=stores.profiles,
        memory=memory,
        planner=parts.planner,
        dated_events=memory,
        persona=parts.companion.persona,
        clock=base.clock,
        options=engine_options(base.settings, parts.companion.crisis_lines),
        fence=ShortTermFence(stores.erasures, [stores.profiles, stores.window, stores.trail]),
        trail=stores.trail,
        moods=stores.moods,
        sensitive=parts.sensitive,
        metrics=base.metrics,
        locks=stores.locks,
        identities=stores.identities,
        outbox=stores.outbox,
        rate_limiter=stores.limiter,
        pseudonyms=stores.pseudonyms,
        pictures=parts.pictures,
        # The learned crisis reading, over the embedding the message's recall computes (no second one).
        crisis_reader=LearnedCrisisReader(memory.message_vector, await asyncio.to_thread(load_crisis_head)),
        cities=parts.cities,
        inbox=stores.inbox,
        person_models=stores.person_models,
    )


async def start_background_work(stack: AsyncExitStack, base: Foundation, engine: Engine) -> LateReplies:
    """Late replies to what a crash left unanswered, and the outbox's memory writes; both end with the core."""
    settings = base.settings
    late_replies = LateReplies(inbox=base.stores.inbox, engine=engine, clock=base.clock,
                               every_s=settings.inbox_lease_s,
                               answer_within=timedelta(minutes=settings.late_reply_within_minutes))  # fmt: skip
    await stack.enter_async_context(late_replies.running())  # sends once a front end registers
    # Stopped before the stores close: what waits gets the grace, the rest stays queued for the next start.
    worker = _outbox_worker(settings, base.stores.outbox, engine, base.metrics, sole=base.lock is not None)
    await stack.enter_async_context(worker)
    stack.push_async_callback(engine.drain, settings.shutdown_grace_s)  # a hung write must not block stopping
    return late_replies


def _outbox_worker(
    settings: Settings, outbox: RedisOutbox, engine: Engine, metrics: Metrics, *, sole: bool
) -> AbstractAsyncContextManager[OutboxWorker]:
    """This replica's worker in the outbox's consumer group. With embedded stores this process is the only
    one (it holds the data dir), so whatever is pending was left by a killed one: taken at once."""
    options = WorkerOptions(
        claim_idle_s=settings.outbox_claim_idle_s, max_attempts=settings.outbox_max_attempts, sole_consumer=sole
    )
    worker = OutboxWorker(outbox, engine.remember, options=options, metrics=metrics, handle_batch=engine.remember_all)
    return running_worker(worker, settings.shutdown_grace_s)


def audio_endpoint(settings: Settings) -> AudioEndpoint | None:
    """Where voice notes are transcribed and spoken (None: voice notes are not configured)."""
    if settings.voice_endpoint is None:
        return None
    models = AudioModels(settings.voice_stt_model, settings.voice_tts_model)
    return AudioEndpoint(settings.voice_endpoint, settings.voice_key, models, settings.llm_timeout_s,
                         settings.llm_max_retries)  # fmt: skip


def voice_conversation(
    base: Foundation, engine: Engine, audio: OpenAIAudio | None, companion: Companion, voice_files: VoiceFiles | None
) -> VoiceConversation:
    """The engine with voice notes in and out (what the adapters use)."""
    settings, stores = base.settings, base.stores
    return VoiceConversation(
        engine,
        profiles=stores.profiles,
        claims=stores.claims,
        transcriber=audio,
        speech=audio,
        speaking_voice=companion.persona.speaking_voice or settings.voice_tts_voice,
        limits=VoiceLimits(max_seconds=settings.voice_max_seconds, max_chars=settings.voice_max_chars),
        default_language=settings.default_language,
        identities=stores.identities,
        archive=voice_files,
    )
