"""The OpenAI-compatible provider driving the real `openai` SDK against a loopback fake server."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.config import Settings, load_settings
from bot.engine.model import ChatTurn, Role
from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable
from bot.llm.factory import open_language_model
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Hang, Malformed, Reply, Status

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


def settings_for(server: FakeOpenAI, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_provider": "openai-compatible",
        "llm_base_url": server.base_url,
        "llm_api_key": None,  # whatever a developer's .env says
        "llm_model": "fake-model",
        "llm_timeout_s": 5.0,
        "llm_max_retries": 0,
    }
    values.update(overrides)
    return load_settings(**values)


def turns(*pairs: tuple[Role, str]) -> tuple[ChatTurn, ...]:
    return tuple(ChatTurn(role, text, AT) for role, text in pairs)


def ask(text: str = "Hello!", *, json_output: bool = False) -> CompletionRequest:
    return CompletionRequest(system="You are Souvenir.", turns=turns(("user", text)), json_output=json_output)


async def complete(settings: Settings, request: CompletionRequest) -> str:
    async with open_language_model(settings) as model:
        return await model.complete(request)


async def test_reply_comes_back_and_the_server_sees_system_prompt_and_turns(server: FakeOpenAI) -> None:
    request = CompletionRequest(
        system="You are Souvenir.",
        turns=turns(
            ("user", "Hi"), ("assistant", "Hello! How are you?"), ("user", "Tired."), ("user", "Long day.")
        ),
        max_tokens=321,
        temperature=0.4,
    )

    reply = await complete(settings_for(server), request)

    assert reply == "echo: Tired.\n\nLong day."
    assert len(server.requests) == 1
    body = server.requests[0].body
    assert server.requests[0].path == "/v1/chat/completions"
    assert body["model"] == "fake-model"
    assert body["messages"] == [
        {"role": "system", "content": "You are Souvenir."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello! How are you?"},
        {"role": "user", "content": "Tired.\n\nLong day."},  # same-role turns merged for strict templates
    ]
    assert body["max_tokens"] == 321
    assert body["temperature"] == 0.4
    assert "response_format" not in body
    assert server.requests[0].headers["authorization"] == "Bearer not-needed"


async def test_openai_provider_sends_the_key_and_max_completion_tokens(server: FakeOpenAI) -> None:
    settings = settings_for(server, llm_provider="openai", llm_api_key="sk-test-key", llm_model=None)

    reply = await complete(settings, ask("Bonjour"))

    assert reply == "echo: Bonjour"
    request = server.requests[0]
    assert request.headers["authorization"] == "Bearer sk-test-key"
    assert request.body["model"] == "gpt-4o-mini"  # the provider's default model
    assert request.body["max_completion_tokens"] == 600
    assert "max_tokens" not in request.body


async def test_rate_limit_is_retried_after_the_servers_retry_after(server: FakeOpenAI) -> None:
    server.script(Status(429, retry_after=1), Reply("finally"))
    started = time.monotonic()

    reply = await complete(settings_for(server, llm_max_retries=2), ask())

    assert reply == "finally"
    assert len(server.requests) == 2
    # The SDK's own backoff would be at most 0.5 s; waiting a second means Retry-After was honoured.
    assert time.monotonic() - started >= 0.9


async def test_server_errors_until_give_up_raise_llm_unavailable(server: FakeOpenAI) -> None:
    server.always(Status(500, retry_after=0.05, message="boom"))

    with pytest.raises(LLMUnavailable, match="HTTP 500: boom"):
        await complete(settings_for(server, llm_max_retries=2), ask())

    assert len(server.requests) == 3  # max_retries + 1 attempts


async def test_a_hanging_server_times_out_into_llm_unavailable(server: FakeOpenAI) -> None:
    server.always(Hang(10))
    started = time.monotonic()

    with pytest.raises(LLMUnavailable, match="timed out"):
        await complete(settings_for(server, llm_timeout_s=0.5), ask())

    assert len(server.requests) == 1
    assert time.monotonic() - started < 5


async def test_a_timed_out_attempt_is_retried(server: FakeOpenAI) -> None:
    server.script(Hang(10), Reply("second try"))

    reply = await complete(settings_for(server, llm_timeout_s=0.5, llm_max_retries=1), ask())

    assert reply == "second try"
    assert len(server.requests) == 2


@pytest.mark.parametrize("kind", ["not_json", "missing_fields", "empty_text"])
async def test_a_malformed_body_is_llm_unavailable(server: FakeOpenAI, kind: Any) -> None:
    server.script(Malformed(kind))

    with pytest.raises(LLMUnavailable, match="malformed"):
        await complete(settings_for(server, llm_max_retries=2), ask())

    assert len(server.requests) == 1  # a garbled 200 is not retried


async def test_an_unreachable_server_is_llm_unavailable() -> None:
    async with FakeOpenAI() as gone:
        settings = settings_for(gone)
    # The server is stopped: nothing listens on its port any more.

    with pytest.raises(LLMUnavailable, match="connection failed"):
        await complete(settings, ask())


async def test_json_mode_asks_for_a_json_object(server: FakeOpenAI) -> None:
    reply = await complete(settings_for(server), ask("I got a dog named Rex", json_output=True))

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

    async with open_language_model(settings_for(server)) as model:
        first = await model.complete(ask(json_output=True))
        second = await model.complete(ask(json_output=True))

    assert first == '{"memories": [1]}'
    assert second == '{"memories": [2]}'
    formats = [request.body.get("response_format") for request in server.requests]
    assert formats == [{"type": "json_object"}, None, None]  # refused once, then not asked again


async def test_json_wrapped_in_a_markdown_fence_is_unwrapped(server: FakeOpenAI) -> None:
    server.script(Reply('```json\n{"memories": ["dog: Rex"]}\n```'))

    reply = await complete(settings_for(server), ask(json_output=True))

    assert reply == '{"memories": ["dog: Rex"]}'


async def test_a_rejected_key_is_reported_without_retrying_or_leaking_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with FakeOpenAI(api_key="sk-right") as server:
        settings = settings_for(
            server, llm_provider="openai", llm_api_key="sk-wrong-secret", llm_max_retries=2
        )
        with caplog.at_level(logging.WARNING), pytest.raises(LLMUnavailable, match="SOUVENIR_LLM_API_KEY"):
            await complete(settings, ask())

    assert len(server.requests) == 1
    warnings = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(warnings) == 1
    line = warnings[0].getMessage()
    assert "provider=openai" in line and "model=fake-model" in line and "HTTP 401" in line
    assert "sk-wrong-secret" not in caplog.text


async def test_each_failed_call_logs_one_warning(
    server: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    server.always(Status(503, retry_after=0.05))

    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            with pytest.raises(LLMUnavailable):
                await complete(settings_for(server, llm_max_retries=1), ask())

    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "LLM call failed: provider=openai-compatible model=fake-model reason=HTTP 503: scripted failure"
    ] * 2
    assert len(server.requests) == 4
