"""`souvenir run` on Telegram, its process group SIGKILLed while the model answers (the embedded Redis with
it): after the restart the person gets one late reply with an apology, and Telegram delivering the update
again (as when an acknowledgment was lost) brings no second one — nothing is lost as a duplicate."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.llm_script import Held
from tests.fakes.souvenir_process import ROOT, souvenir_env


@asynccontextmanager
async def _running(env: dict[str, str]) -> AsyncIterator[asyncio.subprocess.Process]:
    """`souvenir run` in its own process group, once it says it runs; killed with its group on the way out."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run",
        cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env}, start_new_session=True,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    log = ""
    try:
        assert process.stderr is not None
        while "Souvenir is running on telegram" not in log:
            line = await asyncio.wait_for(process.stderr.readline(), 120)
            assert line, log
            log += line.decode()
        drain = asyncio.create_task(process.stderr.read())
        yield process
        drain.cancel()
    finally:
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


async def test_a_kill_while_the_model_answers_ends_in_one_late_reply(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    async with FakeTelegram() as telegram:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, None),
            "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_INBOX_LEASE_S": "1",
            "SOUVENIR_LOG_LEVEL": "INFO",
        }
        answering = Held()
        fake_llm.script(answering)
        async with _running(env) as process:
            update = await telegram.push_text(77, "Tell me about Miso")
            await asyncio.wait_for(answering.arrived.wait(), 60)  # the model is answering, held there
            os.killpg(process.pid, signal.SIGKILL)  # the bot and its embedded Redis, at once
            await process.wait()
        answering.release.set()
        assert telegram.texts(77) == []

        async with _running(env) as process:
            await telegram.redeliver(update)
            await telegram.wait_for(lambda: any("echo: Tell me about Miso" in t for t in telegram.texts(77)), 60)
            await asyncio.sleep(2.5)  # two more leases, and the redelivered update: no second reply
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), 60)
        [late] = telegram.texts(77)
        assert late.startswith("Sorry for the late reply") and "echo: Tell me about Miso" in late
