"""Updates and contradictions: is a new fact new, a duplicate, or does it replace older ones?

Each candidate is compared with the person's nearest current memories of the same kind (dense search, so
scores are cosine similarities). With a language model the decision is asked for, naming existing memories
by small integers (never their real ids); without one, or when its answer is unusable, rules decide:
a near-identical text is a duplicate, and a contradiction on the same subject (like/dislike of the same
thing, a new name, a moved date, "vegetarian now" against "I love steak", a change said with "now",
"anymore", "désormais", "plus"…) supersedes the old fact, which keeps its history but is no longer current.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.engine.model import ChatTurn
from bot.engine.ports import CompletionRequest, LanguageModel
from bot.errors import LLMUnavailable
from memory.ports import MemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.words.sparse import tokenize
from memory.writing.extraction.candidates import TOPIC, Candidate
from memory.writing.extraction.json_repair import parse_json_object
from memory.writing.extraction.lexicon import DIET, MEAT

log = logging.getLogger(__name__)

Action = Literal["add", "noop", "supersede"]
DUPLICATE = 0.9  # cosine at or above which a new fact says the same as an old one
RELATED = 0.55  # cosine at or above which a change ("now", "anymore") replaces the old fact
ASK_MODEL_FROM = 0.4  # below this, nothing is close enough to ask the model about
NEIGHBOURS = 8
_ONE_AT_A_TIME = ("name", "home")  # labels a person has one of: a new one replaces the old

SYSTEM = """You keep a person's long-term memory tidy. Existing memories are numbered. Decide what to do
with the new memory and answer with ONE JSON object: {"action": "add" | "noop" | "supersede",
"replaces": [numbers of existing memories it makes outdated or contradicts], "text": "the memory to store"}.
"noop": it says nothing new (a duplicate). "supersede": it changes or contradicts the listed ones (they stay
in history but are no longer true). "add": it is new. "text" may merge details of the replaced memories."""


@dataclass(frozen=True, slots=True)
class Plan:
    action: Action
    candidate: Candidate
    replaces: tuple[str, ...] = ()


class _Decision(BaseModel):
    model_config = ConfigDict(extra="ignore")
    action: Action
    replaces: list[int] = []
    text: str | None = None


def _words(text: str) -> set[str]:
    return set(tokenize(text))


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.lower().split()).strip(" .!") == " ".join(b.lower().split()).strip(" .!")


def _topics_overlap(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    left, right = _words(a), _words(b)
    return bool(left and right and (left <= right or right <= left or len(left & right) * 2 >= len(left | right)))


def _month_day(local_date: str | None) -> str | None:
    return local_date[5:] if local_date else None


def _same_label(new: Candidate, record: MemoryRecord) -> bool:
    """Labels keep the case they were written in ("Arrivée de Paul"); "arrivée de Paul" is the same thing."""
    return (new.label or "").casefold() == (record.label or "").casefold()


def is_duplicate(new: Candidate, old: ScoredMemory) -> bool:
    record = old.record
    if new.kind is MemoryKind.TEMPORAL:
        same_day = (
            _month_day(new.local_date) == _month_day(record.local_date)
            if new.recurrence == "yearly"
            else new.local_date == record.local_date
        )
        return same_day and new.subject == record.subject and (_same_label(new, record) or old.score >= 0.6)
    return old.score >= DUPLICATE or _same_text(new.text, record.text)


def contradicts(new: Candidate, old: ScoredMemory) -> bool:
    record = old.record
    if new.kind is MemoryKind.TEMPORAL:
        if not _same_label(new, record) or new.subject != record.subject:
            return False
        if new.recurrence == "yearly" and record.recurrence == "yearly":
            return _month_day(new.local_date) != _month_day(record.local_date)
        return new.change or old.score >= 0.8
    old_topic = record.attributes.get(TOPIC)
    if new.label in _ONE_AT_A_TIME and record.label == new.label and new.subject == record.subject:
        return True  # a new name, a new home: the old one is history
    if {new.label, record.label} == {"likes", "dislikes"} and _topics_overlap(new.topic, old_topic):
        return True
    if DIET.search(new.text) and record.label == "likes" and MEAT.search(record.text):
        return True
    if new.change and new.subject == record.subject and old.score >= RELATED:
        return True
    return new.change and new.label == record.label and _topics_overlap(new.topic, old_topic)


def decide_offline(candidate: Candidate, neighbours: list[ScoredMemory]) -> Plan:
    if any(is_duplicate(candidate, n) for n in neighbours):
        return Plan("noop", candidate)
    replaced = tuple(n.record.memory_id for n in neighbours if contradicts(candidate, n))
    return Plan("supersede" if replaced else "add", candidate, replaced)


class Consolidator:
    def __init__(self, index: MemoryIndex, llm: LanguageModel | None = None) -> None:
        self._index = index
        self._llm = llm

    async def neighbours(self, user_key: str, candidate: Candidate, at: datetime, scope: str) -> list[ScoredMemory]:
        query = IndexQuery(user_key, candidate.text, at, scopes=(scope,), kinds=(candidate.kind,), limit=NEIGHBOURS,
                           mode="dense")  # fmt: skip
        return await self._index.search(query)

    async def decide(self, user_key: str, candidate: Candidate, at: datetime, scope: str) -> Plan:
        neighbours = await self.neighbours(user_key, candidate, at, scope)
        offline = decide_offline(candidate, neighbours)
        if offline.action == "noop" or self._llm is None:
            return offline
        close = [n for n in neighbours if n.score >= ASK_MODEL_FROM]
        if not close:
            return offline
        return await self._ask_model(candidate, close, at) or offline

    async def _ask_model(self, candidate: Candidate, close: list[ScoredMemory], at: datetime) -> Plan | None:
        assert self._llm is not None
        listing = "\n".join(f"{i}: {n.record.text}" for i, n in enumerate(close))
        prompt = f"Existing memories:\n{listing}\n\nNew memory: {candidate.text}"
        request = CompletionRequest(SYSTEM, (ChatTurn("user", prompt, at),), 300, temperature=0.0, json_output=True)
        try:
            decision = _Decision.model_validate(parse_json_object(await self._llm.complete(request)))
        except LLMUnavailable:
            return None
        except (ValueError, ValidationError) as exc:
            log.warning("memory consolidation: unreadable model answer, rules decide: %s", exc)
            return None
        # Only aliases the model was shown can name a memory; anything else is ignored.
        replaces = tuple(close[i].record.memory_id for i in dict.fromkeys(decision.replaces) if 0 <= i < len(close))
        if decision.action == "supersede" and not replaces:
            return Plan("add", candidate)
        text = (decision.text or "").strip()
        if decision.action != "noop" and text and not _same_text(text, candidate.text) and len(text) <= 400:
            candidate = _with_text(candidate, text)
        return Plan(decision.action if decision.action != "add" or not replaces else "supersede", candidate, replaces)


def _with_text(candidate: Candidate, text: str) -> Candidate:
    return replace(candidate, text=re.sub(r"\s+", " ", text))
