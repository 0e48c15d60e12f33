"""Telegram and Discord messages with hostile text (lone surrogates, controls, bidi, huge, mentions in odd
places), or with nothing but a file: an IncomingMessage with the text or silence, never an error."""

from __future__ import annotations

from typing import Any

import discord
from discord.state import ConnectionState
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adapters.discord.client import souvenir_intents
from adapters.discord.incoming import to_incoming as discord_incoming
from tests.adapters.discord.test_incoming import BOT, BOT_ID, CHANNEL_ID, GUILD_ID, parse
from tests.adapters.telegram.test_normalise import BOT as TELEGRAM_BOT
from tests.adapters.telegram.test_normalise import incoming as telegram_incoming
from tests.adapters.telegram.test_normalise import update
from tests.fakes import fake_discord_payloads as p

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_PIECES = st.sampled_from(
    [f"@{TELEGRAM_BOT}", f"<@{BOT_ID}>", f"<@!{BOT_ID}>", "\ud83d", "\x00", "\x1b[2J", "\u202e", "\u200b", "🐱",
     "שלום", " ", ",", "\n", "@", "<@", "x" * 5000]
)  # fmt: skip
HOSTILE = st.lists(
    st.one_of(st.text(st.characters(codec=None, categories=None), max_size=20), _PIECES), min_size=1, max_size=12
).map("".join)


def _discord_state() -> ConnectionState[Any]:
    state: ConnectionState[Any] = ConnectionState(
        dispatch=lambda *args, **kwargs: None, handlers={}, hooks={}, http=None,  # type: ignore[arg-type]
        intents=souvenir_intents(),
    )  # fmt: skip
    state.user = discord.ClientUser(state=state, data=BOT)  # type: ignore[arg-type]
    channel = p.text_channel(CHANNEL_ID, GUILD_ID, "general")
    state._add_guild_from_data(p.guild(GUILD_ID, "Friends", [channel], owner_id=BOT["id"]))  # type: ignore[arg-type]
    return state


@FUZZ
@given(text=HOSTILE, chat_type=st.sampled_from(["private", "group", "supergroup"]), mentioned=st.booleans())
@example(text="\ud800@souvenir_bot hi", chat_type="group", mentioned=True)  # found by this test: it raised
def test_any_telegram_text_becomes_a_message_or_silence(text: str, chat_type: str, mentioned: bool) -> None:
    extra: dict[str, Any] = {}
    name = f"@{TELEGRAM_BOT}"
    if mentioned and name in text:
        before = text[: text.index(name)]
        extra["entities"] = [{"type": "mention", "offset": len(before.encode("utf-16-le", "surrogatepass")) // 2,
                              "length": len(name)}]  # fmt: skip
    message = telegram_incoming(update(text, chat_type=chat_type, chat_id=77 if chat_type == "private" else -5,
                                       **extra))  # fmt: skip
    if message is not None:
        assert message.text and message.text == message.text.strip()


@FUZZ
@given(text=HOSTILE, private=st.booleans())
def test_any_discord_text_becomes_a_message_or_silence(text: str, private: bool) -> None:
    state, alice = _discord_state(), p.user("Alice")
    payload = p.message(p.snowflake(), alice, text) if private else p.message(
        CHANNEL_ID, alice, text, guild_id=GUILD_ID, mentions=[BOT] if f"<@{BOT_ID}>" in text else None
    )  # fmt: skip
    message = discord_incoming(parse(state, payload), bot_user_id=BOT_ID)
    if message is not None:
        assert message.text and f"<@{BOT_ID}>" not in message.text


def test_a_telegram_photo_or_document_without_text_is_quietly_left_alone() -> None:
    photo = [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90, "file_size": 1000}]
    document = {"file_id": "d1", "file_unique_id": "u2", "file_name": "\x00evil\u202e.exe", "mime_type": "x/bin"}
    assert telegram_incoming(update(None, photo=photo)) is None
    assert telegram_incoming(update(None, document=document, caption="\ud83d")) is None


def test_a_discord_message_with_only_an_attachment_is_quietly_left_alone() -> None:
    state, alice = _discord_state(), p.user("Alice")
    payload = p.message(p.snowflake(), alice, "")
    payload["attachments"] = [{"id": str(p.snowflake()), "filename": "\x00x\u202e.bin", "size": 10**9,
                               "url": "https://cdn.example/x", "proxy_url": "https://cdn.example/x"}]  # fmt: skip
    assert discord_incoming(parse(state, payload), bot_user_id=BOT_ID) is None
