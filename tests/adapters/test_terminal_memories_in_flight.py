"""`/memories` typed right after a message, while that message is still being written to memory: it waits
for the write a moment, and says so when it takes longer."""

from __future__ import annotations

from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Hang, Reply
from tests.fakes.souvenir_process import souvenir_env


async def test_memories_right_after_a_message_shows_it(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    fake_llm.script(Reply("noted"), Hang(0.8))  # the reply, then memory extraction that takes a moment
    async with running_chat(souvenir_env(data_dir, fake_llm.base_url, None), "--user", "lea") as chat:
        await chat.say("I have a cat named Miso", expect="noted")
        start = len(chat.seen)
        await chat.say("/memories", expect="remember")  # the listing, or "I don't remember anything… yet"
        listed = await chat.wait_for("#1 id", after=start, within=10)

    assert "I have a cat named Miso" in listed, listed


async def test_memories_while_a_write_takes_long_says_it_is_still_being_written(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    fake_llm.script(Reply("noted"), Hang(4))  # extraction slower than /memories waits for it
    env = {**souvenir_env(data_dir, fake_llm.base_url, None), "SOUVENIR_LLM_TIMEOUT_S": "30"}
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("I have a cat named Miso", expect="noted")
        listed = await chat.say("/memories", expect="remember")

    assert "still writing your last message down" in listed, listed
