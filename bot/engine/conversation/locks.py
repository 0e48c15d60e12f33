"""One asyncio lock per key, dropped when nobody holds or waits for it; and conversation locks on top."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import count


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class InProcessConversationLocks:
    """`ConversationLocks` for one process (tests, the terminal): FIFO per conversation, tokens from a counter."""

    def __init__(self) -> None:
        self._locks = KeyedLocks()
        self._tokens = count(1)

    @asynccontextmanager
    async def hold(self, conversation_id: str) -> AsyncIterator[int]:
        async with self._locks.hold(conversation_id):
            yield next(self._tokens)
