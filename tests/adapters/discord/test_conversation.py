"""Conversations through the real discord.py client and the fake gateway: who gets answered, and how."""

from __future__ import annotations

from bot.engine.model import ChatKind
from tests.adapters.discord.conftest import Bot
from tests.fakes import fake_discord_payloads as p


async def test_a_direct_message_gets_a_reply(bot: Bot) -> None:
    alice = p.user("Alice")
    message = await bot.fake.send_dm(alice, "hello there")
    channel_id = int(message["channel_id"])

    replies = await bot.fake.replies_in(channel_id)

    assert [r.content for r in replies] == ["Echo: hello there"]
    seen = bot.engine.seen[0]
    assert seen.chat_kind is ChatKind.PRIVATE and seen.scope == "dm"
    assert seen.user.user_id == alice["id"] and seen.user.display_name == "Alice"
    assert channel_id in bot.fake.rest.typing


async def test_a_mention_in_a_guild_gets_a_reply_and_the_engine_sees_a_group_message(bot: Bot) -> None:
    bob = p.user("Bob")
    message = await bot.fake.send_in_guild(
        bot.guild_id, bot.channel_id, bob, f"<@{bot.fake.bot_id}> how are you?", mention_bot=True
    )

    replies = await bot.fake.replies_in(bot.channel_id)

    assert [r.content for r in replies] == ["Echo: how are you?"]
    assert replies[0].body["message_reference"]["message_id"] == int(message["id"])  # threaded under the question
    assert replies[0].body["allowed_mentions"]["parse"] == []  # never pings anyone
    assert not replies[0].body["allowed_mentions"].get("replied_user")  # no ping for the reply either
    seen = bot.engine.seen[0]
    assert seen.chat_kind is ChatKind.GROUP and seen.scope != "dm"
    assert seen.conversation_id == f"discord:chat:{bot.channel_id}"


async def test_a_reply_to_the_bot_gets_an_answer_but_chatter_between_people_does_not(bot: Bot) -> None:
    bob, carol = p.user("Bob"), p.user("Carol")
    await bot.fake.send_in_guild(bot.guild_id, bot.channel_id, bob, "anyone up for lunch?")
    question = await bot.fake.send_in_guild(
        bot.guild_id, bot.channel_id, carol, f"<@{bot.fake.bot_id}> hi", mention_bot=True
    )
    first = await bot.fake.replies_in(bot.channel_id)
    bot_message = bot.fake.rest.messages[first[0].message_id]

    await bot.fake.send_in_guild(bot.guild_id, bot.channel_id, carol, "tell me more", reply_to=bot_message)
    replies = await bot.fake.replies_in(bot.channel_id, 2)

    assert [r.content for r in replies] == ["Echo: hi", "Echo: tell me more"]
    assert [m.text for m in bot.engine.seen] == ["hi", "tell me more"]
    assert bot.engine.seen[1].reply_to_message_id == bot_message["id"]
    assert question["id"] != bot_message["id"]


async def test_a_message_replayed_after_a_gateway_resume_is_answered_once(bot: Bot) -> None:
    alice = p.user("Alice")
    before = bot.fake.gateway.sessions[0].sequence
    message = await bot.fake.send_dm(alice, "remember me?")
    channel_id = int(message["channel_id"])
    await bot.fake.replies_in(channel_id)

    await bot.fake.gateway.reconnect(replay_after=before)  # Discord re-delivers the MESSAGE_CREATE
    await bot.fake.wait_for(lambda: bot.fake.gateway.resumes and len(bot.engine.seen) >= 2)
    await bot.fake.send_dm(alice, "still there?")
    replies = await bot.fake.replies_in(channel_id, 2)

    assert [r.content for r in replies] == ["Echo: remember me?", "Echo: still there?"]
    assert [m.text for m in bot.engine.seen] == ["remember me?", "remember me?", "still there?"]
    assert len(bot.fake.gateway.identifies) == 1  # resumed, not re-identified


async def test_a_long_reply_is_split_into_messages_discord_accepts(bot: Bot) -> None:
    bot.engine.reply_text = " ".join(f"Sentence number {n} is here." for n in range(300))
    message = await bot.fake.send_dm(p.user("Alice"), "tell me a story")
    channel_id = int(message["channel_id"])

    def whole_story_sent() -> bool:
        return " ".join(r.content for r in bot.fake.sent_in(channel_id)) == bot.engine.reply_text

    await bot.fake.wait_for(whole_story_sent)

    replies = bot.fake.sent_in(channel_id)
    assert len(replies) == 5
    assert all(len(r.content) <= 2000 for r in replies)
    assert all(r.content.endswith("is here.") for r in replies)  # cut between sentences


async def test_a_failing_engine_is_logged_and_the_next_message_is_answered(bot: Bot) -> None:
    alice = p.user("Alice")
    bot.engine.fail_next = True
    first = await bot.fake.send_dm(alice, "first")
    await bot.fake.wait_for(lambda: len(bot.engine.seen) == 1)

    await bot.fake.send_dm(alice, "second")
    replies = await bot.fake.replies_in(int(first["channel_id"]))

    assert [r.content for r in replies] == ["Echo: second"]
