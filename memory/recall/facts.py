"""What the ranking reads of a memory, worked out once per record: its keyword counts, its own words, the
conversation it was told in, when it happened, how fast it fades and how much it weighs.

A recall weighs ~250 candidates, and the same records come back question after question (the embedded index
keeps them): one cached lookup per candidate instead of one per signal, and times as whole microseconds, so the
ranking's loop does arithmetic rather than date arithmetic. Worked out as the memory is written when the index
reads ahead (`memory.recall.ahead`).
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import NamedTuple

from memory.recall.lexical import keyword_document, own_terms
from memory.records import MemoryKind, MemoryRecord
from memory.words.text_caches import per_record

# kind -> (half-life in days, floor): how fast a memory fades when nothing else distinguishes it.
DECAY: dict[MemoryKind, tuple[float, float]] = {
    MemoryKind.SEMANTIC: (math.inf, 1.0),
    MemoryKind.TEMPORAL: (math.inf, 1.0),
    MemoryKind.EMOTIONAL: (180.0, 0.8),
    MemoryKind.EPISODIC: (365.0, 0.92),
}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def microseconds(moment: datetime) -> int:
    """Whole microseconds since the epoch: a difference of two, over 10**6, is `timedelta.total_seconds()`'s
    value to the last bit (both divide the same two integers)."""
    return (moment - _EPOCH) // _MICROSECOND


class RecallFacts(NamedTuple):
    keywords: Counter[str]  # keyword_document: the terms, own words counted thrice
    length: int  # their number
    own: Counter[str]  # the memory's own words' stems
    session: tuple[str, date]  # the conversation it was told in, and the day
    moment: int  # when it happened (or was told), in microseconds since the epoch
    half_life: float  # in days; inf: it does not fade
    floor: float  # what it fades down to
    weight: float  # its importance's factor
    dated: bool  # a dated event, or a memory of a given day


@per_record()
def recall_facts(record: MemoryRecord) -> RecallFacts:
    keywords, length = keyword_document(record)
    half_life, floor = DECAY[record.kind]
    return RecallFacts(
        keywords,
        length,
        own_terms(record),
        (record.source.conversation_id, record.created_at.date()),
        microseconds(record.event_at or record.created_at),
        half_life,
        floor,
        0.85 + 0.3 * record.importance,
        record.kind is MemoryKind.TEMPORAL or bool(record.local_date),
    )


def fading(facts: RecallFacts, at_us: int) -> float:
    """How much of its relevance a memory keeps at `at_us` (microseconds since the epoch)."""
    if math.isinf(facts.half_life):
        return 1.0
    age_days = max(0.0, (at_us - facts.moment) / 10**6 / 86400.0)
    return max(facts.floor, 0.5 ** (age_days / facts.half_life))
