"""LLM extraction: asks the model for facts, dated events, preferences and emotions as one JSON object.

Local models break JSON in familiar ways, so the answer is repaired (`json_repair`), validated with pydantic,
and asked for once more when still unreadable. After that, or when the model is unavailable, the caller
keeps the offline extraction alone: this never raises.
"""

from __future__ import annotations

import logging
from datetime import date, datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.engine.model import ChatTurn
from bot.engine.mood import MoodLabel, MoodReading
from bot.engine.ports import CompletionRequest, LanguageModel
from bot.engine.when.dates import resolve_dates
from bot.errors import LLMUnavailable
from memory.records import MemoryKind
from memory.writing.extraction.candidates import Candidate, unique
from memory.writing.extraction.dated import describe_date, describe_event
from memory.writing.extraction.json_repair import parse_json_object
from memory.writing.extraction.lexicon import CHANGE, as_written
from memory.writing.extraction.whose import whose_yearly

log = logging.getLogger(__name__)

SYSTEM = """You extract long-term memories from one message a person wrote to their companion.
The message was written on {local_date} ({weekday}) in time zone {timezone}; the person writes in {language}.
Answer with ONE JSON object and nothing else, with these keys (empty lists when nothing applies):
{{"facts": [{{"text": "short statement about the person", "about": null or "sister"/"Marc"...,
  "replaces_old": true if it says something changed ("now", "anymore", "désormais", "plus")}}],
 "preferences": [{{"text": "short statement", "topic": "what", "likes": true or false}}],
 "events": [{{"what": "wedding", "about": null or "sister", "date": "YYYY-MM-DD", "yearly": true for
  birthdays and anniversaries}}],
 "emotions": [{{"text": "short statement of how they feel", "sensitive": true for grief, illness,
  breakups, mental health}}],
 "mood": {{"label": one of "joy", "calm", "sadness", "anxiety", "anger", "tiredness", "neutral" (how the
  message feels), "valence": -1 (very negative) to 1 (very positive), "intensity": 0 to 1}},
 "crisis": true only if the person speaks of wanting to die, of suicide or of hurting themselves (not idioms
  such as "this traffic is killing me"), else false,
 "gist": one short line, in the person's language, of where the conversation stands for them now, as a friend
  would pick it up next time (e.g. "they were nervous about Thursday's interview"), or null for small talk}}
Resolve relative dates ("next month", "jeudi") against the message date. Never invent dates: leave out
events without a real calendar date. Write the texts in the person's language. Keep only what is worth
remembering for weeks; small talk gives empty lists."""
GIST_WORDS = 30
_NO_GIST = {"", "null", "none", "n/a", "nothing", "rien", "aucun", "aucune"}
RETRY_NOTE = "Your previous answer was not one valid JSON object. Answer again with the JSON object only."


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class _Fact(_Lenient):
    text: str = Field(min_length=2, max_length=400)
    about: str | None = None
    replaces_old: bool = False


class _Preference(_Lenient):
    text: str = Field(min_length=2, max_length=400)
    topic: str | None = None
    likes: bool = True


class _Event(_Lenient):
    what: str = Field(min_length=2, max_length=80)
    about: str | None = None
    date: str
    yearly: bool = False


class _Emotion(_Lenient):
    text: str = Field(min_length=2, max_length=400)
    sensitive: bool = False


class _Mood(_Lenient):
    label: MoodLabel
    valence: float = Field(ge=-1.0, le=1.0)
    intensity: float = Field(ge=0.0, le=1.0)


class Extraction(_Lenient):
    facts: list[_Fact] = []
    preferences: list[_Preference] = []
    events: list[_Event] = []
    emotions: list[_Emotion] = []
    mood: _Mood | None = None
    crisis: bool = False  # the model's reading of suicidal ideation or self-harm: it can only add to the offline one
    gist: str | None = None  # where the conversation stands ("they were nervous about Thursday's interview")

    @field_validator("mood", mode="wrap")
    @classmethod
    def _mood_or_none(cls, value: object, handler):  # type: ignore[no-untyped-def]
        """A mood the model got wrong is dropped (the offline reading stands in), not the whole answer."""
        try:
            return handler(value)
        except ValidationError:
            return None

    @field_validator("gist", mode="before")
    @classmethod
    def _gist_or_none(cls, value: object) -> str | None:
        """A gist the model got wrong (not text, empty, "null") is dropped, not the whole answer."""
        return read_gist(value)


def read_gist(value: object) -> str | None:
    """The model's gist as one short line of text, or None: its first line, at most GIST_WORDS words, no
    angle brackets (it goes into a prompt as data)."""
    if isinstance(value, dict):
        value = value.get("text")
    if not isinstance(value, str):
        return None
    lines = [line for line in value.replace("<", " ").replace(">", " ").splitlines() if line.strip()]
    words = lines[0].split() if lines else []
    text = " ".join(words[:GIST_WORDS]).strip(" \"'«»")
    if text.casefold() in _NO_GIST or len(text) < 3:
        return None
    return text


