"""A language chosen with /language sticks: what the person writes next does not change it."""

from __future__ import annotations

import asyncio

from bot.engine.model import UserRef
from tests.engine.conftest import MessageFactory, Rig
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")


async def test_a_chosen_language_outlasts_messages_in_another_language(rig: Rig, message: MessageFactory) -> None:
    commands, _, _ = redis_backed_commands(rig.redis, rig.clock, InMemoryMemoryBrowser())
    await commands.set_language(LEA, "fr")

    reply = await rig.engine.handle(message("Hello, how are you doing today? I had a great week at work"))

    assert reply is not None and reply.language == "fr"
    assert "Reply in French" in rig.llm.requests[0].system
    assert (await commands.help_text(LEA, hint="en")).startswith("Parle-moi")  # commands too


async def test_without_a_choice_the_language_follows_what_they_write(rig: Rig, message: MessageFactory) -> None:
    commands, _, _ = redis_backed_commands(rig.redis, rig.clock, InMemoryMemoryBrowser())
    await rig.engine.handle(message("Salut, je suis un peu fatiguée aujourd'hui"))
    await commands.set_language(LEA, "auto")

    reply = await rig.engine.handle(message("Hello, how are you doing today? I had a great week at work"))

    assert reply is not None and reply.language == "en"


async def test_settings_changed_while_a_reply_is_written_are_kept(rig: Rig, message: MessageFactory) -> None:
    commands, _, _ = redis_backed_commands(rig.redis, rig.clock, InMemoryMemoryBrowser())
    rig.llm.gate = asyncio.Event()
    replying = asyncio.create_task(rig.engine.handle(message("Hello, how are you doing today? Long week at work")))
    await rig.llm.arrived.wait()  # the model is writing the reply

    await commands.set_language(LEA, "fr")
    await commands.set_timezone(LEA, "Asia/Tokyo")
    rig.llm.gate.set()
    assert await replying is not None

    profile = await rig.profiles.load_profile(LEA.key)
    assert (profile.language, profile.language_chosen, profile.timezone) == ("fr", True, "Asia/Tokyo")
    assert profile.last_seen_at == rig.clock.now() and profile.display_name == "Léa"
