"""Nothing lost: a `souvenir chat` killed with SIGKILL right after it replied still remembers what it was told.

The memory write after the reply (the model reading the message) is held open until the kill, so the test
cannot pass by the write finishing first: the message itself is kept before the model reads it, but what the
model reads in it (here "Léa's cat is Miso, a tabby") only comes back from the outbox entry queued before the
reply, written again after the restart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import redis.asyncio as aioredis

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Held, Reply
from tests.fakes.souvenir_process import run_chat, run_souvenir, souvenir_env

FACT = "Léa's cat is Miso, a tabby"


async def _window_expired(redis_url: str) -> None:
    """The short-term window (SOUVENIR_WINDOW_TTL_HOURS) is gone: only long-term memory can recall now."""
    client = aioredis.from_url(redis_url)
    try:
        async with asyncio.timeout(60):
            while True:
                if not await client.exists("souvenir:window:terminal:dm:lea"):
                    return
                await asyncio.sleep(0.1)
    finally:
        await client.aclose()


async def test_a_chat_killed_right_after_replying_loses_nothing(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = {
        **souvenir_env(data_dir, fake_llm.base_url, redis_url),
        "SOUVENIR_WINDOW_TTL_HOURS": "0.0003",
        "SOUVENIR_OUTBOX_CLAIM_IDLE_S": "0.5",  # the killed process's entry is taken over at once
    }
    replied, reading = Held(), Held()
    replied.release.set()  # the reply itself answers at once
    fake_llm.script(replied, reading, Reply(json.dumps({"facts": [{"text": FACT}]})))  # the reading, again
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("I have a cat named Miso", expect="echo: I have a cat named Miso")
        await asyncio.wait_for(reading.arrived.wait(), 60)  # the memory write is under way, and held there
        await chat.kill_now()  # no clean-up, and the write never finishes
    reading.release.set()
    await _window_expired(redis_url)

    code, _, err = await run_chat([], env, "--user", "lea")  # restarted: the outbox is written
    assert code == 0, err
    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:lea")
    assert code == 0, err
    assert listed.count("I have a cat named Miso") == 1, listed
    assert FACT in listed, listed  # what the model read in it, written from the outbox after the restart

    code, _, err = await run_chat(["What is my cat called?"], env, "--user", "lea")
    assert code == 0, err
    asked = [r for r in fake_llm.requests if "response_format" not in r.body][-1].body["messages"]
    assert "Miso" in str(asked[0]["content"])  # recalled from long-term memory into the prompt
