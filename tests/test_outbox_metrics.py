"""The outbox depth on /metrics: how many exchanges wait for long-term memory, as each worker round sees it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import redis.asyncio as aioredis

from bot.app import open_core, open_status_server
from bot.config import load_settings
from bot.engine.model import IncomingMessage, UserRef, dm_conversation_id
from bot.prometheus_metrics import PrometheusMetrics
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.memory.test_outbox import Recorder, exchange


def _depth(exposition: str) -> float:
    [line] = [line for line in exposition.splitlines() if line.startswith("souvenir_outbox_depth ")]
    return float(line.rpartition(" ")[2])


async def test_each_round_reports_what_is_still_waiting(redis_url: str) -> None:
    client = aioredis.from_url(redis_url)
    try:
        outbox = RedisOutbox(client)
        await outbox.ensure_group()
        for n in range(3):
            await outbox.enqueue(exchange(f"message {n}", n))
        metrics = PrometheusMetrics()
        worker = OutboxWorker(outbox, Recorder(), metrics=metrics)
        await worker.step()
        assert _depth(metrics.render().decode()) == 2
        await worker.drain()
        assert _depth(metrics.render().decode()) == 0
    finally:
        await client.aclose()


async def test_metrics_show_the_outbox_depth(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    lea = UserRef("terminal", "lea", "Léa")
    settings = load_settings(
        data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=fake_llm.base_url,
        llm_max_retries=0, http_port=0, http_host="127.0.0.1",
    )  # fmt: skip
    async with open_core(settings, clock=clock) as core, open_status_server(core) as port:
        await core.engine.handle(IncomingMessage(lea, dm_conversation_id(lea), "1", "I have a cat", clock.now()))
        await core.engine.drain()
        async with asyncio.timeout(60):
            while True:  # the worker reports after the round that wrote it
                async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as got:
                    if _depth(await got.text()) == 0:
                        break
                await asyncio.sleep(0.05)
