"""The person model: what a friend simply knows about someone, in every private reply's prompt.

Long-term memory builds it in the background after each write, by rules over the facts, dates and painful
topics it extracted (`memory.person.person_model`), and keeps it ready; a reply reads it in one store read. Each line
names the memories it came from, so forgetting one memory (or everything) takes the line with it, and
`/memories why` shows those memories when a reply drew on the block.

Lines are kept as what they say (an aspect and its values: a name, a city, a pet and its name) and put into
words here, in the person's language, when the prompt is built: "lives in Lyon", « habite à Lyon ».
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Protocol

# What a line says, in the order the block shows them (the first ones are kept when the block is too long).
# CALLED is no memory's: how they asked to be called and their pronouns, from their profile (`addressed`).
NAME, CALLED, HOME, WORK, PERSON, NOW, GENTLE, ROUTINE, LIKES, DISLIKES, ABOUT = (
    "name", "called", "home", "work", "person", "now", "gentle", "routine", "likes", "dislikes", "about",
)  # fmt: skip
ASPECTS = (NAME, CALLED, HOME, WORK, PERSON, NOW, GENTLE, ROUTINE, LIKES, DISLIKES, ABOUT)
MAX_WORDS = 120  # the whole block, labels included
_TOPIC_WORDS = 3  # a gentle line this short names the topic ("the breakup"); a longer one is their words
_ROLE_WORDS = 5  # a work line this short is a role ("nurse at Saint-Luc"), shown as words, not as a quote


@dataclass(frozen=True, slots=True)
class Source:
    """A memory a line came from, as `/memories why` shows it."""

    memory_id: str
    kind: str
    text: str
    told_at: datetime | None = None  # when it was said: recall's memories of the same message carry the same time


@dataclass(frozen=True, slots=True)
class PersonLine:
    aspect: str  # one of ASPECTS
    value: str  # the words: a name, a place, a topic, their own sentence
    sources: tuple[Source, ...]
    relation: str = ""  # PERSON: "sister", "dog", "chat"…; CALLED: their pronouns
    on: date | None = None  # NOW: the local date it happens

    @property
    def memory_ids(self) -> tuple[str, ...]:
        return tuple(s.memory_id for s in self.sources)

    @property
    def quotes_them(self) -> bool:
        """Shown as their own words (« … »), not as a name, a place or a topic."""
        words = len(self.value.split())
        return (
            self.aspect == ABOUT or (self.aspect == GENTLE and words > _TOPIC_WORDS)
            or (self.aspect == WORK and words > _ROLE_WORDS)
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ThreadLine:
    """What the last conversation left off on: one of the person's last messages that said something, or
    (`gist`) the model's one line of where it stood ("they were nervous about Thursday's interview")."""

    text: str
    source: Source
    gist: bool = False


@dataclass(frozen=True, slots=True)
class PersonModel:
    user_key: str
    built_at: datetime
    lines: tuple[PersonLine, ...] = ()
    thread: tuple[ThreadLine, ...] = ()  # oldest first
    thread_at: datetime | None = None  # when the last of those messages was said

    @property
    def empty(self) -> bool:
        return not self.lines and not self.thread

    def memory_ids(self) -> set[str]:
        return {i for line in self.lines for i in line.memory_ids} | {t.source.memory_id for t in self.thread}

    def without(self, memory_ids: Iterable[str]) -> PersonModel:
        """The model with every line backed by one of `memory_ids` left out (a memory forgotten)."""
        gone = set(memory_ids)
        lines = tuple(line for line in self.lines if not gone.intersection(line.memory_ids))
        thread = tuple(t for t in self.thread if t.source.memory_id not in gone)
        return replace(self, lines=lines, thread=thread)


def addressed(model: PersonModel | None, user_key: str, name: str, pronouns: str, at: datetime) -> PersonModel | None:
    """The model with a line of how they asked to be called ("call me Max", /profile) and their pronouns (no
    memory backs it: their profile does). A name their memories already give is not said twice."""
    name, pronouns = _plain(name), _plain(pronouns)
    base = model or PersonModel(user_key, at)
    if any(line.aspect == NAME and line.value.casefold() == name.casefold() for line in base.lines):
        name = ""  # "Name: Léa" says it, and can be corrected
    if not name and not pronouns:
        return model
    return replace(base, lines=(PersonLine(CALLED, name, (), pronouns), *base.lines))


def _plain(text: str) -> str:
    return " ".join(text.replace("<", " ").replace(">", " ").split())


