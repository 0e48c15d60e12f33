"""`souvenir run`: the core, every configured platform adapter and the scheduler, in one event loop."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from contextlib import AsyncExitStack

from bot.app import open_core, open_platforms_and_jobs
from bot.config import Settings

log = logging.getLogger(__name__)

NO_PLATFORM = (
    "souvenir: no platform is configured, so there is nobody to talk to.\n"
    "Set SOUVENIR_TELEGRAM_TOKEN (from @BotFather) and/or SOUVENIR_DISCORD_TOKEN (from the Discord developer\n"
    "portal) in the environment or in .env, then run `souvenir run` again.\n"
    "To try the companion right now without a platform: `souvenir chat`."
)


async def _until_stopped() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


async def run_companion(settings: Settings) -> int:
    if settings.telegram_token is None and settings.discord_token is None:
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    async with AsyncExitStack() as stack:
        core = await stack.enter_async_context(open_core(settings))
        platforms = await stack.enter_async_context(open_platforms_and_jobs(core))
        log.info("Souvenir is running on %s; Ctrl-C to stop", ", ".join(platforms))
        await _until_stopped()
        log.info("stopping")
    return 0
