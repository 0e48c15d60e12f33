"""Contract tests of the `LanguageModel` port: every backend, opened by `open_language_model(endpoint)`,
driving its real SDK against its loopback fake server, must behave the same way."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable
from tests.fakes.llm_script import Hang, Malformed, Reply, ScriptedLLMServer, Status
from tests.llm.backends import ANTHROPIC, OPENAI_COMPATIBLE, Backend, ask, complete, turns


@pytest.fixture(params=[OPENAI_COMPATIBLE, ANTHROPIC], ids=lambda backend: backend.provider)
def backend(request: pytest.FixtureRequest) -> Backend:
    chosen: Backend = request.param
    return chosen


@pytest.fixture
async def server(backend: Backend) -> AsyncIterator[ScriptedLLMServer]:
    async with backend.server() as fake:
        yield fake


async def test_reply_comes_back_and_the_server_sees_system_prompt_and_turns(
    backend: Backend, server: ScriptedLLMServer
) -> None:
    request = CompletionRequest(
        system="You are Souvenir.",
        turns=turns(
            ("user", "Hi"), ("assistant", "Hello! How are you?"), ("user", "Tired."), ("user", "Long day.")
        ),
        max_tokens=321,
    )

    reply = await complete(backend.settings(server), request)

    assert reply == "echo: Tired.\n\nLong day."
    assert len(server.requests) == 1
    recorded = server.requests[0]
    assert recorded.path == backend.completion_path
    assert recorded.body["model"] == backend.model
    assert recorded.body["max_tokens"] == 321
    assert backend.system_of(recorded.body) == "You are Souvenir."
    assert backend.messages_of(recorded.body) == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello! How are you?"},
        {"role": "user", "content": "Tired.\n\nLong day."},  # same-role turns merged for strict templates
    ]


async def test_a_conversation_the_companion_opened_starts_with_a_neutral_user_message(
    backend: Backend, server: ScriptedLLMServer
) -> None:
    # An unprompted birthday message, then two user turns in a row.
    request = CompletionRequest(
        system="You are Souvenir.",
        turns=turns(("assistant", "Happy birthday, Léa!"), ("user", "Thank you!"), ("user", "You remembered.")),
    )

    reply = await complete(backend.settings(server), request)

    assert reply == "echo: Thank you!\n\nYou remembered."
    assert backend.messages_of(server.requests[0].body) == [
        {"role": "user", "content": "…"},
        {"role": "assistant", "content": "Happy birthday, Léa!"},
        {"role": "user", "content": "Thank you!\n\nYou remembered."},
    ]


@pytest.mark.parametrize("status", [429, 529], ids=["rate-limited", "overloaded"])
async def test_a_busy_server_is_retried_after_its_retry_after(
    backend: Backend, server: ScriptedLLMServer, status: int
) -> None:
    server.script(Status(status, retry_after=1), Reply("finally"))
    started = time.monotonic()

    reply = await complete(backend.settings(server, llm_max_retries=2), ask())

    assert reply == "finally"
    assert len(server.requests) == 2
    # The SDKs' own first backoff is at most 0.5 s; waiting a second means Retry-After was honoured.
    assert time.monotonic() - started >= 0.9


@pytest.mark.parametrize(
    ("status", "message", "max_retries"), [(500, "boom", 2), (429, "slow down", 2), (500, "oops", 1)]
)
async def test_retryable_errors_until_give_up_raise_llm_unavailable(
    backend: Backend, server: ScriptedLLMServer, status: int, message: str, max_retries: int
) -> None:
    server.always(Status(status, retry_after=0.05, message=message))

    with pytest.raises(LLMUnavailable, match=f"HTTP {status}: {message}"):
        await complete(backend.settings(server, llm_max_retries=max_retries), ask())

    assert len(server.requests) == max_retries + 1


async def test_a_hanging_server_times_out_into_llm_unavailable(
    backend: Backend, server: ScriptedLLMServer
) -> None:
    server.always(Hang(10))
    started = time.monotonic()

    # 2 s, not less: on a loaded box the request alone can take half a second to reach the server.
    with pytest.raises(LLMUnavailable, match="timed out"):
        await complete(backend.settings(server, llm_timeout_s=2.0), ask())

    assert len(server.requests) == 1
    assert time.monotonic() - started < 8  # the server would answer after 10 s


async def test_a_timed_out_attempt_is_retried(backend: Backend, server: ScriptedLLMServer) -> None:
    server.script(Hang(10), Reply("second try"))

    # 2 s, not less: on a loaded box the second attempt's own round trip can pass half a second.
    reply = await complete(backend.settings(server, llm_timeout_s=2.0, llm_max_retries=1), ask())

    assert reply == "second try"
    assert len(server.requests) == 2


@pytest.mark.parametrize("kind", ["not_json", "missing_fields", "empty_text"])
async def test_a_malformed_body_is_llm_unavailable(backend: Backend, server: ScriptedLLMServer, kind: Any) -> None:
    server.script(Malformed(kind))

    with pytest.raises(LLMUnavailable, match="malformed"):
        await complete(backend.settings(server, llm_max_retries=2), ask())

    assert len(server.requests) == 1  # a garbled 200 is not retried


async def test_an_unreachable_server_is_llm_unavailable(backend: Backend) -> None:
    async with backend.server() as gone:
        settings = backend.settings(gone)
    # The server is stopped: nothing listens on its port any more.

    with pytest.raises(LLMUnavailable, match="connection failed"):
        await complete(settings, ask())


async def test_a_rejected_key_is_one_warning_line_without_retrying_or_leaking_it(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    async with backend.server(api_key="sk-right") as server:
        settings = backend.settings(server, llm_api_key="sk-wrong-secret", llm_max_retries=2)
        with caplog.at_level(logging.WARNING), pytest.raises(LLMUnavailable, match="SOUVENIR_LLM_API_KEY"):
            await complete(settings, ask())

    assert len(server.requests) == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        f"LLM call failed: provider={backend.provider} model={backend.model} "
        "reason=HTTP 401 (check SOUVENIR_LLM_API_KEY)"
    ]
    assert "sk-wrong-secret" not in caplog.text


async def test_each_failed_call_logs_one_warning(
    backend: Backend, server: ScriptedLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    server.always(Status(503, retry_after=0.05))

    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            with pytest.raises(LLMUnavailable):
                await complete(backend.settings(server, llm_max_retries=1), ask())

    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert warnings == [
        f"LLM call failed: provider={backend.provider} model={backend.model} "
        "reason=HTTP 503: scripted failure"
    ] * 2
    assert len(server.requests) == 4


async def test_json_mode_asks_for_json_in_the_system_prompt(backend: Backend, server: ScriptedLLMServer) -> None:
    request = CompletionRequest(
        system="Extract memories.", turns=turns(("user", "I got a dog named Rex")), json_output=True
    )

    reply = await complete(backend.settings(server), request)

    assert reply == '{"memories": []}'  # what each fake answers a request that asks for JSON
    assert "JSON" in backend.system_of(server.requests[0].body)


async def test_json_wrapped_in_a_markdown_fence_is_unwrapped(backend: Backend, server: ScriptedLLMServer) -> None:
    server.script(Reply('```json\n{"memories": ["dog: Rex"]}\n```'))

    reply = await complete(backend.settings(server), ask(json_output=True))

    assert reply == '{"memories": ["dog: Rex"]}'
