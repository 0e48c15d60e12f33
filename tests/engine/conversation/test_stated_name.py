"""A name the person states wins over their login, in the reply to that message and every one after."""

from __future__ import annotations

import pytest

from tests.engine.conftest import MessageFactory, Rig


@pytest.mark.parametrize("said", ["My name is Alice, nice to meet you.", "Salut ! Je m'appelle Alice."])
async def test_a_stated_name_wins_over_the_login(rig: Rig, message: MessageFactory, said: str) -> None:
    await rig.engine.handle(message("hello", name="xX_lea42_Xx"))
    assert 'For "xX_lea42_Xx" it is' in rig.llm.requests[-1].system

    await rig.engine.handle(message(said, name="xX_lea42_Xx"))
    assert 'For "Alice" it is' in rig.llm.requests[-1].system
    await rig.engine.handle(message("how are you?", name="xX_lea42_Xx"))
    assert 'For "Alice" it is' in rig.llm.requests[-1].system
    assert "xX_lea42_Xx" not in rig.llm.requests[-1].system
    assert (await rig.profiles.load_profile("telegram:42")).preferred_name == "Alice"


@pytest.mark.parametrize("said", ["what's my name again?", "call me tomorrow", "Is my name Alice?"])
async def test_questions_and_lower_case_words_are_not_names(rig: Rig, message: MessageFactory, said: str) -> None:
    await rig.engine.handle(message(said, name="Léa"))
    assert 'For "Léa" it is' in rig.llm.requests[-1].system
    assert (await rig.profiles.load_profile("telegram:42")).preferred_name == ""
