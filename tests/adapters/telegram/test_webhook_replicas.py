"""Telegram webhook mode behind a load balancer: two `souvenir run` processes on one Redis, each with its own
webhook endpoint. Updates go to either one, and again to the other (Telegram redelivers when an answer was
lost; a balancer may retry on another replica): every message is answered exactly once, and one conversation
is never answered by both replicas at the same time."""

from __future__ import annotations

import asyncio
import itertools
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.llm_script import Held
from tests.fakes.souvenir_process import ROOT, souvenir_env

pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks]")

SECRET = "lb-secret_7"
UPDATE_IDS = itertools.count(5000)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def _replica(
    name: str, telegram: FakeTelegram, llm: FakeOpenAI, redis_url: str, tmp: Path, seen: list[str] | None = None
) -> AsyncIterator[str]:
    """`souvenir run` in webhook mode, its own data dir, the shared Redis; yields its webhook address. With
    `seen`, its log (DEBUG) lines are appended there as they come."""
    port = _free_port()
    data_dir = tmp / name
    data_dir.mkdir()
    env = {
        **souvenir_env(data_dir, llm.base_url, redis_url),
        "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
        "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
        "SOUVENIR_TELEGRAM_WEBHOOK_URL": "https://souvenir.example/telegram",
        "SOUVENIR_TELEGRAM_WEBHOOK_SECRET": SECRET,
        "SOUVENIR_TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
        "SOUVENIR_TELEGRAM_WEBHOOK_PORT": str(port),
        "SOUVENIR_LLM_EXTRACTION": "false",  # only replies reach the model: the test scripts every call
        "SOUVENIR_LLM_TIMEOUT_S": "120",
        "SOUVENIR_LOG_LEVEL": "INFO" if seen is None else "DEBUG",
    }
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run",
        cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    lines: list[str] = []
    running = asyncio.Event()

    async def collect() -> None:
        assert process.stderr is not None
        async for raw in process.stderr:
            lines.append(raw.decode())
            if seen is not None:
                seen.append(lines[-1])
            if "Souvenir is running on telegram" in lines[-1]:
                running.set()

    reader = asyncio.create_task(collect())
    try:
        await asyncio.wait_for(running.wait(), 120)
        yield f"http://127.0.0.1:{port}/telegram"
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 60)
        await reader
    log = "".join(lines)
    assert process.returncode == 0, log
    assert "Traceback" not in log, log


async def _post(http: aiohttp.ClientSession, webhook: str, update: dict[str, object]) -> None:
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    async with http.post(webhook, json=update, headers=headers) as response:
        assert response.status == 200


def _replies(telegram: FakeTelegram, chat: int) -> list[str]:
    """The bot's messages in the chat, without the AI disclosure the first one carries."""
    return [text.split("\n\n")[-1] for text in telegram.texts(chat)]


@pytest.fixture
async def llm() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as server:
        yield server


async def test_each_update_is_answered_once_whichever_replica_gets_it(
    llm: FakeOpenAI, redis_url: str, tmp_path: Path
) -> None:
    async with (
        FakeTelegram() as telegram,
        _replica("a", telegram, llm, redis_url, tmp_path) as first,
        _replica("b", telegram, llm, redis_url, tmp_path) as second,
        aiohttp.ClientSession() as http,
    ):
        replicas = [first, second]
        chats = [701, 702, 703, 704]
        sent: dict[int, list[str]] = {chat: [] for chat in chats}
        for n in range(3):
            for k, chat in enumerate(chats):
                text = f"message {n} in chat {chat}"
                update = {"update_id": next(UPDATE_IDS), "message": telegram.user_message(chat, text)}
                sent[chat].append(text)
                one, other = replicas[(n + k) % 2], replicas[(n + k + 1) % 2]  # alternating
                await asyncio.gather(_post(http, one, update), _post(http, other, update))  # both at once
                await _post(http, one, update)  # and a redelivery to the first one
        # A last message per chat on each replica: each replica handles a chat's updates in order, so once these
        # are answered, every copy of the earlier updates has been dealt with by both replicas.
        for chat in chats:
            for name, webhook in zip("ab", replicas, strict=True):
                last = {"update_id": next(UPDATE_IDS), "message": telegram.user_message(chat, f"last to {name}")}
                await _post(http, webhook, last)
            sent[chat] += ["last to a", "last to b"]
        expected = {chat: sorted(f"echo: {text}" for text in texts) for chat, texts in sent.items()}
        await telegram.wait_for(lambda: all(len(telegram.texts(c)) >= len(expected[c]) for c in chats), 120)

        for chat in chats:
            assert sorted(_replies(telegram, chat)) == expected[chat]  # each once: none lost, none twice
        assert len(llm.requests) == sum(len(texts) for texts in sent.values())  # one model call per message


async def test_one_conversation_is_never_answered_by_both_replicas_at_once(
    llm: FakeOpenAI, redis_url: str, tmp_path: Path
) -> None:
    held_first, held_second = Held(), Held()
    second_log: list[str] = []
    async with (
        FakeTelegram() as telegram,
        _replica("a", telegram, llm, redis_url, tmp_path) as first,
        _replica("b", telegram, llm, redis_url, tmp_path, second_log) as second,
        aiohttp.ClientSession() as http,
    ):
        llm.script(held_first, held_second)
        one = {"update_id": next(UPDATE_IDS), "message": telegram.user_message(801, "my cat is called Miso")}
        two = {"update_id": next(UPDATE_IDS), "message": telegram.user_message(801, "what is my cat called?")}
        await _post(http, first, one)
        await asyncio.wait_for(held_first.arrived.wait(), 60)  # replica A is writing the first reply
        await _post(http, second, two)  # replica B gets the next message of the same conversation meanwhile
        async with asyncio.timeout(60):  # a positive signal: B has reached the conversation and waits for it
            while not any("waiting for its lock" in line for line in second_log):  # noqa: ASYNC110 - a log line
                await asyncio.sleep(0.05)
        assert len(llm.requests) == 1  # so B has not asked the model while A is still answering

        held_first.release.set()
        await asyncio.wait_for(held_second.arrived.wait(), 60)
        held_second.release.set()
        await telegram.wait_for(lambda: len(telegram.texts(801)) >= 2, 60)

    # B only asked the model once A's answer was written: its prompt holds the first exchange, reply included.
    _, second_request = llm.bodies
    contents = [str(m.get("content")) for m in second_request["messages"]]
    assert any("my cat is called Miso" in c for c in contents)
    assert any("echo: my cat is called Miso" in c for c in contents)
    assert _replies(telegram, 801) == ["echo: my cat is called Miso", "echo: what is my cat called?"]
