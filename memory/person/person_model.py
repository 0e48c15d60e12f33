"""The person model, by rules over the memories extraction already made (no model call).

From the person's current facts (superseded ones never count: "lives in Lyon", never Paris), their dated
events and their painful topics, the few lines a friend would simply know (`bot.engine.prompt.person_model`):
their name, where they live, work or studies, the people and animals in their life with their names, what
they love and dislike, what is coming up, what is painful (only as "be gentle about …") and the times that
are hard for them (as tone). Newest first: when two facts say the same kind of thing, the newer one speaks.
The thread of the last conversation is the person's last few messages that said something, or, with the LLM
extraction on, the model's gist of where it stood (`memory.writing.thread_gist`), which it prefers.

Pure functions over records: `memory.person.person_model_keeper` reads the records and keeps the result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.engine.prompt.person_model import (
    ABOUT,
    DISLIKES,
    GENTLE,
    HOME,
    LIKES,
    NAME,
    NOW,
    PERSON,
    ROUTINE,
    WORK,
    PersonLine,
    PersonModel,
    Source,
    ThreadLine,
)
from bot.engine.when.relative_time import next_yearly
from memory.person.person_values import gentle_topic, gist, has_content, like_value, role, short_quote, worth_a_line
from memory.recall.worth_showing import content_words, says_something
from memory.records import MemoryKind, MemoryRecord
from memory.writing.episodes import shown_text
from memory.writing.extraction.candidates import TOPIC
from memory.writing.extraction.dated import describe_event
from memory.writing.extraction.lexicon import PETS, RELATIONS, SENSITIVE
from memory.writing.extraction.named import named_people
from memory.writing.fading import is_digest
from memory.writing.thread_gist import GIST

_KEPT = {NAME: 1, HOME: 1, WORK: 2, PERSON: 8, NOW: 3, GENTLE: 2, ROUTINE: 2, LIKES: 5, DISLIKES: 3, ABOUT: 2}
_AHEAD = timedelta(days=60)  # a dated event this close is "going on now"
# A life event is on a friend's mind long before: a sister's wedding in June, a baby due in autumn, a move.
_LIFE_EVENTS = frozenset({"wedding", "mariage", "due date", "accouchement", "graduation", "remise des diplômes",
                          "move", "déménagement", "surgery", "opération"})  # fmt: skip
_LIFE_EVENT_AHEAD = timedelta(days=200)
_YEARLY_AHEAD = timedelta(days=14)  # a birthday or anniversary only when it is near
THREAD_MESSAGES = 2
_THREAD_WORDS = 18
_GENTLE_WORDS = 10
_MAX_VALUE_WORDS = 20
_WORK = re.compile(
    r"\b(?:work(?:s|ing)?|job|career|shifts?|office|colleagues?|boss|stud(?:y|ies|ying)|student|school|"
    r"university|uni|college|degree|phd|nurse|doctor|teacher|engineer|developer|designer|chef|lawyer|"
    r"internship|intern|residency|apprenticeship|year of|teach\w*|taught|tutor\w*|stage|stagiaire|alternance|"
    r"thèse|année de|enseign\w*|instit\w*|(?:donne|donner) des cours|lycée|collège|"
    r"travaille\w*|boulot|métier|emploi|poste|bureau|collègues?|étudi\w*|fac|école|université|master|licence|"
    r"infirmi\w*|médecin|prof\w*|ingénieu\w*|développeu\w*|avocat\w*|retraité\w*)\b",
    re.I,
)
_TEACHING = re.compile(r"\b(?:teach\w*|enseign\w*)\b", re.I)
# "lives in Lyon" as a model writes the fact (the person's own "I live in" is labelled home on extraction).
_LIVES_IN = re.compile(
    r"\b(?i:lives?|living|moved|habite|vit|a déménagé|s'est installée?)\s+(?i:now |maintenant |désormais )?"
    r"(?i:in|to|à|a|en|au|aux)\s+(?P<place>[A-ZÀ-Ý][\w' -]{1,40}?)(?=[,.;!?]|$| with| avec| near| près)",
)


# When a place was moved to, said after it: "Lyon last month", « Lyon depuis deux ans ».
_PLACE_END = re.compile(
    r"\s+(?:last|this|next|since|for|a few|recently|ago|yesterday|two|three|with|near|depuis|le mois|l'an|"
    r"l'année|la semaine|il y a|cette|ce mois|récemment|hier|avec|près)\b.*$",
    re.I,
)


# Facts as a model writes them, in the third person: "Léa has a cat named Miso", "Her sister Claire…",
# « Sa sœur Claire… », « Léa a un chat qui s'appelle Miso ».
_THEIR_NAMED = re.compile(
    rf"\b(?:(?i:has|have|a)\s+(?i:a|an|un|une)\s+(?P<who>(?i:{RELATIONS}|{PETS}))\s+(?i:named|called|"
    r"qui s'appelle|nommée?|prénommée?)|(?i:her|his|their|sa|son)\s+(?P<who2>(?i:" + RELATIONS + "|" + PETS + r"))"
    r"|[A-ZÀ-Ý][\w-]+'s\s+(?P<who3>(?i:" + RELATIONS + "|" + PETS + r")))"
    r",?\s+(?P<name>[A-ZÀ-Ý][a-zà-ÿ-]+)\b"
)


_ARTICLE = re.compile(r"^(?:Les|Le|La|L')(?=\s|(?<=')\w)")


def _people(text: str) -> list[tuple[str, str]]:
    """(name, relation) of the people and animals a fact names."""
    found = named_people(text)
    for m in _THEIR_NAMED.finditer(text):
        found.append((m["name"], (m["who"] or m["who2"] or m["who3"]).lower()))
    return found


def _place(text: str) -> str:
    return _PLACE_END.sub("", text)


def _source(record: MemoryRecord) -> Source:
    return Source(record.memory_id, record.kind.value, shown_text(record), record.created_at)


def _clean(text: str) -> str:
    """A value as the block shows it: one line, no angle brackets (the block is data), not too long."""
    words = text.replace("<", " ").replace(">", " ").split()
    return " ".join(words[:_MAX_VALUE_WORDS]).strip(" .!\"'«»")


class _Lines:
    """Lines gathered newest first; one value once (its sources gathered), a few per aspect."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str], PersonLine] = {}
        self._counts: dict[str, int] = {}

    def add(self, aspect: str, value: str, record: MemoryRecord, *, relation: str = "", on: date | None = None) -> None:
        value = _clean(value)
        if not value:
            return
        key = (aspect, value.casefold() if aspect != PERSON else f"{value.casefold()}|{relation.casefold()}")
        if key in self._lines:
            line = self._lines[key]
            if record.memory_id not in line.memory_ids:
                self._lines[key] = PersonLine(line.aspect, line.value, (*line.sources, _source(record)),
                                              line.relation, line.on)  # fmt: skip
            return
        if self._counts.get(aspect, 0) >= _KEPT[aspect]:
            return
        self._counts[aspect] = self._counts.get(aspect, 0) + 1
        self._lines[key] = PersonLine(aspect, value, (_source(record),), relation, on)

    def has(self, aspect: str) -> bool:
        return self._counts.get(aspect, 0) > 0

    def lines(self) -> tuple[PersonLine, ...]:
        return tuple(self._lines.values())


