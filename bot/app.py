"""The one place where concrete parts are wired together; backends are chosen here, once.

`open_core` gives the engine and the user commands on real stores (Redis, Qdrant, the LLM);
`run_companion` adds the platform adapters and the scheduler of unprompted messages.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bot.admin.operations import MemoryAdmin
from bot.admin.server import serve_admin
from bot.avatar import BotAvatar, bot_avatar
from bot.config import Settings
from bot.crisis_follow_up import CrisisFollowUp
from bot.crisis_lines_file import load_crisis_lines
from bot.engine.browser.memory_view import CorrectableMemories, MemoryView
from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.voice import VoiceLimits
from bot.engine.media.voice_conversation import VoiceConversation
from bot.engine.media.voice_messenger import SpeakingMessenger, VoiceDelivery
from bot.engine.metrics import Metrics, NoMetrics
from bot.engine.model import UserRef
from bot.engine.ports import (
    Clock,
    DatedEvents,
    LanguageModel,
    LongTermMemory,
    Messenger,
    OccasionPlanner,
    StoreEraser,
    UserDataEraser,
)
from bot.engine.safety.rules import SafetyOptions
from bot.engine.when.clock import SystemClock
from bot.errors import ConfigError, StoreUnavailable
from bot.front_ends import FrontEnds
from bot.geonames_cities import GeonamesCities
from bot.health import Readiness, platform_probe
from bot.http_status import MetricsPage, serve_status
from bot.late_replies import LateReplies
from bot.llm.audio import open_audio
from bot.llm.factory import open_language_model
from bot.llm.images import open_image_generator
from bot.llm.measured import MeasuredLanguageModel
from bot.persona_file import read_persona
from bot.persona_store import persona_path
from bot.private_files import make_private
from jobs import Planner, open_proactive_jobs
from memory.crisis.reader import LearnedCrisisReader
from memory.crisis.reader import load_head as load_crisis_head
from memory.factory import open_long_term_memory
from memory.index_factory import open_embedder
from memory.mood import find_patterns, open_mood_reader
from memory.mood.history import MoodHistoryService
from memory.mood.journal import MoodJournal
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.mood.series import RedisMoodSeries
from memory.person.person_model_store import RedisPersonModels
from memory.privacy.crypto import KeyStore, TextCipher
from memory.privacy.crypto.startup import cipher_for, key_store_for
from memory.privacy.erasure import RedisErasureLog, ShortTermFence
from memory.privacy.person_files import PersonFiles
from memory.privacy.pseudonyms import RedisPseudonyms, ResolvingMessenger, load_or_create_secret
from memory.privacy.voice_archive import VoiceFiles
from memory.redis.aof_rewrite import AofCompactor
from memory.redis.connect import redis_client
from memory.redis.conversation_locks import RedisConversationLocks
from memory.redis.data_dir_lock import hold_data_dir
from memory.redis.embedded import embedded_redis
from memory.redis.identities import RedisIdentities
from memory.redis.inbox import RedisInbox
from memory.redis.picture_quota import RedisPictureQuota
from memory.redis.rate_limit import RedisRateLimiter
from memory.redis.reply_trail import RedisReplyTrail, TrailForgettingErasureLog
from memory.redis.schema import IndexInUse, SchemaRecord, check_index, keywords_check, migrate
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.redis.web_logins import RedisLoginTokens
from memory.redis.web_sessions import RedisWebSessions
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker, WorkerOptions, running_worker

if TYPE_CHECKING:
    from adapters.web import BrowserParts

log = logging.getLogger(__name__)


class SchedulePlanner(OccasionPlanner, UserDataEraser, Protocol):
    """The scheduler's side that commands and memory talk to."""


