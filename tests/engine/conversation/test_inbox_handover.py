"""With the inbox: a message leaves it only once its reply and exchange are queued; a redelivery is refused; a
late answer opens with the apology; one found too late is remembered with no reply."""

from __future__ import annotations

from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.persona_file import load_persona
from memory.redis.inbox import RedisInbox
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.conversation.test_outbox_handover import ListOutbox
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


def _engine(client: aioredis.Redis, clock: FakeClock, outbox: ListOutbox, inbox: RedisInbox) -> Engine:
    return Engine(
        llm=ScriptedLLM(),
        window=RedisConversationWindow(client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(client),
        profiles=RedisProfiles(client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(),
        outbox=outbox,
        inbox=inbox,
    )


async def test_a_message_leaves_the_inbox_once_answered_and_a_redelivery_is_refused(
    redis_url: str, clock: FakeClock, message: MessageFactory
) -> None:
    client = aioredis.from_url(redis_url)
    inbox, outbox = RedisInbox(client), ListOutbox()
    engine = _engine(client, clock, outbox, inbox)
    try:
        hello = message("I have a cat named Miso", user="1")
        assert await engine.handle(hello) is not None
        assert await inbox.pending() == 0 and len(outbox.entries) == 1
        assert await engine.handle(hello) is None  # the platform delivered it again
    finally:
        await engine.drain()
        await client.aclose()


async def test_a_late_answer_apologises_and_a_message_found_too_late_is_remembered_unanswered(
    redis_url: str, clock: FakeClock, message: MessageFactory
) -> None:
    client = aioredis.from_url(redis_url)
    inbox, outbox = RedisInbox(client), ListOutbox()
    engine = _engine(client, clock, outbox, inbox)
    try:
        cut_short, old = message("I have a cat named Miso", user="1"), message("I love jazz", user="2")
        assert await inbox.receive(cut_short) and await inbox.receive(old)  # as `handle` did before a crash
        reply = await engine.answer_late(cut_short)
        assert reply is not None
        assert reply.text.startswith("Sorry for the late reply") and "echo: I have a cat named Miso" in reply.text
        await engine.keep_unanswered(old)
        assert await inbox.pending() == 0
        [answered, kept] = outbox.entries
        assert answered.message == cut_short and "echo: I have a cat named Miso" in answered.reply.text
        assert kept.message == old and kept.reply.fallback and kept.reply.text == ""  # what they said, no reply
    finally:
        await engine.drain()
        await client.aclose()
