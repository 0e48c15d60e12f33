"""The inbox port: a message is kept from the moment it is received until its reply and exchange are queued.

A platform that delivers a message again (Telegram after a restart, Discord on a resume) finds it received and
gets no second reply; a process killed while the model answers leaves it held under a lease that stops being
renewed, and whoever finds it overdue (`bot.late_replies`) answers it late, once.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from bot.engine.model import IncomingMessage


@dataclass(frozen=True, slots=True)
class Overdue:
    """A message whose holder stopped renewing its lease, now held by the one who asked; `attempts`: how many
    holders took it before (1: the first one died)."""

    message: IncomingMessage
    attempts: int


class Inbox(Protocol):
    async def receive(self, message: IncomingMessage) -> bool:
        """True the first time `message` arrives: it is kept (held by this process, under a lease) until
        `done`. False when it arrived before: answered already, or held by another process."""
        ...

    def held(self, message: IncomingMessage) -> AbstractAsyncContextManager[None]:
        """While the block runs, the lease on `message` is renewed: nobody else takes it as overdue."""
        ...

    async def done(self, message: IncomingMessage) -> None:
        """The reply and the exchange are queued (or nothing is to be done): the message leaves the inbox."""
        ...

    async def overdue(self, limit: int, platforms: tuple[str, ...]) -> list[Overdue]:
        """Messages from `platforms` whose lease ran out, each now held by this process (at most `limit`)."""
        ...
