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
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from operator import itemgetter

from bot.engine.model import RecallQuery
from bot.engine.when.dates import FoundDate
from memory.recall.facts import RecallFacts, fading, microseconds, recall_facts
from memory.recall.focus import FOCUS_OVER
from memory.recall.lexical import asked_names, keyword_scores_of, question_terms
from memory.records import MemoryKind, MemoryRecord, ScoredMemory


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

WHEN_QUESTION = re.compile(
    r"\b(?:when|what date|which date|what day|which day|what year|what month|how long ago|how long since|"
    r"quand|quelle date|quel jour|quelle année|quel mois|depuis quand|il y a combien)\b",
    re.I,
)


# A candidate and its score. A plain tuple: ~250 are made every recall, and a NamedTuple's are made by a Python
# function, ~3x the cost (~0.07 ms of a recall's ranking at 3,000 memories, bench.recall_profile).
Ranked = tuple[MemoryRecord, float]


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
    facts = [recall_facts(record) for record, _, _ in pool]
    return list(zip((record for record, _, _ in pool), _relevances(pool, facts, question, weights), strict=True))


def _relevances(pool: list[tuple[MemoryRecord, int, float]], facts: list[RecallFacts], question: str,
                weights: RecallWeights) -> list[float]:  # fmt: skip
    terms = question_terms(question)
    keywords = keyword_scores_of([f.keywords for f in facts], [f.length for f in facts], terms)
    names = asked_names(question)
    rank_weight, rank_scale, similarity_weight = weights.rank_weight, weights.rank_scale, weights.similarity_weight
    context_only, named_boost = weights.context_only, weights.named_boost
    out = []
    for (_, rank, cosine), keyword, fact in zip(pool, keywords, facts, strict=True):
        value = keyword + rank_weight / (1.0 + rank / rank_scale) + similarity_weight * cosine
        own = fact.own  # the memory's own words, not its context's
        if terms.isdisjoint(own):
            value *= context_only
        if names and not names.isdisjoint(own):
            value *= named_boost
        out.append(value)
    return out


def recency(record: MemoryRecord, at: datetime) -> float:
    return fading(recall_facts(record), microseconds(at))


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


NO_DAY = -1  # a day (`date.toordinal`) no period holds


def period_days(found: FoundDate) -> tuple[int, int]:
    """`_period` as day numbers (`date.toordinal`)."""
    start, end = _period(found)
    return start.toordinal(), end.toordinal()


def record_days(record: MemoryRecord) -> tuple[int, int]:
    """The days `near_date` reads of a memory, as day numbers (NO_DAY: none): the day it happens (a dated event),
    and the day a message was sent."""
    local = NO_DAY
    if record.local_date:
        try:
            local = date.fromisoformat(record.local_date).toordinal()
        except ValueError:
            pass  # stale data: as if undated
    said = NO_DAY
    if record.event_at is not None and record.kind is MemoryKind.EPISODIC:
        said = record.event_at.date().toordinal()
    return local, said


def near_date(record: MemoryRecord, found: FoundDate) -> bool:
    """Whether a memory happens, or was said, within the days a date in the question covers."""
    start, end = period_days(found)
    local, said = record_days(record)
    return start <= local <= end or start <= said <= end


def score(record: MemoryRecord, relevance: float, query: RecallQuery, question_dates: list[FoundDate],
          asks_when: bool, weights: RecallWeights = DEFAULT_WEIGHTS) -> float:  # fmt: skip
    return _score(record, recall_facts(record), relevance, microseconds(query.at), question_dates, asks_when, weights)


def _score(record: MemoryRecord, facts: RecallFacts, relevance: float, at_us: int, question_dates: list[FoundDate],
           asks_when: bool, weights: RecallWeights) -> float:  # fmt: skip
    value = relevance * fading(facts, at_us) * facts.weight
    if asks_when and facts.dated:
        value *= weights.temporal_boost
    if question_dates and any(near_date(record, found) for found in question_dates):
        value *= weights.near_date_boost
    return value


SESSION_TOP = 3  # a conversation's match: the sum of its best few relevances (not its size)


def with_session_prior(scored: list[tuple[MemoryRecord, float]], weight: float) -> list[tuple[MemoryRecord, float]]:
    """Lift the memories of the past conversations that match the question as a whole."""
    values = _session_prior([recall_facts(record).session for record, _ in scored], [v for _, v in scored], weight)
    return scored if values is None else list(zip((r for r, _ in scored), values, strict=True))


def _session_prior(sessions: list[tuple[str, date]], values: list[float], weight: float) -> list[float] | None:
    """`values` lifted by their conversation's match (None: none lifted)."""
    if weight <= 0 or not values:
        return None
    by_session: dict[tuple[str, date], list[float]] = {}
    for session, value in zip(sessions, values, strict=True):
        by_session.setdefault(session, []).append(value)
    strength = {key: sum(sorted(found, reverse=True)[:SESSION_TOP]) for key, found in by_session.items()}
    best = max(strength.values())
    if best <= 0:
        return None
    return [value * (1.0 + weight * strength[session] / best) for session, value in zip(sessions, values, strict=True)]


def rank(hits: Sequence[ScoredMemory], query: RecallQuery, question_dates: list[FoundDate],
         similar: Sequence[ScoredMemory] = (), weights: RecallWeights = DEFAULT_WEIGHTS) -> list[Ranked]:  # fmt: skip
    """`hits` from the hybrid search, `similar` from the dense one (score = cosine), best first."""
    asks_when = WHEN_QUESTION.search(query.text) is not None
    pool = _pool(hits, similar)
    facts = [recall_facts(record) for record, _, _ in pool]
    values = _relevances(pool, facts, query.text, weights)
    values = _session_prior([f.session for f in facts], values, weights.session_weight) or values
    at_us = microseconds(query.at)
    ranked = [
        (record, _score(record, fact, value, at_us, question_dates, asks_when, weights))
        for (record, _, _), fact, value in zip(pool, facts, values, strict=True)
    ]
    ranked.sort(key=itemgetter(1), reverse=True)  # by score
    return ranked