class MemoryService(LongTermMemory, CorrectableMemories, DatedEvents, UserDataEraser, Protocol):
    """Long-term memory as the app uses it: recall and write, browse and correct, dated events, erase."""


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
    pseudonyms: RedisPseudonyms | None = None  # SOUVENIR_PSEUDONYMOUS_KEYS: the one way back to accounts
    conversation: VoiceConversation | None = None  # the engine with voice notes in and out (what adapters use)
    pictures: PictureMaker | None = None  # pictures of the companion (off unless SOUVENIR_IMAGES_ENABLED)
    person_files: PersonFiles | None = None  # charts, voice replies, pictures written for one person
    crisis_follow_ups: CrisisFollowUp | None = None  # each front end registers its messenger once it runs
    front_ends: FrontEnds | None = None  # what a front end registers with: crisis follow-ups, late replies
    browser: BrowserParts | None = None  # the memory browser (SOUVENIR_PUBLIC_URL), served beside /healthz


async def _upgrade_stores(client: aioredis.Redis, settings: Settings, dimension: int) -> IndexInUse:
    """Migrate stored data when it is older than this version (`souvenir migrate` does the same), then make sure
    the configured embedder built the memory index in use (else: `souvenir reindex`)."""
    for step in await migrate(client, settings):
        log.info("migrated: %s", step)
    schema = SchemaRecord(client)
    in_use = await schema.index()
    if in_use is None:
        raise ConfigError("the stored data records no memory index; run `souvenir migrate`")
    check_index(in_use, settings, dimension)
    return await schema.note_dimension(in_use, dimension)


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
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"SOUVENIR_DATA_DIR: cannot create {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"SOUVENIR_DATA_DIR: {path} is not writable by this user")
    make_private(path)  # files from before (or copied in by hand) become owner-only too


