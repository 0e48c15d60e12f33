"""The Anthropic provider driving the real `anthropic` SDK against a loopback fake server."""

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
from tests.fakes.fake_anthropic import FakeAnthropic
from tests.fakes.llm_script import Hang, Malformed, Reply, Status

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
KEY = "sk-ant-test-key"


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as fake:
        yield fake


def settings_for(server: FakeAnthropic, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "llm_provider": "anthropic",
        "llm_api_key": KEY,
        "llm_base_url": server.base_url,
        "llm_model": "claude-fake",
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


async def test_reply_comes_back_with_system_apart_and_roles_alternating(server: FakeAnthropic) -> None:
    request = CompletionRequest(
        system="You are Souvenir.",
        # Starts with the companion (an unprompted birthday message), then two user turns in a row.
        turns=turns(
            ("assistant", "Happy birthday, Léa!"), ("user", "Thank you!"), ("user", "You remembered.")
        ),
        max_tokens=222,
    )

    reply = await complete(settings_for(server), request)

    assert reply == "echo: Thank you!\n\nYou remembered."
    assert len(server.requests) == 1
    recorded = server.requests[0]
    assert recorded.path == "/v1/messages"
    assert recorded.body["model"] == "claude-fake"
    assert recorded.body["system"] == "You are Souvenir."
    assert recorded.body["max_tokens"] == 222
    assert recorded.body["messages"] == [
        {"role": "user", "content": "…"},
        {"role": "assistant", "content": "Happy birthday, Léa!"},
        {"role": "user", "content": "Thank you!\n\nYou remembered."},
    ]
    # The SDK authenticates with a Bearer token; older ones sent x-api-key. The key arrives either way.
    assert KEY in (recorded.headers.get("x-api-key"), recorded.headers.get("authorization", "")[7:])


async def test_overload_is_retried_after_the_servers_retry_after(server: FakeAnthropic) -> None:
    server.script(Status(529, retry_after=1), Reply("there you are"))
    started = time.monotonic()

    reply = await complete(settings_for(server, llm_max_retries=2), ask())

    assert reply == "there you are"
    assert len(server.requests) == 2
    # The SDK's own first backoff is at most 0.5 s; a one-second wait means Retry-After was honoured.
    assert time.monotonic() - started >= 0.9


async def test_rate_limits_until_give_up_raise_llm_unavailable(server: FakeAnthropic) -> None:
    server.always(Status(429, retry_after=0.05, message="slow down"))

    with pytest.raises(LLMUnavailable, match="HTTP 429: slow down"):
        await complete(settings_for(server, llm_max_retries=2), ask())

    assert len(server.requests) == 3  # max_retries + 1 attempts


async def test_server_errors_until_give_up_raise_llm_unavailable(server: FakeAnthropic) -> None:
    server.always(Status(500, retry_after=0.05))

    with pytest.raises(LLMUnavailable, match="HTTP 500"):
        await complete(settings_for(server, llm_max_retries=1), ask())

    assert len(server.requests) == 2


async def test_a_hanging_server_times_out_into_llm_unavailable(server: FakeAnthropic) -> None:
    server.always(Hang(10))
    started = time.monotonic()

    with pytest.raises(LLMUnavailable, match="timed out"):
        await complete(settings_for(server, llm_timeout_s=0.5), ask())

    assert len(server.requests) == 1
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("kind", ["not_json", "missing_fields", "empty_text"])
async def test_a_malformed_body_is_llm_unavailable(server: FakeAnthropic, kind: Any) -> None:
    server.script(Malformed(kind))

    with pytest.raises(LLMUnavailable, match="malformed"):
        await complete(settings_for(server, llm_max_retries=2), ask())

    assert len(server.requests) == 1


async def test_an_unreachable_server_is_llm_unavailable() -> None:
    async with FakeAnthropic() as gone:
        settings = settings_for(gone)
    # The server is stopped: nothing listens on its port any more.

    with pytest.raises(LLMUnavailable, match="connection failed"):
        await complete(settings, ask())


async def test_a_wrong_key_is_reported_without_leaking_it(caplog: pytest.LogCaptureFixture) -> None:
    async with FakeAnthropic(api_key="sk-ant-right") as server:
        with caplog.at_level(logging.WARNING), pytest.raises(LLMUnavailable, match="SOUVENIR_LLM_API_KEY"):
            await complete(settings_for(server, llm_api_key="sk-ant-wrong-secret"), ask())

    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        "LLM call failed: provider=anthropic model=claude-fake reason=HTTP 401 (check SOUVENIR_LLM_API_KEY)"
    ]
    assert "sk-ant-wrong-secret" not in caplog.text


async def test_json_mode_gets_a_json_object_from_the_default_fake(server: FakeAnthropic) -> None:
    reply = await complete(settings_for(server), ask("I moved to Lyon", json_output=True))

    assert reply == '{"memories": []}'


async def test_json_mode_asks_in_the_system_prompt_and_unwraps_a_fence(server: FakeAnthropic) -> None:
    server.script(Reply('```json\n{"memories": ["sister: Marie"]}\n```'))

    request = CompletionRequest(
        system="Extract memories.", turns=turns(("user", "My sister is Marie")), json_output=True
    )
    reply = await complete(settings_for(server), request)

    assert reply == '{"memories": ["sister: Marie"]}'
    assert "JSON" in server.requests[0].body["system"]
