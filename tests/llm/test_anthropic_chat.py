"""What only the Anthropic provider does (the shared behaviour is in the contract suite), driving the
real `anthropic` SDK against a loopback fake server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engine.ports import CompletionRequest
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.llm.backends import ANTHROPIC, ANTHROPIC_KEY, ask, complete, turns


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=ANTHROPIC_KEY) as fake:
        yield fake


async def test_the_system_prompt_stays_apart_from_the_messages_and_no_temperature_is_sent(
    server: FakeAnthropic,
) -> None:
    request = CompletionRequest(
        system="You are Souvenir.", turns=turns(("user", "Hi")), max_tokens=222, temperature=0.4
    )

    await complete(ANTHROPIC.settings(server), request)

    body = server.requests[0].body
    assert body["system"] == "You are Souvenir."
    assert body["messages"] == [{"role": "user", "content": "Hi"}]
    assert body["max_tokens"] == 222
    assert "temperature" not in body  # the installed API version has none


async def test_the_key_reaches_the_server(server: FakeAnthropic) -> None:
    await complete(ANTHROPIC.settings(server), ask())

    headers = server.requests[0].headers
    # The SDK authenticates with a Bearer token; older ones sent x-api-key. The key arrives either way.
    assert ANTHROPIC_KEY in (headers.get("x-api-key"), headers.get("authorization", "")[7:])