@asynccontextmanager
async def open_core(settings: Settings, *, clock: Clock | None = None) -> AsyncIterator[Core]:
    clock = clock or SystemClock()
    async with AsyncExitStack() as stack:
        _make_data_dir(settings.data_dir)
        loaded = read_persona(persona_path(settings.persona_file, settings.data_dir))
        persona = loaded.persona
        crisis_lines = await asyncio.to_thread(load_crisis_lines, settings.crisis_lines_file)
        avatar = bot_avatar(settings.persona_avatar, loaded.card.avatar if loaded.card else None, settings.data_dir)
        # Embedded stores belong to one process: taken before any starts, so a second one never does.
        embedded = settings.redis_embedded or settings.qdrant_url is None
        lock = stack.enter_context(hold_data_dir(settings.data_dir)) if embedded else None
        client = await _connect_redis(stack, settings)
        # Before any store writes: a key that does not open the data already stored stops the start here.
        master = settings.encryption_key.get_secret_value() if settings.encryption_key else None
        cipher = await cipher_for(client, master, key_store_for(stack, settings, client))
        metrics, metrics_page = _open_metrics(settings)
        readiness = Readiness()
        readiness.watch("redis", client.ping)
        for platform in _configured_platforms(settings):
            readiness.waiting(platform)
        profiles = RedisProfiles(client, cipher=cipher)
        window = RedisConversationWindow(
            client, max_turns=settings.window_turns, ttl=timedelta(hours=settings.window_ttl_hours), cipher=cipher
        )
        claims = RedisMessageClaims(client)
        # Each message kept from its arrival until its reply and exchange are queued: a crash mid-reply is
        # answered late, not lost.
        inbox = RedisInbox(client, lease_s=settings.inbox_lease_s, cipher=cipher)
        erasures = RedisErasureLog(client)
        follow_ups = CrisisFollowUp(claims=claims, lines=crisis_lines, metrics=metrics)
        trail = RedisReplyTrail(
            client, ttl=timedelta(hours=settings.window_ttl_hours), forgotten=erasures, cipher=cipher
        )
        llm: LanguageModel = await stack.enter_async_context(open_language_model(settings))
        llm = MeasuredLanguageModel(llm, provider=settings.llm_provider, metrics=metrics)
        planner = DeferredPlanner()
        moods = RedisMoodSeries(client, cipher=cipher)
        sensitive = LexiconSensitiveTopics()
        person_models = RedisPersonModels(client, cipher=cipher)  # what a friend knows, built after memory writes
        # One embedder for memories and the mood reader (loaded once, before the first message).
        embedder = await stack.enter_async_context(open_embedder(settings))
        index_in_use = await _upgrade_stores(client, settings, embedder.dimension)
        reader = await stack.enter_async_context(open_mood_reader(settings, embedder))
        journal = MoodJournal(
            moods, reader=reader, find_patterns=find_patterns, sensitive=sensitive, clock=clock, erasures=erasures
        )
        voice_files = VoiceFiles(settings.data_dir / "voice-notes") if settings.voice_keep_audio else None
        memory = await stack.enter_async_context(
            open_long_term_memory(
                settings,
                clock=clock,
                llm=llm if settings.llm_extraction else None,
                planner=planner,
                erasures=TrailForgettingErasureLog(erasures, trail),  # a forgotten memory leaves the trail too
                said_turns=window,
                message_files=voice_files,  # a forgotten memory's voice note goes with it
                moods=journal,
                embedder=embedder,
                cipher=cipher,
                people=profiles,  # everyone, for the episode retention sweep
                crisis_notes=profiles,  # the model's reading of a crisis, for the next reply
                crisis_follow_ups=follow_ups,  # and the crisis lines now, when the reply did not carry them
                index_generation=index_in_use.generation,
                index_opened=keywords_check(client, index_in_use, encrypted=cipher.enabled),
                person_models=person_models,
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
        outbox = RedisOutbox(client, cipher=cipher)  # memory writes, kept before each reply (sealed)
        limiter = (
            RedisRateLimiter(client, clock, per_minute=settings.rate_limit_per_minute)
            if settings.rate_limit_per_minute > 0
            else None
        )
        pseudonyms = _pseudonyms(settings, client, cipher)
        picture_quota = RedisPictureQuota(client)
        # Off unless enabled: the model is not told it can send pictures, and /picture says so in one line.
        pictures = (
            PictureMaker(
                persona=persona,
                generator=await stack.enter_async_context(open_image_generator(settings)),
                quota=picture_quota,
                daily_limit=settings.images_daily_limit,
                # The same face in every picture: the avatar as the reference (edits take PNG or JPEG).
                reference=avatar.image if avatar is not None and avatar.format in ("png", "jpeg") else None,
            )
            if settings.images_enabled
            else None
        )
        cities = GeonamesCities()  # "/timezone Lyon", "I live in Lyon"
        await cities.load()  # at start, in a worker thread: no reply waits for it
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
                thread_pause=timedelta(hours=settings.thread_pause_hours),
                safety=SafetyOptions(adult_content=settings.adult_content, crisis_lines=crisis_lines),
            ),
            fence=ShortTermFence(erasures, [profiles, window, trail]),
            trail=trail,
            moods=moods,
            sensitive=sensitive,
            metrics=metrics,
            locks=locks,
            identities=identities,
            outbox=outbox,
            rate_limiter=limiter,
            pseudonyms=pseudonyms,
            pictures=pictures,
            # The learned crisis reading, over the embedding the message's recall computes (no second one).
            crisis_reader=LearnedCrisisReader(memory.message_vector, await asyncio.to_thread(load_crisis_head)),
            cities=cities,
            inbox=inbox,
            person_models=person_models,
        )
        late_replies = LateReplies(inbox=inbox, engine=engine, clock=clock, every_s=settings.inbox_lease_s,
                                   answer_within=timedelta(minutes=settings.late_reply_within_minutes))  # fmt: skip
        await stack.enter_async_context(late_replies.running())  # sends once a front end registers
        # Stopped before the stores close: what waits gets the grace, the rest stays queued for the next start.
        await stack.enter_async_context(_outbox_worker(settings, outbox, engine, metrics, sole=lock is not None))
        stack.push_async_callback(engine.drain, settings.shutdown_grace_s)  # a hung write must not block stopping
        # The epoch moves first, so a write in flight knows to undo itself before the key it would seal with goes;
        # then the data key (crypto-shredding: every copy of their texts unreadable at once), then the records.
        # Each named by the store it empties, for the receipt the memory browser gives after an erasure.
        erasers: list[UserDataEraser] = [
            StoreEraser("erasure_marker", erasures), StoreEraser("data_key", cipher), StoreEraser("memories", memory),
            StoreEraser("profile", profiles), StoreEraser("short_term", window), StoreEraser("reply_trail", trail),
            StoreEraser("short_term", claims), StoreEraser("schedule", planner), StoreEraser("moods", moods),
            StoreEraser("short_term", locks), StoreEraser("short_term", outbox), StoreEraser("short_term", inbox),
            StoreEraser("person_model", person_models),
        ]  # fmt: skip
        disk_erasers = [*([StoreEraser("pseudonym", pseudonyms)] if pseudonyms else []),
                        *_disk_erasers(settings, client)]  # fmt: skip
        audio = await stack.enter_async_context(open_audio(settings))  # None: voice notes are not configured
        kept_audio = [voice_files] if voice_files is not None else []
        person_files = PersonFiles(settings.data_dir / "people")
        web_sessions = RedisWebSessions(client, clock)  # the memory browser's: ended at /forget all and /unlink
        conversation = VoiceConversation(
            engine,
            profiles=profiles,
            claims=claims,
            transcriber=audio,
            speech=audio,
            speaking_voice=persona.speaking_voice or settings.voice_tts_voice,
            limits=VoiceLimits(max_seconds=settings.voice_max_seconds, max_chars=settings.voice_max_chars),
            default_language=settings.default_language,
            identities=identities,
            archive=voice_files,
        )
        commands = UserCommands(
            profiles=profiles,
            memories=memory,
            window=window,
            planner=planner,
            # The data key first (crypto-shredding: every copy left on disk is unreadable from here on), then the
            # erasure log: writes in flight see the new epoch before anything is deleted; the disk last.
            erasers=[
                *erasers,
                StoreEraser("pictures", picture_quota),
                *(StoreEraser("files", a) for a in kept_audio),
                StoreEraser("files", person_files),
                StoreEraser("sessions", web_sessions),
                *disk_erasers,
            ],
            clock=clock,
            default_timezone=settings.default_timezone,
            default_language=settings.default_language,
            bot_name=persona.name,
            window_ttl_hours=settings.window_ttl_hours,
            trail=trail,
            moods=MoodHistoryService(moods, clock),
            identities=identities,
            pseudonyms=pseudonyms,
            voice_speaking=audio is not None,
            cities=cities,
            person_models=memory.person_models,  # first in /memories and /export, lines can be set aside
            ended_at_unlink=[web_sessions],
        )
        view = MemoryView(commands=commands, memories=memory, profiles=profiles, planner=planner, clock=clock,
                          default_timezone=settings.default_timezone, person_models=memory.person_models,
                          dated_events=memory, trail=trail)  # fmt: skip
        browser = _memory_browser(settings, view, web_sessions, RedisLoginTokens(client, clock), client, clock)
        if lock is not None:
            # The operator CLI asks this process rather than opening the embedded stores a second time.
            admin = MemoryAdmin(
                commands=commands, memory=memory, people=profiles, clock=clock, recall_limit=settings.recall_limit
            )
            await stack.enter_async_context(serve_admin(admin, lock, settings.data_dir))
        yield Core(
            settings, engine, commands, client, profiles, window, memory, planner, schedule, clock, llm,
            readiness, metrics, metrics_page, moods, avatar, identities, pseudonyms, conversation, pictures,
            person_files, follow_ups, FrontEnds(follow_ups, late_replies), browser,
        )  # fmt: skip


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


