"""`/healthz` and `/metrics` on SOUVENIR_HTTP_PORT, served with aiohttp inside `souvenir run` (and the memory
browser beside them when SOUVENIR_PUBLIC_URL is set)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web

from bot.errors import ConfigError
from bot.health import Readiness

log = logging.getLogger(__name__)


class MetricsPage:
    """What /metrics serves: the exporter's text and its content type."""

    def __init__(self, render: Callable[[], bytes], content_type: str) -> None:
        self.render = render
        self.content_type = content_type


@asynccontextmanager
async def serve_status(
    readiness: Readiness,
    metrics: MetricsPage | None,
    *,
    host: str,
    port: int,
    mount: Callable[[web.Application], object] | None = None,
) -> AsyncIterator[int]:
    """Serve until exit; yields the bound port (port 0: any free one). `mount` adds more routes (the memory
    browser) to the same server."""

    async def healthz(request: web.Request) -> web.Response:
        results = await readiness.check()
        ready = all(r.ok for r in results)
        body = {"status": "ok" if ready else "unavailable", "checks": {r.name: r.detail for r in results}}
        return web.json_response(body, status=200 if ready else 503)

    async def metrics_page(request: web.Request) -> web.Response:
        if metrics is None:
            raise web.HTTPNotFound(text="metrics are off")
        response = web.Response(body=metrics.render())
        response.headers["Content-Type"] = metrics.content_type
        return response

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    if mount is not None:
        mount(app)
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            raise ConfigError(f"SOUVENIR_HTTP_PORT: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        bound = int(runner.addresses[0][1])
        log.info("health and metrics on http://%s:%d/healthz and /metrics", host, bound)
        yield bound
    finally:
        await runner.cleanup()
