"""`to_incoming` on real discord.py `Message` objects, built by discord.py's own gateway parser."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import discord
import pytest
from discord.state import ConnectionState

from adapters.discord.client import souvenir_intents
from adapters.discord.incoming import language_from_locale, to_incoming
from bot.engine.model import ChatKind
from tests.fakes import fake_discord_payloads as p

BOT = p.user("Souvenir", bot=True)
BOT_ID = int(BOT["id"])
GUILD_ID, CHANNEL_ID = p.snowflake(), p.snowflake()


@pytest.fixture
def state() -> ConnectionState[Any]:
    """discord.py's connection state after READY and GUILD_CREATE, without any network."""
    state: ConnectionState[Any] = ConnectionState(
        dispatch=lambda *args, **kwargs: None,
        handlers={},
        hooks={},
        http=None,  # type: ignore[arg-type]
        intents=souvenir_intents(),
    )
    state.user = discord.ClientUser(state=state, data=BOT)  # type: ignore[arg-type]
    channel = p.text_channel(CHANNEL_ID, GUILD_ID, "general")
    state._add_guild_from_data(p.guild(GUILD_ID, "Friends", [channel], owner_id=BOT["id"]))  # type: ignore[arg-type]
    return state


def parse(state: ConnectionState[Any], payload: dict[str, Any]) -> discord.Message:
    """The `discord.Message` discord.py hands to `on_message` for this MESSAGE_CREATE payload."""
    received: list[discord.Message] = []
    state.dispatch = lambda event, *args: received.append(args[0]) if event == "message" else None
    state.parsers["MESSAGE_CREATE"](payload)
    return received[0]


def in_guild(author: dict[str, Any], content: str, **extra: Any) -> dict[str, Any]:
    return p.message(CHANNEL_ID, author, content, guild_id=GUILD_ID, **extra)


def test_a_direct_message_is_private_with_the_persons_dm_conversation(state: ConnectionState[Any]) -> None:
    alice = p.user("Alice")
    payload = p.message(p.snowflake(), alice, "  I got the job!  ")

    incoming = to_incoming(parse(state, payload), bot_user_id=BOT_ID)

    assert incoming is not None
    assert incoming.chat_kind is ChatKind.PRIVATE and incoming.scope == "dm"
    assert incoming.conversation_id == f"discord:dm:{alice['id']}"
    assert incoming.user.key == f"discord:{alice['id']}" and incoming.user.display_name == "Alice"
    assert incoming.text == "I got the job!"
    assert incoming.message_id == payload["id"]
    assert incoming.sent_at == p.snowflake_time(int(payload["id"])) and incoming.sent_at.tzinfo == UTC
    assert incoming.reply_to_message_id is None


@pytest.mark.parametrize("mention", ["<@{id}>", "<@!{id}>"])
def test_a_mention_in_a_guild_is_a_group_message_without_the_mention(state: ConnectionState[Any], mention: str) -> None:
    bob = p.user("Bob")
    tag = mention.format(id=BOT_ID)
    payload = in_guild(bob, f"{tag} what's my sister's name?", mentions=[BOT])

    incoming = to_incoming(parse(state, payload), bot_user_id=BOT_ID)

    assert incoming is not None
    assert incoming.chat_kind is ChatKind.GROUP and incoming.scope == f"group:discord:chat:{CHANNEL_ID}"
    assert incoming.conversation_id == f"discord:chat:{CHANNEL_ID}"
    assert incoming.text == "what's my sister's name?"


def test_guild_chatter_that_does_not_address_the_bot_is_ignored(state: ConnectionState[Any]) -> None:
    other = p.user("Carol")
    payload = in_guild(p.user("Bob"), f"<@{other['id']}> lunch?", mentions=[other])

    assert to_incoming(parse(state, payload), bot_user_id=BOT_ID) is None


def test_a_reply_to_the_bot_is_answered_and_a_reply_to_someone_else_is_not(state: ConnectionState[Any]) -> None:
    said_by_bot = in_guild(BOT, "How was the interview?")
    said_by_carol = in_guild(p.user("Carol"), "I'm off")

    to_bot = to_incoming(
        parse(state, in_guild(p.user("Bob"), "It went well", referenced=said_by_bot)), bot_user_id=BOT_ID
    )
    to_carol = to_incoming(parse(state, in_guild(p.user("Bob"), "bye", referenced=said_by_carol)), bot_user_id=BOT_ID)

    assert to_bot is not None and to_bot.text == "It went well"
    assert to_bot.reply_to_message_id == said_by_bot["id"]
    assert to_carol is None


def test_bots_and_the_bot_itself_are_never_answered(state: ConnectionState[Any]) -> None:
    other_bot = p.user("Helper", bot=True)

    assert to_incoming(parse(state, p.message(p.snowflake(), other_bot, "hello")), bot_user_id=BOT_ID) is None
    assert to_incoming(parse(state, in_guild(BOT, f"<@{BOT_ID}> echo", mentions=[BOT])), bot_user_id=BOT_ID) is None


def test_a_bare_mention_or_a_system_message_gives_nothing_to_answer(state: ConnectionState[Any]) -> None:
    bare = in_guild(p.user("Bob"), f"<@{BOT_ID}>", mentions=[BOT])
    joined = p.message(p.snowflake(), p.user("Dan"), "") | {"type": 7}

    assert to_incoming(parse(state, bare), bot_user_id=BOT_ID) is None
    assert to_incoming(parse(state, joined), bot_user_id=BOT_ID) is None


@pytest.mark.parametrize(
    ("locale", "language"),
    [("fr", "fr"), ("en-GB", "en"), ("en-US", "en"), ("de", None), (discord.Locale.french, "fr"), (None, None)],
)
def test_language_from_a_discord_locale(locale: Any, language: str | None) -> None:
    assert language_from_locale(locale) == language
