"""Plain fakes at the engine's own ports (the LLM, long-term memory, the planner)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime

from bot.engine.model import DatedEvent, Exchange, RecalledMemory, RecallQuery
from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable


class ScriptedLLM:
    """Answers "echo: <last user text>" unless told to fail; records every request."""

    def __init__(self, *, delay: float = 0.0) -> None:
        self.requests: list[CompletionRequest] = []
        self.delay = delay
        self.failing = False
        self.in_flight = 0
        self.max_in_flight = 0
        self.arrived = asyncio.Event()  # set when a request is in
        self.gate: asyncio.Event | None = None  # when set by a test, answers wait for it

    async def complete(self, request: CompletionRequest) -> str:
        self.requests.append(request)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        self.arrived.set()
        try:
            if self.gate is not None:
                await self.gate.wait()
            if self.delay:
                await asyncio.sleep(self.delay)
            if self.failing:
                raise LLMUnavailable("HTTP 503 after 3 attempts")
            return f"echo: {request.turns[-1].text}"
        finally:
            self.in_flight -= 1


class RecordingMemory:
    def __init__(self, memories: Sequence[RecalledMemory] = (), *, broken: bool = False) -> None:
        self.memories = list(memories)
        self.queries: list[RecallQuery] = []
        self.exchanges: list[Exchange] = []
        self.prepared: list[str] = []
        self.broken = broken

    async def prepare_recall(self, text: str) -> None:
        if self.broken:
            raise ConnectionError("qdrant is down")
        self.prepared.append(text)

    async def recall(self, query: RecallQuery) -> Sequence[RecalledMemory]:
        self.queries.append(query)
        if self.broken:
            raise ConnectionError("qdrant is down")
        return self.memories

    async def remember_exchange(self, exchange: Exchange) -> None:
        if self.broken:
            raise ConnectionError("qdrant is down")
        self.exchanges.append(exchange)

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        for exchange in exchanges:
            await self.remember_exchange(exchange)


class RecordingPlanner:
    def __init__(self) -> None:
        self.planned: list[str] = []
        self.activity: list[tuple[str, datetime]] = []
        self.forgotten: list[str] = []

    async def plan_user(self, user_key: str) -> None:
        self.planned.append(user_key)

    async def note_activity(self, user_key: str, at: datetime) -> None:
        self.activity.append((user_key, at))

    async def forget_user(self, user_key: str) -> None:
        self.forgotten.append(user_key)


class StoredDatedEvents:
    """The person's dated events as memory would list them; can be made to fail."""

    def __init__(self) -> None:
        self.events: list[DatedEvent] = []
        self.broken = False
        self.asked: list[str] = []

    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        self.asked.append(user_key)
        if self.broken:
            raise ConnectionError("qdrant is down")
        return [e for e in self.events if e.user_key == user_key]
