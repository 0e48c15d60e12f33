"""The person model as `souvenir run` wires it (real engine, Redis, embedded Qdrant, USE embedder, offline
extraction, the OpenAI SDK against the fake server): a life told over several sessions, with a move and a
painful loss, is what a friend knows when the person just says "hi!" after a restart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_erasure import _settings, companion, message, say

SAM = UserRef("telegram", "7070", "sam_77")
LEA = UserRef("telegram", "8080", "lea_b")


def _system(llm: FakeOpenAI) -> str:
    return str(llm.bodies[-1]["messages"][0]["content"])


def _block(system: str) -> str:
    return system.split("<person>", 1)[1].split("</person>", 1)[0] if "<person>" in system else ""


async def test_after_a_restart_a_greeting_gets_what_a_friend_knows_in_english(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await say(core, clock, "My name is Sam.", SAM)
            await say(core, clock, "I live in Paris, near the canal.", SAM)
            await say(core, clock, "I work as a nurse at the Saint-Luc hospital, mostly night shifts.", SAM)
            await say(core, clock, "My dog is called Rex, he is a very good boy.", SAM)
            await say(core, clock, "Sundays are always hard for me.", SAM)
            await say(core, clock, "Take care and have a good one!", SAM)
            await say(core, clock, "Catch you later, sleep well!", SAM)
        clock.advance(days=4)
        async with companion(settings, clock) as core:
            await say(core, clock, "My sister Claire is getting married on April 25!", SAM)
            await say(core, clock, "My dad passed away last spring, it still hurts.", SAM)
            await say(core, clock, "Actually I moved to Lyon last month.", SAM)
            await say(core, clock, "I love jazz and long walks.", SAM)
            await say(core, clock, "Haha I will. Take care. Talk later!", SAM)
        clock.advance(days=2)
        async with companion(settings, clock) as core:
            await say(core, clock, "hi!", SAM)
            system = _system(llm)
            block = _block(system)
            for fact in ("Sam", "Rex", "nurse", "Lyon", "Claire", "jazz"):
                assert fact in block, (fact, block)
            assert "wedding" in block or "married" in block
            assert "Paris" not in block  # the old city left the moment the new one was told
            assert "Paris" not in system.replace("(Europe/Paris)", ""), system  # nor is it anywhere else in the prompt
            assert "passed away" not in block.split("Be gentle about", 1)[0]  # the loss only as gentleness
            assert "Be gentle about" in block and system.count("passed away") == 1  # nothing recalled for "hi!"
            assert "Hard times (for your tone, never say it): Sundays" in block  # a pattern, as tone
            for empty in ("have a good one", "Talk later", "Take care", "Catch you later"):
                assert empty not in system, empty
            # The thread of the last conversation: its last words that said something.
            assert "<thread>" in system and "jazz" in system.split("<thread>", 1)[1]
            # A question searches memory: the goodbyes, though they match, take no line of what it shows.
            await say(core, clock, "what did I tell you about my weekends and my plans for later?", SAM)
            system = _system(llm)
            assert "<memories>" in system and "Rex" in _block(system)
            for empty in ("have a good one", "Talk later", "Take care", "Catch you later", "sleep well"):
                assert empty not in system, empty

            assert (await core.commands.forget_everything(SAM)).ok
            assert await redis_mentions(core.redis, "7070") == []  # no person model left behind
            await say(core, clock, "hello again", SAM)
            assert "<person>" not in _system(llm)


async def test_after_a_restart_a_greeting_gets_what_a_friend_knows_in_french(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await say(core, clock, "Je m'appelle Léa.", LEA)
            await say(core, clock, "J'habite à Paris depuis deux ans.", LEA)
            await say(core, clock, "Je suis infirmière de nuit à l'hôpital.", LEA)
            await say(core, clock, "Ma chatte s'appelle Miso.", LEA)
            await say(core, clock, "Les dimanches sont durs pour moi.", LEA)
            await say(core, clock, "Bonne soirée, à plus !", LEA)
        clock.advance(days=3)
        async with companion(settings, clock) as core:
            await say(core, clock, "Ma sœur Claire se marie le 25 avril !", LEA)
            await say(core, clock, "Mon père est décédé l'an dernier, c'est encore dur.", LEA)
            await say(core, clock, "En fait j'ai déménagé à Lyon le mois dernier.", LEA)
            await say(core, clock, "J'adore le jazz et les longues balades.", LEA)
            await say(core, clock, "Bisous, bonne nuit, dors bien !", LEA)
        clock.advance(days=2)
        async with companion(settings, clock) as core:
            await say(core, clock, "coucou !", LEA)
            system = _system(llm)
            block = _block(system)
            for fact in ("Léa", "Miso", "infirmière", "Lyon", "Claire", "Habite à"):
                assert fact in block, (fact, block)
            assert "mariage" in block or "marie" in block
            assert "Paris" not in block and "Paris" not in system.replace("(Europe/Paris)", ""), system
            assert "décédé" not in block.split("Avec douceur", 1)[0]
            assert "Avec douceur" in block and system.count("décédé") == 1
            assert "Moments difficiles (pour le ton, sans jamais le dire) : les dimanches" in block, block
            for empty in ("Bonne soirée", "bonne nuit", "à plus", "dors bien"):
                assert empty not in system, empty
            assert "<thread>" in system and "jazz" in system.split("<thread>", 1)[1]
            await say(core, clock, "tu te souviens de ce que je t'ai dit sur mes soirées ?", LEA)
            system = _system(llm)
            assert "<memories>" in system
            for empty in ("Bonne soirée", "bonne nuit", "à plus", "dors bien"):
                assert empty not in system, empty

            assert (await core.commands.forget_everything(LEA)).ok
            assert await redis_mentions(core.redis, "8080", "Miso") == []
            await say(core, clock, "coucou", LEA)
            assert "<person>" not in _system(llm) and "Miso" not in _system(llm)


async def test_memories_and_export_show_what_i_know_first_and_a_wrong_line_is_set_aside(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await say(core, clock, "My name is Sam.", SAM)
            await say(core, clock, "I live in Lyon, near the river.", SAM)
            await say(core, clock, "My dog is called Rex.", SAM)
            listing = (await core.commands.memories_listing(SAM)).text
            known, _, rest = listing.partition("\n\n")
            assert known.splitlines()[0] == "What I know about you:"
            assert "b) Lives in Lyon" in known and "/memories wrong" in known
            assert rest.startswith("What I remember")
            document = json.loads(await core.commands.export(SAM))
            assert list(document).index("person_model") < list(document).index("memories")
            assert [line["line"] for line in document["person_model"]][:2] == ["Name: Sam", "Lives in Lyon"]

            corrected = await core.commands.memories_listing(SAM, "wrong b")
            assert corrected.ok and "Lives in Lyon" in corrected.text
            assert "Lyon" not in (await core.commands.memories_listing(SAM)).text.partition("\n\n")[0]
            clock.advance(hours=5)
            await say(core, clock, "hi!", SAM)
            block = _block(_system(llm))
            assert "Rex" in block and "Lyon" not in block
            # The fact and the message it was read from are history now: no longer recalled as current.
            await say(core, clock, "where do I live again?", SAM)
            assert "I live in Lyon" not in _system(llm)


async def test_forgetting_the_memory_behind_a_line_takes_the_line(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await say(core, clock, "My dog is called Rex.", SAM)
            await say(core, clock, "I love jazz.", SAM)
            assert "Rex (dog)" in (await core.commands.memories_listing(SAM)).text
            page = await core.commands.memories_page(SAM, 0, 50)
            for item in [i for i in page.items if "Rex" in i.text]:
                assert (await core.commands.forget_memory(SAM, item.memory_id)).ok
            assert "Rex" not in (await core.commands.memories_listing(SAM)).text
            clock.advance(hours=5)
            await say(core, clock, "hi!", SAM)
            block = _block(_system(llm))
            assert "jazz" in block and "Rex" not in block


_MODEL_READS = {  # what the model's extraction reads in each message: facts a rule could not
    "Rex kept me up all night again, the little rascal.": {"facts": [{"text": "Sam has a dog named Rex"}]},
    "Another chaotic shift on the ward at Saint-Luc.": {
        "facts": [{"text": "Works night shifts as a nurse at Saint-Luc"}]
    },
    "Paris is so grey today.": {"facts": [{"text": "Lives in Paris"}]},
    "Finally unpacked the last boxes in Lyon!": {"facts": [{"text": "Lives in Lyon now", "replaces_old": True}]},
    "Claire said yes to Hugo!": {
        "facts": [{"text": "Her sister Claire is engaged to Hugo", "about": "sister"}],
        "events": [{"what": "wedding", "about": "sister", "date": "2026-04-25"}],
    },
}


def _reading(body: dict[str, object]) -> str:
    """The fake model: a reply echoes; an extraction request gets what `_MODEL_READS` says of its message."""
    messages = body["messages"]
    assert isinstance(messages, list)
    if not isinstance(body.get("response_format"), dict):
        return "Tell me more!"
    said = str(messages[-1]["content"])
    return json.dumps(next((read for text, read in _MODEL_READS.items() if text in said), {}))


async def test_with_the_model_extraction_its_facts_make_the_block_and_it_makes_no_call_of_its_own(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI(responder=_reading) as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=True)
        async with companion(settings, clock) as core:
            for text in ("My name is Sam.", "Paris is so grey today.", *list(_MODEL_READS)[:2]):
                await say(core, clock, text, SAM)
        clock.advance(days=3)
        async with companion(settings, clock) as core:
            for text in list(_MODEL_READS)[3:]:
                await say(core, clock, text, SAM)
        assert len(llm.bodies) == 2 * 7  # each message: its reply and the extraction call, nothing more
        clock.advance(days=1)
        async with companion(settings, clock) as core:
            await say(core, clock, "hi!", SAM)
            [reply] = [b for b in llm.bodies[2 * 7 :] if not isinstance(b.get("response_format"), dict)]
            block = _block(str(reply["messages"][0]["content"]))
            for fact in ("Sam", "Rex (dog)", "nurse", "Lyon", "Claire (sister)", "wedding"):
                assert fact in block, (fact, block)
            assert "Paris" not in block


async def test_the_block_is_built_in_the_background_and_a_slow_build_holds_no_reply(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            keeper = getattr(core.memory, "person_models", None)  # what rebuilds the block after a write
            assert keeper is not None
            build, building, release = keeper.rebuild, asyncio.Event(), asyncio.Event()

            async def slow_build(*args: Any, **kwargs: Any) -> None:
                building.set()
                await release.wait()
                await build(*args, **kwargs)

            keeper.rebuild = slow_build
            try:
                told = await asyncio.wait_for(core.engine.handle(message(clock, "My dog is called Rex.", SAM)), 30)
                await asyncio.wait_for(building.wait(), 30)  # after the reply, the write asks for a build…
                clock.advance(hours=5)
                hello = await asyncio.wait_for(core.engine.handle(message(clock, "hi!", SAM)), 30)  # …held by no reply
                assert told is not None and hello is not None and not hello.fallback
                assert "Rex" not in _block(_system(llm))  # not built on the way to that reply either
            finally:
                release.set()
            await core.engine.drain()
            clock.advance(hours=5)
            await say(core, clock, "hi!", SAM)
            assert "Rex (dog)" in _block(_system(llm))


TAYLOR = UserRef("telegram", "9191", "tay_x")
MATHILDE = UserRef("telegram", "9292", "mat_h")


async def test_a_life_told_in_everyday_words_is_known_too(redis_url: str, data_dir: Path, clock: FakeClock) -> None:
    """Not "My name is…" and "My dog is called…": an introduction after a greeting, pronouns after a name, a pet
    one has, studies by their year, a love one is obsessed with, a wedding months ahead, someone in hospital."""
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            for said in ("hey, I'm Priya btw, she/her", "I'm in my second year of law school",
                         "we have a cat named Pickles who steals my socks", "my boyfriend Tom cooked dinner tonight",
                         "my brother Dev is getting married in June, I'm so excited",
                         "my mum is in hospital since Tuesday, I'm scared", "ttyl!"):  # fmt: skip
                await say(core, clock, said, TAYLOR)
            for said in ("salut, moi c'est Mathilde", "j'ai un chien qui s'appelle Biscotte",
                         "je suis en troisième année de médecine", "je suis accro à l'escalade en ce moment",
                         "ma sœur Julie se marie en septembre", "bonne nuit !"):  # fmt: skip
                await say(core, clock, said, MATHILDE)
        clock.advance(days=3)
        async with companion(settings, clock) as core:
            await say(core, clock, "good morning!", TAYLOR)
            block = _block(_system(llm))
            for known in ("Name: Priya", "Pronouns: she/her", "Pickles (cat)", "Tom (boyfriend)", "Dev (brother)",
                          "law school", "brother's wedding"):  # fmt: skip
                assert known in block, (known, block)
            assert "Be gentle about" in block and "hospital" in block.split("Be gentle about", 1)[1], block
            assert "ttyl" not in _system(llm)
            await say(core, clock, "coucou !", MATHILDE)
            block = _block(_system(llm))
            for known in ("Mathilde", "Biscotte (chien)", "Julie (sœur)", "médecine", "escalade", "mariage (sœur)"):
                assert known in block, (known, block)


RUTH = UserRef("telegram", "9393", "ruth_k")
CAMILLE = UserRef("telegram", "9494", "cam_l")


async def test_teaching_a_baby_pets_named_together_an_ill_parent_and_a_new_hobby_are_known(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            for said in ("I teach third grade", "we just had a baby girl, her name is Zara",
                         "we adopted a golden retriever called Mango", "we have two cats, Pixel and Nougat",
                         "my dad has been sick for weeks and it's weighing on me",
                         "I've really gotten into woodworking lately", "I'm sick of this rain",
                         "my friend's dog is called Rex"):  # fmt: skip
                await say(core, clock, said, RUTH)
            for said in ("j'enseigne le français", "on vient d'avoir une petite fille, elle s'appelle Lou",
                         "on a deux chats, Pixel et Nougat", "mon père est malade",
                         "je me suis mis à la poterie"):  # fmt: skip
                await say(core, clock, said, CAMILLE)
        clock.advance(days=2)
        async with companion(settings, clock) as core:
            await say(core, clock, "hey!", RUTH)
            block = _block(_system(llm))
            for known in ("third grade", "Zara (daughter)", "Mango (retriever)", "Pixel (cat)", "Nougat (cat)",
                          "woodworking"):  # fmt: skip
                assert known in block, (known, block)
            gentle = block.split("Be gentle about", 1)[1]
            assert "illness (dad)" in gentle and "rain" not in block and "Rex" not in block, block
            await say(core, clock, "salut !", CAMILLE)
            block = _block(_system(llm))
            for known in ("français", "Lou (fille)", "Pixel (chat)", "Nougat (chat)", "poterie"):
                assert known in block, (known, block)
            assert "malade" in block.split("Avec douceur", 1)[1], block
