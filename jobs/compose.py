"""Writing one unprompted message: the language model with a few recalled memories, else a fixed template."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.language import LANGUAGE_NAMES
from bot.engine.model import DM_SCOPE, ChatTurn, RecallQuery, UserProfile, without_sensitive
from bot.engine.persona import Persona
from bot.engine.ports import CompletionRequest, LanguageModel, LongTermMemory, MoodState
from bot.engine.tone import feels_heavy
from bot.errors import LLMUnavailable
from jobs.templates import template, template_keys

log = logging.getLogger(__name__)
# How far back a hard time softens an unprompted message: a check-in (sent after days of silence) the week of
# a loss, a birthday note after a heavy week.
_HEAVY_WITHIN = {"checkin": timedelta(days=7), "birthday_self": timedelta(days=7)}
_HEAVY_DEFAULT = timedelta(days=3)
_GENTLE = (
    "Their last days have been hard (something painful came up, or they have sounded low): be gentle and "
    "quiet. No cheerfulness, no exclamation marks, no questions that push, no party talk; a soft word that "
    "you are thinking of them is enough. Never mention moods or what they told you about it."
)

@dataclass(frozen=True, slots=True)
class Occasion:
    """What an unprompted message is about."""

    template_key: str  # a key of `jobs.templates`
    brief: str  # the occasion in plain English, for the model
    recall_text: str  # what to look for in the person's memories
    what: str = ""  # the person's own words for it
    days: int = 0  # days until it (someone else's occasion announced ahead)
    on: date | None = None  # the occasion's date


def first_name(profile: UserProfile) -> str:
    """What to call them: the name they asked for as given, else the first word of their account name."""
    if profile.preferred_name.strip():
        return profile.preferred_name.strip()
    return profile.display_name.split()[0] if profile.display_name.strip() else ""


def fixed_text(occasion: Occasion, profile: UserProfile, language: str, *, gentle: bool = False) -> str:
    shown_date = occasion.on.strftime("%d/%m" if language == "fr" else "%B %d") if occasion.on else ""
    key = occasion.template_key
    if gentle and f"{key}_gentle" in template_keys():
        key = f"{key}_gentle"
    return template(
        key,
        language,
        name=first_name(profile),
        formal=profile.address_form == "vous",
        what=occasion.what,
        days=occasion.days,
        date=shown_date,
    )


class Composer:
    def __init__(
        self,
        *,
        llm: LanguageModel | None,
        memory: LongTermMemory | None,
        timeout: timedelta = timedelta(seconds=120),
        recall_limit: int = 5,
        persona: Persona | None = None,
        moods: MoodState | None = None,
    ) -> None:
        self._persona = persona
        self._moods = moods
        self._llm = llm
        self._memory = memory
        self._timeout_s = timeout.total_seconds()
        self._recall_limit = recall_limit

    async def compose(
        self, occasion: Occasion, profile: UserProfile, language: str, now: datetime, zone: str
    ) -> str:
        """The message body (without the AI disclosure). Never raises for a model or memory failure. Softer
        when the person's last days have been heavy."""
        gentle = await self._heavy(occasion, profile, now)
        if self._llm is None:
            return fixed_text(occasion, profile, language, gentle=gentle)
        try:
            async with asyncio.timeout(self._timeout_s):
                memories = await self._recall(occasion, profile, now, zone)
                request = _request(occasion, profile, language, now, zone, memories, self._persona, gentle=gentle)
                text = _clean(await self._llm.complete(request))
        except LLMUnavailable as exc:
            log.warning("LLM unavailable for an unprompted message to %s: %s", profile.user_key, exc)
            text = ""
        except TimeoutError:
            log.warning("LLM too slow for an unprompted message to %s; using the template", profile.user_key)
            text = ""
        except Exception:
            log.exception("LLM failed for an unprompted message to %s; using the template", profile.user_key)
            text = ""
        return text or fixed_text(occasion, profile, language, gentle=gentle)

    async def _heavy(self, occasion: Occasion, profile: UserProfile, now: datetime) -> bool:
        if self._moods is None:
            return False
        try:
            snapshot = await self._moods.mood_snapshot(profile.user_key)
        except Exception:
            log.exception("could not read the mood of %s for an unprompted message", profile.user_key)
            return False
        return feels_heavy(snapshot, now, _HEAVY_WITHIN.get(occasion.template_key, _HEAVY_DEFAULT))

    async def _recall(self, occasion: Occasion, profile: UserProfile, now: datetime, zone: str) -> list[str]:
        if self._memory is None:
            return []
        query = RecallQuery(
            user_key=profile.user_key,
            text=occasion.recall_text,
            at=now,
            scopes=(DM_SCOPE,),
            timezone=zone,
            limit=self._recall_limit,
            max_words=150,
        )
        try:
            found = await self._memory.recall(query)
        except Exception:
            # A memory outage makes the message less personal; it must not stop it.
            log.exception("recall failed for an unprompted message to %s", profile.user_key)
            return []
        # Painful topics are theirs to raise: never brought up unprompted.
        return [f"({m.kind}) {m.text}" for m in without_sensitive(found)]


def _request(
    occasion: Occasion,
    profile: UserProfile,
    language: str,
    now: datetime,
    zone: str,
    memories: list[str],
    persona: Persona | None,
    *,
    gentle: bool = False,
) -> CompletionRequest:
    local = now.astimezone(ZoneInfo(zone))
    name = first_name(profile) or "them"
    known = "\n".join(f"- {m}" for m in memories) or "- (nothing relevant)"
    # The same voice as in conversation: the persona, when the app gives one.
    voice = "You are an AI companion who remembers what people share with you. "
    if persona is not None:
        voice = persona.voice(first_name(profile)) + "\n\n"
    system = (
        voice + "You are writing FIRST, "
        f"unprompted, in a private chat with {name}.\n"
        f"Why you are writing: {occasion.brief}\n"
        f"Their local time: {local:%A %H:%M}.\n"
        "What you remember about them (may be partial; use at most one or two details that truly fit, "
        "woven in naturally — never list them, never say 'I remember that', never invent facts):\n"
        f"{known}\n"
        + (_GENTLE + "\n" if gentle else "")
        + "Take their recent mood into account. Write ONE short message (1 to 3 sentences) in "
        f"{LANGUAGE_NAMES.get(language, 'English')}, warm and specific, like a friend texting. "
        "No preamble, no quotes around it, no signature, no hashtags."
        + _addressing(profile)
    )
    turns = (ChatTurn("user", "(Write the message now.)", now),)
    return CompletionRequest(system=system, turns=turns, max_tokens=200, temperature=0.8)


def _addressing(profile: UserProfile) -> str:
    """How they asked to be addressed: pronouns, and tu or vous in French."""
    parts = []
    if profile.pronouns:
        parts.append(f" Their pronouns: {profile.pronouns}.")
    if profile.address_form == "vous":
        parts.append(" In French, say « vous » to them, never « tu ».")
    elif profile.address_form == "tu":
        parts.append(" In French, say « tu » to them.")
    return "".join(parts)


def _clean(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'“”«»":
        text = text[1:-1].strip()
    return text
