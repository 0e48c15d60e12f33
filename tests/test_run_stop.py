"""Stopping `souvenir run` with signals, as a service manager does: a second SIGTERM while replies are still
in flight cuts the grace short, but the stores are still closed — no embedded Redis is left running."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.llm_script import Hang
from tests.fakes.souvenir_process import ROOT, souvenir_env


async def test_a_second_sigterm_cuts_the_grace_short_and_still_closes_the_stores(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    async with FakeTelegram() as telegram:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, None),
            "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_LLM_TIMEOUT_S": "300",  # the model hangs far longer than the test waits
            "SOUVENIR_SHUTDOWN_GRACE_S": "300",
            "SOUVENIR_LOG_LEVEL": "INFO",
        }
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run",
            cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        lines: list[str] = []
        seen = asyncio.Condition()

        async def collect() -> None:
            async for raw in process.stderr:  # type: ignore[union-attr]
                async with seen:
                    lines.append(raw.decode())
                    seen.notify_all()

        async def logged(text: str) -> None:
            async with seen:
                await asyncio.wait_for(seen.wait_for(lambda: any(text in line for line in lines)), 90)

        reader = asyncio.create_task(collect())
        try:
            await logged("Souvenir is running on telegram")
            fake_llm.script(Hang(600))
            await telegram.push_text(77, "Tell me a long story")
            await telegram.wait_for(lambda: len(fake_llm.requests) == 1, 30)  # the reply is being written

            process.send_signal(signal.SIGTERM)
            await logged("finishing 1 Telegram update(s) in flight")
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
            await reader
    log = "".join(lines)
    assert process.returncode == 0, log
    assert "stopping at once" in log and "Traceback" not in log
    leftovers = await asyncio.to_thread(
        subprocess.run, ["pgrep", "-f", str(data_dir / "redis")], capture_output=True, text=True
    )
    assert leftovers.stdout.strip() == "", log
