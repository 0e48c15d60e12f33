"""Unprompted messages are written in the companion's own voice."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine.model import UserProfile
from bot.persona_file import load_persona
from jobs.compose import Composer, Occasion
from tests.jobs.fakes import ScriptedLLM

BIRTHDAY = Occasion("birthday", "It is their birthday today.", "birthday")


async def test_the_persona_speaks_in_unprompted_messages() -> None:
    llm = ScriptedLLM()
    composer = Composer(llm=llm, memory=None, persona=load_persona(None))

    text = await composer.compose(BIRTHDAY, UserProfile("telegram:1", display_name="Ana"), "en",
                                  datetime(2026, 3, 14, 8, tzinfo=UTC), "Europe/Paris")  # fmt: skip

    assert text == llm.answer
    system = llm.requests[0].system
    assert system.startswith("You are Souvenir") and "Speaking style:" in system
    assert "birthday" in system and "Ana" in system
