"""Unprompted messages are written in the companion's own voice."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.engine.model import UserProfile
from bot.persona_file import load_persona
from jobs.compose import Composer, Occasion, fixed_text
from tests.jobs.fakes import ScriptedLLM

BIRTHDAY = Occasion("birthday", "It is their birthday today.", "birthday")


async def test_the_persona_speaks_in_unprompted_messages() -> None:
    llm = ScriptedLLM()
    composer = Composer(llm=llm, memory=None, persona=load_persona(None))

    text = await composer.compose(BIRTHDAY, UserProfile("telegram:1", display_name="Ana"), "en",
                                  datetime(2026, 3, 14, 8, tzinfo=UTC), "Europe/Paris")  # fmt: skip

    assert text == llm.answer
    system = llm.requests[0].system
    assert system.startswith('You are "Souvenir"') and "speaking_style:" in system
    assert "birthday" in system and 'with "Ana".' in system


async def test_unprompted_messages_use_the_chosen_name_pronouns_and_vous() -> None:
    llm = ScriptedLLM()
    composer = Composer(llm=llm, memory=None, persona=load_persona(None))
    profile = UserProfile("telegram:1", display_name="Maxime Dupont", preferred_name="Max", pronouns="il/lui",
                          address_form="vous")  # fmt: skip

    await composer.compose(BIRTHDAY, profile, "fr", datetime(2026, 3, 14, 8, tzinfo=UTC), "Europe/Paris")

    system = llm.requests[0].system
    assert 'with "Max".' in system and '"il/lui"' in system and "« vous »" in system


def test_the_fixed_texts_use_the_chosen_name_and_vous() -> None:
    profile = UserProfile("telegram:1", display_name="Maxime Dupont", preferred_name="Max", address_form="vous")
    text = fixed_text(Occasion("checkin", "check in", "how are you"), profile, "fr")
    assert text == "Bonjour Max, cela fait quelques jours — comment allez-vous ?"
    assert fixed_text(Occasion("checkin", "", ""), replace(profile, address_form=None), "fr").startswith("Coucou Max")
