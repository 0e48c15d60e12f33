"""How a person wants to be addressed: learnt from what they write, set with /profile, used in the prompt."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.conversation.addressing import learn_addressing
from bot.engine.model import UserRef
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory, Rig
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser


@dataclass
class Setup:
    commands: UserCommands
    profiles: RedisProfiles


@pytest.fixture
async def setup(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Setup]:
    commands, profiles, _ = redis_backed_commands(redis_client, clock, InMemoryMemoryBrowser())
    yield Setup(commands, profiles)


@pytest.mark.parametrize(
    ("text", "learnt"),
    [
        ("appelle-moi Max", {"preferred_name": "Max"}),
        ("Call me Max, please", {"preferred_name": "Max"}),
        ("you can call me max", {"preferred_name": "Max"}),
        ("Vous pouvez m'appeler Jean-Luc.", {"preferred_name": "Jean-Luc"}),
        ("call me later tonight", {}),
        ("appelle-moi demain", {}),
        ("on peut se tutoyer ?", {"address_form": "tu"}),
        ("tu peux me tutoyer tu sais", {"address_form": "tu"}),
        ("vouvoie-moi s'il te plaît", {"address_form": "vous"}),
        ("ne me tutoyez pas", {"address_form": "vous"}),
        ("my pronouns are she / her", {"pronouns": "she/her"}),
        ("mes pronoms sont iel/iel", {"pronouns": "iel/iel"}),
        ("I went to the beach", {}),
        ("hey, I'm Priya btw, she/her", {"preferred_name": "Priya", "pronouns": "she/her"}),
        ("pronouns: they/them", {"pronouns": "they/them"}),
        ("il/lui stp", {"pronouns": "il/lui"}),
        ("is it he/him or she/her?", {}),  # a question sets nothing
        ("I like him/her either way", {}),
    ],
)
def test_what_a_message_asks_for(text: str, learnt: dict[str, str]) -> None:
    assert learn_addressing(text) == learnt


async def test_a_name_and_tu_learnt_in_conversation_are_kept_and_used(rig: Rig, message: MessageFactory) -> None:
    await rig.engine.handle(message("Salut ! Appelle-moi Max, et on peut se tutoyer", name="Maxime Dupont"))
    first = rig.llm.requests[-1].system
    await rig.engine.handle(message("Tu fais quoi ce soir ?", name="Maxime Dupont"))
    later = rig.llm.requests[-1].system

    profile = await rig.profiles.load_profile("telegram:42")
    assert profile.preferred_name == "Max" and profile.address_form == "tu"
    assert profile.display_name == "Maxime Dupont"  # the login stays as it is
    for system in (first, later):  # from the message that says it on
        assert "called \"Max\"" in system and "« tu »" in system
        assert 'For "Max" it is' in system


async def test_vous_and_pronouns_reach_the_prompt(rig: Rig, message: MessageFactory) -> None:
    await rig.engine.handle(message("Bonjour. Vouvoyez-moi, je vous prie. Mes pronoms sont elle/elle", user="77"))
    system = rig.llm.requests[-1].system
    assert "« vous »" in system and "never « tu »" in system and "elle/elle" in system


async def test_profile_command_sets_shows_and_clears(setup: Setup) -> None:
    lea = UserRef("discord", "9", "Léa Martin")
    assert (await setup.commands.set_profile(lea, "name Lili")).text == "Got it, I'll call you Lili."
    assert (await setup.commands.set_profile(lea, "pronouns she/her")).text == "Noted: she/her."
    assert (await setup.commands.set_profile(lea, "vous")).text == "In French I'll say « vous » to you."
    shown = (await setup.commands.set_profile(lea, "")).text
    assert shown.startswith("I call you Lili; pronouns: she/her; in French: « vous ».")

    profile = await setup.profiles.load_profile(lea.key)
    assert (profile.preferred_name, profile.pronouns, profile.address_form) == ("Lili", "she/her", "vous")

    assert (await setup.commands.set_profile(lea, "name")).text == "Okay, I'll use your account name again."
    bad = await setup.commands.set_profile(lea, "colour blue", hint="fr")
    assert not bad.ok and bad.text.startswith("Usage : /profile")
    assert (await setup.profiles.load_profile(lea.key)).preferred_name == ""


async def test_profile_tu_answers_in_french(setup: Setup) -> None:
    tom = UserRef("telegram", "5", "Tom")
    assert (await setup.commands.set_profile(tom, "tu", hint="fr")).text == "OK, on se tutoie !"
