"""Telegram updates (real `telegram.Update` objects, built offline) -> the engine's IncomingMessage."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from telegram import Update

from adapters.telegram.normalise import to_incoming
from bot.engine.model import ChatKind

BOT_ID = 4242
BOT = "souvenir_bot"
WHEN = 1_773_489_600  # 2026-03-14 12:00 UTC


def update(
    text: str | None, *, chat_type: str = "private", chat_id: int = 77, user_id: int = 77, **extra: Any
) -> Update:
    message: dict[str, Any] = {
        "message_id": 5,
        "date": WHEN,
        "chat": {"id": chat_id, "type": chat_type, "title" if chat_type != "private" else "first_name": "x"},
        "from": {"id": user_id, "is_bot": extra.pop("is_bot", False), "first_name": "Ana", "last_name": "Lima",
                 "language_code": extra.pop("language_code", "fr")},
        **extra,
    }  # fmt: skip
    if text is not None:
        message["text"] = text
    found = Update.de_json({"update_id": 1, "message": message}, None)
    assert found is not None and found.message is not None
    return found


def incoming(u: Update):  # type: ignore[no-untyped-def]
    assert u.message is not None
    return to_incoming(u.message, bot_id=BOT_ID, bot_username=BOT)


def mention(text: str, name: str = f"@{BOT}") -> dict[str, Any]:
    """A mention entity; offsets count UTF-16 code units as Telegram does."""
    before = text[: text.index(name)]
    return {"type": "mention", "offset": len(before.encode("utf-16-le")) // 2, "length": len(name)}


def test_a_private_message_becomes_an_incoming_message_with_everything_the_engine_needs() -> None:
    message = incoming(
        update(
            "Salut, ça va ?", reply_to_message={"message_id": 3, "date": WHEN, "chat": {"id": 77, "type": "private"}}
        )
    )
    assert message is not None
    assert message.user.key == "telegram:77"
    assert message.user.display_name == "Ana Lima"
    assert message.conversation_id == "telegram:dm:77"
    assert message.message_id == "5"
    assert message.text == "Salut, ça va ?"
    assert message.sent_at == datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
    assert message.sent_at.utcoffset() is not None
    assert message.chat_kind is ChatKind.PRIVATE
    assert message.language_hint == "fr"
    assert message.reply_to_message_id == "3"
    assert message.dedup_key == "telegram:dm:77:5"


def test_regional_language_codes_become_the_primary_language() -> None:
    message = incoming(update("hello", language_code="en-US"))
    assert message is not None and message.language_hint == "en"
    assert incoming(update("hello", language_code="pt-br")).language_hint == "pt"  # type: ignore[union-attr]


def test_a_group_message_that_does_not_address_the_bot_is_ignored() -> None:
    assert incoming(update("we should go hiking", chat_type="group", chat_id=-100)) is None
    other = "hey @someone_else what do you think"
    assert (
        incoming(update(other, chat_type="supergroup", chat_id=-100, entities=[mention(other, "@someone_else")]))
        is None
    )


def test_a_group_mention_is_stripped_and_the_conversation_is_the_group() -> None:
    text = f"@{BOT}, what did I say about Paris?"
    message = incoming(update(text, chat_type="supergroup", chat_id=-1001, entities=[mention(text)]))
    assert message is not None
    assert message.text == "what did I say about Paris?"
    assert message.chat_kind is ChatKind.GROUP
    assert message.conversation_id == "telegram:chat:-1001"
    assert message.scope == "group:telegram:chat:-1001"
    assert message.user.key == "telegram:77"


def test_a_mention_after_emoji_is_found_by_utf16_offsets_and_matched_case_insensitively() -> None:
    text = "🎉🎉 thanks @Souvenir_Bot for remembering 🎂"
    message = incoming(update(text, chat_type="group", chat_id=-5, entities=[mention(text, "@Souvenir_Bot")]))
    assert message is not None
    assert message.text == "🎉🎉 thanks for remembering 🎂"


def test_a_text_mention_of_the_bot_counts_as_addressing_it() -> None:
    text = "Souvenir tell me a joke"
    entity = {"type": "text_mention", "offset": 0, "length": 8,
              "user": {"id": BOT_ID, "is_bot": True, "first_name": "Souvenir"}}  # fmt: skip
    message = incoming(update(text, chat_type="group", chat_id=-5, entities=[entity]))
    assert message is not None and message.text == "tell me a joke"


def test_a_group_reply_to_the_bot_is_answered_without_a_mention() -> None:
    bot_message = {"message_id": 9, "date": WHEN, "chat": {"id": -5, "type": "group"},
                   "from": {"id": BOT_ID, "is_bot": True, "first_name": "Souvenir", "username": BOT}}  # fmt: skip
    message = incoming(update("yes, exactly", chat_type="group", chat_id=-5, reply_to_message=bot_message))
    assert message is not None
    assert message.text == "yes, exactly"
    assert message.reply_to_message_id == "9"


def test_a_group_reply_to_someone_else_is_ignored() -> None:
    their_message = {"message_id": 9, "date": WHEN, "chat": {"id": -5, "type": "group"},
                     "from": {"id": 12, "is_bot": False, "first_name": "Marc"}}  # fmt: skip
    assert incoming(update("yes, exactly", chat_type="group", chat_id=-5, reply_to_message=their_message)) is None


def test_a_message_in_a_forum_topic_is_not_a_reply_to_the_topic_opener() -> None:
    opener = {"message_id": 2, "date": WHEN, "chat": {"id": -5, "type": "supergroup"},
              "from": {"id": BOT_ID, "is_bot": True, "first_name": "Souvenir", "username": BOT},
              "forum_topic_created": {"name": "Chat", "icon_color": 0}}  # fmt: skip
    in_topic = {"chat_type": "supergroup", "chat_id": -5, "reply_to_message": opener,
                "is_topic_message": True, "message_thread_id": 2}  # fmt: skip
    assert incoming(update("random chatter", **in_topic)) is None
    text = f"@{BOT} hi"
    message = incoming(update(text, entities=[mention(text)], **in_topic))
    assert message is not None and message.reply_to_message_id is None


def test_a_bare_mention_leaves_nothing_to_answer() -> None:
    text = f"@{BOT}"
    assert incoming(update(text, chat_type="group", chat_id=-5, entities=[mention(text)])) is None


def test_messages_without_text_from_bots_or_in_channels_are_not_for_the_engine() -> None:
    assert incoming(update(None, caption="a photo")) is None
    assert incoming(update("beep", is_bot=True)) is None
    assert incoming(update("news", chat_type="channel", chat_id=-300)) is None
