"""The start-up probe: one clear hint when nothing answers at the LLM base URL, silence when something does."""

from __future__ import annotations

import socket

from bot.llm.probe import probe_base_url
from tests.fakes.fake_openai import FakeOpenAI


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_nothing_listening_says_how_to_start_ollama_or_choose_another_provider() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"

    hint = await probe_base_url(url, "openai-compatible", "llama3.2")

    assert hint is not None and f"Nothing answers at {url} (connection refused)" in hint
    assert "`ollama serve`" in hint and "`ollama pull llama3.2`" in hint
    assert "SOUVENIR_LLM_PROVIDER" in hint and "SOUVENIR_LLM_BASE_URL" in hint


async def test_a_server_that_answers_needs_no_hint(fake_llm: FakeOpenAI) -> None:
    assert await probe_base_url(fake_llm.base_url, "openai-compatible", "llama3.2") is None


async def test_a_url_missing_its_api_path_is_pointed_out(fake_llm: FakeOpenAI) -> None:
    hint = await probe_base_url(fake_llm.origin, "openai-compatible", "llama3.2")  # no /v1

    assert hint is not None and "HTTP 404" in hint and "/v1" in hint
