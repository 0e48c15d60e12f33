"""One chat flooding the bot must not stall the others: the real engine, the real python-telegram-bot,
the fake Bot API, and a language model whose calls for the flooding chat are held until the test lets go."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.noop import NoDatedEvents
from bot.engine.ports import CompletionRequest
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.adapters.telegram.conftest import build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingMemory, RecordingPlanner
from tests.fakes.fake_telegram import FakeTelegram

FLOODER, OTHER = 301, 302
FLOOD = 200


class HeldLLM:
    """Echoes the last user text; a call for a text starting with `held_prefix` waits until `release`."""

    def __init__(self, held_prefix: str) -> None:
        self.held_prefix = held_prefix
        self.release = asyncio.Event()
        self.started: list[str] = []

    async def complete(self, request: CompletionRequest) -> str:
        text = request.turns[-1].text
        self.started.append(text)
        if text.startswith(self.held_prefix):
            await self.release.wait()
        return f"echo: {text}"


async def test_a_flooding_chat_does_not_delay_another_chats_reply(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    llm = HeldLLM("flood")
    engine = Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=1)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        persona=load_persona(None),
        clock=clock,
        dated_events=NoDatedEvents(),
        options=EngineOptions(disclosure=DisclosurePolicy(enabled=False)),
    )
    commands, _, _ = build_commands(redis_client, clock)
    async with run_telegram(
        telegram_settings(telegram),
        engine=engine,
        commands=commands,
        poll_timeout=0.5,
        typing_interval=0.5,
        per_chat_interval=0.0,
        overall_per_second=1000,
    ):
        try:
            for n in range(FLOOD):
                await telegram.push_text(FLOODER, f"flood {n}")
            # The flood's first LLM call is under way (and held) before the other person writes.
            await telegram.wait_for(lambda: "flood 0" in llm.started)
            await telegram.push_text(OTHER, "hello, anyone there?")

            # The other person is answered while the flood's first call still runs: not one flood reply yet.
            await telegram.wait_for(lambda: len(telegram.sent(OTHER)) == 1, within=10)
            assert telegram.texts(OTHER) == ["echo: hello, anyone there?"]
            assert telegram.sent(FLOODER) == []
            assert llm.started.count("flood 0") == 1 and "flood 1" not in llm.started  # one at a time in a chat

        finally:
            llm.release.set()  # never leave the flood held, or stopping the bot would wait for it
        await telegram.wait_for(lambda: len(telegram.sent(FLOODER)) == FLOOD, within=60)
        await telegram.push_text(FLOODER, "last one")
        await telegram.wait_for(lambda: "echo: last one" in telegram.texts(FLOODER), within=10)
        # Every flood message answered once, in the order sent, before the message that followed it.
        assert telegram.texts(FLOODER) == [f"echo: flood {n}" for n in range(FLOOD)] + ["echo: last one"]
        await engine.drain()
