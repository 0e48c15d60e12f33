"""The data folder, Redis (embedded or a server), the cipher and the Redis stores every later part is built on."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bot.config import Settings
from bot.engine.metrics import Metrics
from bot.engine.ports import Clock
from bot.errors import ConfigError, StoreUnavailable
from bot.private_files import make_private
from memory.mood.series import RedisMoodSeries
from memory.person.person_model_store import RedisPersonModels
from memory.privacy.crypto import KeyStore, TextCipher
from memory.privacy.crypto.startup import KeyStorePlace, cipher_for, key_store_for
from memory.privacy.erasure import RedisErasureLog
from memory.privacy.pseudonyms import RedisPseudonyms, load_or_create_secret
from memory.redis.connect import RedisOptions, redis_client
from memory.redis.conversation_locks import RedisConversationLocks
from memory.redis.data_dir_lock import DataDirLock, hold_data_dir
from memory.redis.embedded import embedded_redis
from memory.redis.identities import RedisIdentities
from memory.redis.inbox import RedisInbox
from memory.redis.picture_quota import RedisPictureQuota
from memory.redis.rate_limit import RedisRateLimiter
from memory.redis.reply_trail import RedisReplyTrail
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.redis.web_sessions import RedisWebSessions
from memory.writing.outbox import RedisOutbox


@dataclass(frozen=True)
class RedisStores:
    """The stores kept in Redis: short-term state, profiles, moods, and what links and names people."""

    profiles: RedisProfiles
    window: RedisConversationWindow
    claims: RedisMessageClaims
    # Each message kept from its arrival until its reply and exchange are queued: a crash mid-reply is answered
    # late, not lost.
    inbox: RedisInbox
    erasures: RedisErasureLog
    trail: RedisReplyTrail
    moods: RedisMoodSeries  # how each person has been feeling (tone, /mood, unprompted messages)
    person_models: RedisPersonModels  # what a friend knows, built after memory writes
    locks: RedisConversationLocks  # one reply at a time per conversation, across replicas
    identities: RedisIdentities  # accounts linked into one person (/link)
    outbox: RedisOutbox  # memory writes, kept before each reply (sealed)
    picture_quota: RedisPictureQuota
    web_sessions: RedisWebSessions  # the memory browser's: ended at /forget all and /unlink
    limiter: RedisRateLimiter | None  # None: SOUVENIR_RATE_LIMIT_PER_MINUTE=0
    pseudonyms: RedisPseudonyms | None  # SOUVENIR_PSEUDONYMOUS_KEYS: the one way back to accounts


@dataclass(frozen=True)
class Foundation:
    """What every later part is built on."""

    settings: Settings
    clock: Clock
    client: aioredis.Redis
    cipher: TextCipher
    stores: RedisStores
    metrics: Metrics
    lock: DataDirLock | None  # held when the stores are embedded: this process is then their only one


def redis_stores(settings: Settings, client: aioredis.Redis, cipher: TextCipher, clock: Clock) -> RedisStores:
    ttl = timedelta(hours=settings.window_ttl_hours)
    erasures = RedisErasureLog(client)
    return RedisStores(
        profiles=RedisProfiles(client, cipher=cipher),
        window=RedisConversationWindow(client, max_turns=settings.window_turns, ttl=ttl, cipher=cipher),
        claims=RedisMessageClaims(client),
        inbox=RedisInbox(client, lease_s=settings.inbox_lease_s, cipher=cipher),
        erasures=erasures,
        trail=RedisReplyTrail(client, ttl=ttl, forgotten=erasures, cipher=cipher),
        moods=RedisMoodSeries(client, cipher=cipher),
        person_models=RedisPersonModels(client, cipher=cipher),
        locks=RedisConversationLocks(client),
        identities=RedisIdentities(client, clock),
        outbox=RedisOutbox(client, cipher=cipher),
        picture_quota=RedisPictureQuota(client),
        web_sessions=RedisWebSessions(client, clock),
        limiter=_rate_limiter(settings, client, clock),
        pseudonyms=_pseudonyms(settings, client, cipher),
    )


def _rate_limiter(settings: Settings, client: aioredis.Redis, clock: Clock) -> RedisRateLimiter | None:
    if settings.rate_limit_per_minute <= 0:
        return None
    return RedisRateLimiter(client, clock, per_minute=settings.rate_limit_per_minute)


def _pseudonyms(settings: Settings, client: aioredis.Redis, cipher: TextCipher) -> RedisPseudonyms | None:
    if not settings.pseudonymous_keys:
        return None
    configured = settings.pseudonym_secret.get_secret_value() if settings.pseudonym_secret else None
    return RedisPseudonyms(client, load_or_create_secret(settings.data_dir, configured), cipher)


async def open_foundation(stack: AsyncExitStack, settings: Settings, clock: Clock, metrics: Metrics) -> Foundation:
    """The data folder held (embedded stores), Redis reached, the cipher opened and the Redis stores made."""
    # Embedded stores belong to one process: taken before any starts, so a second one never does.
    embedded = settings.redis_embedded or settings.qdrant_url is None
    lock = stack.enter_context(hold_data_dir(settings.data_dir)) if embedded else None
    client = await connect_redis(stack, settings)
    cipher = await open_cipher(stack, settings, client)
    stores = redis_stores(settings, client, cipher, clock)
    return Foundation(settings, clock, client, cipher, stores, metrics, lock)


async def open_cipher(stack: AsyncExitStack, settings: Settings, client: aioredis.Redis) -> TextCipher:
    """Before any store writes: a key that does not open the data already stored stops the start here."""
    master = settings.encryption_key.get_secret_value() if settings.encryption_key else None
    return await cipher_for(client, master, key_store_for(stack, key_store_place(settings), client))


def key_store_place(settings: Settings) -> KeyStorePlace:
    return KeyStorePlace(settings.resolved_key_store, settings.resolved_key_dir, settings.key_store_url)


def redis_options(settings: Settings) -> RedisOptions:
    """Which Redis server (SOUVENIR_REDIS_*); `souvenir doctor` and the upgrades build theirs here too."""
    return RedisOptions(
        url=settings.redis_url,
        sentinels=tuple(settings.redis_sentinel_addresses),
        sentinel_service=settings.redis_sentinel_service,
        password=settings.redis_password,
    )


async def connect_redis(stack: AsyncExitStack, settings: Settings) -> aioredis.Redis:
    url = settings.redis_url
    if settings.redis_embedded:
        url = await stack.enter_async_context(embedded_redis(settings.data_dir))
    client = redis_client(redis_options(settings), url)
    stack.push_async_callback(client.aclose)
    try:
        await client.ping()
    except (RedisError, OSError) as exc:
        if url is None:
            service, sentinels = settings.redis_sentinel_service, settings.redis_sentinels
            where = f"the {service} master (SOUVENIR_REDIS_SENTINELS={sentinels})"
        else:
            where = f"{without_secrets(url)} (SOUVENIR_REDIS_URL)"
        raise StoreUnavailable(f"cannot reach Redis at {where}: {exc}") from None
    return client


def without_secrets(url: str) -> str:
    """The URL to show: no user, password or query (redis-py also reads `?password=`)."""
    parts = urlsplit(url)
    try:
        netloc = f"{parts.hostname or ''}:{parts.port}" if parts.port else parts.hostname or ""
    except ValueError:
        netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def make_data_dir(path: Path) -> None:
    """The data folder, or one line saying why it cannot be (a settings problem: exit code 2)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"SOUVENIR_DATA_DIR: cannot create {path}: {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"SOUVENIR_DATA_DIR: {path} is not writable by this user")
    make_private(path)  # files from before (or copied in by hand) become owner-only too


@asynccontextmanager
async def open_key_store(settings: Settings) -> AsyncIterator[tuple[aioredis.Redis, KeyStore]]:
    """Redis (embedded or server) and the key store, for `souvenir rotate-key`: the data dir is held so the
    companion cannot run meanwhile."""
    async with AsyncExitStack() as stack:
        make_data_dir(settings.data_dir)
        if settings.redis_embedded:
            stack.enter_context(hold_data_dir(settings.data_dir))
        client = await connect_redis(stack, settings)
        yield client, key_store_for(stack, key_store_place(settings), client)
