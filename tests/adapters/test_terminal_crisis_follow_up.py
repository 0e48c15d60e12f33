"""The crisis follow-up in `souvenir chat`: a subprocess on real stores, LLM extraction on against a fake model
that reads a crisis the offline detector does not. The terminal prints it under the reply."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.crisis_model import (
    FLAGGED,
    FOLLOW_UP_OPENING,
    UNFLAGGED,
    CrisisReadingModel,
    deliver_again,
    outbox_written,
)
from tests.fakes.souvenir_process import souvenir_env

MARKER = ("/timezone Paris", "Europe/Paris")  # a command whose answer shows that all before it was printed


async def test_a_crisis_only_the_model_reads_is_printed_once_with_the_lines(redis_url: str, data_dir: Path) -> None:
    async with CrisisReadingModel() as llm:
        env = {**souvenir_env(data_dir, llm.base_url, redis_url), "SOUVENIR_LLM_EXTRACTION": "true"}
        async with running_chat(env, "--user", "ana") as chat:
            start = len(chat.seen)
            reply = await chat.say(UNFLAGGED, expect=f"echo: {UNFLAGGED}")
            assert "findahelpline" not in reply  # the offline reading decided the reply: it saw nothing
            await asyncio.wait_for(llm.arrived.wait(), 30)  # the model reads the message after the reply

            assert await deliver_again(redis_url) == 1  # the same outbox entry, delivered twice
            llm.release.set()
            await chat.wait_for(FOLLOW_UP_OPENING, after=start, within=5)
            await outbox_written(redis_url)
            assert llm.extractions_of(UNFLAGGED) == 2  # read twice
            await chat.say(*MARKER)
            shown = chat.seen[start:]
            assert shown.count(FOLLOW_UP_OPENING) == 1 and shown.count("findahelpline.com") == 1  # printed once

        # The reply to a message the detector reads carries the lines itself: nothing follows it.
        async with running_chat(env, "--user", "bob") as chat:
            start = len(chat.seen)
            await chat.say(FLAGGED, expect="findahelpline.com")
            await asyncio.wait_for(llm.read_flagged.wait(), 30)
            await outbox_written(redis_url)  # a follow-up is printed before its entry leaves the outbox
            await chat.say(*MARKER)
            shown = chat.seen[start:]
            assert shown.count("findahelpline.com") == 1 and FOLLOW_UP_OPENING not in shown
