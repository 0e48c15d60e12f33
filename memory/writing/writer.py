"""Writing memories: keep the message as an episode, extract candidates, consolidate, store.

Extraction and consolidation are best effort: the episode is stored first, and any failure after that is
logged and swallowed, so a broken model answer never loses what the person said.
"""

from __future__ import annotations

import copy
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.engine.model import Exchange
from bot.engine.mood import MoodReading
from bot.engine.ports import LanguageModel, OccasionPlanner
from bot.errors import ErasedMeanwhile, StoreUnavailable
from memory.ports import CrisisFollowUps, CrisisNotes, ErasureLog, MoodNotes
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.store import MemoryStore
from memory.writing.consolidation import Consolidator, Plan
from memory.writing.episodes import episode_id, shown_text
from memory.writing.extraction.candidates import EPISODE, PRECISION, TOPIC, Candidate, unique
from memory.writing.extraction.llm import LlmExtractor
from memory.writing.extraction.offline import offline_candidates
from memory.writing.thread_gist import gist_to_keep, with_gist

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where and when candidates were said: carried onto every memory made from them."""

    user_key: str
    at: datetime
    timezone: str
    language: str
    source: MemorySource
    scope: str
    episode_id: str | None = None  # the memory of the message itself (or the /remember note)
    erasure_epoch: int | None = None  # the person's erasure epoch when the message arrived


_FACTS = uuid.UUID("0f6a2b9e-7c41-4d35-b8e2-93a1c5d7e402")  # namespace of ids of facts drawn from a message


def fact_id(candidate: Candidate, origin: Origin) -> str:
    """A fact drawn from a message gets the same id each time that message is written (an outbox entry
    delivered twice, or retried after a crash), so a second write replaces it rather than adding a twin."""
    if origin.episode_id is None:
        return str(uuid.uuid4())
    return str(uuid.uuid5(_FACTS, "\x1f".join((origin.episode_id, candidate.kind.value, candidate.text))))


def record_from(candidate: Candidate, origin: Origin, supersedes: tuple[str, ...] = ()) -> MemoryRecord:
    attributes = {TOPIC: candidate.topic} if candidate.topic else {}
    if origin.episode_id:
        attributes[EPISODE] = origin.episode_id
    if candidate.precision:
        attributes[PRECISION] = candidate.precision
    if candidate.sensitive:
        attributes["sensitive"] = "true"
    return MemoryRecord(
        memory_id=fact_id(candidate, origin),
        user_key=origin.user_key,
        kind=candidate.kind,
        text=candidate.text,
        language=origin.language,
        created_at=origin.at,
        source=origin.source,
        scope=origin.scope,
        event_at=candidate.event_at or origin.at,
        valid_from=origin.at,
        importance=candidate.importance,
        recurrence=candidate.recurrence,
        local_date=candidate.local_date,
        timezone=origin.timezone if candidate.kind is MemoryKind.TEMPORAL else None,
        subject=candidate.subject,
        label=candidate.label,
        supersedes=supersedes,
        attributes=attributes,
    )


def same_words(a: str, b: str) -> bool:
    return a.lower().split() == b.lower().split()


def is_twin(episode: MemoryRecord, fact: MemoryRecord) -> bool:
    """An episode that says exactly what a fact drawn from the same message says."""
    return (
        episode.kind is MemoryKind.EPISODIC
        and fact.kind is not MemoryKind.EPISODIC
        and episode.memory_id != fact.memory_id
        and bool(episode.source.message_ids)
        and episode.source.message_ids == fact.source.message_ids
        and same_words(shown_text(episode), shown_text(fact))
    )


def _episode_of(exchange: Exchange) -> str:
    """The id `memory.writing.ingest` gives the episode of the exchange's message (the writer's `Origin.episode_id`)."""
    message = exchange.message
    return episode_id(message.user.key, message.conversation_id, message.sent_at, message.text)


def _one_off_event(record: MemoryRecord) -> bool:
    return record.kind is MemoryKind.TEMPORAL and record.recurrence is None


class MemoryWriter:
    def __init__(
        self,
        store: MemoryStore,
        *,
        llm: LanguageModel | None = None,
        planner: OccasionPlanner | None = None,
        erasures: ErasureLog | None = None,
        moods: MoodNotes | None = None,
        crisis_notes: CrisisNotes | None = None,
        crisis_follow_ups: CrisisFollowUps | None = None,
    ) -> None:
        self._store = store
        self._moods = moods
        self._crisis_notes = crisis_notes
        self._crisis_follow_ups = crisis_follow_ups
        self._answered: dict[str, Exchange] = {}  # the exchanges being written, by the episode of their message
        self._erasures = erasures
        self._llm = llm
        self._extractor = LlmExtractor(llm) if llm is not None else None
        self._consolidator = Consolidator(store, llm)
        self._planner = planner

    def writing_to(self, store: MemoryStore) -> MemoryWriter:
        """This writer over another store (a batch's write-behind one, memory.writing.write_behind), without the
        occasion planner: that reads dated memories from the index itself, so the batch calls `plan` once its
        writes are in."""
        twin = copy.copy(self)
        twin._store = store
        twin._consolidator = Consolidator(store, self._llm)
        twin._planner = None
        return twin

    def for_exchanges(self, exchanges: Sequence[Exchange]) -> MemoryWriter:
        """This writer while `exchanges` are written: a crisis the model reads in one of their messages is
        followed up with the person, unless its reply already carried the crisis lines (`reply.crisis`)."""
        if self._crisis_follow_ups is None or not exchanges:
            return self
        twin = copy.copy(self)
        twin._answered = {_episode_of(e): e for e in exchanges}
        return twin

    async def plan(self, user_key: str) -> None:
        """Plan the person's occasions again (after a new or forgotten dated memory); failures are logged."""
        if self._planner is None:
            return
        try:
            await self._planner.plan_user(user_key)
        except Exception:
            log.exception("occasion planner failed after a new dated memory")

    async def candidates(
        self, text: str, origin: Origin, mood_out: list[MoodReading] | None = None,
        crisis_out: list[bool] | None = None, gist_out: list[str] | None = None,
    ) -> list[Candidate]:
        found = list(offline_candidates(text, origin.at, origin.timezone, origin.language))
        if self._extractor is not None:
            from_model = await self._extractor.extract(
                text, origin.at, origin.timezone, origin.language, mood_out=mood_out, crisis_out=crisis_out,
                gist_out=gist_out,
            )
            if from_model:
                found = unique([*from_model, *found])
        return found

    async def extract_and_store(self, text: str, origin: Origin, *, read_mood: bool = False) -> list[MemoryRecord]:
        """Candidates from `text`, consolidated against the person's memories; returns what was stored.
        `read_mood`: a message the person wrote, whose mood is kept too (from the same extraction call)."""
        try:
            # Before the model is asked: extraction takes seconds.
            await self.check_not_erased(origin.user_key, origin.erasure_epoch)
            moods: list[MoodReading] = []
            crisis: list[bool] = []
            gists: list[str] = []
            candidates = await self.candidates(
                text, origin, moods, crisis if read_mood else None, gists if read_mood else None
            )
            if read_mood and self._moods is not None:
                await self._note_mood(text, origin, candidates, moods[0] if moods else None)
            stored = [record for c in candidates if (record := await self._apply(c, origin)) is not None]
            await self._keep_gist(text, origin, candidates, gists[0] if gists else None)
            await self._hide_twin(text, origin, stored)
            await self.check_not_erased(origin.user_key, origin.erasure_epoch)
            if crisis:
                await self._note_crisis(origin)
                await self._follow_up_crisis(origin)
        except ErasedMeanwhile:
            log.info("a memory write was dropped: the person erased their data meanwhile")
            return []
        except StoreUnavailable:
            raise  # the index is away: the outbox keeps the message and writes it again once it is back
        except Exception:  # an error boundary: the episode is already safe
            log.exception("memory extraction failed for one message; the episode is kept")
            return []
        if any(r.kind is MemoryKind.TEMPORAL for r in stored):
            await self.plan(origin.user_key)
        return stored

    async def _note_crisis(self, origin: Origin) -> None:
        if self._crisis_notes is None:
            return
        try:
            await self._crisis_notes.note_crisis(origin.user_key, origin.at)
        except Exception:
            log.exception("could not note the model's reading of a crisis")

    async def _follow_up_crisis(self, origin: Origin) -> None:
        exchange = self._answered.get(origin.episode_id or "")
        if self._crisis_follow_ups is None or exchange is None:
            return
        try:
            await self._crisis_follow_ups.crisis_read(exchange)
        except Exception:  # sending is not memory's business: the memories of the message are kept regardless
            log.exception("could not follow up on the model's reading of a crisis")

    async def _note_mood(
        self, text: str, origin: Origin, candidates: list[Candidate], read_by_model: MoodReading | None
    ) -> None:
        assert self._moods is not None
        topics = [c.subject or c.topic or "" for c in candidates if c.kind is not MemoryKind.TEMPORAL]
        await self._moods.note_message(
            origin.user_key, text=text, at=origin.at, language=origin.language, timezone=origin.timezone,
            epoch=origin.erasure_epoch, read_by_model=read_by_model, topics=topics,
            sensitive=any(c.sensitive for c in candidates),
        )  # fmt: skip

    async def _keep_gist(self, text: str, origin: Origin, candidates: list[Candidate], gist: str | None) -> None:
        """The model's gist of where the conversation stands, onto the message's episode (`thread_gist`)."""
        kept = gist_to_keep(text, gist, candidates, origin.scope)
        if kept is None or origin.episode_id is None:
            return
        found = await self._store.fetch(origin.user_key, [origin.episode_id])
        episodes = [with_gist(r, kept) for r in found if r.kind is MemoryKind.EPISODIC]
        if episodes:
            await self.add_fenced(origin.user_key, origin.erasure_epoch, episodes)

    async def _hide_twin(self, text: str, origin: Origin, stored: list[MemoryRecord]) -> None:
        """A fact that says exactly the message: its episode is marked, so /memories shows the fact alone."""
        if origin.episode_id is None:
            return
        for record in stored:
            if record.kind is not MemoryKind.EPISODIC and same_words(record.text, text):
                await self._store.hide(origin.user_key, origin.episode_id, record.memory_id)
                return

    async def _apply(self, candidate: Candidate, origin: Origin) -> MemoryRecord | None:
        plan: Plan = await self._consolidator.decide(origin.user_key, candidate, origin.at, origin.scope)
        if plan.action == "noop":
            return None
        record = record_from(plan.candidate, origin, plan.replaces)
        if record.memory_id in record.supersedes:  # written again (a redelivery): it does not replace itself
            record = replace(record, supersedes=tuple(i for i in record.supersedes if i != record.memory_id))
            plan = replace(plan, replaces=record.supersedes)
        if not await self.add_fenced(origin.user_key, origin.erasure_epoch, [record]):
            return None
        if plan.replaces:
            # The messages the old facts were read from say them too: they become history as well. Not
            # for a one-off dated event: "the competition is on 15 July" stays true of what was said then,
            # and another competition on 21 August (or a new date) does not make that message wrong.
            replaced = await self._store.fetch(origin.user_key, plan.replaces)
            episodes = [
                e
                for r in replaced
                if (e := r.attributes.get(EPISODE)) and e != origin.episode_id and not _one_off_event(r)
            ]
            await self.check_not_erased(origin.user_key, origin.erasure_epoch)
            await self._store.supersede(origin.user_key, [*plan.replaces, *episodes], origin.at)
        return record

    # ---- erasure wins over writes in flight (see memory.privacy.erasure) ----

    async def epoch(self, user_key: str) -> int | None:
        """The person's erasure epoch now (None without an erasure log): read before a write, checked at it."""
        return None if self._erasures is None else await self._erasures.epoch(user_key)

    async def check_not_erased(self, user_key: str, epoch: int | None) -> None:
        """Raises ErasedMeanwhile when all of the person's data was erased since `epoch` was read."""
        if self._erasures is None or epoch is None:
            return
        if await self._erasures.epoch(user_key) != epoch:
            raise ErasedMeanwhile(user_key)

    async def add_fenced(self, user_key: str, epoch: int | None, records: list[MemoryRecord]) -> list[MemoryRecord]:
        """Add `records` unless an erasure made meanwhile takes them back; checked again after writing, since
        the index write is not atomic with the check. Returns what stayed; raises ErasedMeanwhile (having
        removed what it wrote) when all of the person's data was erased."""
        await self.check_not_erased(user_key, epoch)
        keep = [r for r in records if r.memory_id not in await self._forgotten(user_key, records)]
        await self._store.add(keep)
        try:
            await self.check_not_erased(user_key, epoch)
        except ErasedMeanwhile:
            await self._store.remove(user_key, [r.memory_id for r in keep])
            raise
        taken_back = await self._forgotten(user_key, keep)
        if taken_back:
            await self._store.remove(user_key, sorted(taken_back))
        return [r for r in keep if r.memory_id not in taken_back]

    async def _forgotten(self, user_key: str, records: list[MemoryRecord]) -> set[str]:
        """Ids of `records` the person forgot meanwhile (an update would bring one back), or drawn from a
        message they forgot."""
        if self._erasures is None or not records:
            return set()
        sources = {r.memory_id: r.attributes.get(EPISODE) for r in records}
        asked = [*sources, *(s for s in sources.values() if s)]
        forgotten = await self._erasures.forgotten_among(user_key, asked)
        return {memory_id for memory_id, source in sources.items() if memory_id in forgotten or source in forgotten}
