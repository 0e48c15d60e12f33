"""The conversation engine: one incoming message in, one reply out.

Short-term context from the conversation window, recall from long-term memory, persona, the person's
local time and language, one LLM call. Memory writing happens after the reply: through the durable
outbox when there is one (written before the reply is returned), else as an in-process background task.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.engine.conversation.addressing import with_addressing
from bot.engine.conversation.inbox import Inbox
from bot.engine.conversation.locks import InProcessConversationLocks
from bot.engine.conversation.message_text import CleanText, clean_message_text
from bot.engine.conversation.outbox import Outbox
from bot.engine.conversation.pseudonymous import pseudonymous_message
from bot.engine.conversation.rate_limit import Admission, RateLimiter
from bot.engine.conversation.seen import seen_profile
from bot.engine.conversation.small_talk import is_small_talk
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.picture_reply import answer_with_picture
from bot.engine.media.picture_requests import picture_instructions
from bot.engine.metrics import EngineMetrics, NoMetrics
from bot.engine.model import (
    ChatKind,
    ChatTurn,
    Exchange,
    IncomingMessage,
    RecalledMemory,
    RecallQuery,
    Reply,
    UserProfile,
    without_sensitive,
)
from bot.engine.noop import NoErasureFence, NoIdentities, NoReplyTrail
from bot.engine.ports import (
    Clock,
    CompletionRequest,
    ConversationLocks,
    ConversationWindow,
    CrisisReader,
    DatedEvents,
    DrawnMemory,
    ErasureFence,
    Identities,
    LanguageModel,
    LongTermMemory,
    MessageClaims,
    MoodState,
    OccasionPlanner,
    ProfileStore,
    Pseudonyms,
    ReplyTrail,
    SensitiveTopics,
    TrailReply,
)
from bot.engine.prompt.budget import fit_prompt
from bot.engine.prompt.card import matched_lore, name_of
from bot.engine.prompt.in_window import not_in_view, said_before
from bot.engine.prompt.lore import LoreEntry
from bot.engine.prompt.person import after_pause, not_in_block, person_block, read_person_model
from bot.engine.prompt.person_model import PersonModels, Source, addressed
from bot.engine.prompt.persona import Persona
from bot.engine.prompt.system import PromptContext
from bot.engine.prompt.tone import MoodSnapshot, tone_guidance
from bot.engine.safety.age import with_stated_age
from bot.engine.safety.crisis import CrisisLevel, LearnedCrisis, read_crisis
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.engine.safety.rules import SafetyOptions, assess_safety
from bot.engine.texts.language import detect_language, reply_language
from bot.engine.texts.pictures import say_picture
from bot.engine.texts.say import say
from bot.engine.when.city_zones import Cities
from bot.engine.when.upcoming import Occasion, upcoming_occasions
from bot.engine.when.zone_offer import with_zone_offer, zone_offer
from bot.errors import ConversationLockLost, LLMUnavailable

log = logging.getLogger(__name__)

_CRISIS_FOLLOW_UP = timedelta(hours=6)  # how long the model's reading of a crisis still shapes the next reply
# Turns handed to long-term memory with each exchange, so a message is stored with what it answered.
_CONTEXT_TURNS = 4
# A person's dated events are read on every reply (cheap: a derived set); a store that hangs must not hold it.
_OCCASIONS_TIMEOUT = 1.0  # seconds
# The learned crisis reading waits for the message's embedding, which recall waits for too.
_CRISIS_READ_TIMEOUT = 2.0  # seconds
_MOOD_TIMEOUT = 0.5  # seconds: one Redis read; tone guidance is a nicety, never worth a slow reply
# Kept free in the context for the answer: the completion's own limit (CompletionRequest.max_tokens).
_REPLY_TOKENS = 600


@dataclass(frozen=True, slots=True)
class EngineOptions:
    default_timezone: str = "UTC"
    default_language: str = "en"
    disclosure: DisclosurePolicy = field(default_factory=DisclosurePolicy)
    recall_limit: int = 10
    recall_max_words: int = 300
    max_message_chars: int = 4000  # longer messages are cut before they are stored or sent
    context_tokens: int = 8192  # the model's context window: the prompt is trimmed to fit (rough count)
    safety: SafetyOptions = field(default_factory=SafetyOptions)
    thread_pause: timedelta = timedelta(hours=3)  # after this long, the last conversation's thread is offered


class Engine:
    def __init__(
        self,
        *,
        llm: LanguageModel,
        window: ConversationWindow,
        claims: MessageClaims,
        profiles: ProfileStore,
        memory: LongTermMemory,
        planner: OccasionPlanner,
        dated_events: DatedEvents,
        persona: Persona,
        clock: Clock,
        options: EngineOptions,
        fence: ErasureFence | None = None,
        trail: ReplyTrail | None = None,
        moods: MoodState | None = None,
        sensitive: SensitiveTopics | None = None,
        metrics: EngineMetrics | None = None,
        locks: ConversationLocks | None = None,
        identities: Identities | None = None,
        outbox: Outbox | None = None,
        rate_limiter: RateLimiter | None = None,
        pseudonyms: Pseudonyms | None = None,
        pictures: PictureMaker | None = None,
        crisis_reader: CrisisReader | None = None,
        cities: Cities | None = None,
        inbox: Inbox | None = None,
        person_models: PersonModels | None = None,
    ) -> None:
        self._llm = llm
        self._window = window
        self._claims = claims
        self._profiles = profiles
        self._memory = memory
        self._planner = planner
        self._dated_events = dated_events
        self._persona = persona
        self._clock = clock
        self._options = options
        self._fence = fence or NoErasureFence()
        self._trail = trail or NoReplyTrail()
        self._moods = moods
        self._sensitive = sensitive
        self._metrics = metrics or NoMetrics()
        self._locks = locks or InProcessConversationLocks()
        self._identities = identities or NoIdentities()
        self._pseudonyms = pseudonyms  # None: stores are keyed by the platform ids themselves
        self._pictures = pictures  # None: the model is not told it can send pictures
        self._crisis_reader = crisis_reader  # None: the phrase cues alone read a crisis
        self._cities = cities  # None: "I live in Lyon" offers no time zone
        self._person_models = person_models  # None: no person model in the prompt
        self._background: set[asyncio.Task[None]] = set()
        self._outbox = outbox
        self._rate_limiter = rate_limiter
        self._inbox = inbox  # None: a message is only claimed, and one cut short by a crash is not answered

    @property
    def persona(self) -> Persona:
        return self._persona

    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None:
        """/picture <what>: `message` is the command (its text is `what`); a photo with a caption, or a kind
        text. Without `what`, how to use it."""
        if self._pictures is None or not " ".join(what.split()):
            # Pictures off means off: one line, no model call, nothing stored.
            profile = await self._profiles.load_profile(await self._identities.person_of(message.user))
            language = profile.language or message.language_hint or self._options.default_language
            return Reply(say_picture("picture_off" if self._pictures is None else "picture_usage", language), language)
        return await self.handle(message, picture_of=what)

    async def handle(self, message: IncomingMessage, *, picture_of: str | None = None) -> Reply | None:
        """The reply to `message`, or None when this platform message was already handled (or held nothing
        once cleaned). The text is cleaned and capped here, once for every platform, before anything is stored.
        `picture_of`: the person asked for a picture with /picture."""
        self._metrics.message_handled(message.user.platform)
        cleaned = clean_message_text(message.text, self._options.max_message_chars)
        if not cleaned.text:
            log.info("a message with no text left once cleaned was ignored in %s", message.conversation_id)
            self._metrics.reply_outcome("empty")
            return None
        message = await pseudonymous_message(self._pseudonyms, replace(message, text=cleaned.text))
        # Once, here: from now on every store sees the person (one key for accounts linked with /link).
        person = await self._identities.person_of(message.user)
        message = replace(message, user=replace(message.user, person_key=person))
        received = await (self._inbox.receive(message) if self._inbox else self._claims.claim(message.dedup_key))
        if not received:
            log.info("duplicate delivery of %s ignored", message.dedup_key)
            self._metrics.reply_outcome("duplicate")
            return None
        async with self._holding(message):
            reply = await self._reply_to(message, cleaned, picture_of)
        if self._inbox is not None:  # its reply and exchange are queued: a crash from here on loses nothing
            await self._inbox.done(message)
        return reply

    async def answer_late(self, message: IncomingMessage) -> Reply | None:
        """A message received before a crash cut its reply short (`bot.late_replies` finds it in the inbox, as
        `handle` kept it): answered now, the reply opening with an apology for the delay."""
        cleaned = clean_message_text(message.text, self._options.max_message_chars)
        async with self._holding(message):
            reply = await self._reply_to(message, cleaned, None)
        if self._inbox is not None:
            await self._inbox.done(message)
        return None if reply is None else replace(reply, text=f"{say('late_reply', reply.language)}\n\n{reply.text}")

    async def keep_unanswered(self, message: IncomingMessage) -> None:
        """A message found too late to answer: what it says is remembered, as a message the companion could not
        answer (a fallback exchange: no reply is remembered)."""
        profile = await self._profiles.load_profile(message.user.key)
        language = profile.language or message.language_hint or self._options.default_language
        zone = profile.timezone or self._options.default_timezone
        epoch = await self._fence.epoch(message.user.key)
        unanswered = Reply(text="", language=language, fallback=True)
        await self._hand_over(Exchange(message, unanswered, zone, language, (), erasure_epoch=epoch))
        if self._inbox is not None:
            await self._inbox.done(message)

    def _holding(self, message: IncomingMessage) -> AbstractAsyncContextManager[None]:
        return self._inbox.held(message) if self._inbox is not None else nullcontext()

    async def _reply_to(self, message: IncomingMessage, cleaned: CleanText, picture_of: str | None) -> Reply | None:
        admission = await self._admit(message.user.key)
        if admission is not Admission.ALLOWED:
            self._metrics.reply_outcome("rate_limited")
            return await self._slow_down(message) if admission is Admission.NOTICE else None
        # The question's embedding (the costliest part of recall) is worked out while the lock, the profile and
        # the window are read; only for a message that is answered, so a flood costs no embeddings.
        self._in_background(self._prepare_recall(message.text))
        try:
            async with self._locks.hold(message.conversation_id) as fence:
                reply = await self._answer(message, cleaned, fence, picture_of)
        except ConversationLockLost:
            # This process stalled past the lock's expiry and another one answers the conversation now:
            # a second reply would overlap theirs, so this one is dropped (its turns were not written).
            log.warning("a reply in %s was dropped: another process took the conversation", message.conversation_id)
            self._metrics.reply_outcome("lock_lost")
            return None
        self._metrics.reply_outcome("fallback" if reply.fallback else "answered")
        return reply

    async def _answer(
        self, message: IncomingMessage, cleaned: CleanText, fence: int, picture_of: str | None = None
    ) -> Reply:
        now = self._clock.now()
        epoch = await self._fence.epoch(message.user.key)  # what is written from here on yields to /forget all
        profile = await self._profiles.load_profile(message.user.key)
        # "My name is Alice", "call me Max", "on peut se tutoyer": kept on the profile, used from this reply on.
        profile, learnt = with_addressing(profile, message.text)
        profile, learnt_age = with_stated_age(profile, message.text)  # "I'm 16", "j'ai 25 ans"
        zone = profile.timezone or self._options.default_timezone
        local_now = now.astimezone(ZoneInfo(zone))
        in_group = message.chat_kind is ChatKind.GROUP
        # Independent reads, at once: the window's round trip and the others hide behind recall.
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
        # Chosen with /language, it stays; else it follows what they write, this message weighed with their last.
        language = reply_language(
            message.text, said_before(history, message.user.key),
            chosen=profile.language if profile.language_chosen else None, last_reply=profile.language,
            hint=message.language_hint, default=self._options.default_language,
        )  # fmt: skip
        # How they feel is theirs: tone guidance in private chats only.
        tone = "" if in_group else tone_guidance(mood, local_now, sensitive_now=self._touches_pain(message.text))
        who = name_of(profile.preferred_name or message.user.display_name, "the person")
        resumed = after_pause(profile.last_seen_at, now, self._options.thread_pause)
        person = person_block(known, who, language, local_now.date(), with_thread=resumed)
        memories = not_in_block(memories, person)  # the block quotes them already
        # The model's reading of an earlier message adds to the offline one: this reply answers as to a crisis.
        hinted = profile.crisis_noted_at is not None and now - profile.crisis_noted_at <= _CRISIS_FOLLOW_UP
        safety = assess_safety(
            read_crisis(message.text, learned), profile, message.chat_kind, now, who, language, self._options.safety,
            crisis_hint=hinted,
        )
        user_turn = ChatTurn("user", message.text, message.sent_at, message.user.key, message.user.display_name)
        context = PromptContext(
            persona=self._persona,
            user_name=profile.preferred_name or message.user.display_name,
            local_now=local_now,
            timezone=zone,
            language=language,
            in_group=in_group,
            memories=memories,
            person=person.text,
            occasions=occasions,
            user_key=message.user.key,
            lore=lore,
            first_meeting=profile.first_seen_at is None and not safety.crisis,  # a crisis is answered, not greeted
            context_tokens=self._options.context_tokens,
            preferred_name=profile.preferred_name,
            pronouns=profile.pronouns,
            address_form=profile.address_form,
            tone=tone,
            pictures=picture_instructions(in_group=in_group, forced_scene=picture_of)
            if self._pictures is not None and not safety.crisis
            else "",
            safety=safety.guidance,
            crisis=safety.crisis_guidance,
            in_character=safety.level is not CrisisLevel.IMMINENT,
        )
        limit = self._options.max_message_chars
        turns = tuple(_for_model(t, in_group, limit) for t in [*history, user_turn])
        if cleaned.cut:
            turns = (*turns[:-1], replace(turns[-1], text=turns[-1].text + _cut_note(cleaned, limit)))
        # Within SOUVENIR_LLM_CONTEXT_TOKENS: oldest history first, then memories; the persona stays.
        system, turns = fit_prompt(context, turns, self._options.context_tokens, _REPLY_TOKENS)
        try:
            text = (await self._llm.complete(CompletionRequest(system=system, turns=turns))).strip()
            fallback = not text
        except LLMUnavailable as exc:
            # The provider already logged the failure for the operator; this notes what the person got.
            log.info("answered with the fallback in %s: %s", message.conversation_id, exc)
            text, fallback = "", True
        except Exception:
            log.exception("LLM call failed unexpectedly for a message in %s", message.conversation_id)
            text, fallback = "", True
        said = text
        picture = None
        if fallback:
            text = said = say("fallback", language)
        else:
            answered = await answer_with_picture(
                self._pictures, reply_text=text, message_text=message.text, user_key=message.user.key,
                language=language, day=local_now.date(), in_group=in_group, forced_scene=picture_of,
                explicit_allowed=safety.explicit_allowed,  # the adult-content setting and the minors rule
            )  # fmt: skip
            text, picture, said = answered.text, answered.picture, answered.said
        disclose = self._options.disclosure.due(profile.last_disclosed_at, profile.last_seen_at, now)
        if safety.crisis:
            picture = None  # someone in crisis gets care and the lines, not a picture
        # "I live in Lyon": the zone offered once, after the reply (not to someone in crisis, nor in an apology).
        text, profile, offered = with_zone_offer(text, profile, None if fallback or safety.crisis else offer, language)
        shown = safety.finish(self._options.disclosure.shown(text, language, disclose), language)
        reply = Reply(text=shown, language=language, disclosed=disclose, fallback=fallback, crisis=bool(safety.lines),
                      picture=picture)  # fmt: skip
        if safety.lines:
            self._metrics.crisis_detected(safety.level.label, language)  # a count, nothing of who or what

        # Neither a fallback apology nor the disclosure is conversation the model should see next time.
        new_turns = [user_turn] if fallback else [user_turn, ChatTurn("assistant", said, now)]
        # Two independent writes at once (one round trip's wait instead of two). A lost lock still fails the reply:
        # the window write raises, and no trail is noted for a reply that is not sent.
        seen, changed = seen_profile(profile, message, now, language, disclosed=disclose, safety=safety,
                                     crisis_answered=hinted, learnt=(*learnt, *learnt_age, *offered))  # fmt: skip
        await asyncio.gather(
            self._window.append_turns(message.conversation_id, new_turns, fence),
            self._profiles.save_profile_fields(seen, changed),
        )
        drawn: list[RecalledMemory | Source] = [] if fallback else [*memories, *person.sources]
        await self._note_trail(message, drawn, now)  # before settle: /forget all wins
        if not await self._fence.settle(message.user.key, epoch):
            log.info("a reply was not kept: the person erased their data while it was written")
            return reply
        exchange = Exchange(message, reply, zone, language, tuple(history[-_CONTEXT_TURNS:]), erasure_epoch=epoch)
        await self._hand_over(exchange)
        return reply

    async def _hand_over(self, exchange: Exchange) -> None:
        """Before the reply is returned: in the durable outbox, so a crash after replying loses nothing. An
        outbox that cannot take it (Redis down) must not cost the reply: written from this process instead."""
        if self._outbox is not None:
            try:
                await self._outbox.enqueue(exchange)
                return
            except Exception:
                log.exception("could not queue an exchange in the outbox; writing it from this process")
        self._in_background(self._after_reply(exchange))

    async def _admit(self, person: str) -> Admission:
        if self._rate_limiter is None:
            return Admission.ALLOWED
        try:
            return await self._rate_limiter.admit(person)
        except Exception:
            # Counting is a safeguard; a Redis hiccup must not silence the companion.
            log.exception("rate limit check failed; the message is answered")
            return Admission.ALLOWED

    async def _slow_down(self, message: IncomingMessage) -> Reply:
        """The one kind notice of a window: no LLM call, nothing stored."""
        try:
            profile = await self._profiles.load_profile(message.user.key)
        except Exception:
            log.exception("could not read a profile for the slow-down notice")
            profile = UserProfile(message.user.key)
        language = (
            profile.language
            if profile.language_chosen and profile.language
            else detect_language(
                message.text, hint=profile.language or message.language_hint, default=self._options.default_language
            )
        )
        return Reply(text=say("rate_limited", language), language=language)

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
            limit=self._options.recall_limit,
            max_words=self._options.recall_max_words,
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

    async def _prepare_recall(self, text: str) -> None:
        try:
            await self._memory.prepare_recall(text)
        except Exception:
            log.exception("could not prepare recall; it works the question out itself")

    async def _note_trail(
        self, message: IncomingMessage, memories: Sequence[RecalledMemory | Source], now: datetime
    ) -> None:
        """What this reply drew on (recall, the person model), for "/memories why", each memory once; a trail
        that cannot be written never stops the reply."""
        unique: dict[str, DrawnMemory] = {}
        for m in memories:
            unique.setdefault(m.memory_id, DrawnMemory(m.memory_id, m.kind, m.text))
        drawn = tuple(unique.values())
        try:
            await self._trail.note_reply(TrailReply(message.conversation_id, message.user.key, now, drawn))
        except Exception:
            log.exception("could not note which memories a reply drew on")

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
        return await asyncio.to_thread(matched_lore, self._persona, text, self._options.context_tokens)

    async def _mood(self, user_key: str, in_group: bool) -> MoodSnapshot | None:
        if self._moods is None or in_group:
            return None
        try:
            async with asyncio.timeout(_MOOD_TIMEOUT):
                return await self._moods.mood_snapshot(user_key)
        except Exception:
            log.exception("could not read how the person has been feeling; answering without tone guidance")
            return None

    def _touches_pain(self, text: str) -> bool:
        try:
            return self._sensitive is not None and self._sensitive.touches(text)
        except Exception:
            log.exception("sensitive-topic check failed")
            return False

    async def _after_reply(self, exchange: Exchange) -> None:
        try:
            await self.remember(exchange)
        except Exception:
            log.exception("could not store the exchange in long-term memory")

    async def remember(self, exchange: Exchange) -> None:
        """What an answered exchange leaves behind: the scheduler notes the activity, long-term memory the
        message. The outbox worker calls this for each entry; a failure raises, so the entry is retried."""
        try:
            await self._planner.note_activity(exchange.message.user.key, exchange.message.sent_at)
        except Exception:
            log.exception("could not note activity for the scheduler")
        await self._memory.remember_exchange(exchange)

    async def remember_all(self, exchanges: Sequence[Exchange]) -> None:
        """`remember` for several queued exchanges at once, in order (memory writes them in fewer index calls)."""
        for exchange in exchanges:
            try:
                await self._planner.note_activity(exchange.message.user.key, exchange.message.sent_at)
            except Exception:
                log.exception("could not note activity for the scheduler")
        await self._memory.remember_exchanges(exchanges)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle_writes(self, within_s: float) -> bool:
        """Wait up to `within_s` seconds for this process's memory writes (queued in the outbox, or running in
        the background) without cancelling any: True once all are written, False when some still run (what
        /memories shows right after a message then lacks that message)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within_s
        if self._outbox is not None:
            try:
                if not await self._outbox.settle(within_s):
                    return False
            except Exception:
                log.exception("could not check what the outbox still holds")
        running = list(self._background)
        if not running:
            return True
        _, still = await asyncio.wait(running, timeout=max(0.0, deadline - loop.time()))
        return not still

    async def drain(self, within_s: float | None = None) -> None:
        """Wait for memory writes (on shutdown, and in tests): those in the outbox (written by the worker) and
        background ones. Writes still running after `within_s` seconds are cancelled and logged, queued ones
        stay queued: a hung store must not hold up stopping the bot.
        (Cancelling, not asyncio.timeout: the writes are tasks of their own, not this coroutine's work.)"""
        loop = asyncio.get_running_loop()
        deadline = None if within_s is None else loop.time() + within_s
        if self._outbox is not None:
            try:
                await self._outbox.settle(within_s)
            except Exception:
                log.exception("could not check what the outbox still holds")
        try:
            while self._background:
                remaining = None if deadline is None else deadline - loop.time()
                if remaining is not None and remaining <= 0:
                    break
                await asyncio.wait(list(self._background), timeout=remaining)
        finally:  # also when the wait itself is cut short
            late = list(self._background)
            if late:
                log.warning("%d memory write(s) still running at the end of the grace; cancelled them", len(late))
                for task in late:
                    task.cancel()
                await asyncio.wait(late)


def _for_model(turn: ChatTurn, in_group: bool, max_chars: int) -> ChatTurn:
    if len(turn.text) > max_chars:  # stored before messages were capped
        turn = replace(turn, text=turn.text[:max_chars] + " […]")
    if in_group and turn.role == "user" and turn.author_name:
        return replace(turn, text=f"{turn.author_name}: {turn.text}")
    return turn


def _cut_note(cleaned: CleanText, max_chars: int) -> str:
    return (
        f"\n\n(Note: this message was {cleaned.original_chars} characters long; only its first {max_chars} "
        "are shown. Say so if the rest matters.)"
    )
