"""The index's arguments checked at its edge: canonical memory ids and a required user key."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from bot.errors import InvalidInput


def canonical_ids(memory_ids: Sequence[str]) -> tuple[str, ...]:
    """Valid UUIDs in canonical form; anything else cannot name a memory and is dropped."""
    out: list[str] = []
    for memory_id in memory_ids:
        try:
            out.append(str(uuid.UUID(str(memory_id))))
        except ValueError:
            continue
    return tuple(dict.fromkeys(out))


def require_user(user_key: str) -> None:
    if not user_key:
        raise InvalidInput("a user key is required")
