"""The AI disclosure on unprompted messages: one that opens an interaction carries it, even when it was said
under three hours ago; one sent into a continuing conversation does not, until three hours have passed; and
the person answering a disclosed one within minutes is not told again (the engine reads the mark)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, IncomingMessage, MonthDay, UserRef, dm_conversation_id
from bot.engine.texts.say import say
from bot.persona_file import load_persona
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents
from tests.jobs.conftest import World, WorldFactory

WISH_AT = datetime(2026, 3, 14, 8, tzinfo=UTC)  # 09:00 in Paris: the birthday wish goes out
DISCLOSURE = say("disclosure", "en")
ANA = UserRef("telegram", "42", "Ana")


async def _wish(world: World, *, last_seen: datetime, last_disclosed: datetime) -> str:
    world.clock.current = datetime(2026, 3, 14, 0, tzinfo=UTC)
    await world.add_user(
        birthday=MonthDay(3, 14), display_name="Ana", last_seen_at=last_seen, last_disclosed_at=last_disclosed
    )
    [sent] = await world.run_until(WISH_AT + timedelta(minutes=5))
    assert sent.at == WISH_AT and "Happy birthday Ana" in sent.text
    return sent.text


def _engine(world: World) -> Engine:
    return Engine(
        llm=ScriptedLLM(), window=world.window, claims=RedisMessageClaims(world.redis), profiles=world.profiles,
        memory=RecordingMemory(), planner=RecordingPlanner(), dated_events=StoredDatedEvents(),
        persona=load_persona(None), clock=world.clock, options=EngineOptions(default_timezone="Europe/Paris"),
    )  # fmt: skip


async def _answer(engine: Engine, world: World, text: str) -> str:
    reply = await engine.handle(IncomingMessage(
        user=ANA, conversation_id=dm_conversation_id(ANA), message_id=text, text=text, sent_at=world.clock.now(),
        chat_kind=ChatKind.PRIVATE,
    ))  # fmt: skip
    assert reply is not None
    return reply.text


async def test_a_wish_that_opens_an_interaction_carries_it_and_an_answer_minutes_later_does_not(
    make_world: WorldFactory,
) -> None:
    world = await make_world()
    # They chatted until 07:20 and were told at 07:00: 40 minutes of silence before the wish.
    text = await _wish(world, last_seen=WISH_AT - timedelta(minutes=40), last_disclosed=WISH_AT - timedelta(hours=1))

    assert text.startswith(f"{DISCLOSURE}\n\n")
    assert (await world.profiles.load_profile(ANA.key)).last_disclosed_at == WISH_AT
    engine = _engine(world)
    world.clock.current = WISH_AT + timedelta(minutes=10)
    assert await _answer(engine, world, "Thank you!") == "echo: Thank you!"  # the same interaction
    world.clock.advance(minutes=40)
    assert (await _answer(engine, world, "Good evening, how are you?")).startswith(f"{DISCLOSURE}\n\n")
    await engine.drain()


@pytest.mark.parametrize(
    ("told_ago", "told_again"), [(timedelta(hours=2, minutes=59), False), (timedelta(hours=3), True)]
)
async def test_a_wish_sent_into_a_continuing_conversation_carries_it_once_three_hours_passed(
    make_world: WorldFactory, told_ago: timedelta, told_again: bool
) -> None:
    world = await make_world()
    text = await _wish(world, last_seen=WISH_AT - timedelta(minutes=5), last_disclosed=WISH_AT - told_ago)

    assert text.startswith(f"{DISCLOSURE}\n\n") is told_again
