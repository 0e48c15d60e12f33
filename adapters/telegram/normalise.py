"""Turning a Telegram message into the engine's `IncomingMessage`, and where to answer it (pure: no I/O, no bot
calls)."""

from __future__ import annotations

import re
from datetime import UTC

from telegram import Message, MessageEntity, User
from telegram.constants import ChatType

from bot.engine.model import ChatKind, IncomingMessage, UserRef, dm_conversation_id, group_conversation_id

PLATFORM = "telegram"
_GROUP_TYPES = {ChatType.GROUP, ChatType.SUPERGROUP}
_DOUBLE_SPACES = re.compile(r"[ \t]{2,}")


def user_ref(user: User) -> UserRef:
    return UserRef(platform=PLATFORM, user_id=str(user.id), display_name=user.full_name)


def language_hint(user: User | None) -> str | None:
    """Telegram gives IETF tags ("fr", "pt-br", "en-US"); the engine only needs the primary language."""
    if user is None or not user.language_code:
        return None
    return user.language_code.split("-")[0].strip().lower() or None


def thread_of(message: Message) -> int | None:
    """Forum topics: answer in the topic the message came from."""
    return message.message_thread_id if message.is_topic_message else None


def to_incoming(message: Message, *, bot_id: int, bot_username: str) -> IncomingMessage | None:
    """The message as the engine sees it, or None when the bot should stay silent.

    Private chats: every text message. Groups: only when the bot is @mentioned (the mention is
    stripped) or the message replies to one of the bot's messages. Channels, service messages and
    messages without text or sender are never for the engine.
    """
    sender = message.from_user
    if sender is None or sender.is_bot or not message.text:
        return None
    user = user_ref(sender)
    reply_to = message.reply_to_message
    if reply_to is not None and reply_to.forum_topic_created is not None:
        reply_to = None  # in forum topics every message "replies" to the topic's first message
    if message.chat.type == ChatType.PRIVATE:
        text = message.text
        kind = ChatKind.PRIVATE
        conversation_id = dm_conversation_id(user)
    elif message.chat.type in _GROUP_TYPES:
        mentions = _bot_mentions(message, bot_id, bot_username)
        replied_to_bot = reply_to is not None and reply_to.from_user is not None and reply_to.from_user.id == bot_id
        if not mentions and not replied_to_bot:
            return None
        text = _without(message.text, mentions)
        kind = ChatKind.GROUP
        conversation_id = group_conversation_id(PLATFORM, str(message.chat.id))
    else:
        return None
    text = text.strip()
    if not text:
        return None
    return IncomingMessage(
        user=user,
        conversation_id=conversation_id,
        message_id=str(message.message_id),
        text=text,
        sent_at=message.date.astimezone(UTC),
        chat_kind=kind,
        language_hint=language_hint(sender),
        reply_to_message_id=str(reply_to.message_id) if reply_to is not None else None,
    )


def _bot_mentions(message: Message, bot_id: int, bot_username: str) -> list[MessageEntity]:
    wanted = f"@{bot_username}".lower()
    found = []
    for entity in message.entities:
        if entity.type not in (MessageEntity.MENTION, MessageEntity.TEXT_MENTION):
            continue
        text = _entity_text(message.text or "", entity)
        if entity.type == MessageEntity.MENTION and text.lower() == wanted:
            found.append(entity)
        elif entity.type == MessageEntity.TEXT_MENTION and entity.user is not None and entity.user.id == bot_id:
            found.append(entity)
    return found


def _entity_text(text: str, entity: MessageEntity) -> str:
    """What `entity` covers. "surrogatepass": a lone surrogate from a broken client is one code unit, as
    Telegram counts it, not an error (`Message.parse_entities` raises on it); the engine replaces it later."""
    units = text.encode("utf-16-le", "surrogatepass")
    return units[entity.offset * 2 : (entity.offset + entity.length) * 2].decode("utf-16-le", "surrogatepass")


def _without(text: str, entities: list[MessageEntity]) -> str:
    """The text with the entities cut out. Entity offsets count UTF-16 code units, not characters."""
    if not entities:
        return text
    units = text.encode("utf-16-le", "surrogatepass")
    kept: list[bytes] = []
    position = 0
    for entity in sorted(entities, key=lambda e: e.offset):
        kept.append(units[position * 2 : entity.offset * 2])
        position = entity.offset + entity.length
    kept.append(units[position * 2 :])
    joined = b"".join(kept).decode("utf-16-le", "surrogatepass")
    # A mention is often followed by a comma or colon ("@bot, what's up?"): drop that too.
    return _DOUBLE_SPACES.sub(" ", joined).strip().lstrip(",:;").strip()
