"""The conversation engine: one incoming message in, one reply out.

Short-term context from the conversation window, recall from long-term memory, persona, the person's
local time and language, one LLM call. Memory writing happens after the reply: through the durable
outbox when there is one (written before the reply is returned), else as an in-process background task.
What a reply reads is in `bot.engine.conversation.reads`; how it is put together, in `...conversation.reply`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.conversation.addressing import with_addressing
from bot.engine.conversation.inbox import Inbox
from bot.engine.conversation.locks import InProcessConversationLocks
from bot.engine.conversation.message_text import CleanText, clean_message_text
from bot.engine.conversation.outbox import Outbox
from bot.engine.conversation.pseudonymous import pseudonymous_message
from bot.engine.conversation.rate_limit import Admission, RateLimiter
from bot.engine.conversation.reads import Read, RecallLimits, ReplyReads
from bot.engine.conversation.reply import ReplyPlan, model_turns, prompt_context, shown_reply, with_picture
from bot.engine.conversation.seen import seen_profile
from bot.engine.conversation.writes import ExchangeWrites
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.metrics import EngineMetrics, NoMetrics
from bot.engine.model import (
    ChatKind,
    ChatTurn,
    Exchange,
    IncomingMessage,
    RecalledMemory,
    Reply,
    UserProfile,
)
from bot.engine.noop import NoErasureFence, NoIdentities, NoReplyTrail
from bot.engine.ports import (
    Clock,
    CompletionRequest,
    ConversationLocks,
    ConversationWindow,
    CrisisReader,
    DatedEvents,
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
)
from bot.engine.prompt.budget import fit_prompt
from bot.engine.prompt.card import name_of
from bot.engine.prompt.in_window import said_before
from bot.engine.prompt.person import after_pause, not_in_block, person_block
from bot.engine.prompt.person_model import PersonModels, Source
from bot.engine.prompt.persona import Persona
from bot.engine.prompt.tone import tone_guidance
from bot.engine.safety.age import with_stated_age
from bot.engine.safety.crisis import read_crisis
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.engine.safety.rules import SafetyOptions, assess_safety
from bot.engine.texts.language import detect_language, reply_language
from bot.engine.texts.pictures import say_picture
from bot.engine.texts.say import say
from bot.engine.when.city_zones import Cities
from bot.errors import ConversationLockLost, LLMUnavailable

log = logging.getLogger(__name__)

_CRISIS_FOLLOW_UP = timedelta(hours=6)  # how long the model's reading of a crisis still shapes the next reply
# Turns handed to long-term memory with each exchange, so a message is stored with what it answered.
_CONTEXT_TURNS = 4
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
        self._claims = claims
        self._profiles = profiles
        self._persona = persona
        self._clock = clock
        self._options = options
        self._fence = fence or NoErasureFence()
        self._metrics = metrics or NoMetrics()
        self._locks = locks or InProcessConversationLocks()
        self._identities = identities or NoIdentities()
        self._pseudonyms = pseudonyms  # None: stores are keyed by the platform ids themselves
        self._pictures = pictures  # None: the model is not told it can send pictures
        self._reads = ReplyReads(
            window=window, memory=memory, dated_events=dated_events, persona=persona,
            limits=RecallLimits(options.recall_limit, options.recall_max_words, options.context_tokens),
            metrics=self._metrics, moods=moods, sensitive=sensitive,
            crisis_reader=crisis_reader,  # None: the phrase cues alone read a crisis
            cities=cities,  # None: "I live in Lyon" offers no time zone
            person_models=person_models,  # None: no person model in the prompt
        )  # fmt: skip
        self._writes = ExchangeWrites(
            window=window, profiles=profiles, memory=memory, planner=planner, outbox=outbox,
            fence=self._fence, trail=trail or NoReplyTrail(),
        )  # fmt: skip
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
        await self._writes.hand_over(Exchange(message, unanswered, zone, language, (), erasure_epoch=epoch))
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
        self._writes.in_background(self._reads.prepare_recall(message.text))
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
        profile, learnt = await self._told_profile(message)
        zone = profile.timezone or self._options.default_timezone
        local_now = now.astimezone(ZoneInfo(zone))
        in_group = message.chat_kind is ChatKind.GROUP
        read = await self._reads.read(message, profile, zone, now, local_now)
        plan = self._plan(message, profile, read, now, local_now)
        language, safety = plan.language, plan.safety
        user_turn = ChatTurn("user", message.text, message.sent_at, message.user.key, message.user.display_name)
        context = prompt_context(
            self._persona, message, profile, safety, local_now=local_now, zone=zone, language=language,
            in_group=in_group, memories=plan.memories, person=plan.person.text, occasions=read.occasions,
            lore=read.lore, tone=plan.tone, context_tokens=self._options.context_tokens,
            pictures=self._pictures is not None, picture_of=picture_of,
        )  # fmt: skip
        limit = self._options.max_message_chars
        turns = model_turns(read.history, user_turn, cleaned, in_group=in_group, max_chars=limit)
        # Within SOUVENIR_LLM_CONTEXT_TOKENS: oldest history first, then memories; the persona stays.
        system, turns = fit_prompt(context, turns, self._options.context_tokens, _REPLY_TOKENS)
        text, fallback = await self._complete(system, turns, message.conversation_id)
        written = await with_picture(
            self._pictures, text, fallback=fallback, message=message, language=language, day=local_now.date(),
            in_group=in_group, safety=safety, picture_of=picture_of,
        )  # fmt: skip
        shown = shown_reply(
            written, profile, safety, fallback=fallback, language=language, offer=read.offer,
            disclosure=self._options.disclosure, now=now,
        )  # fmt: skip
        if safety.lines:
            self._metrics.crisis_detected(safety.level.label, language)  # a count, nothing of who or what

        # Neither a fallback apology nor the disclosure is conversation the model should see next time.
        new_turns = [user_turn] if fallback else [user_turn, ChatTurn("assistant", written.said, now)]
        seen, changed = seen_profile(
            shown.profile, message, now, language, disclosed=shown.disclosed, safety=safety,
            crisis_answered=plan.crisis_hinted, learnt=(*learnt, *shown.offered),
        )  # fmt: skip
        drawn: list[RecalledMemory | Source] = [] if fallback else [*plan.memories, *plan.person.sources]
        history = tuple(read.history[-_CONTEXT_TURNS:])
        exchange = Exchange(message, shown.reply, zone, language, history, erasure_epoch=epoch)
        await self._writes.keep(exchange, epoch, new_turns, fence, seen, changed, drawn, now)
        return shown.reply

    async def _told_profile(self, message: IncomingMessage) -> tuple[UserProfile, tuple[str, ...]]:
        """The person's profile with what this message tells of them, used from this reply on ("My name is
        Alice", "call me Max", "on peut se tutoyer", "I'm 16"), and the fields that changed."""
        profile = await self._profiles.load_profile(message.user.key)
        profile, learnt = with_addressing(profile, message.text)
        profile, learnt_age = with_stated_age(profile, message.text)
        return profile, (*learnt, *learnt_age)

    def _plan(
        self, message: IncomingMessage, profile: UserProfile, read: Read, now: datetime, local_now: datetime
    ) -> ReplyPlan:
        """How this message is to be answered: the language, the tone, what is known of the person, and the
        safety rules this reply keeps."""
        in_group = message.chat_kind is ChatKind.GROUP
        # Chosen with /language, it stays; else it follows what they write, this message weighed with their last.
        language = reply_language(
            message.text, said_before(read.history, message.user.key),
            chosen=profile.language if profile.language_chosen else None, last_reply=profile.language,
            hint=message.language_hint, default=self._options.default_language,
        )  # fmt: skip
        # How they feel is theirs: tone guidance in private chats only.
        pained = not in_group and self._reads.touches_pain(message.text)
        tone = "" if in_group else tone_guidance(read.mood, local_now, sensitive_now=pained)
        who = name_of(profile.preferred_name or message.user.display_name, "the person")
        resumed = after_pause(profile.last_seen_at, now, self._options.thread_pause)
        person = person_block(read.known, who, language, local_now.date(), with_thread=resumed)
        memories = not_in_block(read.memories, person)  # the block quotes them already
        # The model's reading of an earlier message adds to the offline one: this reply answers as to a crisis.
        hinted = profile.crisis_noted_at is not None and now - profile.crisis_noted_at <= _CRISIS_FOLLOW_UP
        safety = assess_safety(
            read_crisis(message.text, read.learned), profile, message.chat_kind, now, who, language,
            self._options.safety, crisis_hint=hinted,
        )  # fmt: skip
        return ReplyPlan(language, tone, person, memories, hinted, safety)

    async def _complete(self, system: str, turns: tuple[ChatTurn, ...], conversation_id: str) -> tuple[str, bool]:
        """The model's reply, and whether it gave none (the person gets the fallback apology then)."""
        try:
            text = (await self._llm.complete(CompletionRequest(system=system, turns=turns))).strip()
            return text, not text
        except LLMUnavailable as exc:
            # The provider already logged the failure for the operator; this notes what the person got.
            log.info("answered with the fallback in %s: %s", conversation_id, exc)
        except Exception:
            log.exception("LLM call failed unexpectedly for a message in %s", conversation_id)
        return "", True

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

    async def remember(self, exchange: Exchange) -> None:
        """What an answered exchange leaves behind (`ExchangeWrites.remember`). The outbox worker calls this for
        each entry; a failure raises, so the entry is retried."""
        await self._writes.remember(exchange)

    async def remember_all(self, exchanges: Sequence[Exchange]) -> None:
        """`remember` for several queued exchanges at once, in order."""
        await self._writes.remember_all(exchanges)

    async def settle_writes(self, within_s: float) -> bool:
        """Wait up to `within_s` seconds for this process's memory writes, cancelling none (`ExchangeWrites.settle`)."""
        return await self._writes.settle(within_s)

    async def drain(self, within_s: float | None = None) -> None:
        """Wait for memory writes, cancelling those still running after `within_s` (`ExchangeWrites.drain`)."""
        await self._writes.drain(within_s)
