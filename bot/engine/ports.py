"""The engine's ports: small protocols owned by the engine, implemented elsewhere and wired in `bot.app`."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.engine.commands.linking import IssuedCode, Redemption
from bot.engine.model import (
    ChatTurn,
    DatedEvent,
    Exchange,
    MemoryItem,
    MemoryPage,
    RecalledMemory,
    RecallQuery,
    UserProfile,
    UserRef,
)
from bot.engine.mood import TimedReading
from bot.engine.prompt.tone import MoodSnapshot
from bot.engine.safety.crisis import LearnedCrisis


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


@dataclass(frozen=True, slots=True)
class CompletionRequest:
    system: str
    turns: tuple[ChatTurn, ...]  # oldest first; the last one is the user's new message
    max_tokens: int = 600
    temperature: float = 0.8
    json_output: bool = False  # ask for one JSON object (memory extraction); the caller still validates it


class LanguageModel(Protocol):
    async def complete(self, request: CompletionRequest) -> str:
        """The assistant's text. Raises `bot.errors.LLMUnavailable` once retries are spent."""
        ...


class ConversationWindow(Protocol):
    """Short-term memory: the last turns of one conversation."""

    async def recent_turns(self, conversation_id: str) -> list[ChatTurn]: ...

    async def append_turns(self, conversation_id: str, turns: Sequence[ChatTurn], fence: int | None = None) -> None:
        """With `fence` (the token `ConversationLocks.hold` gave), raises `bot.errors.ConversationLockLost` and
        writes nothing once a later holder took the conversation's lock."""
        ...


class ConversationLocks(Protocol):
    """One reply at a time per conversation, across every process that shares the stores."""

    def hold(self, conversation_id: str) -> AbstractAsyncContextManager[int]:
        """Held for the block; yields the fencing token, larger than the token of every earlier holder."""
        ...


class MessageClaims(Protocol):
    async def claim(self, key: str) -> bool:
        """True the first time a key is claimed, False on every later call (platform re-deliveries)."""
        ...


class ProfileStore(Protocol):
    async def load_profile(self, user_key: str) -> UserProfile: ...

    async def save_profile(self, profile: UserProfile) -> None: ...

    async def save_profile_fields(self, profile: UserProfile, names: Sequence[str]) -> None:
        """Write only the fields `names` of `profile`, so a setting a command changed meanwhile is kept; the
        language is left as it is once the person chose one (with /language), even if chosen meanwhile."""
        ...


class LongTermMemory(Protocol):
    async def recall(self, query: RecallQuery) -> Sequence[RecalledMemory]: ...

    async def prepare_recall(self, text: str) -> None:
        """Start on what a recall for `text` will need and that does not depend on who asks (its embedding),
        while the rest of the message is read: a hint, which may do nothing."""
        ...

    async def remember_exchange(self, exchange: Exchange) -> None: ...

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        """Several exchanges in order, each kept as `remember_exchange` keeps it (a queue drained at once)."""
        ...


class MemoryBrowser(Protocol):
    """What a person can do with their own memories (slash commands, CLI)."""

    async def list_memories(self, user_key: str, offset: int, limit: int) -> MemoryPage: ...

    async def forget_memory(self, user_key: str, memory_id: str) -> bool: ...

    async def export_memories(self, user_key: str) -> list[MemoryItem]: ...

    async def remember_note(self, user_key: str, text: str, at: datetime, language: str, timezone: str) -> str:
        """Keep a /remember note; relative dates in it ("tomorrow") are read in the person's `timezone`."""
        ...


@dataclass(frozen=True, slots=True)
class DrawnMemory:
    """A memory one reply drew on, as "why did you say that?" shows it: no date of when it was told."""

    memory_id: str
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class TrailReply:
    """The memories of one person that one reply to them put in the prompt."""

    conversation_id: str
    user_key: str
    at: datetime
    memories: tuple[DrawnMemory, ...]


class ReplyTrail(Protocol):
    """Which memories the last few replies drew on, per conversation and person ("why did you say that?")."""

    async def note_reply(self, reply: TrailReply) -> None: ...

    async def recent_replies(self, user_key: str, conversation_id: str | None = None) -> list[TrailReply]:
        """Newest first: the person's replies in that conversation, or in every conversation (None)."""
        ...


@dataclass(frozen=True, slots=True)
class Tally:
    """How many things of one sort an eraser erased, where one store holds several sorts (the short-term state:
    recent messages, memory writes waiting, ...): the receipt names each sort with its count."""

    sort: str
    count: int


class UserDataEraser(Protocol):
    """Every part that keeps data about a person implements this; erase means gone everywhere."""

    async def forget_user(self, user_key: str) -> int | Tally | None:
        """Erase the person; how many of their things went when the store counts them (a `Tally` when its store
        holds other sorts too; None: it does not count)."""
        ...


