"""Plain values that cross the engine's boundary.

Every adapter normalises its platform's update into an `IncomingMessage`; the engine answers with a
`Reply`. Nothing here knows about Discord, Telegram, Redis or Qdrant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Literal

from bot.engine.media.pictures import Picture
from bot.engine.media.voice_note import VoiceNote

Role = Literal["user", "assistant"]


class ChatKind(StrEnum):
    PRIVATE = "private"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person on one platform. `key` is the identity every store is partitioned by: the account's own
    key, or, once the account is linked with one on another platform (/link), the person's key — set by
    the engine where messages and commands come in (`person_key`), never by adapters."""

    platform: str  # "telegram" | "discord" | "terminal"
    user_id: str
    display_name: str = ""
    person_key: str = ""  # "": not resolved yet, or the account is the person

    @property
    def account_key(self) -> str:
        """This platform account, whoever it belongs to: where a message to it is delivered."""
        return f"{self.platform}:{self.user_id}"

    @property
    def key(self) -> str:
        return self.person_key or self.account_key


DM_SCOPE = "dm"


def dm_conversation_id(user: UserRef) -> str:
    """The conversation id of a person's private chat with the bot, the same on every platform."""
    return f"{user.platform}:dm:{user.user_id}"


def group_conversation_id(platform: str, chat_id: str) -> str:
    return f"{platform}:chat:{chat_id}"


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    user: UserRef
    conversation_id: str  # platform-qualified, e.g. "telegram:12345" or "discord:987"
    message_id: str  # the platform's id for this message, unique within the conversation
    text: str
    sent_at: datetime  # timezone-aware UTC
    chat_kind: ChatKind = ChatKind.PRIVATE
    language_hint: str | None = None  # e.g. Telegram's `language_code`, Discord's locale
    reply_to_message_id: str | None = None
    by_voice: bool = False  # the text is the transcript of a voice note the person sent

    @property
    def scope(self) -> str:
        """Where a memory made from this message may surface again: "dm", or "group:<conversation>"."""
        if self.chat_kind is ChatKind.PRIVATE:
            return DM_SCOPE
        return f"group:{self.conversation_id}"

    @property
    def dedup_key(self) -> str:
        return f"{self.conversation_id}:{self.message_id}"


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    language: str  # "en" | "fr"
    disclosed: bool = False  # carries the AI disclosure
    fallback: bool = False  # the LLM failed; this is the kind fallback text
    crisis: bool = False  # the message read as a crisis: the reply carries crisis lines
    voice: VoiceNote | None = None  # the text spoken, when the person asked for voice replies (/voice on)
    picture: Picture | None = None  # a photo to send, with `text` as its caption (`bot.engine.media.picture_reply`)


@dataclass(frozen=True, slots=True)
class ChatTurn:
    role: Role
    text: str
    at: datetime
    author_key: str | None = None  # who wrote a user turn (group chats hold several people)
    author_name: str = ""


