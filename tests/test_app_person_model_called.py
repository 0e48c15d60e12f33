"""How they asked to be called and their pronouns, as `souvenir run` wires it (real engine, Redis, embedded
Qdrant, the fake model server): from "call me Max" and /profile, a line of the person model in the prompt and
of what /memories says it knows, in English and in French; never in a group."""

from __future__ import annotations

from pathlib import Path

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.test_app_erasure import _settings, companion, say

MAX = UserRef("telegram", "7272", "mx_77")
MAXIME = UserRef("telegram", "7373", "maxime_b")


def _block(llm: FakeOpenAI) -> list[str]:
    system = str(llm.bodies[-1]["messages"][0]["content"])
    return system.split("<person>", 1)[1].split("</person>", 1)[0].strip().splitlines() if "<person>" in system else []


async def test_how_they_want_to_be_called_is_a_line_of_what_i_know_in_english(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await say(core, clock, "My name is Maximilian.", MAX)
            assert (await core.commands.set_profile(MAX, "name Max")).ok
            assert (await core.commands.set_profile(MAX, "pronouns they/them")).ok
            await say(core, clock, "I live in Lyon, near the river.", MAX)
            clock.advance(hours=5)
            await say(core, clock, "hi!", MAX)
            block = _block(llm)
            assert block[:3] == ["- Name: Maximilian", "- Goes by Max (they/them)", "- Lives in Lyon"]
            known = (await core.commands.memories_listing(MAX)).text.partition("\n\n")[0].splitlines()
            assert known[1:4] == ["a) Name: Maximilian", "b) Goes by Max (they/them)", "c) Lives in Lyon"]
            assert "/profile" in (await core.commands.memories_listing(MAX, "wrong b")).text  # the profile's

            await say(core, clock, "hi all, Max here", MAX, group=True)
            assert _block(llm) == []  # what a friend knows of them stays out of a group


async def test_how_they_want_to_be_called_is_a_line_of_what_i_know_in_french(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await say(core, clock, "Bonjour ! Appelle-moi Max.", MAXIME)
            assert (await core.commands.set_profile(MAXIME, "pronoms iel")).ok
            await say(core, clock, "J'habite à Lyon, près du Rhône, depuis deux ans.", MAXIME)
            clock.advance(hours=5)
            await say(core, clock, "coucou, ça va ?", MAXIME)
            block = _block(llm)
            assert block[:2] == ["- Prénom : Max", "- Pronoms : iel"]  # the name their memories say, once
            assert any(line.startswith("- Habite à Lyon") for line in block)
            known = (await core.commands.memories_listing(MAXIME)).text.partition("\n\n")[0].splitlines()
            assert known[:3] == ["Ce que je sais de toi :", "a) Prénom : Max", "b) Pronoms : iel"]
            assert (await core.commands.set_profile(MAXIME, "nom Maxou")).ok
            await say(core, clock, "Tu vas bien ?", MAXIME)
            assert "- Se fait appeler Maxou (iel)" in _block(llm)

            assert (await core.commands.forget_everything(MAXIME)).ok
            await say(core, clock, "coucou", MAXIME)
            assert _block(llm) == []  # the profile went with everything else
