"""One line per thing said, as `souvenir run` wires it (real engine, Redis, embedded Qdrant, USE embedder, the
model's extraction against the fake server): a feeling read from a message is not background beside the message
the thread of the last conversation quotes, nor a painful message beside the gentle line that quotes it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import JsonObject, last_user_text
from tests.test_app_erasure import _settings, companion, say

ANXIOUS = "Sundays make me anxious, I never know why."
DIVORCE = "Sundays are hard for me since my divorce."


def _responder(body: JsonObject) -> str:
    """The reply "ok"; the extraction reads how they feel about Sundays, in the third person."""
    if not isinstance(body.get("response_format"), dict):
        return "ok"
    if "You extract long-term memories" in str(body["messages"][0]["content"]) and "anxious" in last_user_text(body):
        return json.dumps({"emotions": [{"text": "Sundays make them anxious"}]})
    return json.dumps({"facts": [], "action": "add"})


def _system(llm: FakeOpenAI) -> str:
    replies = [body for body in llm.bodies if not isinstance(body.get("response_format"), dict)]
    return str(replies[-1]["messages"][0]["content"])


async def test_a_feeling_and_the_message_it_was_read_from_are_one_line_after_a_pause(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI(responder=_responder) as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=True), clock) as core:
            for text in (ANXIOUS, "I went to the market and bought apples.", DIVORCE):
                await say(core, clock, text)
            clock.advance(days=7)
            await say(core, clock, "Is it Sunday tomorrow? I feel anxious")
            resumed = _system(llm)
            await say(core, clock, "Why do Sundays feel like that?")
            later = _system(llm)

    thread = resumed.split("<thread>", 1)[1].split("</thread>", 1)[0]
    assert ANXIOUS in thread, resumed  # the thread quotes the message…
    assert "make them anxious" not in resumed, resumed  # …so the feeling read from it is not said again
    assert resumed.count("my divorce") == 1, resumed  # the gentle line quotes it; no background line repeats it
    assert "<thread>" not in later  # a minute on: the feeling is background again, once
    assert later.count("make them anxious") + later.count("make me anxious") == 1, later
    assert later.count("my divorce") == 1, later


async def test_what_the_window_holds_is_not_recalled_again_until_a_pause(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    said = ("My cat Miso only eats tuna.", "My sister Claire plays the cello in an orchestra.")
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            for text in (*said, "I went to the market and bought apples."):
                await say(core, clock, text)
            await say(core, clock, "what does Miso eat, and what does Claire play?")
            now = llm.bodies[-1]
            clock.advance(hours=5)
            await say(core, clock, "what does Miso eat, and what does Claire play?")
            after_a_pause = _system(llm)

    turns = [str(m["content"]) for m in now["messages"][1:]]
    system = str(now["messages"][0]["content"])
    for text in said:
        assert text in turns, turns  # the conversation says it word for word…
        assert text not in system, system  # …so the memories block does not say it again
        assert after_a_pause.count(text) == 1, after_a_pause  # a new talk: it is background, once
