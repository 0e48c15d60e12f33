"""What recall shows: the best memories first, each thing said once, a message with the ones said around it.

Ranked candidates are taken best first until the caller's count of excerpts or its word budget is reached:
- small talk, questions about themself and orders take no line (`memory.recall.worth_showing`);
- a near-duplicate of a memory shown, or a fact read from a message shown, is left out; a dated event read
  from a message shown gives that line its date instead of a second line;
- a message longer than `RecallWeights.focus_over` words shows only its sentences that share a word with the
  question (`memory.recall.focus`): the budget then holds more of what answers;
- a message said shortly before or after one shown (by the same person, in the same conversation, at most
  `RecallWeights.join_apart` messages away) joins it as one excerpt, up to `RecallWeights.excerpt_messages`
  messages: it costs words, not one of the excerpts. The answer to "did you go anywhere?" is often the next
  message, and a memory told over two or three messages reads as one.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from bot.engine.model import RecalledMemory
from memory.mood.sensitive import touches_pain
from memory.recall.ranking import DEFAULT_WEIGHTS, Ranked, RecallWeights
from memory.recall.shown_facts import ShownFacts, shown_facts
from memory.records import MemoryKind, MemoryRecord
from memory.writing.episodes import said_date

SIMILAR_TEXT = 0.85  # token Jaccard at or above which two memories say the same thing
NEARLY_SPENT = 16  # words left in the budget below which a candidate's length is checked before anything else


def _said_before(tokens: frozenset[str], kept: dict[int, list[frozenset[str]]]) -> bool:
    """Whether `tokens` says what one of `kept` (by their size) says: a token Jaccard of `SIMILAR_TEXT` or more.
    Two sets of sizes a <= b share at most a words, so only the sizes within a / b >= SIMILAR_TEXT are looked at."""
    size = len(tokens)
    if not size:
        return False
    for other_size in range(math.ceil(size * SIMILAR_TEXT - 1e-9), math.floor(size / SIMILAR_TEXT + 1e-9) + 1):
        for other in kept.get(other_size, ()):
            shared = len(tokens & other)
            if shared / (size + other_size - shared) >= SIMILAR_TEXT:  # |a ∪ b| counted, not built
                return True
    return False


class _Line:
    """A memory shown: what of it, and the dated event read from it that gives it its date, if any."""

    __slots__ = ("dated_by", "facts", "record", "score", "text")

    def __init__(self, record: MemoryRecord, facts: ShownFacts, text: str, score: float) -> None:
        self.record, self.facts, self.text, self.score = record, facts, text, score
        self.dated_by: ShownFacts | None = None


@dataclass(slots=True)
class _Excerpt:
    # Kept as they were chosen, and made into what the prompt shows at the end, once their order is known: each but
    # the first then says it follows the one before it, and none is made twice.
    lines: list[_Line] = field(default_factory=list)

    def in_order(self) -> list[RecalledMemory]:
        """As they were said, the first one starting the excerpt (messages sent in the same second are put in
        order by which one came before which)."""
        lines = self.lines
        if len(lines) > 1:
            previous = {line.record.memory_id: _previous(line.facts) for line in lines}

            def earlier_ones(record: MemoryRecord) -> int:
                count, at = 0, previous[record.memory_id]
                while at in previous and count < len(previous):
                    count, at = count + 1, previous[at]
                return count

            lines = sorted(lines, key=lambda line: (line.record.created_at, earlier_ones(line.record)))
        return [_recalled(line.record, line.facts, line.text, line.score, i > 0, line.dated_by)
                for i, line in enumerate(lines)]  # fmt: skip


def _previous(facts: ShownFacts) -> str | None:
    return facts.before[-1] if facts.before else None


@dataclass(slots=True)
class _Selection:
    limit: int
    words_left: int
    question_terms: frozenset[str] = frozenset()
    weights: RecallWeights = DEFAULT_WEIGHTS
    excerpts: list[_Excerpt] = field(default_factory=list)
    kept_tokens: dict[int, list[frozenset[str]]] = field(default_factory=dict)  # by their size
    kept_sources: set[tuple[str, str]] = field(default_factory=set)
    shown_episodes: dict[str, _Excerpt] = field(default_factory=dict)
    next_to_shown: dict[str, _Excerpt] = field(default_factory=dict)  # the episodes said near them
    by_message: dict[frozenset[tuple[str, str]], _Line] = field(default_factory=dict)

    def joins(self, memory_id: str, facts: ShownFacts) -> _Excerpt | None:
        """The excerpt a message said shortly before or after one of its messages joins, if it has room. The
        shown messages' own links are looked up first; a message two after one shown is known by its own
        (an episode keeps the two before it, but only the one right after it)."""
        excerpt = self.next_to_shown.get(memory_id)
        if excerpt is None:
            shown = self.shown_episodes
            for other_id in facts.adjacent(self.weights.join_apart):
                if (excerpt := shown.get(other_id)) is not None:
                    break
        return excerpt if excerpt is not None and len(excerpt.lines) < self.weights.excerpt_messages else None

    def fits(self, facts: ShownFacts) -> bool:
        """Whether some of the memory may still fit the budget, or it must be weighed all the same: the first line,
        or a dated event, which may date a message shown whatever its own length. Only checked once the budget is
        nearly spent: before, most candidates fit, and the check cost more than it saved."""
        if self.words_left >= NEARLY_SPENT or not self.excerpts or facts.temporal:
            return True
        return facts.fewest_words(self.weights.focus_over) <= self.words_left

    def consider(self, item: Ranked, facts: ShownFacts, excerpt: _Excerpt | None = None) -> None:
        """`excerpt`: the one the memory joins, when already known (`select`, once all excerpts are there)."""
        if not self.fits(facts):
            # Too long whichever sentences the question keeps. Checked first: once the budget is nearly spent,
            # most of the ~170 candidates end here, and focusing each on the question cost more than the rest.
            return
        record, score = item
        episodic, temporal = facts.episodic, facts.temporal
        if excerpt is None and episodic and self.shown_episodes:  # none shown, none to join: the maps fill together
            excerpt = self.joins(record.memory_id, facts)
        if not facts.worth:
            return  # small talk, a question about themself: still searchable, but no line of background
        whole = facts.whole
        analysed = facts.analysed
        found = analysed.focused(self.question_terms, self.weights.focus_over)
        text, count = (whole, analysed.words) if found is None else found
        too_long = count > self.words_left
        if too_long and self.excerpts and not temporal:
            # A shorter memory further down may still fit. Checked before comparing it with every line shown.
            # (A dated event may still date a message shown, below, whatever its own length.)
            return
        sources = facts.sources
        if not temporal and sources and sources <= self.kept_sources:
            return  # read from a message already shown: its words are already there
        tokens = facts.tokens
        if _said_before(tokens, self.kept_tokens):
            return
        if temporal and self._dates_its_message(facts):
            return  # the message is shown, now with the date it gives: not a second line for one thing
        if too_long:
            if self.excerpts:
                return  # a shorter memory further down may still fit
            text = " ".join(text.split()[: self.words_left]) + " …"
        self.kept_sources |= sources
        self.kept_tokens.setdefault(len(tokens), []).append(tokens)
        self.words_left -= min(count, self.words_left)
        if excerpt is None:
            excerpt = _Excerpt()
            self.excerpts.append(excerpt)
        line = _Line(record, facts, text, score)
        if episodic:
            if sources and text == whole:  # a message cut short may no longer say what is dated
                self.by_message[sources] = line
            self.shown_episodes[record.memory_id] = excerpt
            for memory_id in facts.adjacent(self.weights.join_apart):
                self.next_to_shown.setdefault(memory_id, excerpt)
        excerpt.lines.append(line)

    def _dates_its_message(self, event: ShownFacts) -> bool:
        """A dated event read from a message already shown gives that line its date ("My birthday is March 14."
        then says when it comes back) rather than a second line; a message's second event keeps its own line."""
        line = self.by_message.pop(event.sources, None)
        if line is None or event.on is None:  # (an event gives no date of a message: `said_date`)
            return False
        line.dated_by = event
        return True


