"""Late replies: messages received and never answered (the process was killed while the model answered) are
answered once, late, opening with an apology; or, when found too late, remembered without a reply.

The inbox (`memory.redis.inbox`) keeps each message until its reply and exchange are queued, under a lease its
holder renews. Here, each process looks for messages whose lease ran out: when a front end starts (so a restart
answers what the crash cut short at once) and then every lease. Each is taken over atomically, so one process
answers it. A private message is answered through the messenger of its platform, to the account that wrote;
one from a group, or older than `answer_within`, or that failed `max_attempts` times, is only remembered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Protocol

from bot.engine.conversation.inbox import Inbox, Overdue
from bot.engine.model import ChatKind, IncomingMessage, Reply
from bot.engine.ports import Clock, Messenger
from bot.errors import UserUnreachable

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 3  # holders that took a message before it is only remembered (one that keeps failing)
_BATCH = 20


class LateAnswers(Protocol):
    """`bot.engine.Engine`: answers (or keeps) a message found in the inbox."""

    async def answer_late(self, message: IncomingMessage) -> Reply | None: ...

    async def keep_unanswered(self, message: IncomingMessage) -> None: ...


class LateReplies:
    def __init__(
        self,
        *,
        inbox: Inbox,
        engine: LateAnswers,
        clock: Clock,
        answer_within: timedelta,
        every_s: float,
        max_attempts: int = MAX_ATTEMPTS,
    ) -> None:
        self._inbox = inbox
        self._engine = engine
        self._clock = clock
        self._answer_within = answer_within
        self._every_s = every_s
        self._max_attempts = max_attempts
        self._messengers: dict[str, Messenger] = {}
        self._wake = asyncio.Event()

    @contextlib.contextmanager
    def through(self, platform: str, messenger: Messenger) -> Iterator[None]:
        """Late replies to people on `platform` go through `messenger` while the block runs; the inbox is
        looked at right away."""
        self._messengers[platform] = messenger
        self._wake.set()
        try:
            yield
        finally:
            if self._messengers.get(platform) is messenger:
                del self._messengers[platform]

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Look for overdue messages while the block runs."""
        task = asyncio.create_task(self._loop())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._every_s)
            self._wake.clear()
            try:
                await self.sweep()
            except Exception:  # an error boundary: the next round tries again
                log.exception("looking for messages left unanswered failed")

    async def sweep(self) -> int:
        """Answer or keep the overdue messages of the platforms running here; how many were handled."""
        if not self._messengers:
            return 0  # nothing can be sent from here (a maintenance command): another process answers them
        handled = 0
        for overdue in await self._inbox.overdue(_BATCH, tuple(self._messengers)):
            try:
                await self._settle(overdue)
            except Exception:  # an error boundary per message: it is taken again once its lease runs out
                log.exception("a message left unanswered could not be answered late on %s",
                              overdue.message.user.platform)  # fmt: skip
                continue
            handled += 1
        return handled

    async def _settle(self, overdue: Overdue) -> None:
        message = overdue.message
        messenger = self._messengers.get(message.user.platform)
        too_old = self._clock.now() - message.sent_at > self._answer_within
        tried = overdue.attempts > self._max_attempts
        if too_old or tried or messenger is None or message.chat_kind is not ChatKind.PRIVATE:
            # A group's message is not answered in private, nor into a conversation that went on meanwhile.
            await self._engine.keep_unanswered(message)
            log.info("a message left unanswered on %s was remembered without a reply", message.user.platform)
            return
        reply = await self._engine.answer_late(message)
        if reply is None:
            return
        try:
            await messenger.send_direct(message.user.account_key, reply.text)
        except UserUnreachable:
            log.warning("a late reply could not be sent on %s: the person cannot be written to privately",
                        message.user.platform)  # fmt: skip
            return
        log.info("a message left unanswered on %s was answered late", message.user.platform)