def _semantic(record: MemoryRecord, lines: _Lines) -> None:
    text = shown_text(record)
    topic = record.attributes.get(TOPIC, "")
    people = _people(text)
    for name, relation in people:
        lines.add(PERSON, name, record, relation=relation)
    if record.label == "relationship":
        return
    if SENSITIVE.search(text):
        if (painful := gentle_topic(text, record.language)) is not None:
            lines.add(GENTLE, painful, record)  # "my dad has cancer": gentleness, never a plain fact
            return
        # "painting is like therapy for me": a painful word in a sentence that is not; read as any other
    if record.label == "family" and record.subject:
        lines.add(PERSON, record.subject, record)  # "my husband and I": someone in their life, name untold
    elif record.label == "name" and topic:
        lines.add(NAME, topic, record)
    elif record.label == "home":
        if topic and not lines.has(HOME):  # one home: the newest
            lines.add(HOME, _place(topic), record)
    elif record.label in ("likes", "dislikes"):
        if topic and (thing := like_value(topic)) is not None:
            lines.add(LIKES if record.label == "likes" else DISLIKES, thing, record)
    elif (lives := _LIVES_IN.search(text)) is not None:
        if not lines.has(HOME):
            lines.add(HOME, _place(lives["place"]), record)
    elif (job := role(text)) is not None:
        lines.add(WORK, job, record)
    elif _WORK.search(text):
        if has_content(text, 2 if _TEACHING.search(text) else 3):  # « j'enseigne le français » says enough
            lines.add(WORK, short_quote(text), record)
    elif not people and says_something(text) and worth_a_line(text):
        lines.add(ABOUT, short_quote(text), record)


