"""Unprompted messages are written in the companion's own voice."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

from bot.engine.model import RecalledMemory, UserProfile
from bot.persona_file import load_persona
from jobs.compose import Composer, Occasion, fixed_text
from tests.jobs.fakes import FakeMemory, ScriptedLLM

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


async def test_a_recalled_date_reaches_the_unprompted_prompt_said_relatively() -> None:
    """No calendar date for the model to copy: "Claire's wedding — 9 January 2027" is shown "— in a month"."""
    wedding = RecalledMemory("m1", "temporal", "Claire's wedding — 9 January 2027", on=date(2027, 1, 9))
    cat = RecalledMemory("m2", "semantic", "Has a cat named Miso")
    llm = ScriptedLLM()
    composer = Composer(llm=llm, memory=FakeMemory([wedding, cat]), persona=load_persona(None))
    checkin = Occasion("checkin", "It has been a few days.", "how are you")

    await composer.compose(checkin, UserProfile("telegram:1", display_name="Ana"), "en",
                           datetime(2026, 12, 5, 9, tzinfo=UTC), "Europe/Paris")  # fmt: skip

    system = llm.requests[0].system
    assert "Claire's wedding — in a month" in system and "Has a cat named Miso" in system
    assert "2027" not in system and "January" not in system
