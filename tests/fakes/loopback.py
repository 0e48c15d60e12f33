"""Serving a fake API on the loopback interface: the one way every fake server here starts."""

from __future__ import annotations

from aiohttp import web


async def serve_on_loopback(app: web.Application, host: str = "127.0.0.1", port: int = 0) -> tuple[web.AppRunner, int]:
    """Start `app` (port 0: any free port); return its runner (call `cleanup()` to stop) and the bound port."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner, int(runner.addresses[0][1])
