"""A replica for the two-process lock test: a real Engine on a shared Redis with `RedisConversationLocks`.

Usage: python -m tests.memory.answer_process REDIS_URL NAME [--ttl S]
It takes messages from the Redis list `test:inbox:NAME` (JSON: conversation, id, text) and handles each one in
its own task, as adapters do. The fake model records "start|NAME|text" and "end|NAME|text" in
`test:calls:CONVERSATION` around a short pause; a text containing "hang" never ends (a holder about to be
killed) and sets `test:hanging:NAME`. Each reply is recorded in `test:replies` as "NAME|conversation|id".
Exits when `test:stop` is set.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, IncomingMessage, UserRef, group_conversation_id
from bot.engine.ports import CompletionRequest
from bot.engine.when.clock import SystemClock
from bot.persona_file import load_persona
from memory.redis.conversation_locks import RedisConversationLocks
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.engine.fakes import RecordingMemory, RecordingPlanner, StoredDatedEvents


class RecordingModel:
    def __init__(self, client: aioredis.Redis, name: str) -> None:
        self._redis = client
        self._name = name

    async def complete(self, request: CompletionRequest) -> str:
        said = request.turns[-1].text  # in a group the model sees "Name: text"
        text = said.rpartition(": ")[2]
        conversation = text.split()[0]
        calls = f"test:calls:{conversation}"
        await self._redis.rpush(calls, f"start|{self._name}|{text}")
        if "hang" in text:
            await self._redis.set(f"test:hanging:{self._name}", "1")
            await asyncio.Event().wait()
        await asyncio.sleep(0.02)  # a model that takes a while: overlapping calls would interleave here
        await self._redis.rpush(calls, f"end|{self._name}|{text}")
        return f"echo: {text}"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("redis_url")
    parser.add_argument("name")
    parser.add_argument("--ttl", type=float, default=1.0)
    args = parser.parse_args()
    client = aioredis.from_url(args.redis_url, decode_responses=True)
    engine = Engine(
        llm=RecordingModel(client, args.name),
        window=RedisConversationWindow(client, max_turns=200, ttl=timedelta(hours=1)),
        claims=RedisMessageClaims(client),
        profiles=RedisProfiles(client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(None),
        clock=SystemClock(),
        options=EngineOptions(),
        locks=RedisConversationLocks(client, ttl=timedelta(seconds=args.ttl)),
    )
    tasks: set[asyncio.Task[None]] = set()

    async def answer(raw: str) -> None:
        item = json.loads(raw)
        user = UserRef("telegram", item["user"], "Léa")
        message = IncomingMessage(
            user=user, conversation_id=group_conversation_id("telegram", item["conversation"]),
            message_id=item["id"], text=item["text"], sent_at=datetime.now(UTC), chat_kind=ChatKind.GROUP,
        )  # fmt: skip
        if await engine.handle(message) is not None:
            await client.rpush("test:replies", f"{args.name}|{item['conversation']}|{item['id']}")

    await client.set(f"test:ready:{args.name}", "1")
    while not await client.exists("test:stop"):
        popped = await client.blpop([f"test:inbox:{args.name}"], timeout=0.1)
        if popped is not None:
            task = asyncio.create_task(answer(popped[1]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    await engine.drain()
    await client.aclose()


if __name__ == "__main__":
    asyncio.run(main())
