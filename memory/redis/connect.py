"""The Redis client for the configured server: a URL (redis://, rediss:// for TLS, unix://) or the master that
Sentinel names, so replicas follow a failover. Built, not connected: the first command connects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from pydantic import SecretStr
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError, TimeoutError

MAX_CONNECTIONS = 100  # redis-py's own cap; past it a command waits (up to CONNECTION_WAIT_S) for a free one
CONNECTION_WAIT_S = 20


@dataclass(frozen=True)
class RedisOptions:
    """Which Redis server (SOUVENIR_REDIS_*): a URL, or the Sentinels (host, port) and the service they watch, with
    the master's password (a URL carries its own). Neither: the embedded valkey's URL is given to `redis_client`."""

    url: str | None = None
    sentinels: tuple[tuple[str, int], ...] = ()  # empty: no Sentinel
    sentinel_service: str = "mymaster"
    password: SecretStr | None = None


def _reconnecting() -> dict[str, Any]:
    """A restarted or failed-over server: each command retries on a fresh connection for about 15 seconds
    (jittered backoff up to 2 s), and a connection idle for a while is checked before it is used again."""
    return {
        "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=2.0), retries=12),
        "retry_on_error": [ConnectionError, TimeoutError],
        "health_check_interval": 15,
    }


def redis_client(options: RedisOptions, url: str | None = None, **connection: Any) -> aioredis.Redis:
    """The client for the Sentinels when there are some, else for `url` (default the options' URL).
    `connection` holds connection settings (timeouts) for the server and, with Sentinel, for the sentinels too."""
    if options.sentinels:
        password = options.password.get_secret_value() if options.password else None
        sentinel = Sentinel(list(options.sentinels), sentinel_kwargs=dict(connection), **connection)
        return sentinel.master_for(options.sentinel_service, password=password, **_reconnecting())
    chosen = url or options.url
    if chosen is None:
        raise ValueError("no Redis configured: the embedded valkey's URL must be given")
    # rediss:// gives TLS connections (certificates checked; ?ssl_cert_reqs=none and ?ssl_ca_certs=... tune it).
    # A blocking pool: with more commands in flight than connections (hundreds of people writing at once), a
    # command waits for a free connection instead of failing with "Too many connections".
    pool = aioredis.BlockingConnectionPool.from_url(
        chosen, max_connections=MAX_CONNECTIONS, timeout=CONNECTION_WAIT_S, **{**_reconnecting(), **connection}
    )
    return aioredis.Redis.from_pool(pool)
