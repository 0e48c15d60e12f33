"""`souvenir run`: the core, every configured platform adapter and the scheduler, in one event loop."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from contextlib import AsyncExitStack

from bot.app import Core, open_core, open_platforms_and_jobs, open_status_server
from bot.config import Settings
from bot.startup_objects import frozen_startup_objects

log = logging.getLogger(__name__)

NO_PLATFORM = (
    "souvenir: no platform is configured, so there is nobody to talk to.\n"
    "Set SOUVENIR_TELEGRAM_TOKEN (from @BotFather) and/or SOUVENIR_DISCORD_TOKEN (from the Discord developer\n"
    "portal) in the environment or in .env, then run `souvenir run` again.\n"
    "To try the companion right now without a platform: `souvenir chat`."
)


class StopSignals:
    """SIGINT and SIGTERM from the moment the bot serves until its stores are closed. The first asks for an
    orderly stop (replies and memory writes in flight get SOUVENIR_SHUTDOWN_GRACE_S); the second cuts that
    grace short. No signal ever skips closing the stores: the handlers stay in place until they are closed
    (removing them early would let a second SIGTERM kill the process mid-clean-up)."""

    def __init__(self) -> None:
        self.first = asyncio.Event()
        self.second = asyncio.Event()

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self._received)

    def uninstall(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)

    def _received(self) -> None:
        if not self.first.is_set():
            self.first.set()
        elif not self.second.is_set():
            self.second.set()
            log.warning("stopping at once: replies and memory writes in flight are dropped; the stores still close")
        else:
            log.warning("already stopping: closing the stores")


async def _serve(core: Core, stop: asyncio.Event) -> None:
    async with open_platforms_and_jobs(core) as platforms:
        log.info("Souvenir is running on %s; Ctrl-C to stop", ", ".join(platforms))
        with frozen_startup_objects():  # the platforms' libraries are imported by now
            await stop.wait()
        log.info("stopping (again to stop at once)")


async def run_companion(settings: Settings) -> int:
    if settings.telegram_token is None and settings.discord_token is None:
        print(NO_PLATFORM, file=sys.stderr)
        return 2
    signals = StopSignals()
    async with AsyncExitStack() as stack:
        stack.callback(signals.uninstall)  # last of all: a signal while the stores close must not kill the process
        core = await stack.enter_async_context(open_core(settings))
        await stack.enter_async_context(open_status_server(core))  # /healthz says 503 until the platforms are up
        signals.install()  # after the core starts: until then a signal cancels start-up (bot.cli)
        serving = asyncio.create_task(_serve(core, signals.first), name="souvenir-serving")
        hurry = asyncio.create_task(signals.second.wait())
        try:
            await asyncio.wait({serving, hurry}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            hurry.cancel()
            if not serving.done():
                serving.cancel()  # the second signal: the platforms stop without waiting for work in flight
                await asyncio.wait({serving})
        if signals.second.is_set():
            await core.engine.drain(within_s=0)
        if not serving.cancelled():
            serving.result()  # a platform that failed to start or stop says why
    return 0
