"""Updates run concurrently across chats, one at a time and in order within a chat — and a chat's backlog
never holds a slot another chat needs.

python-telegram-bot takes its `concurrent_updates` semaphore before it hands an update to the processor.
With a per-chat lock inside that semaphore, 64 queued updates from one chat (a flood, a busy group) fill
every slot while they wait for their chat's turn, and every other chat waits for them. This processor lets
PTB admit every update, queues each behind its chat's earlier updates first, and only then takes one of
`max_concurrent_chats` slots: a chat holds at most one slot, whatever its backlog.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Coroutine
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.engine.conversation.locks import KeyedLocks

log = logging.getLogger(__name__)


class PerChatUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_chats: int) -> None:
        if max_concurrent_chats < 1:
            raise ValueError("max_concurrent_chats must be >= 1")
        # PTB's own semaphore is taken before `do_process_update`: it must never be what an update
        # waits on, so it admits everything (> 1 also makes PTB run each update in its own task).
        super().__init__(sys.maxsize)
        self._slots = asyncio.Semaphore(max_concurrent_chats)
        self._chats = KeyedLocks()  # asyncio locks are FIFO: a chat's updates keep their order
        self._handling: set[asyncio.Task[Any]] = set()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handling.add(task)
        try:
            chat = update.effective_chat if isinstance(update, Update) else None
            if chat is None:
                async with self._slots:
                    await coroutine
                return
            async with self._chats.hold(str(chat.id)), self._slots:
                await coroutine
        finally:
            if task is not None:
                self._handling.discard(task)
            if isinstance(coroutine, Coroutine):
                coroutine.close()  # cancelled while queued: no "never awaited" warning

    async def finish(self, within_s: float) -> None:
        """Once no update is fetched any more: give those already handed over (running or queued behind
        their chat) `within_s` seconds, then cancel the rest — PTB's own stop would wait for them forever."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        if self._handling:
            log.info("finishing %d Telegram update(s) in flight, for up to %.0f s", len(self._handling), within_s)
        try:
            while self._handling and (remaining := deadline - loop.time()) > 0:
                await asyncio.wait(set(self._handling), timeout=remaining)
        finally:  # also when the wait itself is cut short (a second stop signal)
            late = set(self._handling)
            if late:
                log.warning("%d Telegram update(s) left unanswered after the grace", len(late))
                for task in late:
                    task.cancel()
                await asyncio.wait(late)

    async def initialize(self) -> None:
        """Nothing to allocate."""

    async def shutdown(self) -> None:
        """Nothing to free: PTB waits for the updates it handed over before it shuts the processor down."""
