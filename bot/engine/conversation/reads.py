"""What one reply reads before the model is called: the conversation's window, recall, the occasions ahead,
the learned crisis reading, the card's lore, how the person has been feeling, what a friend knows of them and
whether they said where they live. Independent reads go at once; each but the window's has a timeout or a
fallback, so an outage degrades the reply (no memories, no tone) and never stops it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.engine.conversation.small_talk import is_small_talk
from bot.engine.metrics import EngineMetrics
from bot.engine.model import (
    ChatKind,
    ChatTurn,
    IncomingMessage,
    RecalledMemory,
    RecallQuery,
    UserProfile,
    without_sensitive,
)
from bot.engine.ports import ConversationWindow, CrisisReader, DatedEvents, LongTermMemory, MoodState, SensitiveTopics
from bot.engine.prompt.card import matched_lore
from bot.engine.prompt.in_window import not_in_view
from bot.engine.prompt.lore import LoreEntry
from bot.engine.prompt.person import read_person_model
from bot.engine.prompt.person_model import PersonModel, PersonModels, addressed
from bot.engine.prompt.persona import Persona
from bot.engine.prompt.tone import MoodSnapshot
from bot.engine.safety.crisis import LearnedCrisis
from bot.engine.when.city_zones import Cities
from bot.engine.when.upcoming import Occasion, upcoming_occasions
from bot.engine.when.zone_offer import ZoneOffer, zone_offer

log = logging.getLogger(__name__)

# A person's dated events are read on every reply (cheap: a derived set); a store that hangs must not hold it.
_OCCASIONS_TIMEOUT = 1.0  # seconds
# The learned crisis reading waits for the message's embedding, which recall waits for too.
_CRISIS_READ_TIMEOUT = 2.0  # seconds
_MOOD_TIMEOUT = 0.5  # seconds: one Redis read; tone guidance is a nicety, never worth a slow reply


@dataclass(frozen=True, slots=True)
class Read:
    """What the reads found for one message."""

    history: list[ChatTurn]
    memories: list[RecalledMemory]  # less those the window's turns say already
    occasions: list[Occasion]
    mood: MoodSnapshot | None
    learned: LearnedCrisis | None
    offer: ZoneOffer | None
    known: PersonModel | None  # with how they want to be addressed, in private
    lore: Sequence[LoreEntry]


@dataclass(frozen=True, slots=True)
class RecallLimits:
    recall_limit: int
    recall_max_words: int
    context_tokens: int  # the lore's share of the context is counted from it


class ReplyReads:
    def __init__(
        self,
        *,
        window: ConversationWindow,
        memory: LongTermMemory,
        dated_events: DatedEvents,
        persona: Persona,
        limits: RecallLimits,
        metrics: EngineMetrics,
        moods: MoodState | None,
        sensitive: SensitiveTopics | None,
        crisis_reader: CrisisReader | None,
        cities: Cities | None,
        person_models: PersonModels | None,
    ) -> None:
        self._window = window
        self._memory = memory
        self._dated_events = dated_events
        self._persona = persona
        self._limits = limits
        self._metrics = metrics
        self._moods = moods
        self._sensitive = sensitive
        self._crisis_reader = crisis_reader  # None: the phrase cues alone read a crisis
        self._cities = cities  # None: "I live in Lyon" offers no time zone
        self._person_models = person_models  # None: no person model in the prompt

    async def read(
        self, message: IncomingMessage, profile: UserProfile, zone: str, now: datetime, local_now: datetime
    ) -> Read:
        """Everything at once: the window's round trip and the others hide behind recall."""
        in_group = message.chat_kind is ChatKind.GROUP
        known_read = asyncio.create_task(read_person_model(self._person_models, message.user.key, in_group))
        lore_read = asyncio.create_task(self._lore(message.text))  # off the loop, while the reads wait
        memories, occasions, mood, history, learned, offer = await asyncio.gather(
            self._recall(message, profile, zone), self._occasions(message, profile, local_now),
            self._mood(message.user.key, in_group), self._window.recent_turns(message.conversation_id),
            self._learned_crisis(message.text), zone_offer(self._cities, profile, message),
        )  # fmt: skip
        known = await known_read  # never raises: a failed read is no block
        if not in_group:  # "call me Max", their pronouns: a line of the block
            known = addressed(known, message.user.key, profile.preferred_name, profile.pronouns, now)
        lore = await lore_read
        memories = not_in_view(memories, history, message.user.key, message.sent_at)  # the turns say them already
        return Read(history, memories, occasions, mood, learned, offer, known, lore)

    async def prepare_recall(self, text: str) -> None:
        try:
            await self._memory.prepare_recall(text)
        except Exception:
            log.exception("could not prepare recall; it works the question out itself")

    def touches_pain(self, text: str) -> bool:
        try:
            return self._sensitive is not None and self._sensitive.touches(text)
        except Exception:
            log.exception("sensitive-topic check failed")
            return False

    async def _recall(self, message: IncomingMessage, profile: UserProfile, zone: str) -> list[RecalledMemory]:
        if self._person_models is not None and message.chat_kind is ChatKind.PRIVATE and is_small_talk(message.text):
            return []  # "hi!", "I'm so tired": nothing to search for; the person model speaks instead
        scopes: tuple[str, ...] = (message.scope,)
        if message.chat_kind is ChatKind.GROUP and profile.share_dm_memories_in_groups:
            scopes = (message.scope, "dm")
        query = RecallQuery(
            user_key=message.user.key,
            text=message.text,
            at=message.sent_at,
            scopes=scopes,
            timezone=zone,
            limit=self._limits.recall_limit,
            max_words=self._limits.recall_max_words,
        )
        started = time.perf_counter()
        try:
            found = list(await self._memory.recall(query))
            # Painful topics are never brought into a group, even when private memories are shared there.
            return without_sensitive(found) if message.chat_kind is ChatKind.GROUP else found
        except Exception:
            # A memory outage degrades the reply; it must not stop it.
            log.exception("recall failed; answering without long-term memories")
            return []
        finally:
            self._metrics.recall_took(time.perf_counter() - started)

    async def _occasions(self, message: IncomingMessage, profile: UserProfile, local_now: datetime) -> list[Occasion]:
        """Birthdays and dated events today or just ahead, whatever recall found. Not in a group unless the
        person shares their private memories there: a birthday is theirs to tell."""
        if message.chat_kind is ChatKind.GROUP and not profile.share_dm_memories_in_groups:
            return []
        try:
            async with asyncio.timeout(_OCCASIONS_TIMEOUT):
                events = await self._dated_events.dated_events(message.user.key)
        except Exception:
            # Like recall: a memory outage drops the remembered occasions, never the reply.
            log.exception("could not read dated events; answering with the profile birthday only")
            events = []
        return upcoming_occasions(profile.birthday, events, local_now.date())

    async def _learned_crisis(self, text: str) -> LearnedCrisis | None:
        """The learned reader's probabilities, or None: the phrase cues still read the message alone."""
        if self._crisis_reader is None:
            return None
        try:
            async with asyncio.timeout(_CRISIS_READ_TIMEOUT):
                return await self._crisis_reader.read(text)
        except Exception:
            log.exception("the learned crisis reader failed; the phrase cues read this message alone")
            return None

    async def _lore(self, text: str) -> Sequence[LoreEntry]:
        """The card's lore this message triggers, matched on a worker thread: hundreds of keys, regexes among
        them, on a long message take milliseconds the event loop owes other conversations. No hop without lore."""
        if not self._persona.lore:
            return ()
        return await asyncio.to_thread(matched_lore, self._persona, text, self._limits.context_tokens)

    async def _mood(self, user_key: str, in_group: bool) -> MoodSnapshot | None:
        if self._moods is None or in_group:
            return None
        try:
            async with asyncio.timeout(_MOOD_TIMEOUT):
                return await self._moods.mood_snapshot(user_key)
        except Exception:
            log.exception("could not read how the person has been feeling; answering without tone guidance")
            return None
