"""'Why did you say that?': the engine notes what each reply drew on; /memories why shows it, /forget takes it
out, /export gives it, /forget all — even during a reply — leaves none of it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, IncomingMessage, UserRef, dm_conversation_id, group_conversation_id
from bot.engine.noop import NoDatedEvents, NoPlanner
from bot.engine.ports import CompletionRequest
from bot.persona_file import load_persona
from memory.privacy.erasure import RedisErasureLog, ShortTermFence
from memory.redis.reply_trail import RedisReplyTrail
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.service import LongTermMemoryService
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser
from tests.fakes.redis_scan import redis_mentions
from tests.memory.fake_index import FakeMemoryIndex

LEA = UserRef("telegram", "42", "Léa")
TOM = UserRef("telegram", "43", "Tom")
GROUP = group_conversation_id("telegram", "-100")
_ids = count(1)


class GatedLLM:
    """Echoes the last user text; while `gate` is set, waits for it (and says so with `asked`)."""

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None
        self.asked = asyncio.Event()

    async def complete(self, request: CompletionRequest) -> str:
        self.asked.set()
        if self.gate is not None:
            await self.gate.wait()
        return f"echo: {request.turns[-1].text}"


@dataclass
class Companion:
    engine: Engine
    commands: UserCommands
    memories: InMemoryMemoryBrowser
    llm: GatedLLM
    redis: aioredis.Redis
    clock: FakeClock

    def message(self, text: str, user: UserRef = LEA, *, group: bool = False) -> IncomingMessage:
        self.clock.advance(minutes=1)
        conversation = GROUP if group else dm_conversation_id(user)
        kind = ChatKind.GROUP if group else ChatKind.PRIVATE
        return IncomingMessage(user, conversation, str(next(_ids)), text, self.clock.now(), kind)

    async def say(self, text: str, user: UserRef = LEA, *, group: bool = False) -> None:
        assert await self.engine.handle(self.message(text, user, group=group)) is not None
        await self.engine.drain()


@pytest.fixture
async def companion(redis_url: str, clock: FakeClock) -> AsyncIterator[Companion]:
    """The engine and the commands as the app wires them, on one Redis (bytes, as the app's client)."""
    redis = aioredis.from_url(redis_url)
    memories = InMemoryMemoryBrowser()  # recall matches words; every message becomes an episode
    log = RedisErasureLog(redis)
    commands, profiles, window = redis_backed_commands(redis, clock, memories, schedule_eraser=log)
    trail = RedisReplyTrail(redis, ttl=timedelta(hours=2), forgotten=log)
    llm = GatedLLM()
    engine = Engine(
        llm=llm,
        window=window,
        claims=RedisMessageClaims(redis),
        profiles=profiles,
        memory=memories,
        planner=NoPlanner(),
        dated_events=NoDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(),
        fence=ShortTermFence(log, [profiles, window, trail]),
        trail=trail,
    )
    yield Companion(engine, commands, memories, llm, redis, clock)
    await engine.drain()
    await redis.aclose()


async def test_why_shows_the_kind_and_text_of_what_the_last_reply_drew_on_never_when_told(
    companion: Companion,
) -> None:
    before = await companion.commands.why(LEA, dm_conversation_id(LEA))
    companion.memories.add(LEA.key, "Léa has a cat named Miso", datetime(2025, 6, 2, 9, 30, tzinfo=UTC))
    companion.memories.add(LEA.key, "I adopted Miso at the shelter", datetime(2025, 6, 3, tzinfo=UTC), "episodic")
    companion.memories.add(LEA.key, "I work in Lyon", datetime(2025, 6, 4, tzinfo=UTC))

    await companion.say("tell me about Miso")
    why = await companion.commands.why(LEA, dm_conversation_id(LEA))

    assert before.text.startswith("I haven't replied to you here lately.")
    assert why.text.splitlines() == [
        "My last reply drew on these memories of you:",
        "1. (fact) Léa has a cat named Miso",
        "2. (something you said) I adopted Miso at the shelter",
        "Something wrong or private? /forget <number> forgets it.",
    ]
    assert "2025" not in why.text and "June" not in why.text

    await companion.say("nothing in common with anything")
    assert (await companion.commands.why(LEA)).text == "My last reply didn't draw on anything I remember about you."


async def test_why_in_french(companion: Companion) -> None:
    await companion.commands.set_language(LEA, "fr")
    companion.memories.add(LEA.key, "Léa a un chat qui s'appelle Miso", companion.clock.now())

    await companion.say("parle-moi de Miso")
    why = await companion.commands.why(LEA, dm_conversation_id(LEA))

    assert why.text.splitlines()[:2] == [
        "Ma dernière réponse s'appuyait sur ces souvenirs de toi :",
        "1. (fait) Léa a un chat qui s'appelle Miso",
    ]


async def test_forget_by_the_number_in_why_forgets_it_and_it_never_shows_there_again(companion: Companion) -> None:
    companion.memories.add(LEA.key, "Léa has a cat named Miso", companion.clock.now())
    companion.memories.add(LEA.key, "Miso sleeps on the piano", companion.clock.now())
    await companion.say("tell me about Miso")
    await companion.say("and Miso again")  # two replies drew on the same memories
    await companion.commands.why(LEA, dm_conversation_id(LEA))

    forgotten = await companion.commands.forget_memory(LEA, "2")

    assert forgotten.ok and forgotten.text == "Forgotten: “Miso sleeps on the piano”"
    assert all("piano" not in m.text for m in companion.memories.items[LEA.key])
    assert "piano" not in (await companion.commands.why(LEA)).text
    exported = json.loads(await companion.commands.export(LEA))
    assert "piano" not in json.dumps(exported["memories_last_replies_drew_on"])


async def test_in_a_group_why_shows_only_the_askers_own_memories(companion: Companion) -> None:
    companion.memories.add(LEA.key, "Léa is afraid of the dentist", companion.clock.now())
    await companion.commands.set_group_sharing(LEA, "on")  # her private memories may come up in groups
    await companion.say("should I go to the dentist", group=True)

    leas = await companion.commands.why(LEA, GROUP)
    toms = await companion.commands.why(TOM, GROUP)

    assert "afraid of the dentist" in leas.text
    assert toms.text.startswith("I haven't replied to you here lately.") and toms.memories == ()


async def test_export_gives_the_trail_and_forget_all_leaves_none_of_it(companion: Companion) -> None:
    companion.memories.add(LEA.key, "Léa has a cat named Miso", companion.clock.now())
    await companion.say("tell me about Miso")

    exported = json.loads(await companion.commands.export(LEA))
    [last] = exported["memories_last_replies_drew_on"]
    assert last["conversation"] == dm_conversation_id(LEA)
    assert {"kind": "semantic", "text": "Léa has a cat named Miso"}.items() <= last["memories"][0].items()

    assert (await companion.commands.forget_everything(LEA)).ok
    assert await redis_mentions(companion.redis, "cat named") == []
    assert json.loads(await companion.commands.export(LEA))["memories_last_replies_drew_on"] == []


async def test_forget_all_while_a_reply_is_written_leaves_no_trail(companion: Companion) -> None:
    companion.memories.add(LEA.key, "Léa has a cat named Miso", companion.clock.now())
    companion.llm.gate = asyncio.Event()
    reply = asyncio.create_task(companion.engine.handle(companion.message("tell me about Miso")))
    await companion.llm.asked.wait()  # recalled, and the model is writing

    assert (await companion.commands.forget_everything(LEA)).ok
    companion.llm.gate.set()
    assert await reply is not None
    await companion.engine.drain()

    assert await redis_mentions(companion.redis, "cat named") == []
    assert (await companion.commands.why(LEA)).memories == ()


async def test_remember_reads_relative_dates_in_the_persons_time_zone(redis_client: aioredis.Redis) -> None:
    clock = FakeClock(datetime(2026, 3, 14, 20, 0, tzinfo=UTC))  # already the 15th, 9:00, in Auckland
    service = LongTermMemoryService(FakeMemoryIndex())
    commands, _, _ = redis_backed_commands(redis_client, clock, service)
    await commands.set_timezone(LEA, "Pacific/Auckland")

    assert (await commands.remember(LEA, "my dentist appointment is tomorrow")).ok

    [appointment] = await service.dated_events(LEA.key)
    assert appointment.on.isoformat() == "2026-03-16"  # Auckland's tomorrow, not UTC's
