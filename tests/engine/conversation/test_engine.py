"""The engine against a real Redis server: window, TTL, idempotency, locks, disclosure, fallbacks, scope."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.engine.model import RecalledMemory
from tests.engine.conftest import MessageFactory, Rig


async def test_reply_comes_from_the_model_with_persona_local_time_language(rig: Rig, message: MessageFactory) -> None:
    rig.clock.current = datetime(2026, 7, 1, 20, 30, tzinfo=UTC)  # 22:30 in Paris (summer time)
    reply = await rig.engine.handle(message("Hello! How are you tonight?"))

    assert reply is not None and reply.text.endswith("echo: Hello! How are you tonight?")
    system = rig.llm.requests[0].system
    assert 'You are "Souvenir"' in system
    assert "22:30" in system and "Wednesday" in system and "Europe/Paris" in system
    assert "Reply in English" in system


async def test_french_is_detected_and_the_fallback_speaks_french(rig: Rig, message: MessageFactory) -> None:
    rig.llm.failing = True
    reply = await rig.engine.handle(message("Salut, je suis un peu fatiguée aujourd'hui"))

    assert reply is not None and reply.fallback and reply.language == "fr"
    assert "Désolé" in reply.text
    assert "Reply in French" in rig.llm.requests[0].system


async def test_window_keeps_only_the_last_turns_and_expires(rig: Rig, message: MessageFactory) -> None:
    for n in range(5):
        await rig.engine.handle(message(f"message number {n}"))

    turns = await rig.window.recent_turns("telegram:dm:42")
    assert [t.text for t in turns if t.role == "user"] == ["message number 2", "message number 3", "message number 4"]
    assert len(turns) == 6
    ttl = await rig.redis.ttl("souvenir:window:telegram:dm:42")
    assert 72 * 3600 - 5 < ttl <= 72 * 3600
    # The model saw the previous turns as context.
    assert [t.text for t in rig.llm.requests[-1].turns][-3:-1] == ["message number 3", "echo: message number 3"]


async def test_the_same_platform_message_twice_gets_one_reply(rig: Rig, message: MessageFactory) -> None:
    first = await rig.engine.handle(message("are you there?", message_id="777"))
    again = await rig.engine.handle(message("are you there?", message_id="777"))

    assert first is not None and again is None
    assert len(rig.llm.requests) == 1


async def test_concurrent_messages_in_one_conversation_are_answered_in_turn(rig: Rig, message: MessageFactory) -> None:
    rig.llm.delay = 0.05
    await asyncio.gather(rig.engine.handle(message("first")), rig.engine.handle(message("second")))

    assert rig.llm.max_in_flight == 1
    # Whichever went second saw the first exchange completed in its context.
    earlier, later = (t.turns[-1].text for t in rig.llm.requests)
    assert [t.text for t in rig.llm.requests[1].turns] == [earlier, f"echo: {earlier}", later]


async def test_different_conversations_are_not_serialised(rig: Rig, message: MessageFactory) -> None:
    rig.llm.delay = 0.05
    await asyncio.gather(rig.engine.handle(message("hi", user="1")), rig.engine.handle(message("hi", user="2")))

    assert rig.llm.max_in_flight == 2


async def test_ai_disclosure_first_message_and_again_after_three_hours(rig: Rig, message: MessageFactory) -> None:
    first = await rig.engine.handle(message("hi"))
    rig.clock.advance(minutes=20)
    second = await rig.engine.handle(message("still me"))
    for _ in range(7):  # a continuing conversation: a message every 20 minutes
        rig.clock.advance(minutes=20)
        await rig.engine.handle(message("and again"))
    rig.clock.advance(minutes=21)
    third = await rig.engine.handle(message("three hours later"))

    assert first is not None and first.disclosed and "AI" in first.text.split("\n")[0]
    assert second is not None and not second.disclosed and "AI companion" not in second.text
    assert third is not None and third.disclosed


async def test_memories_go_into_the_prompt_as_background(rig: Rig, message: MessageFactory) -> None:
    rig.memory.memories = [RecalledMemory("m1", "semantic", "Has a cat named Miso")]
    await rig.engine.handle(message("my cat did something funny"))

    system = rig.llm.requests[0].system
    assert "Has a cat named Miso" in system
    assert "Never recite" in system


async def test_group_messages_never_recall_private_memories_unless_opted_in(rig: Rig, message: MessageFactory) -> None:
    await rig.engine.handle(message("hello everyone", group="-100"))
    assert rig.memory.queries[-1].scopes == ("group:telegram:chat:-100",)

    profile = await rig.profiles.load_profile("telegram:42")
    from dataclasses import replace

    await rig.profiles.save_profile(replace(profile, share_dm_memories_in_groups=True))
    await rig.engine.handle(message("hello again", group="-100"))
    assert set(rig.memory.queries[-1].scopes) == {"group:telegram:chat:-100", "dm"}


async def test_a_memory_outage_still_gets_a_reply_and_the_exchange_stays_in_context(
    rig: Rig, message: MessageFactory, caplog: pytest.LogCaptureFixture
) -> None:
    rig.memory.broken = True  # recall and writes both fail
    first = message("anyone home?")
    reply = await rig.engine.handle(first)
    await rig.engine.drain()
    second = await rig.engine.handle(message("still there?"))

    assert reply is not None and not reply.fallback and second is not None and not second.fallback
    assert rig.memory.exchanges == []  # nothing reached long-term memory...
    assert "could not store the exchange" in caplog.text  # ...and the operator is told
    turns = await rig.window.recent_turns(first.conversation_id)
    assert (turns[0].role, turns[0].text) == ("user", "anyone home?")
    assert turns[1].role == "assistant" and turns[1].text in reply.text  # the next reply still had it
    assert rig.llm.requests[-1].turns[0].text == "anyone home?"
    assert rig.planner.activity and rig.planner.activity[0][0] == "telegram:42"


async def test_profile_records_first_and_last_seen(rig: Rig, message: MessageFactory) -> None:
    started = rig.clock.now()
    await rig.engine.handle(message("hi"))
    rig.clock.advance(minutes=5)
    await rig.engine.handle(message("hi again"))

    profile = await rig.profiles.load_profile("telegram:42")
    assert profile.first_seen_at == started
    assert profile.last_seen_at == rig.clock.now()
    assert profile.display_name == "Léa" and profile.language == "en"


async def test_long_term_memory_gets_the_turns_before_the_message(rig: Rig, message: MessageFactory) -> None:
    await rig.engine.handle(message("I adopted a cat"))
    await rig.engine.handle(message("her name is Miso"))
    await rig.engine.drain()

    first, second = rig.memory.exchanges
    assert first.previous_turns == ()
    assert [t.text for t in second.previous_turns] == ["I adopted a cat", "echo: I adopted a cat"]
