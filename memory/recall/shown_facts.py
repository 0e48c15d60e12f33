"""What the selection reads of a memory that no question changes, worked out once for each record.

`memory.recall.selection` weighs ~30 candidates a recall and passes over ~90 more, and each of them asked a dozen
small questions of its record (its words shown, their tokens, its sources, its links, whether it is worth a line,
whether its words touch pain, the date it gave), each through a cache of its own: ~0.3 ms of a recall's ~0.8 ms of
selection were those calls. Here they are answered once, when the memory is written (`memory.recall.ahead`) or
first met, and kept for that record object (`per_record`: erasure empties it with the other text caches).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from memory.mood.sensitive import touches_pain
from memory.recall.focus import Analysed, analysed_sentences
from memory.recall.worth_showing import worth_showing
from memory.records import MemoryKind, MemoryRecord
from memory.words.sparse import tokenize
from memory.words.text_caches import TEXTS_KEPT, per_record, text_cache
from memory.writing.episodes import SAID_ON, links, said_date, shown_text
from memory.writing.extraction.candidates import PRECISION


@text_cache(maxsize=TEXTS_KEPT)
def token_set(text: str) -> frozenset[str]:
    return frozenset(tokenize(text))


@dataclass(frozen=True, slots=True)
class ShownFacts:
    whole: str  # what the person said or what was read of it (`shown_text`)
    episodic: bool
    temporal: bool
    worth: bool  # `memory.recall.worth_showing`
    analysed: Analysed  # `whole`'s words, and its sentences with their stems and words
    tokens: frozenset[str]  # `token_set(whole)`
    sources: frozenset[tuple[str, str]]  # (conversation, message) it was read from
    before: tuple[str, ...]  # the episodes said before it (oldest first), and after it
    after: tuple[str, ...]
    kind: str
    on: date | None  # a dated event's day
    precision: str
    yearly: bool
    marked_sensitive: bool  # marked when extracted
    pains: bool  # whether `whole` touches pain
    may_give_date: bool  # whether `memory.writing.episodes.said_date` can find a date the message gave
    said: tuple[date, str] | None  # the day and precision of the date the whole message gave (`said_date`)

    def fewest_words(self, over: int) -> int:
        """`memory.recall.focus.fewest_words` of `whole`."""
        return self.analysed.fewest_words(over)

    def adjacent(self, apart: int) -> tuple[str, ...]:
        """The episodes of the person's messages just before and just after this one, where known; with `apart` 2,
        the one two before too (an episode keeps the ids of the two messages before it and the one after it)."""
        return self.before[-apart:] + self.after[:1]


@per_record()
def shown_facts(record: MemoryRecord) -> ShownFacts:
    whole = shown_text(record)
    before, after = links(record)
    episodic = record.kind is MemoryKind.EPISODIC
    may_give_date = episodic and bool(record.timezone) and record.attributes.get(SAID_ON) != ""
    on = None
    if record.kind is MemoryKind.TEMPORAL and record.local_date:
        try:
            on = date.fromisoformat(record.local_date)
        except ValueError:
            pass  # stale data: the prompt falls back to event_at
    return ShownFacts(
        whole=whole,
        episodic=episodic,
        temporal=record.kind is MemoryKind.TEMPORAL,
        worth=worth_showing(record),
        analysed=analysed_sentences(whole),
        tokens=token_set(whole),
        sources=frozenset((record.source.conversation_id, m) for m in record.source.message_ids),
        before=before,
        after=after,
        kind=record.kind.value,
        on=on,
        precision=record.attributes.get(PRECISION, "day"),
        yearly=record.recurrence == "yearly",
        marked_sensitive=record.attributes.get("sensitive") == "true",
        pains=touches_pain(whole),
        may_give_date=may_give_date,
        said=said_date(record) if may_give_date else None,
    )
