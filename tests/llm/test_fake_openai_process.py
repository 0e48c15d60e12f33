"""The OpenAI fake as a separate process, as CLI and bench tests start it."""

from __future__ import annotations

import asyncio
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.engine.model import ChatTurn
from bot.engine.ports import CompletionRequest
from bot.llm.endpoint import ChatEndpoint
from bot.llm.factory import open_language_model

REPO = Path(__file__).resolve().parents[2]


async def test_standalone_fake_prints_its_url_serves_and_stops_on_sigterm() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.fakes.fake_openai",
        "--port",
        "0",
        "--reply",
        "fixed answer",
        cwd=REPO,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), timeout=20)).decode().strip()
        assert line.startswith("READY http://127.0.0.1:") and line.endswith("/v1")
        base_url = line.removeprefix("READY ")

        endpoint = ChatEndpoint("openai-compatible", "llama3.2", base_url, max_retries=0)
        turn = ChatTurn("user", "hi", datetime(2026, 1, 1, tzinfo=UTC))
        request = CompletionRequest(system="s", turns=(turn,))
        async with open_language_model(endpoint) as model:
            assert await model.complete(request) == "fixed answer"

        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), timeout=10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
