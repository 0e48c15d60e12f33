"""Stand-ins for parts that are switched off, so the engine never checks "is X configured?"."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.engine.model import DatedEvent, Exchange, RecalledMemory, RecallQuery, UserRef
from bot.engine.ports import TrailReply


class NoLongTermMemory:
    """Remembers nothing beyond the short-term window."""

    async def recall(self, query: RecallQuery) -> Sequence[RecalledMemory]:
        return ()

    async def prepare_recall(self, text: str) -> None:
        return None

    async def remember_exchange(self, exchange: Exchange) -> None:
        return None

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        return None


class NoPlanner:
    """Used where nothing sends unprompted messages (the terminal chat, tests)."""

    async def plan_user(self, user_key: str) -> None:
        return None

    async def note_activity(self, user_key: str, at: datetime) -> None:
        return None


class NoDatedEvents:
    """Knows no birthdays or dated events beyond the profile (long-term memory switched off, benches)."""

    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        return []


class NoErasureFence:
    """Where nothing is erased while messages are answered (tests of the engine alone, benches)."""

    async def epoch(self, user_key: str) -> int:
        return 0

    async def settle(self, user_key: str, since: int) -> bool:
        return True


class NoReplyTrail:
    """Where no one asks what a reply drew on (tests of the engine alone, benches)."""

    async def note_reply(self, reply: TrailReply) -> None:
        return None

    async def recent_replies(self, user_key: str, conversation_id: str | None = None) -> list[TrailReply]:
        return []


class NoIdentities:
    """Every account is its own person (nothing links them)."""

    async def person_of(self, user: UserRef) -> str:
        return user.account_key

    async def reach(self, person_key: str) -> str:
        return person_key

    async def accounts(self, person_key: str) -> list[str]:
        return [person_key]
