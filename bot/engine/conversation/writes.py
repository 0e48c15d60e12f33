"""What an answered message leaves behind, and the wait for it: the window's turns and the profile, the trail
of what the reply drew on, then the exchange handed to the durable outbox before the reply is returned (else
written from this process, in the background), where the scheduler is told of the activity and long-term memory
given the message. `settle` and `drain` wait for those writes (after a command that reads memory, on shutdown,
in tests).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from datetime import datetime
from typing import Any

from bot.engine.conversation.outbox import Outbox
from bot.engine.model import ChatTurn, Exchange, IncomingMessage, RecalledMemory, UserProfile
from bot.engine.ports import (
    ConversationWindow,
    DrawnMemory,
    ErasureFence,
    LongTermMemory,
    OccasionPlanner,
    ProfileStore,
    ReplyTrail,
    TrailReply,
)
from bot.engine.prompt.person_model import Source

log = logging.getLogger(__name__)


class ExchangeWrites:
    def __init__(
        self,
        *,
        window: ConversationWindow,
        profiles: ProfileStore,
        memory: LongTermMemory,
        planner: OccasionPlanner,
        outbox: Outbox | None,
        fence: ErasureFence,
        trail: ReplyTrail,
    ) -> None:
        self._window = window
        self._profiles = profiles
        self._fence = fence
        self._trail = trail
        self._memory = memory
        self._planner = planner
        self._outbox = outbox
        self._background: set[asyncio.Task[None]] = set()

    async def keep(
        self,
        exchange: Exchange,
        epoch: int,
        new_turns: Sequence[ChatTurn],
        fence: int,
        seen: UserProfile,
        changed: tuple[str, ...],
        drawn: Sequence[RecalledMemory | Source],
        now: datetime,
    ) -> None:
        """What an answered message leaves: the window's turns, the profile, the trail of what the reply drew on,
        and the exchange for long-term memory (unless the person erased their data meanwhile)."""
        message = exchange.message
        # Two independent writes at once (one round trip's wait instead of two). A lost lock still fails the reply:
        # the window write raises, and no trail is noted for a reply that is not sent.
        await asyncio.gather(
            self._window.append_turns(message.conversation_id, list(new_turns), fence),
            self._profiles.save_profile_fields(seen, changed),
        )
        await self._note_trail(message, drawn, now)  # before settle: /forget all wins
        if not await self._fence.settle(message.user.key, epoch):
            log.info("a reply was not kept: the person erased their data while it was written")
            return
        await self.hand_over(exchange)

    async def _note_trail(
        self, message: IncomingMessage, memories: Sequence[RecalledMemory | Source], now: datetime
    ) -> None:
        """What this reply drew on (recall, the person model), for "/memories why", each memory once; a trail
        that cannot be written never stops the reply."""
        unique: dict[str, DrawnMemory] = {}
        for m in memories:
            unique.setdefault(m.memory_id, DrawnMemory(m.memory_id, m.kind, m.text))
        drawn = tuple(unique.values())
        try:
            await self._trail.note_reply(TrailReply(message.conversation_id, message.user.key, now, drawn))
        except Exception:
            log.exception("could not note which memories a reply drew on")

    async def hand_over(self, exchange: Exchange) -> None:
        """Before the reply is returned: in the durable outbox, so a crash after replying loses nothing. An
        outbox that cannot take it (Redis down) must not cost the reply: written from this process instead."""
        if self._outbox is not None:
            try:
                await self._outbox.enqueue(exchange)
                return
            except Exception:
                log.exception("could not queue an exchange in the outbox; writing it from this process")
        self.in_background(self._after_reply(exchange))

    async def remember(self, exchange: Exchange) -> None:
        """What an answered exchange leaves behind: the scheduler notes the activity, long-term memory the
        message. The outbox worker calls this for each entry; a failure raises, so the entry is retried."""
        try:
            await self._planner.note_activity(exchange.message.user.key, exchange.message.sent_at)
        except Exception:
            log.exception("could not note activity for the scheduler")
        await self._memory.remember_exchange(exchange)

    async def remember_all(self, exchanges: Sequence[Exchange]) -> None:
        """`remember` for several queued exchanges at once, in order (memory writes them in fewer index calls)."""
        for exchange in exchanges:
            try:
                await self._planner.note_activity(exchange.message.user.key, exchange.message.sent_at)
            except Exception:
                log.exception("could not note activity for the scheduler")
        await self._memory.remember_exchanges(exchanges)

    async def _after_reply(self, exchange: Exchange) -> None:
        try:
            await self.remember(exchange)
        except Exception:
            log.exception("could not store the exchange in long-term memory")

    def in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self, within_s: float) -> bool:
        """Wait up to `within_s` seconds for this process's memory writes (queued in the outbox, or running in
        the background) without cancelling any: True once all are written, False when some still run (what
        /memories shows right after a message then lacks that message)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        if self._outbox is not None:
            try:
                if not await self._outbox.settle(within_s):
                    return False
            except Exception:
                log.exception("could not check what the outbox still holds")
        running = list(self._background)
        if not running:
            return True
        _, still = await asyncio.wait(running, timeout=max(0.0, deadline - loop.time()))
        return not still

    async def drain(self, within_s: float | None = None) -> None:
        """Wait for memory writes (on shutdown, and in tests): those in the outbox (written by the worker) and
        background ones. Writes still running after `within_s` seconds are cancelled and logged, queued ones
        stay queued: a hung store must not hold up stopping the bot.
        (Cancelling, not asyncio.timeout: the writes are tasks of their own, not this coroutine's work.)"""
        loop = asyncio.get_running_loop()
        deadline = None if within_s is None else loop.time() + within_s
        if self._outbox is not None:
            try:
                await self._outbox.settle(within_s)
            except Exception:
                log.exception("could not check what the outbox still holds")
        try:
            while self._background:
                remaining = None if deadline is None else deadline - loop.time()
                if remaining is not None and remaining <= 0:
                    break
                await asyncio.wait(list(self._background), timeout=remaining)
        finally:  # also when the wait itself is cut short
            late = list(self._background)
            if late:
                log.warning("%d memory write(s) still running at the end of the grace; cancelled them", len(late))
                for task in late:
                    task.cancel()
                await asyncio.wait(late)