def select(ranked: list[Ranked], limit: int, max_words: int, question_terms: frozenset[str] = frozenset(),
           weights: RecallWeights = DEFAULT_WEIGHTS) -> list[RecalledMemory]:  # fmt: skip
    """Best first, near-duplicates dropped, at most `limit` excerpts and `max_words` words. Each excerpt's
    messages come in the order they were said (`RecalledMemory.follows`); excerpts come best first."""
    selection = _Selection(limit, max_words, question_terms, weights)
    excerpts, consider = selection.excerpts, selection.consider
    candidates = iter(ranked)
    for item in candidates:
        if selection.words_left <= 0:
            return _shown(excerpts)
        if len(excerpts) >= limit:
            break
        consider(item, shown_facts(item[0]))
    else:
        return _shown(excerpts)
    # All there: only a message said near one shown may still join (most candidates end here, unweighed). The
    # joining of `_Selection.joins`, written out: ~100 candidates a recall pass here, each through three calls before.
    near, shown, apart = selection.next_to_shown, selection.shown_episodes, weights.join_apart
    most, fits = weights.excerpt_messages, selection.fits
    for candidate in itertools.chain((item,), candidates):
        if selection.words_left <= 0:
            break
        if (record := candidate[0]).kind is not MemoryKind.EPISODIC:
            continue
        facts = shown_facts(record)
        excerpt = near.get(record.memory_id)
        if excerpt is None:
            for other_id in facts.adjacent(apart):
                if (excerpt := shown.get(other_id)) is not None:
                    break
            else:
                continue
        if len(excerpt.lines) < most and fits(facts):
            consider(candidate, facts, excerpt)
    return _shown(excerpts)


