"""/healthz and /metrics as an operator's probe and Prometheus see them: the core as `souvenir run` wires it,
the status server on a free port, the fake Telegram and the fake OpenAI-compatible LLM."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import aiohttp

from bot.app import open_core, open_platforms_and_jobs, open_status_server
from bot.config import load_settings
from bot.engine.model import ChatKind, IncomingMessage, UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.llm_script import Status

ANA = 5151


async def _get(port: int, path: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


async def _health(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as response:
        return response.status, await response.json()


def _samples(text: str) -> dict[str, float]:
    """`name{labels}` → value, for every sample line of the exposition text."""
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


async def test_health_and_metrics_tell_what_the_companion_does(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, telegram_token=telegram.token, telegram_api_url=telegram.api_root,
            http_port=0, http_host="127.0.0.1",
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_status_server(core) as port:
            assert port
            status, body = await _health(port)
            assert status == 503  # Telegram is configured but not connected yet
            assert body["checks"]["telegram"] == "not connected yet"
            assert body["checks"]["redis"] == "ok" and body["checks"]["qdrant"] == "ok"

            async with open_platforms_and_jobs(core):
                status, body = await _health(port)
                assert (status, body["status"]) == (200, "ok"), body
                assert set(body["checks"]) == {"redis", "qdrant", "telegram"}

                await telegram.push_text(ANA, "Hello, I adopted a cat called Miso")
                await telegram.wait_for(lambda: any("echo:" in t for t in telegram.texts(ANA)), within=30)
                await core.engine.drain()

                status, content_type, text = await _get(port, "/metrics")
            status_after, body = await _health(port)

        assert status == 200 and content_type.startswith("text/plain")
        samples = _samples(text)
        names = {re.split(r"[{ ]", name)[0] for name in samples}
        assert names and all(name.startswith("souvenir_") for name in names), names
        assert samples['souvenir_messages_handled_total{platform="telegram"}'] == 1
        assert samples['souvenir_replies_total{outcome="answered"}'] == 1
        assert samples["souvenir_recall_seconds_count"] == 1
        assert samples['souvenir_llm_request_seconds_count{provider="openai-compatible"}'] >= 1
        assert status_after == 503 and body["checks"]["telegram"] == "stopped"


async def test_an_llm_that_fails_is_counted_by_provider(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    async with FakeOpenAI() as llm:
        llm.always(Status(500))
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, llm_extraction=False, http_port=0, http_host="127.0.0.1",
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_status_server(core) as port:
            user = UserRef("terminal", "ana", "Ana")
            message = IncomingMessage(
                user=user, conversation_id="terminal:dm:ana", message_id="1", text="hello",
                sent_at=clock.now(), chat_kind=ChatKind.PRIVATE,
            )  # fmt: skip
            reply = await core.engine.handle(message)
            assert reply is not None and reply.fallback
            _, _, text = await _get(port, "/metrics")
        samples = _samples(text)
        errors = {k: v for k, v in samples.items() if k.startswith("souvenir_llm_errors_total")}
        assert errors and all('provider="openai-compatible"' in k for k in errors), samples
        assert samples['souvenir_replies_total{outcome="fallback"}'] == 1
