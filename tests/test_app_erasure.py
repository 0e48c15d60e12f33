"""Erasure as `souvenir run` wires it (real engine, Redis, embedded Qdrant, USE embedder, the OpenAI SDK
against the fake server): what a person erases is gone everywhere, even when a write was in flight."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from itertools import count
from pathlib import Path

from bot.app import Core, open_core
from bot.app.memory import index_options
from bot.config import Settings, load_settings
from bot.engine.model import ChatKind, IncomingMessage, UserRef, dm_conversation_id, group_conversation_id
from memory.index_factory import open_memory_index
from memory.records import IndexQuery
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Held, Reply
from tests.fakes.redis_scan import redis_mentions
from tests.memory.index_fixtures import shared_use_embedder

LEA = UserRef("telegram", "4242", "Léa")
MARC = UserRef("telegram", "5151", "Marc")
GROUP = group_conversation_id("telegram", "-100777")
MISO_FACTS = '{"facts": [{"text": "Léa has a cat named Miso"}], "events": [{"what": "Miso\'s birthday", "about": "Miso", "date": "2026-06-02", "yearly": true}]}'  # noqa: E501
_message_ids = count(1)


def _settings(redis_url: str, data_dir: Path, llm: FakeOpenAI, *, extraction: bool) -> Settings:
    return load_settings(
        data_dir=data_dir,
        redis_url=redis_url,
        llm_provider="openai-compatible",
        llm_base_url=llm.base_url,
        llm_max_retries=0,
        llm_extraction=extraction,
        default_timezone="Europe/Paris",
    )


@asynccontextmanager
async def companion(settings: Settings, clock: FakeClock) -> AsyncIterator[Core]:
    async with open_core(settings, clock=clock) as core:
        yield core


def message(clock: FakeClock, text: str, user: UserRef = LEA, *, group: bool = False) -> IncomingMessage:
    clock.advance(minutes=1)
    conversation = GROUP if group else dm_conversation_id(user)
    kind = ChatKind.GROUP if group else ChatKind.PRIVATE
    return IncomingMessage(user, conversation, str(next(_message_ids)), text, clock.now(), kind)


async def say(core: Core, clock: FakeClock, text: str, user: UserRef = LEA, *, group: bool = False) -> None:
    assert await core.engine.handle(message(clock, text, user, group=group)) is not None
    await core.engine.drain()


async def indexed_mentions(settings: Settings, clock: FakeClock, user_key: str, word: str) -> list[str]:
    """The indexed texts (what search matches, neighbour context included) of the person's memories
    that a search for `word` finds and that say it."""
    async with open_memory_index(index_options(settings), await shared_use_embedder(), clock=clock) as index:
        hits = await index.search(IndexQuery(user_key, word, clock.now(), scopes=("dm",), limit=50))
    return [h.record.text for h in hits if word.lower() in h.record.text.lower()]


async def test_forget_all_while_a_memory_is_being_written_leaves_no_memory(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        extraction = Held(MISO_FACTS)
        llm.script(Reply("What a lovely cat!"), extraction)  # the reply, then the model's extraction
        async with companion(_settings(redis_url, data_dir, llm, extraction=True), clock) as core:
            reply = await core.engine.handle(message(clock, "My cat Miso was born on June 2."))
            assert reply is not None and "lovely cat" in reply.text
            await extraction.arrived.wait()  # the memory write is in flight

            assert (await core.commands.forget_everything(LEA)).ok
            extraction.release.set()
            await core.engine.drain()

            assert (await core.commands.memories_page(LEA, 0, 50)).total == 0
            assert await redis_mentions(core.redis, "4242", "Miso") == []


async def test_forget_all_while_a_reply_is_being_written_keeps_nothing_of_the_exchange(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        answer = Held("Miso sounds adorable.")
        llm.script(answer)
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            handling = asyncio.create_task(core.engine.handle(message(clock, "My cat Miso purrs all day.")))
            await answer.arrived.wait()  # the model is writing the reply

            assert (await core.commands.forget_everything(LEA)).ok
            answer.release.set()
            assert (await handling) is not None  # the person still gets the answer
            await core.engine.drain()

            assert (await core.commands.memories_page(LEA, 0, 50)).total == 0
            assert await redis_mentions(core.redis, "4242", "Miso") == []


async def test_forget_all_leaves_no_key_or_value_naming_the_person_in_redis_or_the_index(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await say(core, clock, "Hi! My secret word is Zanzibar and my sister's birthday is June 2.")
            await say(core, clock, "Zanzibar again, in the group.", group=True)
            await say(core, clock, "Marc here, talking about chess.", MARC, group=True)
            for command in (
                core.commands.set_birthday(LEA, "14 mars"),
                core.commands.set_checkins(LEA, "on"),
                core.commands.set_group_sharing(LEA, "on"),
                core.commands.remember(LEA, "Zanzibar is the name of my boat"),
            ):
                assert (await command).ok
            assert await redis_mentions(core.redis, "4242")  # the scan sees what it looks for

            assert (await core.commands.forget_everything(LEA)).ok

            assert await redis_mentions(core.redis, "4242", "Zanzibar", "Léa") == []
            assert await redis_mentions(core.redis, "chess")  # Marc's words in the group stay
            assert (await core.commands.memories_page(LEA, 0, 50)).total == 0
        assert await indexed_mentions(settings, clock, LEA.key, "Zanzibar") == []


async def _forget_the_cat(core: Core, clock: FakeClock) -> None:
    """Three messages, then every memory /memories shows with Miso forgotten, as the person does it."""
    await say(core, clock, "Hi! My name is Alice.")
    await say(core, clock, "I have a cat named Miso.")
    await say(core, clock, "I listen to jazz in the evening.")
    page = await core.commands.memories_page(LEA, 0, 50)
    about_miso = [item for item in page.items if "Miso" in item.text]
    assert about_miso
    for item in about_miso:
        assert (await core.commands.forget_memory(LEA, item.memory_id)).ok


async def test_forgetting_one_message_takes_its_words_out_of_the_next_prompt(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await _forget_the_cat(core, clock)
            await say(core, clock, "What do you know about me?")
        last_request = str(llm.requests[-1].body["messages"])
        assert "Alice" in last_request and "jazz" in last_request  # the conversation is still there...
        assert "Miso" not in last_request  # ...without the forgotten message or the reply to it


async def test_forgetting_one_message_takes_its_words_out_of_the_messages_indexed_with_it(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=False)
        async with companion(settings, clock) as core:
            await _forget_the_cat(core, clock)
    # "Hi! My name is Alice." and the jazz message were indexed with the cat's message around them.
    assert await indexed_mentions(settings, clock, LEA.key, "Miso") == []


async def _told_about_miso(core: Core, clock: FakeClock, llm: FakeOpenAI) -> list[tuple[str, str]]:
    """One message about Miso, from which the model draws a fact: (kind, text) of what /memories then lists."""
    llm.script(Reply("What a lovely cat!"), Reply(MISO_FACTS))  # the reply, then the model's extraction
    await say(core, clock, "Miso, my cat, was born on June 2, she sleeps all day.")
    page = await core.commands.memories_page(LEA, 0, 50)
    return [(item.kind, item.text) for item in page.items]


async def test_forgetting_a_message_takes_the_facts_drawn_from_it_and_forgetting_a_fact_its_message(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=True)
        async with companion(settings, clock) as core:
            await say(core, clock, "I listen to jazz in the evening.")
            listed = await _told_about_miso(core, clock, llm)
            assert ("episodic", "Miso, my cat, was born on June 2, she sleeps all day.") in listed
            assert ("semantic", "Léa has a cat named Miso") in listed  # a fact in other words than the message

            page = await core.commands.memories_page(LEA, 0, 50)
            [message_item] = [i for i in page.items if i.kind == "episodic" and "Miso" in i.text]
            assert (await core.commands.forget_memory(LEA, message_item.memory_id)).ok
            left = [i.text for i in (await core.commands.memories_page(LEA, 0, 50)).items]
            assert left == ["I listen to jazz in the evening."]

            await _told_about_miso(core, clock, llm)  # told again; this time the fact is forgotten
            page = await core.commands.memories_page(LEA, 0, 50)
            [fact] = [i for i in page.items if i.text == "Léa has a cat named Miso"]
            assert (await core.commands.forget_memory(LEA, fact.memory_id)).ok
            left = [i.text for i in (await core.commands.memories_page(LEA, 0, 50)).items]
            # The message went with the fact; what else was drawn from it stays until forgotten itself.
            assert [t for t in left if "Miso" in t and "birthday" not in t] == [], left
            assert "I listen to jazz in the evening." in left
            [birthday] = [i for i in (await core.commands.memories_page(LEA, 0, 50)).items if "birthday" in i.text]
            assert (await core.commands.forget_memory(LEA, birthday.memory_id)).ok
    assert await indexed_mentions(settings, clock, LEA.key, "Miso") == []