def _pseudonyms(settings: Settings, client: aioredis.Redis, cipher: TextCipher) -> RedisPseudonyms | None:
    if not settings.pseudonymous_keys:
        return None
    configured = settings.pseudonym_secret.get_secret_value() if settings.pseudonym_secret else None
    return RedisPseudonyms(client, load_or_create_secret(settings.data_dir, configured), cipher)


def _disk_erasers(settings: Settings, client: aioredis.Redis) -> list[UserDataEraser]:
    """Last in line: the embedded Redis rewrites its append-only file once everything of the person is deleted."""
    return [StoreEraser("redis_file", AofCompactor(client))] if settings.redis_embedded else []


def _open_metrics(settings: Settings) -> tuple[Metrics, MetricsPage | None]:
    if settings.http_port is None:
        return NoMetrics(), None
    from bot.prometheus_metrics import PrometheusMetrics

    exported = PrometheusMetrics()
    return exported, MetricsPage(exported.render, exported.content_type)


def _memory_browser(
    settings: Settings, view: MemoryView, sessions: RedisWebSessions, logins: RedisLoginTokens,
    client: aioredis.Redis, clock: Clock,
) -> BrowserParts | None:  # fmt: skip
    """The memory browser's parts when SOUVENIR_PUBLIC_URL is set (its modules imported only then)."""
    if settings.public_url is None:
        return None
    from adapters.web import BrowserParts

    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    limiter = RedisRateLimiter(client, clock, per_minute=60)  # pages and changes per account and minute
    encrypted = settings.encryption_key is not None
    return BrowserParts(settings.public_url, view, sessions, logins, clock, token, limiter, encrypted)


