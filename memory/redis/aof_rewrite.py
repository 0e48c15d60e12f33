"""The embedded Redis's append-only file rewritten so that erased data leaves the disk.

Valkey's AOF is a log: a deleted key's value stays in `appendonlydir/*.incr.aof` (and in the base file)
until the log is rewritten from what the server holds now (`BGREWRITEAOF`, a forked child: the server
keeps serving). A rewrite is asked for after every erasure, and at a clean stop the server waits for one
to finish; then any file the manifest no longer names (a history file whose background unlink had not
run yet) is removed, so no file under `redis/` holds what was erased.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

log = logging.getLogger(__name__)

AOF_DIRECTORY = "appendonlydir"
MANIFEST_SUFFIX = ".manifest"
POLL_S = 0.05
REWRITE_TIMEOUT_S = 120.0


async def _rewrite_running(client: aioredis.Redis) -> bool:
    info = await client.info("persistence")
    return bool(int(info.get("aof_rewrite_in_progress", 0)) or int(info.get("aof_rewrite_scheduled", 0)))


async def _until_idle(client: aioredis.Redis) -> None:
    # The server tells no one when a rewrite ends: ask every POLL_S.
    while True:
        if not await _rewrite_running(client):
            return
        await asyncio.sleep(POLL_S)


async def request_rewrite(client: aioredis.Redis) -> None:
    """Ask for a rewrite; one already running or scheduled is as good (Valkey then schedules another)."""
    try:
        await client.bgrewriteaof()
    except ResponseError as exc:  # "already in progress": the server schedules the next one itself
        log.debug("AOF rewrite not started: %s", exc)


async def rewrite_and_wait(client: aioredis.Redis, *, timeout_s: float = REWRITE_TIMEOUT_S) -> bool:
    """Rewrite the AOF from the live data and wait until it is done; False (logged) if it could not be."""
    try:
        async with asyncio.timeout(timeout_s):
            await _until_idle(client)  # a rewrite started before the last write may not hold it
            await request_rewrite(client)
            await _until_idle(client)
        info = await client.info("persistence")
    except (RedisError, OSError, TimeoutError) as exc:
        log.warning("the embedded Redis could not rewrite its append-only file: %s", exc)
        return False
    if info.get("aof_last_bgrewrite_status") != "ok":
        log.warning("the embedded Redis's append-only file rewrite failed (see redis/valkey.log)")
        return False
    return True


def _manifest_names(directory: Path) -> set[str] | None:
    manifests = list(directory.glob(f"*{MANIFEST_SUFFIX}"))
    if len(manifests) != 1:
        return None
    names: set[str] = set()
    for line in manifests[0].read_text(encoding="utf-8").splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "file":
            names.add(words[1])
    return names


def remove_unlisted_aof_files(redis_dir: Path) -> int:
    """After the server stopped: delete AOF files its manifest no longer names (history left by a rewrite)."""
    directory = redis_dir / AOF_DIRECTORY
    if not directory.is_dir():
        return 0
    names = _manifest_names(directory)
    if not names:  # no readable manifest: touch nothing
        return 0
    removed = 0
    for path in directory.iterdir():
        if path.is_file() and not path.name.endswith(MANIFEST_SUFFIX) and path.name not in names:
            path.unlink()
            removed += 1
    return removed


class AofCompactor:
    """A UserDataEraser, last in line: once everything of the person is deleted, the AOF is rewritten without it."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client

    async def forget_user(self, user_key: str) -> None:
        try:
            await request_rewrite(self._redis)
        except (RedisError, OSError) as exc:  # the clean stop rewrites again
            log.warning("the embedded Redis could not start rewriting its append-only file: %s", exc)
