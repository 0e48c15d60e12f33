"""A `souvenir chat` SIGKILLed while the model answers: after the restart, the message is answered once, late,
with an apology for the delay — not dropped as a duplicate delivery of a message already claimed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Held
from tests.fakes.souvenir_process import run_souvenir, souvenir_env

APOLOGY = "Sorry for the late reply"


def _replies(fake_llm: FakeOpenAI) -> list[str]:
    """The reply requests the model got (not the readings of messages for memory)."""
    return [str(r.body["messages"][-1]["content"]) for r in fake_llm.requests if "response_format" not in r.body]


async def test_a_chat_killed_while_the_model_answers_replies_late_after_the_restart(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = {**souvenir_env(data_dir, fake_llm.base_url, redis_url), "SOUVENIR_INBOX_LEASE_S": "1"}
    answering = Held()
    fake_llm.script(answering)
    async with running_chat(env, "--user", "lea") as chat:
        assert chat.process.stdin is not None
        chat.process.stdin.write(b"I have a cat named Miso\n")
        await chat.process.stdin.drain()
        await asyncio.wait_for(answering.arrived.wait(), 60)  # the model is answering, and held there
        await chat.kill_now()
    answering.release.set()
    assert "echo:" not in chat.seen

    async with running_chat(env, "--user", "lea") as chat:
        late = await chat.wait_for("echo: I have a cat named Miso", within=60)
        assert APOLOGY in late  # said once, before the answer
        await asyncio.sleep(2.5)  # two more leases: nobody answers it a second time
    assert (chat.seen.count("echo: I have a cat named Miso"), chat.seen.count(APOLOGY)) == (1, 1)
    assert _replies(fake_llm).count("I have a cat named Miso") == 2  # the one cut short, and the late one

    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:lea")
    assert code == 0, err
    assert listed.count("I have a cat named Miso") == 1, listed  # remembered once
