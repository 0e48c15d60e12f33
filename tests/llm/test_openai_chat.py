"""What only the OpenAI-compatible provider does (the shared behaviour is in the contract suite),
driving the real `openai` SDK against a loopback fake server."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from bot.app.conversation import chat_endpoint
from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable
from bot.llm.factory import open_language_model
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Reply, Status
from tests.llm.backends import OPENAI_COMPATIBLE, ask, complete, turns


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


async def test_the_system_prompt_is_the_first_message_and_temperature_is_sent(server: FakeOpenAI) -> None:
    request = CompletionRequest(
        system="You are Souvenir.", turns=turns(("user", "Hi")), max_tokens=321, temperature=0.4
    )

    await complete(OPENAI_COMPATIBLE.settings(server), request)

    body = server.requests[0].body
    assert body["messages"] == [
        {"role": "system", "content": "You are Souvenir."},
        {"role": "user", "content": "Hi"},
    ]
    assert body["max_tokens"] == 321
    assert "max_completion_tokens" not in body
    assert body["temperature"] == 0.4
    assert "response_format" not in body
    # Local servers ignore the key, but the SDK insists on one.
    assert server.requests[0].headers["authorization"] == "Bearer not-needed"


async def test_openai_provider_sends_the_key_and_max_completion_tokens(server: FakeOpenAI) -> None:
    settings = OPENAI_COMPATIBLE.settings(server, llm_provider="openai", llm_api_key="sk-test-key", llm_model=None)

    reply = await complete(settings, ask("Bonjour"))

    assert reply == "echo: Bonjour"
    request = server.requests[0]
    assert request.headers["authorization"] == "Bearer sk-test-key"
    assert request.body["model"] == "gpt-4o-mini"  # the provider's default model
    assert request.body["max_completion_tokens"] == 600
    assert "max_tokens" not in request.body


async def test_a_rejected_key_names_the_openai_provider(caplog: pytest.LogCaptureFixture) -> None:
    async with FakeOpenAI(api_key="sk-right") as server:
        settings = OPENAI_COMPATIBLE.settings(server, llm_provider="openai", llm_api_key="sk-wrong-secret")
        with caplog.at_level(logging.WARNING), pytest.raises(LLMUnavailable, match="SOUVENIR_LLM_API_KEY"):
            await complete(settings, ask())

    line = next(r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
    assert "provider=openai " in line and "model=fake-model" in line and "HTTP 401" in line
    assert "sk-wrong-secret" not in caplog.text


async def test_json_mode_asks_for_a_json_object(server: FakeOpenAI) -> None:
    reply = await complete(OPENAI_COMPATIBLE.settings(server), ask("I got a dog named Rex", json_output=True))

    assert reply == '{"memories": []}'
    body = server.requests[0].body
    assert body["response_format"] == {"type": "json_object"}
    # OpenAI refuses json_object unless the messages mention JSON.
    assert "JSON" in body["messages"][0]["content"]


async def test_json_mode_falls_back_when_the_server_refuses_response_format(server: FakeOpenAI) -> None:
    server.script(
        Status(400, message="response_format is not supported"),
        Reply('{"memories": [1]}'),
        Reply('{"memories": [2]}'),
    )

    async with open_language_model(chat_endpoint(OPENAI_COMPATIBLE.settings(server))) as model:
        first = await model.complete(ask(json_output=True))
        second = await model.complete(ask(json_output=True))

    assert first == '{"memories": [1]}'
    assert second == '{"memories": [2]}'
    formats = [request.body.get("response_format") for request in server.requests]
    assert formats == [{"type": "json_object"}, None, None]  # refused once, then not asked again


async def test_text_that_cannot_be_encoded_is_not_called_a_malformed_reply(server: FakeOpenAI) -> None:
    with pytest.raises(LLMUnavailable) as failure:
        await complete(OPENAI_COMPATIBLE.settings(server), ask("caf\udce9"))  # a lone surrogate

    assert "not valid Unicode" in str(failure.value) and "malformed reply" not in str(failure.value)
