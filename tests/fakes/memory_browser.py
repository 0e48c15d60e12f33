"""An in-memory stand-in for long-term memory at the engine's ports (MemoryBrowser, UserDataEraser)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from bot.engine.model import Exchange, MemoryItem, MemoryPage, RecalledMemory, RecallQuery


class InMemoryMemoryBrowser:
    def __init__(self) -> None:
        self.items: dict[str, list[MemoryItem]] = {}
        self.note_zones: list[str] = []  # the time zone each /remember note was read in
        # Told of each memory forgotten one by one, as long-term memory tells the reply trail.
        self.on_forgot: Callable[[str, list[str]], Awaitable[None]] | None = None

    def add(self, user_key: str, text: str, at: datetime, kind: str = "semantic") -> str:
        memory_id = str(uuid.uuid4())
        self.items.setdefault(user_key, []).append(MemoryItem(memory_id, kind, text, at))
        return memory_id

    async def list_memories(self, user_key: str, offset: int, limit: int) -> MemoryPage:
        newest_first = sorted(self.items.get(user_key, []), key=lambda m: m.created_at, reverse=True)
        return MemoryPage(tuple(newest_first[offset : offset + limit]), offset, len(newest_first))

    async def forget_memory(self, user_key: str, memory_id: str) -> bool:
        held = self.items.get(user_key, [])
        kept = [m for m in held if m.memory_id != memory_id]
        self.items[user_key] = kept
        if self.on_forgot is not None and len(kept) != len(held):
            await self.on_forgot(user_key, [memory_id])
        return len(kept) != len(held)

    async def export_memories(self, user_key: str) -> list[MemoryItem]:
        return list(self.items.get(user_key, []))

    async def remember_note(self, user_key: str, text: str, at: datetime, language: str, timezone: str) -> str:
        self.note_zones.append(timezone)
        return self.add(user_key, text, at)

    async def forget_user(self, user_key: str) -> None:
        self.items.pop(user_key, None)

    async def prepare_recall(self, text: str) -> None:
        return None

    async def recall(self, query: RecallQuery) -> Sequence[RecalledMemory]:
        words = {w.lower() for w in query.text.split() if len(w) > 3}
        return [
            RecalledMemory(m.memory_id, m.kind, m.text)
            for m in self.items.get(query.user_key, [])
            if words & {w.lower().strip(".,!?") for w in m.text.split()}
        ][: query.limit]

    async def remember_exchange(self, exchange: Exchange) -> None:
        self.add(exchange.message.user.key, exchange.message.text, exchange.message.sent_at, "episodic")

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        for exchange in exchanges:
            await self.remember_exchange(exchange)