@dataclass(frozen=True, slots=True)
class StoreEraser:
    """An eraser with the name of the store it empties, for the receipt of an erasure ("memories",
    "short_term", "files", ...: the memory browser names each in the person's language)."""

    store: str
    eraser: UserDataEraser

    async def forget_user(self, user_key: str) -> int | Tally | None:
        return await self.eraser.forget_user(user_key)


@dataclass(frozen=True, slots=True)
class ErasedStore:
    """One store's part in an erasure: whether it went through, how many things it erased when it counts, and
    those counts by sort when its erasers told them apart (`tallies`; `count` is then their sum)."""

    store: str
    ok: bool
    count: int | None = None
    tallies: tuple[Tally, ...] = ()


class ErasureEpochs(Protocol):
    """How many times all of a person's data was erased. Read it before work whose result is written for
    them; a different value after writing means an erasure ran meanwhile, and the erasure wins."""

    async def epoch(self, user_key: str) -> int: ...


class ErasureFence(ErasureEpochs, Protocol):
    async def settle(self, user_key: str, since: int) -> bool:
        """Call after writing for the person: False when all their data was erased since `since`, in which
        case what was just written about them is erased again."""
        ...


class DatedEvents(Protocol):
    """Temporal memories (birthdays, anniversaries, dated events) of one person, current ones only."""

    async def dated_events(self, user_key: str) -> list[DatedEvent]: ...


class OccasionPlanner(Protocol):
    """Keeps a person's unprompted messages scheduled; called when what they depend on changes."""

    async def plan_user(self, user_key: str) -> None:
        """Recompute the person's schedule (birthday, time zone, dated events changed)."""
        ...

    async def note_activity(self, user_key: str, at: datetime) -> None:
        """The person just wrote: push back their check-in and count any proactive message as answered."""
        ...


class CrisisReader(Protocol):
    """The learned reading of a crisis in a message (`memory.crisis`): probabilities the engine weighs with the
    phrase cues (`bot.engine.safety.crisis.read_crisis`)."""

    async def read(self, text: str) -> LearnedCrisis: ...


class Messenger(Protocol):
    """Sends an unprompted message to a person's private chat on one platform."""

    async def send_direct(self, user_key: str, text: str) -> None:
        """Raises `bot.errors.UserUnreachable` when the platform says the person blocked the bot."""
        ...


class MoodState(Protocol):
    """How a person has been feeling, read in one go (one store read) on the reply path."""

    async def mood_snapshot(self, user_key: str) -> MoodSnapshot | None: ...


class MoodHistory(Protocol):
    """A person's own mood readings and chart (/mood, /export): shown to nobody else."""

    async def mood_readings(self, user_key: str) -> list[TimedReading]:
        """All of them, oldest first."""
        ...

    async def mood_chart(self, user_key: str, days: int, language: str, timezone: str) -> bytes | None:
        """A PNG of the last `days` days, or None when there are fewer than 3 readings to draw."""
        ...


class SensitiveTopics(Protocol):
    def touches(self, text: str) -> bool:
        """Whether the text speaks of a painful topic (grief, illness, break-up, family conflict, job loss…)."""
        ...


class Identities(Protocol):
    """Which person an account belongs to. Unlinked accounts are their own person (their plain key)."""

    async def person_of(self, user: UserRef) -> str:
        """The key every store keeps the person under; for a linked person, also notes this account as
        the one they used last."""
        ...

    async def reach(self, person_key: str) -> str:
        """The account key to write to unprompted: the one the person used last."""
        ...

    async def accounts(self, person_key: str) -> list[str]:
        """Every account key of the person (just the person key when not linked)."""
        ...


class AccountLinks(Protocol):
    """/link and /unlink (the rules are in `bot.engine.commands.linking`)."""

    async def issue_code(self, user: UserRef) -> IssuedCode: ...

    async def redeem(self, user: UserRef, code: str) -> Redemption:
        """Link `user`'s account into the person of the code's issuer. The caller has checked that the
        account holds no memories; everything else is checked here, atomically."""
        ...

    async def unlink(self, user: UserRef) -> str | None:
        """Split the person of `user` back into plain accounts; the person key (which keeps everything),
        or None when the account was not linked."""
        ...


class Pseudonyms(Protocol):
    """SOUVENIR_PSEUDONYMOUS_KEYS: the account as every store sees it, its platform id replaced by a keyed
    hash (the mapping back, needed to write to the person, is kept in one place by the implementation)."""

    async def pseudonymous(self, user: UserRef) -> UserRef:
        """The same account with `user_id` a pseudonym; one already pseudonymous is returned as it is."""
        ...
