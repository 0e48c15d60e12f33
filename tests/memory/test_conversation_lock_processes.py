"""Two replicas on one Redis get the same conversations' messages at once: the model is never answering one
conversation twice at the same time, every message is answered, and a killed holder's conversation is taken
over once its lock expires."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import redis.asyncio as aioredis

from memory.redis.stores.conversation_window import RedisConversationWindow

ROOT = Path(__file__).resolve().parents[2]
CONVERSATIONS = ("c1", "c2")
PER_CONVERSATION = 12


async def _start(redis_url: str, name: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.memory.answer_process", redis_url, name, "--ttl", "1",
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


async def _wait_for(condition: Callable[[], Awaitable[object]], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not await condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _stop(client: aioredis.Redis, *processes: asyncio.subprocess.Process) -> None:
    await client.set("test:stop", "1")
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


async def _send(client: aioredis.Redis, replica: str, conversation: str, n: int, text: str = "") -> None:
    item = {"conversation": conversation, "id": f"{conversation}-{n}", "user": str(n % 3), "text": text}
    item["text"] = f"{conversation} message {n} {text}".strip()
    await client.rpush(f"test:inbox:{replica}", json.dumps(item))


async def _ready(client: aioredis.Redis) -> bool:
    return bool(await client.exists("test:ready:A") and await client.exists("test:ready:B"))


async def test_two_replicas_never_answer_one_conversation_at_the_same_time(
    redis_url: str, redis_client: aioredis.Redis
) -> None:
    processes = [await _start(redis_url, "A"), await _start(redis_url, "B")]
    try:
        await _wait_for(lambda: _ready(redis_client), 30)
        for n in range(PER_CONVERSATION):  # both replicas get each conversation's messages, all at once
            for conversation in CONVERSATIONS:
                await _send(redis_client, "AB"[n % 2], conversation, n)
        total = PER_CONVERSATION * len(CONVERSATIONS)
        await _wait_for(lambda: _at_least(redis_client, "test:replies", total), 60)
    finally:
        await _stop(redis_client, *processes)

    window = RedisConversationWindow(redis_client, max_turns=200, ttl=timedelta(hours=1))
    for conversation in CONVERSATIONS:
        calls = [str(c).split("|") for c in await redis_client.lrange(f"test:calls:{conversation}", 0, -1)]
        assert len(calls) == 2 * PER_CONVERSATION
        for started, ended in zip(calls[::2], calls[1::2], strict=True):  # each call ends before the next starts
            assert (started[0], ended[0]) == ("start", "end") and started[1:] == ended[1:]
        assert {replica for _, replica, _ in calls} == {"A", "B"}  # both replicas answered this conversation
        # What the next reply sees: each message followed by its own answer, never two messages in a row.
        turns = await window.recent_turns(f"telegram:chat:{conversation}")
        assert len(turns) == 2 * PER_CONVERSATION
        for asked, answered in zip(turns[::2], turns[1::2], strict=True):
            assert answered.role == "assistant" and answered.text == f"echo: {asked.text}"


async def test_a_killed_holders_conversation_is_taken_over_after_its_lock_expires(
    redis_url: str, redis_client: aioredis.Redis
) -> None:
    doomed, survivor = await _start(redis_url, "A"), await _start(redis_url, "B")
    try:
        await _wait_for(lambda: _ready(redis_client), 30)
        await _send(redis_client, "A", "c1", 0, "hang")
        await _wait_for(lambda: redis_client.exists("test:hanging:A"), 15)  # A holds c1's lock, mid-answer
        os.kill(doomed.pid, signal.SIGKILL)
        await doomed.wait()
        await _send(redis_client, "B", "c1", 1)
        await _wait_for(lambda: _at_least(redis_client, "test:replies", 1), 15)
    finally:
        if doomed.returncode is None:
            doomed.kill()
        await _stop(redis_client, survivor)

    assert await redis_client.lrange("test:replies", 0, -1) == ["B|c1|c1-1"]
    assert await redis_client.lrange("test:calls:c1", 0, -1) == [
        "start|A|c1 message 0 hang", "start|B|c1 message 1", "end|B|c1 message 1",
    ]  # fmt: skip


async def _at_least(client: aioredis.Redis, key: str, count: int) -> bool:
    return int(await client.llen(key)) >= count
