"""What the operator's logs hold at INFO and above while people talk: no message text, no fact drawn from one,
no token, API key or password (real engine, embedded Redis and Qdrant, the OpenAI SDK against the fake)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.app import open_core
from bot.config import load_settings
from bot.engine.model import UserRef
from memory.redis.embedded import PASSWORD_NAME
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Reply
from tests.test_app_erasure import say

LEA = UserRef("telegram", "4242", "Léa")
SECRET = "Quetzalcoatlus"
API_KEY = "sk-test-Xy7Qv3Lk9Rt2"
TELEGRAM_TOKEN = "123456:AAF-telegram-Zq8Wm4Np"
FACTS = f'{{"facts": [{{"text": "Léa named her boat {SECRET}"}}], "events": []}}'
UNREADABLE = f'{{"facts": [{{"text": ["Léa named her boat {SECRET}"]}}]}}'  # a list where a text belongs


async def test_a_conversation_and_its_erasure_log_no_text_and_no_secret(
    data_dir: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with FakeOpenAI() as llm:
        settings = load_settings(
            data_dir=data_dir, llm_provider="openai-compatible", llm_base_url=llm.base_url, llm_max_retries=0,
            llm_api_key=API_KEY, telegram_token=TELEGRAM_TOKEN, llm_extraction=True,
            default_timezone="Europe/Paris",
        )  # fmt: skip
        # The reply, an extraction the model gets wrong twice (it is asked again once), then one it gets right.
        llm.script(Reply(f"What a name, {SECRET}!"), Reply(UNREADABLE), Reply(UNREADABLE), Reply(FACTS))
        async with open_core(settings, clock=clock) as core:
            await say(core, clock, f"My boat is called {SECRET}, my secret.")
            assert (await core.commands.remember(LEA, f"{SECRET} sails on Sundays")).ok
            page = await core.commands.memories_page(LEA, 0, 50)
            assert any(SECRET in item.text for item in page.items)  # the words went through every store
            assert (await core.commands.forget_memory(LEA, page.items[0].memory_id)).ok
            assert (await core.commands.forget_everything(LEA)).ok
        password = (data_dir / "redis" / PASSWORD_NAME).read_text().strip()

    logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records if r.levelno >= logging.INFO)
    assert "embedded Redis" in logged  # the capture sees the app's INFO lines...
    assert "did not answer with the JSON asked for" in logged  # ...and the warning about the unreadable answer
    for leaked in (SECRET, "My boat", "sails on Sundays", API_KEY, TELEGRAM_TOKEN, password):
        assert leaked not in logged
