"""The ports the sweep calls besides the engine's: batched reads and writes, so a tick of a thousand messages
costs a few round trips per chunk rather than a few per message. Implemented by `memory.redis.stores`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol

from bot.engine.model import ChatTurn, UserProfile
from bot.engine.ports import ProfileStore


class ProfileBatches(Protocol):
    async def load_profiles(self, user_keys: Sequence[str]) -> list[UserProfile]:
        """The profiles of `user_keys`, in order (the default profile for an unknown person)."""
        ...


class DisclosureMarks(Protocol):
    async def mark_disclosed(self, disclosed_at: Mapping[str, datetime]) -> None:
        """Record when each person (by user key) was last told they talk to an AI; touches nothing else."""
        ...


class SweepProfiles(ProfileStore, ProfileBatches, DisclosureMarks, Protocol):
    """What the scheduler needs of the profile store (the app passes its one `RedisProfiles`)."""


class WindowAppends(Protocol):
    async def append_turns_to_many(self, turns_by_conversation: Mapping[str, Sequence[ChatTurn]]) -> None:
        """`ConversationWindow.append_turns` for several conversations at once."""
        ...
