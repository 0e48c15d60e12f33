"""User commands on real Redis stores: settings, bad input, forgetting everything, export."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import ChatTurn, MemoryItem, MonthDay, UserRef, dm_conversation_id
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingPlanner
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")
TOM = UserRef("telegram", "43", "Tom")


@dataclass
class Setup:
    commands: UserCommands
    profiles: RedisProfiles
    window: RedisConversationWindow
    memories: InMemoryMemoryBrowser
    planner: RecordingPlanner


@pytest.fixture
async def setup(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Setup]:
    memories, planner = InMemoryMemoryBrowser(), RecordingPlanner()
    commands, profiles, window = redis_backed_commands(
        redis_client, clock, memories, planner=planner, schedule_eraser=planner
    )
    yield Setup(commands, profiles, window, memories, planner)


async def _speak_french(setup: Setup, user: UserRef) -> None:
    from dataclasses import replace

    profile = await setup.profiles.load_profile(user.key)
    await setup.profiles.save_profile(replace(profile, language="fr"))


async def test_birthday_is_stored_and_rescheduled(setup: Setup) -> None:
    result = await setup.commands.set_birthday(LEA, "March 14")

    assert result.ok and "March 14" in result.text
    assert (await setup.profiles.load_profile(LEA.key)).birthday == MonthDay(3, 14)
    assert setup.planner.planned == [LEA.key]


async def test_impossible_birthday_is_refused_in_french_and_nothing_changes(setup: Setup) -> None:
    await _speak_french(setup, LEA)
    await setup.commands.set_birthday(LEA, "14 mars")
    result = await setup.commands.set_birthday(LEA, "30 février")

    assert not result.ok and "30 février" in result.text and "vraie date" in result.text
    assert (await setup.profiles.load_profile(LEA.key)).birthday == MonthDay(3, 14)


async def test_february_29_is_a_valid_birthday(setup: Setup) -> None:
    assert (await setup.commands.set_birthday(LEA, "29 February")).ok


async def test_timezone_by_city_or_iana_name(setup: Setup, clock: FakeClock) -> None:
    by_city = await setup.commands.set_timezone(LEA, "montréal")
    assert by_city.ok and "America/Montreal" in by_city.text
    assert "08:00" in by_city.text  # 12:00 UTC on 14 March is 08:00 in Montreal (EDT)
    assert (await setup.commands.set_timezone(LEA, "Asia/Tokyo")).ok
    assert (await setup.profiles.load_profile(LEA.key)).timezone == "Asia/Tokyo"


async def test_unknown_timezone_and_empty_arguments_get_usage(setup: Setup) -> None:
    unknown = await setup.commands.set_timezone(LEA, "Atlantis")
    assert not unknown.ok and "Atlantis" in unknown.text
    assert (await setup.profiles.load_profile(LEA.key)).timezone is None
    # a setting command alone shows its value first (tests/engine/commands/test_setting_commands_alone.py)
    for result in (
        await setup.commands.remember(LEA, ""),
        await setup.commands.set_checkins(LEA, "maybe"),
    ):
        assert not result.ok and result.text.startswith("Usage")


async def test_checkins_are_opt_in(setup: Setup) -> None:
    assert not (await setup.profiles.load_profile(LEA.key)).checkins
    await setup.commands.set_checkins(LEA, "on")
    assert (await setup.profiles.load_profile(LEA.key)).checkins
    await setup.commands.set_checkins(LEA, "off")
    assert not (await setup.profiles.load_profile(LEA.key)).checkins


async def test_memories_are_paged_newest_first(setup: Setup, clock: FakeClock) -> None:
    for n in range(7):
        setup.memories.add(LEA.key, f"fact {n}", clock.now() + timedelta(minutes=n))
    first = await setup.commands.memories_page(LEA, 0, 5)
    second = await setup.commands.memories_page(LEA, 5, 5)

    assert [m.text for m in first.items] == ["fact 6", "fact 5", "fact 4", "fact 3", "fact 2"]
    assert [m.text for m in second.items] == ["fact 1", "fact 0"] and second.total == 7
    text = await setup.commands.describe_page(LEA, second)
    assert "6–7 of 7" in text and "1. fact 1" in text


async def test_forget_one_memory_only_touches_the_owner(setup: Setup, clock: FakeClock) -> None:
    leas = setup.memories.add(LEA.key, "loves Blue Note jazz", clock.now())

    refused = await setup.commands.forget_memory(TOM, leas)
    assert not refused.ok and (await setup.commands.memories_page(LEA)).total == 1
    assert (await setup.commands.forget_memory(LEA, leas)).ok
    assert (await setup.commands.memories_page(LEA)).total == 0


async def test_forget_everything_leaves_nothing_of_that_person(setup: Setup, clock: FakeClock) -> None:
    setup.memories.add(LEA.key, "has a cat named Miso", clock.now())
    setup.memories.add(TOM.key, "plays the cello", clock.now())
    await setup.commands.set_birthday(LEA, "June 2")
    await setup.window.append_turns(dm_conversation_id(LEA), [ChatTurn("user", "hi", clock.now(), LEA.key)])
    group = "telegram:chat:-5"
    await setup.window.append_turns(
        group,
        [
            ChatTurn("user", "léa in group", clock.now(), LEA.key),
            ChatTurn("user", "tom in group", clock.now(), TOM.key),
        ],
    )

    result = await setup.commands.forget_everything(LEA)

    assert result.ok
    assert (await setup.commands.memories_page(LEA)).total == 0
    assert (await setup.profiles.load_profile(LEA.key)).birthday is None
    assert await setup.window.recent_turns(dm_conversation_id(LEA)) == []
    assert [t.text for t in await setup.window.recent_turns(group)] == ["tom in group"]
    assert setup.planner.forgotten == [LEA.key]
    assert (await setup.commands.memories_page(TOM)).total == 1


async def test_export_holds_profile_memories_and_recent_messages(setup: Setup, clock: FakeClock) -> None:
    setup.memories.add(LEA.key, "has a cat named Miso", clock.now())
    await setup.commands.set_timezone(LEA, "Europe/Paris")
    await setup.window.append_turns(dm_conversation_id(LEA), [ChatTurn("user", "bonjour", clock.now(), LEA.key)])

    document = json.loads(await setup.commands.export(LEA))

    assert document["user"] == LEA.key
    assert document["profile"]["timezone"] == "Europe/Paris"
    assert [m["text"] for m in document["memories"]] == ["has a cat named Miso"]
    assert document["recent_private_messages"][0]["text"] == "bonjour"
    assert "plays the cello" not in json.dumps(document)


async def test_start_text_names_the_person_and_says_it_is_an_ai(setup: Setup) -> None:
    text = await setup.commands.start_text(LEA)
    assert text.startswith("Hi Léa!") and "AI companion" in text and "/forget" in text
    assert "IA" in await setup.commands.start_text(TOM, hint="fr")


async def test_sharing_private_memories_in_groups_is_opt_in(setup: Setup) -> None:
    assert not (await setup.profiles.load_profile(LEA.key)).share_dm_memories_in_groups
    assert (await setup.commands.set_group_sharing(LEA, "on")).ok
    assert (await setup.profiles.load_profile(LEA.key)).share_dm_memories_in_groups
    refused = await setup.commands.set_group_sharing(LEA, "sometimes")
    assert not refused.ok and "/groups on" in refused.text
    await setup.commands.set_group_sharing(LEA, "off")
    assert not (await setup.profiles.load_profile(LEA.key)).share_dm_memories_in_groups


class _BrokenEraser:
    async def forget_user(self, user_key: str) -> None:
        raise ConnectionError("qdrant is down")


async def test_a_store_that_cannot_erase_is_reported_and_the_others_still_erase(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    memories = InMemoryMemoryBrowser()
    commands, profiles, _ = redis_backed_commands(redis_client, clock, memories, schedule_eraser=_BrokenEraser())
    memories.add(LEA.key, "has a cat named Miso", clock.now())
    await commands.set_timezone(LEA, "Europe/Paris")

    result = await commands.forget_everything(LEA)

    assert not result.ok and "try again" in result.text
    assert (await commands.memories_page(LEA)).total == 0
    assert (await profiles.load_profile(LEA.key)).timezone is None


async def test_a_page_past_the_end_says_so_and_a_bad_page_gets_usage(setup: Setup, clock: FakeClock) -> None:
    for n in range(7):
        setup.memories.add(LEA.key, f"fact {n}", clock.now() + timedelta(minutes=n))

    second = await setup.commands.memories_listing(LEA, "2", page_size=5)
    past = await setup.commands.memories_listing(LEA, "99", page_size=5)

    assert second.ok and second.page is not None and "6–7 of 7" in second.text and "1. fact 1" in second.text
    assert not past.ok and past.page is None
    assert past.text == "There's no page 99: the last one is 2 (/memories 2)."
    for bad in ("abc", "0", "-1", "2.5", "9999999"):
        refused = await setup.commands.memories_listing(LEA, bad, page_size=5)
        assert not refused.ok and refused.text.startswith("Usage: /memories")
    nothing = await setup.commands.memories_listing(TOM, "3", page_size=5)
    assert nothing.text == "I don't remember anything about you yet." and nothing.page is None


async def test_forget_by_the_number_on_the_last_page_shown(setup: Setup, clock: FakeClock) -> None:
    for n in range(7):
        setup.memories.add(LEA.key, f"fact {n}", clock.now() + timedelta(minutes=n))
    await setup.commands.memories_listing(LEA, "2", page_size=5)  # shows "1. fact 1", "2. fact 0"

    forgotten = await setup.commands.forget_memory(LEA, "2")
    again = await setup.commands.forget_memory(LEA, "2")
    off_the_page = await setup.commands.forget_memory(LEA, "3")

    assert forgotten.ok and forgotten.text == "Forgotten: “fact 0”"
    assert not again.ok and again.text == "That one is already forgotten."
    assert not off_the_page.ok and "no number 3" in off_the_page.text
    assert "fact 0" not in [m.text for m in setup.memories.items[LEA.key]]
    assert len(setup.memories.items[LEA.key]) == 6 and setup.planner.planned == [LEA.key]


async def test_forget_by_number_without_a_page_shown_counts_newest_first_and_ids_still_work(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    memories = InMemoryMemoryBrowser()
    commands, _, _ = redis_backed_commands(redis_client, clock, memories)  # as after a restart: nothing shown
    oldest = memories.add(LEA.key, "likes tea", clock.now())
    memories.add(LEA.key, "likes coffee", clock.now() + timedelta(minutes=1))
    memories.add(LEA.key, "likes cocoa", clock.now() + timedelta(minutes=2))

    assert (await commands.forget_memory(LEA, "2")).text == "Forgotten: “likes coffee”"
    assert not (await commands.forget_memory(LEA, "0")).ok
    assert (await commands.forget_memory(LEA, "7")).text.startswith("I have no memory number 7")
    assert (await commands.forget_memory(LEA, oldest)).text == "Forgotten."
    assert [m.text for m in memories.items[LEA.key]] == ["likes cocoa"]


async def test_a_memory_a_newer_one_replaced_is_marked(setup: Setup, clock: FakeClock) -> None:
    setup.memories.items[LEA.key] = [
        MemoryItem("a", "semantic", "lives in Lyon", clock.now(), extra={"current": False}),
        MemoryItem("b", "semantic", "lives in Paris", clock.now() + timedelta(minutes=1), extra={"current": True}),
    ]
    await _speak_french(setup, LEA)

    text = (await setup.commands.memories_listing(LEA)).text

    assert "1. lives in Paris\n" in text and text.endswith("2. lives in Lyon (plus d'actualité)")


async def test_a_chosen_language_answers_commands_whatever_the_hint(setup: Setup) -> None:
    assert (await setup.commands.set_language(LEA, "fr", hint="en")).text.startswith("D'accord")
    assert (await setup.commands.help_text(LEA, hint="en")).startswith("Parle-moi")
    profile = await setup.profiles.load_profile(LEA.key)
    assert profile.language == "fr" and profile.language_chosen

    refused = await setup.commands.set_language(LEA, "klingon")
    assert not refused.ok and refused.text.startswith("Usage : /language")
    assert (await setup.commands.set_language(LEA, "auto")).ok
    assert not (await setup.profiles.load_profile(LEA.key)).language_chosen


async def test_privacy_says_when_recent_messages_expire_and_that_groups_need_groups_on(setup: Setup) -> None:
    lea = UserRef("telegram", "77", "Léa")
    english = await setup.commands.privacy_text(lea)
    assert "expire after 2 hours of silence" in english and "/groups on" in english
    assert "never" not in english  # nothing it cannot keep: /groups on does bring private memories in
    await setup.commands.set_language(lea, "fr")
    french = await setup.commands.privacy_text(lea)
    assert "expirent après 2 heures de silence" in french and "/groups on" in french


async def test_after_forget_all_no_line_shown_before_is_kept(setup: Setup, clock: FakeClock) -> None:
    for n in range(3):
        setup.memories.add(LEA.key, f"old fact {n}", clock.now() + timedelta(minutes=n))
    await setup.commands.memories_listing(LEA, "", page_size=5)
    assert (await setup.commands.forget_everything(LEA)).ok
    for n in range(3):
        setup.memories.add(LEA.key, f"new fact {n}", clock.now() + timedelta(hours=1, minutes=n))

    # "/forget 2" counts the new memories, newest first: the page shown before the erasure is gone with it.
    assert (await setup.commands.forget_memory(LEA, "2")).text == "Forgotten: “new fact 1”"
