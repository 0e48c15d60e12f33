"""A name the person states wins over their login, in the reply to that message and every one after."""

from __future__ import annotations

import pytest

from bot.engine.conversation.stated_name import stated_name
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


@pytest.mark.parametrize(
    ("said", "name"),
    [("hey, I'm Priya btw, she/her", "Priya"), ("Hi, I'm Sam!", "Sam"), ("yo I'm Max from Leeds", "Max"),
     ("I'm Jo by the way", "Jo"), ("salut, moi c'est Mathilde", "Mathilde"), ("Coucou ! Moi c'est Inès", "Inès")],
)  # fmt: skip
def test_an_introduction_states_a_name(said: str, name: str) -> None:
    assert stated_name(said) == name


@pytest.mark.parametrize(
    "said", ["I'm Exhausted.", "hi I'm French", "hey, I'm Back!", "hi! I'm so tired", "Bonjour, je suis Française",
             "I'm Priya"],  # alone, "I'm" + a capital is as often an adjective shouted as a name
)  # fmt: skip
def test_what_only_looks_like_an_introduction_states_no_name(said: str) -> None:
    assert stated_name(said) is None
