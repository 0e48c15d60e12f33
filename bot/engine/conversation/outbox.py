"""Where the engine hands each answered exchange for long-term memory: a durable outbox, written before
the reply goes out, so a process killed right after replying loses nothing (a worker writes the memory)."""

from __future__ import annotations

from typing import Protocol

from bot.engine.model import Exchange


class Outbox(Protocol):
    async def enqueue(self, exchange: Exchange) -> None:
        """Keep `exchange` durably until it is written to long-term memory; raises when it could not be kept."""
        ...

    async def settle(self, within_s: float | None = None) -> bool:
        """Return once what this process queued has been written (by whichever replica), or after `within_s`
        seconds: what is still waiting then stays queued. True when nothing is left waiting."""
        ...