def _emotional(record: MemoryRecord, lines: _Lines) -> None:
    text = shown_text(record)
    flagged = record.label == "sensitive" or record.attributes.get("sensitive") == "true"
    if SENSITIVE.search(text):
        if (painful := gentle_topic(text, record.language)) is not None:
            lines.add(GENTLE, painful, record)
    elif flagged:
        lines.add(GENTLE, short_quote(text, _GENTLE_WORDS), record)  # a model judged it painful
    elif record.label == "hard times" and (when := record.attributes.get(TOPIC)):
        lines.add(ROUTINE, _ARTICLE.sub(lambda m: m[0].lower(), when), record)  # « Les dimanches » mid-line


def _temporal(record: MemoryRecord, lines: _Lines, today: date) -> None:
    if not record.local_date:
        return
    try:
        on = date.fromisoformat(record.local_date)
    except ValueError:
        return
    if record.recurrence == "yearly":
        on = next_yearly(on.month, on.day, today)
        if on - today > _YEARLY_AHEAD:
            return
    elif not today <= on <= today + (_LIFE_EVENT_AHEAD if record.label in _LIFE_EVENTS else _AHEAD):
        return
    lines.add(NOW, describe_event(record.label or "event", record.subject, record.language), record, on=on)


def build_person_model(
    user_key: str, facts: Sequence[MemoryRecord], episodes: Sequence[MemoryRecord], at: datetime, timezone: str
) -> PersonModel:
    """The model from the person's private memories, newest first: facts (semantic, emotional, temporal) and
    their latest messages (for the thread). Superseded and group memories are left out."""
    today = at.astimezone(ZoneInfo(timezone)).date()
    lines = _Lines()
    for record in facts:
        if record.scope != "dm" or not record.is_current(at):
            continue
        if record.kind is MemoryKind.SEMANTIC:
            _semantic(record, lines)
        elif record.kind is MemoryKind.EMOTIONAL:
            _emotional(record, lines)
        elif record.kind is MemoryKind.TEMPORAL:
            _temporal(record, lines, today)
    thread = _thread(episodes, at)
    told = _model_gist(episodes, at, thread)
    if told is not None:  # the model's gist of where it stood, over the person's own last words
        return PersonModel(user_key, at, _named_first(lines.lines()),
                           (ThreadLine(_clean(told.attributes[GIST]), _source(told), gist=True),), told.created_at)
    return PersonModel(
        user_key, at, _named_first(lines.lines()),
        tuple(ThreadLine(gist(shown_text(r), _THREAD_WORDS), _source(r)) for r in thread),
        thread[-1].created_at if thread else None,
    )


def _named_first(lines: tuple[PersonLine, ...]) -> tuple[PersonLine, ...]:
    """"husband" said without a name is left out once their name is known ("Tom (husband)")."""
    named = {line.relation.casefold() for line in lines if line.aspect == PERSON and line.relation}
    return tuple(line for line in lines if not (line.aspect == PERSON and not line.relation
                                                and line.value.casefold() in named))  # fmt: skip


def _repeats(text: str, said: Sequence[MemoryRecord]) -> bool:
    """Says nothing a message already in the thread did not ("Remember, just do it!" twice)."""
    words = set(content_words(text))
    return any(words <= set(content_words(shown_text(r))) for r in said)


def _pickable(record: MemoryRecord, at: datetime) -> bool:
    """A private message of the person's that may be the thread: current, not a digest, nothing painful."""
    return (record.kind is MemoryKind.EPISODIC and record.scope == "dm" and not is_digest(record)
            and record.is_current(at) and not SENSITIVE.search(shown_text(record)))  # fmt: skip


def _model_gist(episodes: Sequence[MemoryRecord], at: datetime, thread: Sequence[MemoryRecord]) -> MemoryRecord | None:
    """The newest message the model gave a gist of, when it is of the last conversation: the newest message
    that said something, or newer (an older gist may be of an earlier conversation)."""
    for record in episodes:
        if not _pickable(record, at) or not (told := record.attributes.get(GIST)) or SENSITIVE.search(told):
            continue
        return record if not thread or record.created_at >= thread[-1].created_at else None
    return None


def _thread(episodes: Sequence[MemoryRecord], at: datetime) -> list[MemoryRecord]:
    """The person's last messages that said something (not "ok", "ttyl", "have a good one!"), oldest first."""
    said: list[MemoryRecord] = []
    for record in episodes:
        if not _pickable(record, at):
            continue  # a painful topic is for gentleness only, never the thread to pick up
        text = shown_text(record)
        if says_something(text) and has_content(text, 3) and not _repeats(text, said):
            said.append(record)
        if len(said) == THREAD_MESSAGES:
            break
    return said[::-1]
