"""The embedded Redis is the bot's alone: another local process without the secret can neither read nor
write it, on the Unix socket and on the loopback-port fallback alike, and a restart keeps the data."""

from __future__ import annotations

import asyncio
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis.asyncio as aioredis

from memory.redis.embedded import embedded_redis, fits_unix_socket

INTRUDER = """
import sys, redis
client = redis.Redis(**eval(sys.argv[1]))
for attempt in (lambda: client.get("secret"), lambda: client.set("secret", "changed"), lambda: client.keys()):
    try:
        print("ALLOWED", attempt())
    except redis.RedisError as exc:
        print("REFUSED", type(exc).__name__)
"""


@pytest.fixture(params=["unix-socket", "loopback-port"])
def data_dir(request: pytest.FixtureRequest) -> Iterator[Path]:
    """A data dir short enough for a Unix socket, or one too long for it (the loopback fallback)."""
    with tempfile.TemporaryDirectory(prefix="sv-") as tmp:
        path = Path(tmp) / ("data" if request.param == "unix-socket" else "d" * 110)
        path.mkdir()
        assert fits_unix_socket(path / "redis" / "valkey.sock") is (request.param == "unix-socket")
        yield path


def _mode(path: Path) -> int:
    return path.stat().st_mode


def _resolved(path: Path) -> Path:
    return path.resolve()


def _address_without_secret(url: str) -> dict[str, object]:
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return {"unix_socket_path": parts.path}
    return {"host": parts.hostname, "port": parts.port}


async def _intrude(address: dict[str, object]) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", INTRUDER, repr(address), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    return out.decode()


async def test_another_process_without_the_secret_can_neither_read_nor_write(data_dir: Path) -> None:
    async with embedded_redis(data_dir) as url:
        client = aioredis.from_url(url)
        await client.set("secret", "Miso")

        said = await _intrude(_address_without_secret(url))

        assert said.split() == ["REFUSED", "NoPermissionError"] * 3
        assert await client.get("secret") == b"Miso"
        await client.aclose()
    redis_dir = data_dir / "redis"
    assert stat.S_IMODE(_mode(redis_dir)) == 0o700
    assert stat.S_IMODE(_mode(redis_dir / "password")) == 0o600
    assert (redis_dir / "password").read_text().strip() not in (redis_dir / "users.acl").read_text()


async def test_the_socket_is_in_the_private_data_dir_and_owner_only(data_dir: Path) -> None:
    async with embedded_redis(data_dir) as url:
        if fits_unix_socket(data_dir / "redis" / "valkey.sock"):
            socket = Path(urlsplit(url).path)
            assert socket.parent == _resolved(data_dir / "redis")
            mode = _mode(socket)
            assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o700
        else:
            assert urlsplit(url).hostname == "127.0.0.1" and urlsplit(url).password


async def test_a_restart_keeps_the_data(data_dir: Path) -> None:
    async with embedded_redis(data_dir) as url:
        client = aioredis.from_url(url)
        await client.set("kept", "yes")
        await client.aclose()
    async with embedded_redis(data_dir) as url:
        client = aioredis.from_url(url)
        assert await client.get("kept") == b"yes"
        await client.aclose()