def _shown(excerpts: list[_Excerpt]) -> list[RecalledMemory]:
    return [memory for excerpt in excerpts for memory in excerpt.in_order()]


def recalled(record: MemoryRecord, text: str, score: float) -> RecalledMemory:
    """A record as the prompt shows it, with what it needs to say when it was told and when it happens."""
    return _recalled(record, shown_facts(record), text, score)


def _recalled(record: MemoryRecord, facts: ShownFacts, text: str, score: float, follows: bool = False,
              dated_by: ShownFacts | None = None) -> RecalledMemory:  # fmt: skip
    """`dated_by`: a dated event read from the message, which gives it its date."""
    if dated_by is not None:
        on, precision, yearly = dated_by.on, dated_by.precision, dated_by.yearly
    else:
        on, precision, yearly = facts.on, facts.precision, facts.yearly
        if facts.may_give_date:
            # "next month" as it was then, not as it sounds now; the whole message's date is read once (`ShownFacts`)
            said = facts.said if text == facts.whole else said_date(record, text)
            if said is not None:
                on, precision = said
    return RecalledMemory(
        record.memory_id,
        facts.kind,
        text,
        round(score, 4),
        record.event_at,
        told_at=record.created_at,
        on=on,
        precision=precision,
        yearly=yearly,
        # Marked when extracted; a message (an episode) that speaks of it is just as painful.
        sensitive=facts.marked_sensitive or _pained(facts, text),
        follows=follows,
    )


def _pained(facts: ShownFacts, text: str) -> bool:
    """Whether `text`, shown of the memory, touches pain. What it shows is some of the memory's sentences (focused on
    the question) or its first words (cut to the budget), and no painful phrase reads across a sentence's end: a
    memory whose words touch none (read ahead as it was written, `memory.recall.ahead`) shows none. (A cut could only
    drop what follows a phrase: "sick of waiting" cut after "sick" stays painless, as the message is.) The shown
    text itself is read only for the others, each question showing different sentences (~65 µs a text)."""
    return bool(text) and facts.pains and (text is facts.whole or touches_pain(text))