def _event_date(raw: str, at: datetime, timezone: str, language: str) -> date | None:
    try:
        return date.fromisoformat(raw.strip()[:10])
    except ValueError:
        found = resolve_dates(raw, at, timezone, language)  # a model may answer "next Friday"
        return found[0].local_date if found else None


def _candidates(extraction: Extraction, at: datetime, timezone: str, language: str, text: str = "") -> list[Candidate]:
    out: list[Candidate] = []
    for fact in extraction.facts:
        change = fact.replaces_old or CHANGE.search(fact.text) is not None
        out.append(Candidate(MemoryKind.SEMANTIC, fact.text.strip(), "about", fact.about, 0.7, change=change))
    for pref in extraction.preferences:
        label = "likes" if pref.likes else "dislikes"
        out.append(Candidate(MemoryKind.SEMANTIC, pref.text.strip(), label, None, 0.6, topic=pref.topic))
    for emotion in extraction.emotions:
        label = "sensitive" if emotion.sensitive else "mood"
        importance = 0.8 if emotion.sensitive else 0.5
        out.append(Candidate(MemoryKind.EMOTIONAL, emotion.text.strip(), label, None, importance,
                             sensitive=emotion.sensitive))  # fmt: skip
    for event in extraction.events:
        day = _event_date(event.date, at, timezone, language)
        if day is None:
            continue  # impossible ("2026-02-30") or unreadable dates are not stored as dates
        about = event.about
        if event.yearly and about is None and (owner := whose_yearly(text)) is not None:
            if not owner.known:
                continue  # "her birthday", no one named: not the person's, and no one else's we can tell
            about = owner.subject  # "my grandmother Zoé … her birthday": Zoé's, whatever the model said
        label = as_written(event.what)
        what = describe_event(label, about, language)
        local_noon = datetime(day.year, day.month, day.day, 12, tzinfo=ZoneInfo(timezone))
        out.append(
            Candidate(
                MemoryKind.TEMPORAL,
                f"{what[0].upper()}{what[1:]} — {describe_date(day, 'day', event.yearly, language)}",
                label=label,
                subject=about,
                importance=0.9 if event.yearly else 0.8,
                local_date=day.isoformat(),
                recurrence="yearly" if event.yearly else None,
                event_at=local_noon.astimezone(at.tzinfo),
                precision="day",
            )
        )
    return unique(out)


class LlmExtractor:
    def __init__(self, llm: LanguageModel, *, max_tokens: int = 700) -> None:
        self._llm = llm
        self._max_tokens = max_tokens

    async def extract(
        self, text: str, at: datetime, timezone: str, language: str, *, mood_out: list[MoodReading] | None = None,
        crisis_out: list[bool] | None = None, gist_out: list[str] | None = None,
    ) -> list[Candidate] | None:
        """Candidates from the model, or None when it is unavailable or its answer stays unreadable. The mood
        the model read, if any, is appended to `mood_out` (the same call: no second one per message), True
        to `crisis_out` when it read a crisis, and its gist of where the conversation stands to `gist_out`."""
        local = at.astimezone(ZoneInfo(timezone))
        system = SYSTEM.format(
            local_date=local.date().isoformat(), weekday=local.strftime("%A"), timezone=timezone,
            language="French" if language == "fr" else "English",
        )  # fmt: skip
        turns: tuple[ChatTurn, ...] = (ChatTurn("user", text, at),)
        unreadable: Exception | None = None
        for attempt in range(2):
            request = CompletionRequest(system, turns, self._max_tokens, temperature=0.0, json_output=True)
            try:
                answer = await self._llm.complete(request)
            except LLMUnavailable as exc:
                log.info("memory extraction: model unavailable (%s); offline extraction only", exc)
                return None
            try:
                extraction = Extraction.model_validate(parse_json_object(answer))
                if mood_out is not None and extraction.mood is not None:
                    mood = extraction.mood
                    mood_out.append(MoodReading(mood.label, mood.valence, mood.intensity))
                if crisis_out is not None and extraction.crisis:
                    crisis_out.append(True)
                if gist_out is not None and extraction.gist is not None:
                    gist_out.append(extraction.gist)
                return _candidates(extraction, at, timezone, language, text)
            except (ValueError, ValidationError) as exc:
                log.debug("memory extraction: unreadable answer (attempt %d): %s", attempt + 1, exc)
                unreadable = exc
                turns = (*turns, ChatTurn("assistant", answer[:2000], at), ChatTurn("user", RETRY_NOTE, at))
        # One line per message at most (and the CLI's log filter holds back repeats within a minute).
        log.warning("memory extraction: the model did not answer with the JSON asked for (%s); offline "
                    "extraction only", _short(unreadable))  # fmt: skip
        return None


def _short(exc: Exception | None) -> str:
    """What went wrong, never what the model wrote (it holds the person's words): for a validation error,
    where and which check failed, not the input."""
    if isinstance(exc, ValidationError):
        found = exc.errors(include_url=False, include_input=False, include_context=False)
        text = "; ".join(f"{'.'.join(str(part) for part in e['loc'])}: {e['type']}" for e in found)
    else:
        text = str(exc)
    return " ".join(text.split())[:160]
