"""Slash commands and their buttons, driven through the real discord.py client and the fake Discord."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import redis.asyncio as aioredis

from bot.engine.model import UserRef
from bot.engine.ports import DrawnMemory, TrailReply
from memory.redis.reply_trail import RedisReplyTrail
from tests.adapters.discord.conftest import Bot
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord_rest import Sent

LOADING = 128
ALL_COMMANDS = {
    "memories", "forget", "remember", "birthday", "timezone", "checkins", "groups", "language", "export", "privacy",
    "mood",
    "help", "profile", "link", "unlink", "age", "voice",
}


async def run(bot: Bot, author: dict[str, Any], name: str, locale: str = "en-US", **options: str) -> Sent:
    """Runs /name and returns the answer the person ends up seeing."""
    token = await bot.fake.slash(author, name, options, locale=locale)

    def answered() -> Sent | None:
        shown = bot.fake.for_interaction(token)
        return shown[-1] if shown and not shown[-1].flags & LOADING else None

    return await bot.fake.wait_for(answered)


async def press(bot: Bot, author: dict[str, Any], sent: Sent, label: str) -> Sent:
    """Presses the button with that label; returns the message as edited in answer."""
    before = len(bot.fake.rest.sent)
    await bot.fake.press(author, sent, sent.button(label)["custom_id"])
    return await bot.fake.wait_for(
        lambda: next((s for s in bot.fake.rest.sent[before:] if s.message_id == sent.message_id), None)
    )


def add_memories(bot: Bot, author: dict[str, Any], count: int) -> list[str]:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    key = f"discord:{author['id']}"
    return [bot.memories.add(key, f"memory {n}", start + timedelta(minutes=n)) for n in range(count)]


async def test_the_synced_commands_are_usable_everywhere_and_localised_in_french(bot: Bot) -> None:
    synced = {c["name"]: c for c in bot.fake.rest.command_syncs[-1]}

    assert set(synced) == ALL_COMMANDS
    for command in synced.values():
        assert sorted(command["integration_types"]) == [0, 1]  # guild install and user install
        assert sorted(command["contexts"]) == [0, 1, 2]  # guilds, bot DMs, private channels
        assert command["description_localizations"]["fr"]
    assert synced["memories"]["description_localizations"]["fr"] == "Ce dont je me souviens sur toi"
    remember_text = synced["remember"]["options"][0]
    assert remember_text["name"] == "text" and remember_text["name_localizations"]["fr"] == "texte"
    states = synced["checkins"]["options"][0]["choices"]
    assert [c["name_localizations"]["fr"] for c in states] == ["activer", "désactiver"]


async def test_a_memories_page_past_the_end_says_so_and_language_sticks(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 7)

    past = await run(bot, alice, "memories", page="99")
    second = await run(bot, alice, "memories", page="2")
    chosen = await run(bot, alice, "language", language="fr")
    help_text = await run(bot, alice, "help", locale="en-US")

    assert past.content == "There's no page 99: the last one is 2 (/memories 2)." and past.ephemeral
    assert second.content.startswith("What I remember (6–7 of 7):")
    assert chosen.content == "D'accord, je te parlerai en français désormais."
    assert help_text.content.startswith("Parle-moi simplement.")
    synced = {c["name"]: c for c in bot.fake.rest.command_syncs[-1]}
    assert synced["language"]["description_localizations"]["fr"] == "La langue que j'utilise avec toi"


async def test_memories_are_paginated_with_buttons_that_edit_the_message(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 7)

    first = await run(bot, alice, "memories")
    assert first.ephemeral
    assert first.content.startswith("What I remember (1–5 of 7):")
    assert "1. memory 6" in first.content  # newest first
    assert first.labels() == ["‹ Previous", "Next ›", *(f"Forget #{n}" for n in range(1, 6))]
    assert first.button("‹ Previous")["disabled"] is True

    second = await press(bot, alice, first, "Next ›")
    assert second.message_id == first.message_id  # the same message, edited
    assert second.content.startswith("What I remember (6–7 of 7):")
    assert "2. memory 0" in second.content
    assert second.button("Next ›")["disabled"] is True

    back = await press(bot, alice, second, "‹ Previous")
    assert back.content.startswith("What I remember (1–5 of 7):")
    assert bot.fake.rest.callbacks[0] == {"type": 5, "data": {"flags": 64}}  # deferred at once: the 3 s rule


async def test_forget_this_button_forgets_that_memory(bot: Bot) -> None:
    alice = p.user("Alice")
    ids = add_memories(bot, alice, 3)

    page = await run(bot, alice, "memories")
    after = await press(bot, alice, page, "Forget #1")  # the newest: "memory 2"

    assert after.content.startswith("Forgotten.")
    assert "memory 2" not in after.content and "(1–2 of 2)" in after.content
    assert [m.memory_id for m in bot.memories.items[f"discord:{alice['id']}"]] == ids[:2]


async def test_a_button_pressed_by_someone_else_only_touches_their_own_memories(bot: Bot) -> None:
    alice, mallory = p.user("Alice"), p.user("Mallory")
    add_memories(bot, alice, 2)
    add_memories(bot, mallory, 1)
    alices_page = await run(bot, alice, "memories")

    after = await press(bot, mallory, alices_page, "Forget #1")

    assert len(bot.memories.items[f"discord:{alice['id']}"]) == 2
    assert after.content.startswith("I have no memory with that id.")
    assert "(1–1 of 1)" in after.content  # Mallory sees her own page, never Alice's


async def test_forget_all_asks_for_confirmation_then_leaves_nothing(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 3)
    await run(bot, alice, "timezone", zone="Europe/Paris")

    question = await run(bot, alice, "forget", memory="all")
    assert question.content == "Forget everything I know about you? This can't be undone."
    done = await press(bot, alice, question, "Yes, forget everything")

    assert done.content == "Done. I've forgotten everything about you."
    assert done.components == []
    assert not bot.memories.items.get(f"discord:{alice['id']}")
    assert (await bot.commands.memories_page(UserRef("discord", alice["id"]))).total == 0
    exported = json.loads((await bot.commands.export(UserRef("discord", alice["id"]))).decode())
    assert exported["profile"]["timezone"] is None


async def test_forget_all_can_be_cancelled(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 2)

    question = await run(bot, alice, "forget", memory="all")
    kept = await press(bot, alice, question, "Cancel")

    assert kept.content == "Okay, I've kept everything."
    assert len(bot.memories.items[f"discord:{alice['id']}"]) == 2


async def test_export_sends_an_ephemeral_json_file(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 2)

    answer = await run(bot, alice, "export")

    assert answer.ephemeral and answer.content == "Everything I keep about you."
    document = json.loads(answer.files["souvenir-export.json"])
    assert document["user"] == f"discord:{alice['id']}"
    assert sorted(m["text"] for m in document["memories"]) == ["memory 0", "memory 1"]


async def test_bad_arguments_get_an_ephemeral_usage_message(bot: Bot) -> None:
    alice = p.user("Alice")

    forget = await run(bot, alice, "forget")
    birthday = await run(bot, alice, "birthday", date="30 February")

    assert forget.ephemeral and forget.content.startswith("Usage: /forget <number from /memories>")
    assert birthday.ephemeral and "couldn't read “30 February”" in birthday.content


async def test_commands_answer_in_french_for_a_french_discord_client(bot: Bot) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 6)

    page = await run(bot, alice, "memories", locale="fr")
    checkins = await run(bot, alice, "checkins", locale="fr", state="on")

    assert page.content.startswith("Ce dont je me souviens (1–5 sur 6) :")
    assert "Suivant ›" in page.labels() and "Oublier n°1" in page.labels()
    assert checkins.content.startswith("Les nouvelles sont activées")


async def test_timezone_autocompletes_iana_zones_and_is_saved(bot: Bot) -> None:
    alice = p.user("Alice")
    await bot.fake.autocomplete(alice, "timezone", "zone", "paris")
    choices = await bot.fake.wait_for(lambda: [c for c in bot.fake.rest.callbacks if c["type"] == 8])

    answer = await run(bot, alice, "timezone", zone="Europe/Paris")

    assert {"name": "Europe/Paris", "value": "Europe/Paris"} in choices[0]["data"]["choices"]
    assert answer.content.startswith("Your time zone is now Europe/Paris")


async def test_a_failing_command_tells_the_person_instead_of_hanging(bot: Bot) -> None:
    bot.memories.broken = True

    answer = await run(bot, p.user("Alice"), "export")

    assert answer.ephemeral
    assert answer.content.startswith("Sorry, I can't think straight right now.")


async def test_commands_work_in_a_guild_channel_and_never_ping(bot: Bot) -> None:
    alice = p.user("Alice")
    bot.memories.add(f"discord:{alice['id']}", "@everyone loves my cake", datetime(2026, 3, 1, tzinfo=UTC))

    token = await bot.fake.slash(alice, "memories", guild_channel=(bot.guild_id, bot.channel_id))
    answer = await bot.fake.wait_for(lambda: [s for s in bot.fake.for_interaction(token) if s.content])

    assert answer[-1].ephemeral and "1. @everyone loves my cake" in answer[-1].content
    assert answer[-1].body["allowed_mentions"] == {"parse": []}


async def test_memories_why_shows_the_askers_own_trail_where_asked_with_buttons_that_forget(
    bot: Bot, redis: aioredis.Redis
) -> None:
    alice, bob = p.user("Alice"), p.user("Bob")
    older, newer = add_memories(bot, alice, 2)  # "memory 0", "memory 1"
    trail = RedisReplyTrail(redis, ttl=timedelta(hours=2))  # what the engine noted with its last replies
    at = datetime(2026, 3, 2, tzinfo=UTC)
    drawn = (DrawnMemory(older, "semantic", "memory 0"), DrawnMemory(newer, "temporal", "memory 1"))
    await trail.note_reply(TrailReply(f"discord:dm:{alice['id']}", f"discord:{alice['id']}", at, drawn))
    channel = f"discord:chat:{bot.channel_id}"
    await trail.note_reply(TrailReply(channel, f"discord:{alice['id']}", at, drawn[1:]))

    in_dm = await run(bot, alice, "memories", page="why")
    assert in_dm.ephemeral
    assert in_dm.content.splitlines()[:3] == [
        "My last reply drew on these memories of you:", "1. (fact) memory 0", "2. (date) memory 1",
    ]  # fmt: skip
    assert in_dm.labels() == ["Forget #1", "Forget #2"]

    in_guild = []
    for who in (alice, bob):
        token = await bot.fake.slash(who, "memories", {"page": "why"}, guild_channel=(bot.guild_id, bot.channel_id))
        answer = await bot.fake.wait_for(lambda t=token: [s for s in bot.fake.for_interaction(t) if s.content])
        in_guild.append(answer[-1])
    assert in_guild[0].ephemeral and in_guild[0].content.splitlines()[1] == "1. (date) memory 1"
    assert in_guild[1].ephemeral and "memory" not in in_guild[1].content  # Bob never sees Alice's
    assert in_guild[1].content.startswith("I haven't replied to you here lately.")

    after = await press(bot, alice, in_dm, "Forget #2")
    assert after.content.startswith("Forgotten.") and "memory 1" not in after.content
    assert after.labels() == ["Forget #1"]
    assert [m.text for m in bot.memories.items[f"discord:{alice['id']}"]] == ["memory 0"]

    pressed_by_bob = await press(bot, bob, after, "Forget #1")  # a button on Alice's view, pressed by Bob
    assert pressed_by_bob.content.startswith("I have no memory with that id.")
    assert [m.text for m in bot.memories.items[f"discord:{alice['id']}"]] == ["memory 0"]


async def test_a_long_why_listing_comes_in_messages_discord_accepts_with_the_buttons_under_its_end(
    bot: Bot, redis: aioredis.Redis
) -> None:
    alice = p.user("Alice")
    ids = add_memories(bot, alice, 30)  # a reply drew on 10 excerpts of 3 messages, each long
    told = "We spent the whole week in Lisbon, the tiles, the custard tarts and the old yellow trams up the hills. "
    drawn = tuple(DrawnMemory(memory_id, "episodic", f"{n}: {told * 4}") for n, memory_id in enumerate(ids))
    trail = RedisReplyTrail(redis, ttl=timedelta(hours=2))
    await trail.note_reply(TrailReply(f"discord:dm:{alice['id']}", f"discord:{alice['id']}",
                                      datetime(2026, 3, 2, tzinfo=UTC), drawn))  # fmt: skip

    before = len(bot.fake.rest.sent)
    await bot.fake.slash(alice, "memories", {"page": "why"})
    shown = await bot.fake.wait_for(  # the answer (the placeholder edited) and the followups under it
        lambda: (s := [m for m in bot.fake.rest.sent[before:] if m.content]) and s[-1].components and s
    )
    listing = "\n".join(m.content for m in shown)
    assert all(len(m.content) <= 2000 and m.ephemeral for m in shown) and len(shown) >= 3
    assert [line.split(".")[0] for line in listing.splitlines()[1:31]] == [str(n) for n in range(1, 31)]
    texts = [line.split(") ", 1)[1] for line in listing.splitlines()[1:31]]
    assert all(len(text) <= 200 and text.endswith("…") for text in texts)  # each clipped; whole in /export
    assert shown[-1].labels() == [f"Forget #{n}" for n in range(1, 26)]  # Discord's 25 buttons at most
    assert not any(m.components for m in shown[:-1])

    after = await press(bot, alice, shown[-1], "Forget #3")
    assert after.content.startswith("Forgotten.") and not after.components  # the listing follows below it
    assert len(bot.memories.items[f"discord:{alice['id']}"]) == 29


async def test_profile_sets_the_name_and_tu_or_vous(bot: Bot) -> None:
    alice = p.user("Alice")
    named = await run(bot, alice, "profile", setting="name", value="Ali")
    formal = await run(bot, alice, "profile", setting="vous")

    assert named.content == "Got it, I'll call you Ali." and named.ephemeral
    assert formal.content == "In French I'll say « vous » to you."
    shown = await run(bot, alice, "profile")
    assert shown.content.startswith("I call you Ali; pronouns: not set; in French: « vous ».")