@dataclass(frozen=True, slots=True)
class MonthDay:
    """A yearly date such as a birthday; the year is optional (people rarely give it)."""

    month: int
    day: int
    year: int | None = None

    def __post_init__(self) -> None:
        # Validate against a leap year so 29 February is allowed, 30 February is not.
        date(self.year or 2000, self.month, self.day)

    def isoformat(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-{self.day:02d}" if self.year else f"--{self.month:02d}-{self.day:02d}"

    @classmethod
    def parse(cls, text: str) -> MonthDay:
        if text.startswith("--"):
            month, day = text[2:].split("-")
            return cls(int(month), int(day))
        year, month, day = text.split("-")
        return cls(int(month), int(day), int(year))


@dataclass(frozen=True, slots=True)
class UserProfile:
    """What the companion keeps about a person outside of memories: settings and bookkeeping."""

    user_key: str
    display_name: str = ""
    preferred_name: str = ""  # "My name is Alice", "call me Max" or /profile name: wins over display_name
    timezone: str | None = None  # IANA name; None means the configured default
    language: str | None = None  # "en" | "fr"
    language_chosen: bool = False  # set with /language: the language no longer follows what they write
    birthday: MonthDay | None = None
    checkins: bool = False  # unprompted check-ins are opt-in
    birthday_wishes: bool = True  # birthdays are on by default
    reachable: bool = True  # False once the platform says the user blocked the bot
    share_dm_memories_in_groups: bool = False
    first_seen_at: datetime | None = None
    last_seen_at: datetime | None = None
    last_disclosed_at: datetime | None = None
    # How they want to be addressed: said in conversation ("call me Max", "on peut se tutoyer") or /profile.
    pronouns: str = ""
    address_form: str | None = None  # "tu" | "vous": how to say "you" to them in French
    # Safety (bot.engine.safety.content_policy, bot.engine.safety.breaks): the age they gave (/age or said), when their
    # continued conversation began and when they were last reminded to take a break.
    age: int | None = None
    talk_started_at: datetime | None = None
    break_reminded_at: datetime | None = None
    crisis_noted_at: datetime | None = None  # the LLM read a crisis in a message: the next reply answers as to one
    # The last message read as a crisis (by any reading): for a week, unprompted messages are gentle check-ins
    # only, and the next private reply still carries the crisis guidance (`bot.engine.safety.rules`).
    last_crisis_at: datetime | None = None
    crisis_followed_up: bool = False  # the private reply after that crisis carried the guidance too
    # The age was set with /age (an adult age counts only then; what is said in conversation can only lower it).
    age_confirmed: bool = False
    # An adult /age asked while they are marked under 18: applied only when the same /age comes again soon.
    age_pending: int | None = None
    age_pending_at: datetime | None = None
    voice_replies: bool = False  # /voice on: replies and unprompted messages come as voice notes
    # "I live in Lyon" with no zone set: the reply offered the zone (/timezone Europe/Paris); offered once, ever.
    timezone_offered: bool = False


@dataclass(frozen=True, slots=True)
class RecallQuery:
    user_key: str
    text: str
    at: datetime  # the message time: relative dates in the question resolve against it
    scopes: tuple[str, ...] = (DM_SCOPE,)  # scopes the caller may see
    timezone: str = "UTC"
    limit: int = 10  # excerpts (a memory, or a few messages said one after the other); SOUVENIR_RECALL_LIMIT
    max_words: int = 300


@dataclass(frozen=True, slots=True)
class RecalledMemory:
    memory_id: str
    kind: str  # "episodic" | "semantic" | "emotional" | "temporal"
    text: str
    score: float = 0.0
    event_at: datetime | None = None
    # What the prompt needs to say, relative to the person's today, when it was said and when it happens.
    told_at: datetime | None = None  # when the person said it
    on: date | None = None  # temporal memories: the local date it happens (a yearly one: the day it was said for)
    precision: str = "day"  # of `on`: "day", "week", "month" or "year" ("next month")
    yearly: bool = False  # birthdays and anniversaries come back every year
    sensitive: bool = False  # a painful topic: never raised unprompted, never in a group
    # Said shortly after the memory before it in the list (at most one message between them), by the same
    # person in the same conversation: one excerpt of what they said ("We adopted a kitten." then "Her name
    # is Miso.").
    follows: bool = False


def excerpts(memories: Sequence[RecalledMemory]) -> list[list[RecalledMemory]]:
    """Recalled memories as the excerpts they form: each memory with those that follow it."""
    out: list[list[RecalledMemory]] = []
    for memory in memories:
        if memory.follows and out:
            out[-1].append(memory)
        else:
            out.append([memory])
    return out


def without_sensitive(memories: Sequence[RecalledMemory]) -> list[RecalledMemory]:
    """The memories of the excerpts that touch no painful topic: one painful message takes its excerpt with it
    (the messages around it speak of the same thing)."""
    return [m for excerpt in excerpts(memories) if not any(x.sensitive for x in excerpt) for m in excerpt]


@dataclass(frozen=True, slots=True)
class Exchange:
    """One user message and the companion's answer, handed to long-term memory after the reply."""

    message: IncomingMessage
    reply: Reply
    timezone: str
    language: str
    # The short-term window's last turns before this message, oldest first (both roles, as stored: a user
    # turn's `at` and `text` are its message's `sent_at` and `text`). Long-term memory indexes a message
    # with the one before it, and extends that one's index with this message.
    previous_turns: tuple[ChatTurn, ...] = ()
    # The person's erasure epoch when the message arrived: a write made from it after /forget all is undone.
    erasure_epoch: int | None = None


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """A memory as the person sees it in /memories and /export."""

    memory_id: str
    kind: str
    text: str
    created_at: datetime
    event_at: datetime | None = None
    scope: str = DM_SCOPE
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True, slots=True)
class MemoryPage:
    items: tuple[MemoryItem, ...]
    offset: int
    total: int


@dataclass(frozen=True, slots=True)
class DatedEvent:
    """A temporal memory the companion may write about unprompted (birthday, anniversary, dated event)."""

    memory_id: str
    user_key: str
    what: str  # short words for it in the user's language: "sister's wedding", "entretien d'embauche"
    on: date  # the local date it happens (for yearly ones, any past or future occurrence)
    yearly: bool  # birthdays and anniversaries repeat every year
    kind: str  # "birthday" | "anniversary" | "event"
    about: str | None = None  # whose: None for the user themself, else "sister", "Marc"…
    language: str = "en"
