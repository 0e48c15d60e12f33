"""A fake model that reads a crisis in memory extraction where the offline detector sees none, and the outbox
redelivery a crisis follow-up must survive: shared by the follow-up tests of every front end."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import redis.asyncio as aioredis
from aiohttp import web

from bot.engine.safety.crisis import shows_crisis
from memory.writing.outbox import STREAM
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import JSON_DEFAULT_REPLY, JsonObject, echo_responder, last_user_text

# The fake model's reading of this message is scripted: a real one would flag something like "I gave away my
# guitar and my books, I won't need them where I'm going". An ordinary sentence keeps the test about the
# follow-up itself while the phrase detector changes.
UNFLAGGED = "I watered the plants and tidied the kitchen this morning."
FLAGGED = "I want to kill myself."  # the offline detector reads it: the reply itself carries the lines
CRISIS_READING = '{"memories": [], "crisis": true}'
FOLLOW_UP_OPENING = "I've been thinking about what you wrote"
assert not shows_crisis(UNFLAGGED) and shows_crisis(FLAGGED)


class CrisisReadingModel(FakeOpenAI):
    """Echoes replies; its memory extraction reads a crisis in UNFLAGGED and FLAGGED. The first extraction of
    UNFLAGGED waits for `release` (`arrived` is set meanwhile): its outbox entry is still there to be added
    again, as a retry or a second replica would deliver it."""

    def __init__(self) -> None:
        super().__init__(self._answer)
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()
        self.read_flagged = asyncio.Event()  # the extraction of FLAGGED came in

    @staticmethod
    def _answer(body: JsonObject) -> str:
        if "response_format" not in body:
            return echo_responder(body)
        return CRISIS_READING if last_user_text(body) in (UNFLAGGED, FLAGGED) else JSON_DEFAULT_REPLY

    def extractions_of(self, text: str) -> int:
        return sum("response_format" in r.body and last_user_text(r.body) == text for r in self.requests)

    async def handle_completion(self, request: web.Request) -> web.Response:
        body = json.loads(await request.read() or b"{}")  # aiohttp keeps the body: the base class reads it again
        if "response_format" in body and last_user_text(body) == FLAGGED:
            self.read_flagged.set()
        if "response_format" in body and last_user_text(body) == UNFLAGGED and not self.arrived.is_set():
            self.arrived.set()
            await asyncio.wait_for(self.release.wait(), 60)
        return await super().handle_completion(request)


async def deliver_again(redis_url: str) -> int:
    """Every entry waiting in the outbox added once more; returns how many."""
    client = aioredis.from_url(redis_url)
    try:
        entries: list[Any] = await client.xrange(STREAM) or []  # redis-py's typing does not know stream replies
        for _, fields in entries:
            await client.xadd(STREAM, fields)
        return len(entries)
    finally:
        await client.aclose()


async def outbox_written(redis_url: str, within: float = 30) -> None:
    """Until the outbox is empty: every entry written, so every follow-up it could give is decided."""
    client = aioredis.from_url(redis_url)
    try:
        async with asyncio.timeout(within):
            while await client.xlen(STREAM):  # noqa: ASYNC110 - the sign is in the server
                await asyncio.sleep(0.05)
    finally:
        await client.aclose()


def follow_ups_counted(metrics_page: str, how: str = "follow_up") -> float:
    """`souvenir_crisis_referrals_total` summed over the series with that `how`."""
    total = 0.0
    for line in metrics_page.splitlines():
        if line.startswith("souvenir_crisis_referrals_total{") and f'how="{how}"' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total
