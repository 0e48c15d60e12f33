"""Ranking what to bring back: relevance first, then recency, importance and time.

Candidates come from two searches of the index: hybrid (dense + sparse fused by rank, which finds the
keyword matches) and dense alone (whose cosine similarity says how close in meaning each one is).
`memory.recall.lexical` weighs each candidate's own words against the question; the meaning-level match adds its
similarity and a share for its rank; a name the question asks about ("What did Alice paint?") favours
memories that say that name themselves. Core facts (semantic, temporal) do not fade; episodes and moods
fade slowly down to a floor. Questions about when things happen favour dated memories, and a relative date
in the question ("last week", "jeudi") favours memories from around that day. What is shown of the ranking
(each thing once, a message with those said around it, within the caller's count and word budget) is
`memory.recall.selection`'s choice.
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from operator import itemgetter
from typing import NamedTuple

from bot.engine.model import RecallQuery
from bot.engine.when.dates import FoundDate
from memory.recall.focus import FOCUS_OVER
from memory.recall.lexical import asked_names, keyword_scores, own_terms, stems
from memory.records import MemoryKind, MemoryRecord, ScoredMemory
from memory.words.text_caches import per_record


@dataclass(frozen=True, slots=True)
class RecallWeights:
    """The few tunable constants of the ranking; the defaults are what the companion runs with.
    relevance = keyword score (0..1) + rank_weight / (1 + meaning rank / rank_scale) + similarity_weight * cosine
    """

    rank_weight: float = 0.45
    rank_scale: float = 3.0
    similarity_weight: float = 0.7
    context_only: float = 0.5  # relevance factor of a memory whose own words share nothing with the question
    named_boost: float = 1.6  # a memory that itself says a name the question asks about
    temporal_boost: float = 1.3  # a dated memory, for a question that asks when
    near_date_boost: float = 1.4  # a memory from around a date the question names
    # a memory told in a past conversation (same chat, same day) that matches the question as a whole is
    # lifted by up to this share: relevance * (1 + session_weight * its conversation's match / the best one's)
    session_weight: float = 0.6
    # a message longer than this many words is shown cut to its sentences that share a word with the question
    focus_over: int = FOCUS_OVER
    # an excerpt: up to this many messages of one conversation, each said at most `join_apart` messages from
    # another of them (1: one right after the other)
    excerpt_messages: int = 4
    join_apart: int = 2

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


DEFAULT_WEIGHTS = RecallWeights()

# kind -> (half-life in days, floor): how fast a memory fades when nothing else distinguishes it.
DECAY: dict[MemoryKind, tuple[float, float]] = {
    MemoryKind.SEMANTIC: (math.inf, 1.0),
    MemoryKind.TEMPORAL: (math.inf, 1.0),
    MemoryKind.EMOTIONAL: (180.0, 0.8),
    MemoryKind.EPISODIC: (365.0, 0.92),
}

WHEN_QUESTION = re.compile(
    r"\b(?:when|what date|which date|what day|which day|what year|what month|how long ago|how long since|"
    r"quand|quelle date|quel jour|quelle année|quel mois|depuis quand|il y a combien)\b",
    re.I,
)


class Ranked(NamedTuple):
    """A NamedTuple: one is built for each of the ~250 candidates of every recall."""

    record: MemoryRecord
    score: float


def _pool(hits: Sequence[ScoredMemory], similar: Sequence[ScoredMemory]) -> list[tuple[MemoryRecord, int, float]]:
    """Each candidate once, with its meaning rank and cosine similarity. Without a dense search, the
    hybrid order stands in for the rank; candidates the dense search did not return rank after all of
    its results, at its lowest similarity (their own can only be lower)."""
    if not similar:
        return [(hit.record, rank, 0.0) for rank, hit in enumerate(hits)]
    out = [(hit.record, rank, hit.score) for rank, hit in enumerate(similar)]
    seen = {hit.record.memory_id for hit in similar}
    floor = min(hit.score for hit in similar)
    out += [(hit.record, len(similar), floor) for hit in hits if hit.record.memory_id not in seen]
    return out


def relevance(
    hits: Sequence[ScoredMemory],
    question: str,
    similar: Sequence[ScoredMemory] = (),
    weights: RecallWeights = DEFAULT_WEIGHTS,
) -> list[tuple[MemoryRecord, float]]:
    """How well each candidate answers the question: its keyword score, plus its closeness in meaning
    (similarity and rank), less when only its context matched, more when it says a name asked about."""
    pool = _pool(hits, similar)
    keywords = keyword_scores([record for record, _, _ in pool], question)
    names = asked_names(question)
    terms = frozenset(stems(question))
    rank_weight, rank_scale, similarity_weight = weights.rank_weight, weights.rank_scale, weights.similarity_weight
    out = []
    for (record, rank, cosine), keyword in zip(pool, keywords, strict=True):
        value = keyword + rank_weight / (1.0 + rank / rank_scale) + similarity_weight * cosine
        own = own_terms(record)  # the memory's own words, not its context's
        if terms.isdisjoint(own):
            value *= weights.context_only
        if names and not names.isdisjoint(own):
            value *= weights.named_boost
        out.append((record, value))
    return out


def recency(record: MemoryRecord, at: datetime) -> float:
    half_life, floor = DECAY[record.kind]
    if math.isinf(half_life):
        return 1.0
    moment = record.event_at or record.created_at
    age_days = max(0.0, (at - moment).total_seconds() / 86400.0)
    return max(floor, 0.5 ** (age_days / half_life))


def _period(found: FoundDate) -> tuple[date, date]:
    """The days a date said in a question covers: a day (give or take one), a week, a month, a year."""
    day = found.local_date
    if found.precision == "week":
        return day, day + timedelta(days=6)
    if found.precision == "month":
        return day.replace(day=1), day.replace(day=calendar.monthrange(day.year, day.month)[1])
    if found.precision == "year":
        return date(day.year, 1, 1), date(day.year, 12, 31)
    return day - timedelta(days=1), day + timedelta(days=1)


def _near(record: MemoryRecord, found: FoundDate) -> bool:
    start, end = _period(found)
    if record.local_date:
        try:
            if start <= date.fromisoformat(record.local_date) <= end:
                return True
        except ValueError:
            pass
    if record.event_at is None or record.kind is not MemoryKind.EPISODIC:
        return False
    return start <= record.event_at.date() <= end


def score(record: MemoryRecord, relevance: float, query: RecallQuery, question_dates: list[FoundDate],
          asks_when: bool, weights: RecallWeights = DEFAULT_WEIGHTS) -> float:  # fmt: skip
    value = relevance * recency(record, query.at) * (0.85 + 0.3 * record.importance)
    if asks_when and (record.kind is MemoryKind.TEMPORAL or record.local_date):
        value *= weights.temporal_boost
    if question_dates and any(_near(record, found) for found in question_dates):
        value *= weights.near_date_boost
    return value


SESSION_TOP = 3  # a conversation's match: the sum of its best few relevances (not its size)


@per_record()
def _session(record: MemoryRecord) -> tuple[str, date]:
    return record.source.conversation_id, record.created_at.date()


def with_session_prior(scored: list[tuple[MemoryRecord, float]], weight: float) -> list[tuple[MemoryRecord, float]]:
    """Lift the memories of the past conversations that match the question as a whole."""
    if weight <= 0 or not scored:
        return scored
    sessions = [_session(record) for record, _ in scored]
    by_session: dict[tuple[str, date], list[float]] = {}
    for session, (_, value) in zip(sessions, scored, strict=True):
        by_session.setdefault(session, []).append(value)
    strength = {key: sum(sorted(values, reverse=True)[:SESSION_TOP]) for key, values in by_session.items()}
    best = max(strength.values())
    if best <= 0:
        return scored
    return [
        (record, value * (1.0 + weight * strength[session] / best))
        for session, (record, value) in zip(sessions, scored, strict=True)
    ]


def rank(hits: Sequence[ScoredMemory], query: RecallQuery, question_dates: list[FoundDate],
         similar: Sequence[ScoredMemory] = (), weights: RecallWeights = DEFAULT_WEIGHTS) -> list[Ranked]:  # fmt: skip
    """`hits` from the hybrid search, `similar` from the dense one (score = cosine), best first."""
    asks_when = WHEN_QUESTION.search(query.text) is not None
    relevant = with_session_prior(relevance(hits, query.text, similar, weights), weights.session_weight)
    ranked = [
        Ranked(record, score(record, value, query, question_dates, asks_when, weights)) for record, value in relevant
    ]
    ranked.sort(key=itemgetter(1), reverse=True)  # by score
    return ranked
