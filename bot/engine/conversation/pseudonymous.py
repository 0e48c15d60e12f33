"""Where accounts become pseudonyms (SOUVENIR_PSEUDONYMOUS_KEYS): as a message or a command comes in, before
any store is read. The account's `user_id` is replaced, so its key, its private chat's conversation id and
everything keyed by them name the pseudonym only; group chats keep their ids (they name no person)."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.model import IncomingMessage, UserRef, dm_conversation_id
from bot.engine.ports import Pseudonyms


async def pseudonymous_user(pseudonyms: Pseudonyms | None, user: UserRef) -> UserRef:
    return user if pseudonyms is None else await pseudonyms.pseudonymous(user)


def pseudonymous_conversation(conversation_id: str | None, user: UserRef, pseudonymous: UserRef) -> str | None:
    """The private chat's id as the pseudonym's; any other conversation's id unchanged."""
    return dm_conversation_id(pseudonymous) if conversation_id == dm_conversation_id(user) else conversation_id


async def pseudonymous_message(pseudonyms: Pseudonyms | None, message: IncomingMessage) -> IncomingMessage:
    if pseudonyms is None:
        return message
    user = await pseudonyms.pseudonymous(message.user)
    conversation = pseudonymous_conversation(message.conversation_id, message.user, user) or message.conversation_id
    return replace(message, user=user, conversation_id=conversation)
