"""In-memory stand-ins for the ports the proactive jobs use (profiles and windows are the real Redis ones)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine.model import DatedEvent, Exchange, RecalledMemory, RecallQuery
from bot.engine.ports import Clock, CompletionRequest
from bot.errors import LLMUnavailable, UserUnreachable


class InMemoryDatedEvents:
    def __init__(self) -> None:
        self.events: dict[str, list[DatedEvent]] = {}
        self.failing = False

    def add(self, event: DatedEvent) -> None:
        self.events.setdefault(event.user_key, []).append(event)

    def remove(self, user_key: str, memory_id: str) -> None:
        self.events[user_key] = [e for e in self.events.get(user_key, []) if e.memory_id != memory_id]

    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        if self.failing:
            raise ConnectionError("memory store down")
        return list(self.events.get(user_key, []))


@dataclass(frozen=True)
class Delivery:
    user_key: str
    text: str
    at: datetime


@dataclass
class RecordingMessenger:
    clock: Clock
    deliveries: list[Delivery] = field(default_factory=list)
    blocked: set[str] = field(default_factory=set)
    failing: bool = False
    attempts: int = 0

    async def send_direct(self, user_key: str, text: str) -> None:
        self.attempts += 1
        if user_key in self.blocked:
            raise UserUnreachable(f"{user_key} blocked the bot")
        if self.failing:
            raise ConnectionError("platform down")
        self.deliveries.append(Delivery(user_key, text, self.clock.now()))


@dataclass
class ScriptedLLM:
    answer: str = "Happy birthday Ana! Hope the new flat feels like home today."
    failing: bool = False
    gate: asyncio.Event | None = None  # when given, every call waits for it (a slow or stuck model)
    called: asyncio.Event = field(default_factory=asyncio.Event)
    requests: list[CompletionRequest] = field(default_factory=list)

    async def complete(self, request: CompletionRequest) -> str:
        self.requests.append(request)
        self.called.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.failing:
            raise LLMUnavailable("down")
        return self.answer


@dataclass
class FakeMemory:
    memories: list[RecalledMemory] = field(default_factory=list)
    queries: list[RecallQuery] = field(default_factory=list)

    async def prepare_recall(self, text: str) -> None:
        return None

    async def recall(self, query: RecallQuery) -> Sequence[RecalledMemory]:
        self.queries.append(query)
        return list(self.memories)

    async def remember_exchange(self, exchange: Exchange) -> None:
        return None

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        return None


@dataclass
class RecordingMetrics:
    """What the sweep reports to /metrics about unprompted messages."""

    sent: int = 0
    skipped: list[str] = field(default_factory=list)

    def proactive_sent(self) -> None:
        self.sent += 1

    def proactive_skipped(self, reason: str) -> None:
        self.skipped.append(reason)
