"""`souvenir run` as an operator starts it: one process, Telegram and Discord at once, the scheduler, the
embedded Redis and Qdrant — against loopback fakes of both platforms and of an OpenAI-compatible LLM."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from tests.fakes import fake_discord_payloads as payloads
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.souvenir_process import ROOT, souvenir_env


async def test_run_answers_on_telegram_and_discord_and_stops_cleanly(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    async with FakeTelegram() as telegram, FakeDiscord.running() as discord:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, None),
            "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_DISCORD_TOKEN": "fake-token",
            "SOUVENIR_DISCORD_API_URL": discord.api_root,
            "SOUVENIR_DISCORD_GATEWAY_URL": discord.gateway_url,
            "SOUVENIR_LOG_LEVEL": "INFO",
        }
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run",
            cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        lines: list[str] = []
        running = asyncio.Event()

        async def collect() -> None:
            async for raw in process.stderr:  # type: ignore[union-attr]
                lines.append(raw.decode())
                if "Souvenir is running on discord, telegram" in lines[-1]:
                    running.set()

        reader = asyncio.create_task(collect())
        try:
            await asyncio.wait_for(running.wait(), 90)

            await telegram.push_text(77, "Hello from Telegram")
            await telegram.wait_for(lambda: any("echo: Hello from Telegram" in t for t in telegram.texts(77)), 30)

            dm = await discord.send_dm(payloads.user("Ana"), "Hello from Discord")
            [reply] = await discord.replies_in(int(dm["channel_id"]))
            assert "echo: Hello from Discord" in reply.content
        finally:
            process.terminate()
            await asyncio.wait_for(process.wait(), 60)
            await reader
        log = "".join(lines)
        assert process.returncode == 0, log  # SIGTERM is a normal stop for `souvenir run`
        assert "Traceback" not in log
        assert "objects from start-up are left out of the garbage collector's full passes" in log
        leftovers = await asyncio.to_thread(
            subprocess.run, ["pgrep", "-f", str(data_dir / "redis")], capture_output=True, text=True
        )
        assert leftovers.stdout.strip() == ""