def _telegram_browser_url(core: Core) -> str | None:
    """The memory browser's Mini App address for Telegram's button (None: it is off)."""
    if core.browser is None:
        return None
    from adapters.web.app import telegram_launch_url

    return telegram_launch_url(core.browser.public_url)


def _discord_browser_link(core: Core) -> Callable[[UserRef], Awaitable[str]] | None:
    """What makes Discord's single-use link to the memory browser (None: it is off)."""
    if core.browser is None:
        return None
    from adapters.web.app import login_links

    return login_links(core.browser)


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
    mount = None
    if core.browser is not None:  # the memory browser beside /healthz
        from adapters.web import memory_browser_routes

        mount = functools.partial(memory_browser_routes, parts=core.browser)
    async with serve_status(
        core.readiness, core.metrics_page, host=core.settings.http_host, port=port, mount=mount
    ) as bound:
        yield bound


@asynccontextmanager
async def open_platforms_and_jobs(core: Core) -> AsyncIterator[list[str]]:
    """Start the configured platforms, then the scheduler that writes first through them."""
    settings = core.settings
    messengers: dict[str, Messenger] = {}
    speaking: dict[str, Messenger] = {}  # what the scheduler writes through: spoken for people with /voice on
    conversation = core.conversation
    engine = conversation or core.engine
    async with AsyncExitStack() as stack:
        # Platform libraries are imported only when configured: they are heavy and most installs use one.
        if settings.telegram_token is not None:
            from adapters.telegram import run_telegram

            telegram = await stack.enter_async_context(
                run_telegram(
                    settings,
                    engine=engine,
                    commands=core.commands,
                    avatar=core.avatar,
                    voice=conversation,
                    browser_url=_telegram_browser_url(core),  # the memory browser's Mini App
                )
            )
            messengers["telegram"] = telegram
            speaking["telegram"] = _outgoing(telegram, core)
            _follow_ups_through(stack, core, "telegram", telegram)
            _watch_platform(stack, core.readiness, "telegram", messengers["telegram"])
        if settings.discord_token is not None:
            from adapters.discord import run_discord
            from adapters.discord.identify_gate import RedisIdentifyGate

            discord = await stack.enter_async_context(
                run_discord(
                    settings,
                    engine=engine,
                    commands=core.commands,
                    avatar=core.avatar,
                    voice=conversation,
                    identify_gate=RedisIdentifyGate(core.redis),  # paced across every process of the bot
                    browser_link=_discord_browser_link(core),
                )
            )
            messengers["discord"] = discord
            speaking["discord"] = _outgoing(discord, core)
            _follow_ups_through(stack, core, "discord", discord)
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
                messengers=speaking,
                clock=core.clock,
                persona=core.engine.persona,
                moods=core.moods,
                metrics=core.metrics,
                identities=core.identities,  # a linked person hears from the companion where last seen
                pictures=core.pictures,  # a birthday card with the birthday message, when pictures are on
            )
        )
        yield sorted(messengers)


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


@asynccontextmanager
async def open_key_store(settings: Settings) -> AsyncIterator[tuple[aioredis.Redis, KeyStore]]:
    """Redis (embedded or server) and the key store, for `souvenir rotate-key`: the data dir is held so the
    companion cannot run meanwhile."""
    async with AsyncExitStack() as stack:
        _make_data_dir(settings.data_dir)
        if settings.redis_embedded:
            stack.enter_context(hold_data_dir(settings.data_dir))
        client = await _connect_redis(stack, settings)
        yield client, key_store_for(stack, settings, client)
