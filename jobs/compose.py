"""Writing one unprompted message: the language model with a few recalled memories, else a fixed template."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.model import DM_SCOPE, RecallQuery, UserProfile, without_sensitive
from bot.engine.ports import LanguageModel, LongTermMemory, MoodState
from bot.engine.prompt.persona import Persona
from bot.engine.prompt.tone import feels_heavy
from bot.engine.when.memory_when import with_relative_date
from bot.errors import LLMUnavailable
from jobs.after_crisis import week_after_crisis
from jobs.compose_prompt import unprompted_request
from jobs.no_pressure import pressing
from jobs.templates import template, template_keys
from jobs.unprompted import Occasion, first_name

__all__ = ["Composer", "Occasion", "first_name", "fixed_text"]

log = logging.getLogger(__name__)
# How far back a hard time softens an unprompted message: a check-in (sent after days of silence) the week of
# a loss, a birthday note after a heavy week.
_HEAVY_WITHIN = {"checkin": timedelta(days=7), "birthday_self": timedelta(days=7)}
_HEAVY_DEFAULT = timedelta(days=3)


def fixed_text(occasion: Occasion, profile: UserProfile, language: str, *, gentle: bool = False) -> str:
    shown_date = occasion.on.strftime("%d/%m" if language == "fr" else "%B %d") if occasion.on else ""
    key = occasion.template_key
    if (gentle or occasion.quiet) and f"{key}_gentle" in template_keys():
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

    async def compose(self, occasion: Occasion, profile: UserProfile, language: str, now: datetime, zone: str) -> str:
        """The message body (without the AI disclosure). Never raises for a model or memory failure. Softer
        when the person's last days have been heavy; only a quiet note the week after a crisis."""
        occasion = week_after_crisis(occasion, profile, now)
        gentle = occasion.quiet or await self._heavy(occasion, profile, now)
        if self._llm is None:
            return fixed_text(occasion, profile, language, gentle=gentle)
        try:
            async with asyncio.timeout(self._timeout_s):
                memories = await self._recall(occasion, profile, now, zone)
                request = unprompted_request(
                    occasion, profile, language, now, zone, memories, self._persona, gentle=gentle
                )
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
        if pressing(text):
            log.warning("the model's unprompted message to %s pressed them to come back; using the template",
                        profile.user_key)  # fmt: skip
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
        if self._memory is None or not occasion.recall_text:
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
        # Painful topics are theirs to raise: never brought up unprompted. A dated memory's calendar date is said
        # relatively ("Claire's wedding — in a month"), as in a reply's prompt: no date for the model to copy.
        local_now = now.astimezone(ZoneInfo(zone))
        return [with_relative_date(m, local_now) or m.text for m in without_sensitive(found)]


def _clean(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'“”«»":
        text = text[1:-1].strip()
    return text
