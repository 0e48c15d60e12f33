"""Suicidal ideation and self-harm in a message, French and English, offline: cheap enough for every reply.

Two readings, each measured on its own and together (`python -m bench.crisis_detector`):
- the phrase cues (`bot.engine.safety.crisis_cues`): a phrase of the writer's own, not denied ("I'm not suicidal"),
  not an idiom ("this traffic is killing me"), not someone else's, not a story; a word that only names the subject
  ("suicide", "overdose", a goodbye letter) counts when the learned reader sees some crisis too;
- the learned reader (`memory.crisis`): a small head over the message's sentence embedding, the one recall
  computes anyway, trained on a broad set with hard negatives. It reads what no list holds ("I gave my cat to my
  sister because I won't be around much longer").
Either one is enough: when unsure it leans towards care, since a false alarm costs a kind paragraph and a miss
can cost a life. Then the level: **imminent** when the message gives a time, a plan or means ("tonight", "I
bought a rope", "je suis sur le toit") or the learned reader says so; else **concern**.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from bot.engine.safety.crisis_cues import (
    CLAUSE,
    IDIOMS,
    IMMINENT,
    LAUGHING_AFTER,
    NOT_A_WISH,
    OTHERS,
    PHRASES,
    STORY,
    TOPICS,
    denied,
    normalised,
)


class CrisisLevel(IntEnum):
    NONE = 0
    CONCERN = 1  # thoughts of dying or of self-harm: the crisis lines and a caring reply
    IMMINENT = 2  # a plan, means or a time: the emergency number first, no role-play at all

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class LearnedCrisis:
    """The learned reader's probabilities for one message (they sum to 1)."""

    none: float
    concern: float
    imminent: float

    @property
    def crisis(self) -> float:
        return self.concern + self.imminent


# The learned reader's probability from which a message is read as a crisis: near even odds (lean towards care);
# chosen on the fresh sets already looked at, each read by a head trained without it, and the training set's
# cross-validation (`python -m memory.crisis.train`); never on the sets kept blind.
LEARNED_THRESHOLD = 0.55
LEARNED_MIN_WORDS = 4  # fewer words carry too little for the learned reader
# A word naming the subject ("suicide", "overdose", "goodbye") counts when the learned reader gives the message at
# least this much crisis: an essay on suicide prevention or a coffee "overdose" reads far below it. Low, so that the
# word still speaks when the reader half-sees a crisis; chosen like the threshold.
TOPIC_SUPPORT = 0.25


@dataclass(frozen=True, slots=True)
class CrisisReading:
    level: CrisisLevel
    phrase: bool  # the phrase cues saw it
    learned: LearnedCrisis | None  # None when no learned reader is wired (or it failed)

    @property
    def crisis(self) -> bool:
        return self.level is not CrisisLevel.NONE


class Cue(IntEnum):
    """What the phrase cues found: nothing, a word naming the subject ("suicide", "self-harm", "overdose"), or the
    writer's own words of wanting to die or to hurt themselves ("I want to die", "je vais me tuer")."""

    NONE = 0
    TOPIC = 1
    STATEMENT = 2


def phrase_cue(text: str) -> Cue:
    """The strongest cue in the message that is the writer's own: not denied ("I'm not suicidal"), not an idiom
    ("this traffic is killing me"), not someone else's, not a story. A statement followed by laughter in the same
    sentence ("je me jette par la fenêtre mdr") counts as a word naming the subject."""
    normal = normalised(text)
    statements = _own(normal, PHRASES)
    if any(not LAUGHING_AFTER.match(after) for after in statements):
        return Cue.STATEMENT
    return Cue.TOPIC if statements or _own(normal, TOPICS) else Cue.NONE


def phrase_crisis(text: str) -> bool:
    """Whether the phrase cues see a crisis of the writer's own: a statement, or a word naming the subject."""
    return phrase_cue(text) is not Cue.NONE


def _own(normal: str, cues: re.Pattern[str]) -> list[str]:
    """What follows each of the writer's own cues in the message (one entry per cue)."""
    found_after: list[str] = []
    for found in cues.finditer(normal):
        before, after = normal[: found.start()], normal[found.end() :]
        if denied(before) or NOT_A_WISH.match(after) or IDIOMS.search(normal[max(0, found.start() - 30) :]):
            continue
        clause = CLAUSE.split(before)[-1]
        if STORY.search(clause) or _someone_else(clause):
            continue
        found_after.append(after)
    return found_after


def _someone_else(clause: str) -> bool:
    """"my cousin attempted suicide" is theirs; "my mom doesn't know I'm suicidal" is the writer's own."""
    others = list(OTHERS.finditer(clause))
    return bool(others) and _FIRST_PERSON.search(clause[others[-1].end() :]) is None


_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|me|myself|je|j'|moi|me|m')(?:\b|(?=\w))")


def shows_crisis(text: str) -> bool:
    """The phrase cues' reading alone (the learned reader adds to it in `read_crisis`)."""
    return phrase_crisis(text)


def learned_level(text: str, learned: LearnedCrisis | None, threshold: float = LEARNED_THRESHOLD) -> CrisisLevel:
    """The level the learned reader gives on its own: none below the threshold, or for a few words ("anyway",
    "hello there" carry too little for it); imminent when it weighs imminence over concern."""
    if learned is None or learned.crisis < threshold or len(text.split()) < LEARNED_MIN_WORDS:
        return CrisisLevel.NONE
    return CrisisLevel.IMMINENT if learned.imminent >= learned.concern else CrisisLevel.CONCERN


def read_crisis(text: str, learned: LearnedCrisis | None = None, threshold: float = LEARNED_THRESHOLD) -> CrisisReading:
    """Both readings of one message, and its level: either reading is enough to see a crisis; it is imminent
    when the message names a time, a plan or means, or the learned reader (seeing a crisis itself) says so."""
    cue = phrase_cue(text)
    phrase = cue is Cue.STATEMENT or (
        cue is Cue.TOPIC and (learned is None or learned.crisis >= TOPIC_SUPPORT)
    )  # with no learned reader wired, a word naming the subject is enough: lean towards care
    by_learned = learned_level(text, learned, threshold)
    if not phrase and by_learned is CrisisLevel.NONE:
        return CrisisReading(CrisisLevel.NONE, phrase, learned)
    urgent = IMMINENT.search(normalised(text)) is not None or by_learned is CrisisLevel.IMMINENT
    return CrisisReading(CrisisLevel.IMMINENT if urgent else CrisisLevel.CONCERN, phrase, learned)
