"""Ports of the memory pipeline, owned by it, implemented by the Qdrant-backed index (both backends)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.engine.model import Exchange
from bot.engine.mood import MoodReading
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory


class Embedder(Protocol):
    @property
    def dimension(self) -> int: ...

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit-length dense vectors, one per text: batches computed off the event loop (one short text may be
        computed in place, where the hand-over would cost more than it frees the loop)."""
        ...


class MemoryIndex(Protocol):
    """Text-level search over one collection of memories; embeds on the way in and out."""

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        """Insert or replace (same memory_id) records, with their vectors."""
        ...

    async def embed_ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        """Embed in one call what a batch of exchanges will search for (`texts`) and write (`memories`): the
        searches and writes that follow find their vectors. A hint: an index may do nothing."""
        ...

    async def text_vector(self, text: str) -> list[float]:
        """The dense vector of `text`: the one a search for it uses (embedded once, shared with that search)."""
        ...

    async def search(self, query: IndexQuery) -> list[ScoredMemory]: ...

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        """Set valid_to=at on those of the user's records; returns how many changed."""
        ...

    async def hide(self, user_key: str, episode_id: str, fact_id: str) -> int:
        """Mark the user's episode `episode_id` as said again by the fact `fact_id` (listings show the fact
        alone); returns 1 if it changed, 0 when there is no such episode."""
        ...

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        """Delete those of the user's records; ids of other users are ignored. Returns how many went."""
        ...


class MemoryCatalog(Protocol):
    """Listing and erasing a person's memories (newest first)."""

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]: ...

    async def scroll(
        self,
        user_key: str,
        offset: int,
        limit: int,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
        created_before: datetime | None = None,
    ) -> list[MemoryRecord]:
        """Newest first; `listed_only` leaves out the episodes hidden by their twin fact."""
        ...

    async def count(
        self,
        user_key: str,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> int: ...

    async def matching(
        self, user_key: str, text: str, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> list[MemoryRecord]:  # fmt: skip
        """The person's memories best matching `text` (words and meaning), whatever their scope or validity."""
        ...

    async def holding_words(
        self, user_key: str, text: str, offset: int, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> tuple[list[MemoryRecord], int] | None:  # fmt: skip
        """The person's memories holding every word of `text` (as keyword search reads words), newest first:
        `limit` from `offset`, and how many in all; None when `text` holds no keyword (stopwords only)."""
        ...

    async def forget_user(self, user_key: str) -> int: ...


class ErasureLog(Protocol):
    """What memory writes in flight check so that an erasure made meanwhile wins (across processes)."""

    async def epoch(self, user_key: str) -> int:
        """How many times all of the person's data was erased (`/forget all`)."""
        ...

    async def forgot(self, user_key: str, memory_ids: Sequence[str]) -> None:
        """Note memories forgotten one by one (before they are removed)."""
        ...

    async def forgotten_among(self, user_key: str, memory_ids: Sequence[str]) -> set[str]:
        """Those of `memory_ids` the person forgot lately."""
        ...


class SaidTurns(Protocol):
    """The short-term windows, as forgetting one memory needs them."""

    async def forget_said(self, user_key: str, texts: Sequence[str]) -> None:
        """Drop the person's turns saying exactly one of `texts` (and the replies to them) from their windows."""
        ...


class MessageFiles(Protocol):
    """Files kept of a person's messages (their voice notes' audio), as forgetting one memory needs them."""

    async def forget_messages(self, user_key: str, message_ids: Sequence[str]) -> None:
        """Delete what is kept of these messages of the person."""
        ...


class MoodNotes(Protocol):
    """Where the memory writer hands each message's mood (`memory.mood.journal.MoodJournal`)."""

    async def note_message(
        self,
        user_key: str,
        *,
        text: str,
        at: datetime,
        language: str,
        timezone: str,
        epoch: int | None,
        read_by_model: MoodReading | None = None,
        topics: Sequence[str] = (),
        sensitive: bool = False,
    ) -> None: ...


class CrisisNotes(Protocol):
    """Where the memory writer notes that the model read a crisis in a message (`RedisProfiles.note_crisis`):
    the engine's next reply to the person then answers as to a crisis too (the offline reading stays the
    one that decides the reply to the message itself)."""

    async def note_crisis(self, user_key: str, at: datetime) -> None: ...


class CrisisFollowUps(Protocol):
    """Where the memory writer hands an exchange whose message the model read as a crisis (`bot.crisis_follow_up`):
    when the reply did not carry the crisis lines, they go to the person as a follow-up, once per message.
    Never raises: a failure to send is logged, and memory writing goes on."""

    async def crisis_read(self, exchange: Exchange) -> None: ...