class PersonModels(Protocol):
    """Where the person model is kept (built in the background by long-term memory)."""

    async def person_model(self, user_key: str) -> PersonModel | None: ...


def shown_lines(model: PersonModel, language: str, today: date) -> list[tuple[str, tuple[PersonLine, ...]]]:
    """The block's lines in words, each with the model lines it says, within MAX_WORDS (later aspects go
    first when it is too long)."""
    by_aspect: dict[str, list[PersonLine]] = {}
    for line in model.lines:
        if line.aspect == NOW and line.on is not None and line.on < today:
            continue  # it happened: no longer what is going on
        by_aspect.setdefault(line.aspect, []).append(line)
    out: list[tuple[str, tuple[PersonLine, ...]]] = []
    words = 0
    for aspect in ASPECTS:
        lines = by_aspect.get(aspect, [])
        while lines:
            text = _words(aspect, lines, language, today)
            if words + len(text.split()) <= MAX_WORDS:
                out.append((text, tuple(lines)))
                words += len(text.split())
                break
            lines = lines[:-1]  # fewer of them (the newest are first)
    return out


def drawn_on(model: PersonModel | None, language: str, today: date) -> list[Source]:
    """The memories behind the lines a prompt shows (for the reply trail), each once."""
    if model is None:
        return []
    seen: dict[str, Source] = {}
    for _, lines in shown_lines(model, language, today):
        for line in lines:
            for source in line.sources:
                seen.setdefault(source.memory_id, source)
    return list(seen.values())


def _words(aspect: str, lines: Sequence[PersonLine], language: str, today: date) -> str:
    fr = language == "fr"
    values = [line.value for line in lines]
    if aspect == CALLED:
        return _called(lines[0], fr)
    if aspect == NAME:
        return (f"Prénom : {values[0]}" if fr else f"Name: {values[0]}")
    if aspect == HOME:
        return (f"Habite à {values[0]}" if fr else f"Lives in {values[0]}")
    if aspect == PERSON:
        people = ", ".join(f"{line.value} ({line.relation})" if line.relation else line.value for line in lines)
        return (f"Proches et animaux : {people}" if fr else f"People and animals: {people}")
    if aspect == NOW:
        events = "; ".join(f"{line.value} — {_when(line.on, today, fr)}" if line.on else line.value for line in lines)
        return (f"En ce moment : {events}" if fr else f"Going on now: {events}")
    if aspect == GENTLE:
        said = "; ".join(_said(line.value) if line.quotes_them else line.value for line in lines)
        return (
            f"Avec douceur, sans l'aborder le premier : {said}" if fr
            else f"Be gentle about (never bring it up first): {said}"
        )  # fmt: skip
    if aspect == ROUTINE:
        times = ", ".join(values)
        return (
            f"Moments difficiles (pour le ton, sans jamais le dire) : {times}" if fr
            else f"Hard times (for your tone, never say it): {times}"
        )  # fmt: skip
    label = {
        WORK: ("Travail / études", "Work / studies"),
        LIKES: ("Aime", "Loves"),
        DISLIKES: ("N'aime pas", "Dislikes"),
        ABOUT: ("À savoir", "Also"),
    }[aspect][0 if fr else 1]
    if any(line.quotes_them for line in lines):
        joined = "; ".join(_said(v) for v in values)  # their own words
    else:
        joined = ", ".join(values)  # a role ("assistant manager"), things they love
    return f"{label} : {joined}" if fr else f"{label}: {joined}"


def _called(line: PersonLine, fr: bool) -> str:
    name, pronouns = line.value, line.relation
    if not name:
        return f"Pronoms : {pronouns}" if fr else f"Pronouns: {pronouns}"
    told = f"Se fait appeler {name}" if fr else f"Goes by {name}"
    return f"{told} ({pronouns})" if pronouns else told


def _said(text: str) -> str:
    return f"« {text} »"


def _when(on: date | None, today: date, fr: bool) -> str:
    if on is None:
        return ""
    days = (on - today).days
    if days == 0:
        return "aujourd'hui" if fr else "today"
    if days == 1:
        return "demain" if fr else "tomorrow"
    if days < 14:
        return f"dans {days} jours" if fr else f"in {days} days"
    weeks = round(days / 7)
    if weeks < 9:
        return f"dans {weeks} semaines" if fr else f"in {weeks} weeks"
    months = round(days / 30)
    return f"dans {months} mois" if fr else f"in {months} months"
