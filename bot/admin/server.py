"""The admin socket: the running process answers `souvenir memories …` for the operator CLI.

A Unix socket `data_dir/admin.sock` (0600) when its path fits, else a random loopback port. Either way a
request must carry the token the process wrote into its lock file (0600, see memory.redis.data_dir_lock), and
where to connect is published there too.
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import asdict
from pathlib import Path

from aiohttp import web
from pydantic import ValidationError

from bot.admin.operations import AdminRequest, Answer, MemoryAdmin
from memory.redis.data_dir_lock import DataDirLock
from memory.redis.embedded import fits_unix_socket

log = logging.getLogger(__name__)

SOCKET_NAME = "admin.sock"
PATH = "/v1/memories"


def admin_socket_path(data_dir: Path) -> Path:
    return data_dir.resolve() / SOCKET_NAME


def _app(admin: MemoryAdmin, token: str) -> web.Application:
    expected = f"Bearer {token}".encode()

    async def memories(request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get("Authorization", "").encode(), expected):
            return web.json_response({"error": "unauthorised"}, status=401)
        try:
            command = AdminRequest.model_validate(await request.json())
        except (ValidationError, ValueError) as exc:
            return web.json_response({"error": f"bad request: {exc}"}, status=400)
        try:
            answer = await admin.handle(command)
        except Exception:
            # An error boundary: the operator gets one line, the bot carries on.
            log.exception("admin request %r failed", command.action)
            answer = Answer(1, err="souvenir: the running process could not do that; see its log\n")
        return web.json_response(asdict(answer))

    app = web.Application()
    app.router.add_post(PATH, memories)
    return app


@asynccontextmanager
async def serve_admin(admin: MemoryAdmin, lock: DataDirLock, data_dir: Path) -> AsyncIterator[None]:
    """Serve the admin socket until exit; the caller holds the data dir, so a socket file left there is stale."""
    token = secrets.token_urlsafe(32)
    runner = web.AppRunner(_app(admin, token), access_log=None, handle_signals=False)
    await runner.setup()
    socket_path = admin_socket_path(data_dir)
    try:
        if fits_unix_socket(socket_path):
            socket_path.unlink(missing_ok=True)
            await web.UnixSite(runner, str(socket_path)).start()
            os.chmod(socket_path, 0o600)
            endpoint = {"unix": str(socket_path)}
        else:
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            host, port = runner.addresses[0][:2]
            endpoint = {"tcp": f"{host}:{port}"}
        lock.publish(admin=endpoint, token=token)
        log.info("admin socket for `souvenir memories` at %s", next(iter(endpoint.values())))
        yield
    finally:
        lock.publish()
        await runner.cleanup()
        with suppress(FileNotFoundError):
            socket_path.unlink()
