"""Discord API payloads (users, guilds, messages, interactions) as the real API shapes them, for the fake."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 64
_counter = itertools.count(1)

Payload = dict[str, Any]


def snowflake() -> int:
    """A fresh, realistic snowflake (18–19 digits, as discord.py's mention parsing requires)."""
    return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(_counter) % (1 << 22))


def snowflake_time(value: int) -> datetime:
    return datetime.fromtimestamp(((value >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def user(name: str, *, user_id: int | None = None, bot: bool = False) -> Payload:
    return {
        "id": str(user_id or snowflake()),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
    }


def member(author: Payload) -> Payload:
    return {
        "user": author,
        "roles": [],
        "joined_at": "2025-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": "2248473465835073",
    }


def text_channel(channel_id: int, guild_id: int, name: str) -> Payload:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
    }


def dm_channel(channel_id: int, recipient: Payload) -> Payload:
    return {"id": str(channel_id), "type": 1, "recipients": [recipient], "last_message_id": None}


def guild(guild_id: int, name: str, channels: list[Payload], owner_id: str) -> Payload:
    everyone = {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": "2248473465835073",
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": owner_id,
        "roles": [everyone],
        "channels": channels,
        "threads": [],
        "members": [],
        "member_count": 2,
        "voice_states": [],
        "presences": [],
        "emojis": [],
        "stickers": [],
        "features": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "unavailable": False,
        "large": False,
        "joined_at": "2025-01-01T00:00:00+00:00",
        "preferred_locale": "en-US",
        "premium_tier": 0,
        "verification_level": 0,
        "explicit_content_filter": 0,
        "default_message_notifications": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_flags": 0,
    }


def message(
    channel_id: int,
    author: Payload,
    content: str,
    *,
    guild_id: int | None = None,
    mentions: list[Payload] | None = None,
    referenced: Payload | None = None,
    components: list[Payload] | None = None,
    flags: int = 0,
    message_id: int | None = None,
) -> Payload:
    mid = message_id or snowflake()
    data: Payload = {
        "id": str(mid),
        "channel_id": str(channel_id),
        "author": author,
        "content": content,
        "timestamp": snowflake_time(mid).isoformat(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": mentions or [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 19 if referenced else 0,
        "flags": flags,
        "components": components or [],
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
        data["member"] = {k: v for k, v in member(author).items() if k != "user"}
    if referenced is not None:
        data["message_reference"] = {
            "message_id": referenced["id"],
            "channel_id": referenced["channel_id"],
            **({"guild_id": str(guild_id)} if guild_id else {}),
        }
        data["referenced_message"] = referenced
    return data


def interaction(
    *,
    kind: int,
    application_id: int,
    author: Payload,
    channel: Payload,
    data: Payload,
    locale: str = "en-US",
    guild_id: int | None = None,
    for_message: Payload | None = None,
) -> tuple[Payload, str]:
    """An INTERACTION_CREATE payload and its token. `kind`: 2 command, 3 component, 4 autocomplete."""
    token = f"token-{snowflake()}"
    payload: Payload = {
        "id": str(snowflake()),
        "application_id": str(application_id),
        "type": kind,
        "token": token,
        "version": 1,
        "data": data,
        "channel_id": channel["id"],
        "channel": channel,
        "locale": locale,
        "app_permissions": "2248473465835073",
        "entitlements": [],
        "authorizing_integration_owners": {"1": author["id"]},
        "attachment_size_limit": 10_485_760,
    }
    if guild_id is None:
        payload["user"] = author
        payload["context"] = 1
    else:
        payload["guild_id"] = str(guild_id)
        payload["guild_locale"] = "en-US"
        payload["member"] = member(author)
        payload["context"] = 0
    if for_message is not None:
        payload["message"] = for_message
    return payload, token
