"""Discord messages → the engine's `IncomingMessage`: the one place that decides what the bot answers.

The bot answers every direct message, and in guild channels only when it is @mentioned or replied to.
Bots (itself included), webhooks and system messages are never answered, so two bots cannot loop.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.engine.model import ChatKind, IncomingMessage, UserRef, dm_conversation_id, group_conversation_id

PLATFORM = "discord"
_ANSWERABLE_TYPES = frozenset({discord.MessageType.default, discord.MessageType.reply})


def to_incoming(message: discord.Message, *, bot_user_id: int) -> IncomingMessage | None:
    """The message as the engine sees it, or None when the bot should stay silent."""
    author = message.author
    if author.bot or author.id == bot_user_id or message.webhook_id is not None:
        return None
    if message.type not in _ANSWERABLE_TYPES:
        return None
    private = isinstance(message.channel, discord.DMChannel)
    replied_to_bot = _replies_to(message, bot_user_id)
    if not private and not replied_to_bot and not _mentions(message, bot_user_id):
        return None
    text = _without_mention(message.content, bot_user_id)
    if not text:
        return None
    user = UserRef(PLATFORM, str(author.id), author.display_name)
    return IncomingMessage(
        user=user,
        conversation_id=dm_conversation_id(user)
        if private
        else group_conversation_id(PLATFORM, str(message.channel.id)),
        message_id=str(message.id),
        text=text,
        sent_at=message.created_at,
        chat_kind=ChatKind.PRIVATE if private else ChatKind.GROUP,
        # Discord tells bots a person's locale only in interactions, never on messages.
        language_hint=None,
        reply_to_message_id=str(message.reference.message_id)
        if message.reference is not None and message.reference.message_id is not None
        else None,
    )


def language_from_locale(locale: discord.Locale | str | None) -> str | None:
    """ "fr" / "en" from a Discord locale such as `fr` or `en-GB`; None for every other language."""
    if locale is None:
        return None
    language = str(locale.value if isinstance(locale, discord.Locale) else locale).split("-")[0].lower()
    return language if language in ("en", "fr") else None


def _mentions(message: discord.Message, bot_user_id: int) -> bool:
    return bot_user_id in message.raw_mentions or any(user.id == bot_user_id for user in message.mentions)


def _replies_to(message: discord.Message, bot_user_id: int) -> bool:
    reference = message.reference
    if reference is None:
        return False
    resolved = reference.resolved
    return isinstance(resolved, discord.Message) and resolved.author.id == bot_user_id


def _without_mention(content: str, bot_user_id: int) -> str:
    stripped = re.sub(rf"<@!?{bot_user_id}>", " ", content)
    return re.sub(r"[ \t]{2,}", " ", stripped).strip()


def user_of(interaction: discord.Interaction[Any]) -> UserRef:
    """The person who used a slash command or pressed a button."""
    return UserRef(PLATFORM, str(interaction.user.id), interaction.user.display_name)


def conversation_of(interaction: discord.Interaction[Any]) -> str:
    """The conversation a slash command was used in, named as `to_incoming` names its messages."""
    if interaction.guild_id is None and interaction.context.dm_channel:  # the person's DM with the bot
        return dm_conversation_id(user_of(interaction))
    return group_conversation_id(PLATFORM, str(interaction.channel_id))
