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

from dataclasses import dataclass, field, replace

from bot.engine.model import RecalledMemory
from memory.mood.sensitive import touches_pain
from memory.recall.focus import focused
from memory.recall.ranking import DEFAULT_WEIGHTS, Ranked, RecallWeights
from memory.recall.shown_facts import ShownFacts, shown_facts
from memory.records import MemoryKind, MemoryRecord
from memory.writing.episodes import said_date

SIMILAR_TEXT = 0.85  # token Jaccard at or above which two memories say the same thing
NEARLY_SPENT = 16  # words left in the budget below which a candidate's length is checked before anything else


def _said_before(tokens: frozenset[str], kept: list[tuple[int, frozenset[str]]]) -> bool:
    """Whether `tokens` says what one of `kept` (each with its size) says: a token Jaccard of `SIMILAR_TEXT` or
    more. Two sets of sizes a <= b share at most a words, so below a / b >= SIMILAR_TEXT they are not counted."""
    size = len(tokens)
    if not size:
        return False
    low, high = size * SIMILAR_TEXT - 1e-9, size / SIMILAR_TEXT + 1e-9
    for other_size, other in kept:
        if low <= other_size <= high:
            shared = len(tokens & other)
            if shared / (size + other_size - shared) >= SIMILAR_TEXT:  # |a ∪ b| counted, not built
                return True
    return False


@dataclass(slots=True)
class _Excerpt:
    shown: list[RecalledMemory] = field(default_factory=list)
    told: list[MemoryRecord] = field(default_factory=list)  # each shown memory's record, in the same order

    def in_order(self) -> list[RecalledMemory]:
        """As they were said, the first one starting the excerpt (messages sent in the same second are put in
        order by which one came before which)."""
        if len(self.shown) == 1:
            return self.shown  # most of them: nothing to order, and each shown memory is made with follows=False
        previous = {r.memory_id: _previous(r) for r in self.told}

        def earlier_ones(record: MemoryRecord) -> int:
            count, at = 0, previous[record.memory_id]
            while at in previous and count < len(previous):
                count, at = count + 1, previous[at]
            return count

        pairs = sorted(zip(self.told, self.shown, strict=True), key=lambda p: (p[0].created_at, earlier_ones(p[0])))
        return [m if i == 0 else following(m) for i, (_, m) in enumerate(pairs)]


def _previous(record: MemoryRecord) -> str | None:
    before = shown_facts(record).before
    return before[-1] if before else None


def following(memory: RecalledMemory) -> RecalledMemory:
    """`memory`, said shortly after the one before it. Built field by field: `dataclasses.replace` reads the class's
    fields on every call, ~4x the cost, and an excerpt's every message but the first is made so."""
    m = memory
    return RecalledMemory(m.memory_id, m.kind, m.text, m.score, m.event_at, told_at=m.told_at, on=m.on,
                          precision=m.precision, yearly=m.yearly, sensitive=m.sensitive, follows=True)  # fmt: skip


@dataclass(slots=True)
class _Selection:
    limit: int
    words_left: int
    question_terms: frozenset[str] = frozenset()
    weights: RecallWeights = DEFAULT_WEIGHTS
    excerpts: list[_Excerpt] = field(default_factory=list)
    kept_tokens: list[tuple[int, frozenset[str]]] = field(default_factory=list)  # each with its size
    kept_sources: set[tuple[str, str]] = field(default_factory=set)
    shown_episodes: dict[str, _Excerpt] = field(default_factory=dict)
    next_to_shown: dict[str, _Excerpt] = field(default_factory=dict)  # the episodes said near them
    by_message: dict[frozenset[tuple[str, str]], tuple[_Excerpt, int]] = field(default_factory=dict)

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
        return excerpt if excerpt is not None and len(excerpt.shown) < self.weights.excerpt_messages else None

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
        over = self.weights.focus_over
        if facts.words <= over or facts.sentences < 2:  # `focused` would show it whole
            text, count = whole, facts.words
        else:
            text = focused(whole, self.question_terms, over)
            count = facts.words if text is whole else len(text.split())
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
        self.kept_tokens.append((len(tokens), tokens))
        self.words_left -= min(count, self.words_left)
        if excerpt is None:
            excerpt = _Excerpt()
            self.excerpts.append(excerpt)
        if episodic:
            if sources and text == whole:  # a message cut short may no longer say what is dated
                self.by_message[sources] = (excerpt, len(excerpt.shown))
            self.shown_episodes[record.memory_id] = excerpt
            for memory_id in facts.adjacent(self.weights.join_apart):
                self.next_to_shown.setdefault(memory_id, excerpt)
        excerpt.shown.append(_recalled(record, facts, text, score))
        excerpt.told.append(record)

    def _dates_its_message(self, event: ShownFacts) -> bool:
        """A dated event read from a message already shown gives that line its date ("My birthday is March 14."
        then says when it comes back) rather than a second line; a message's second event keeps its own line."""
        place = self.by_message.pop(event.sources, None)
        if place is None or event.on is None:  # (an event gives no date of a message: `said_date`)
            return False
        excerpt, index = place
        excerpt.shown[index] = replace(excerpt.shown[index], on=event.on, precision=event.precision,
                                       yearly=event.yearly)  # fmt: skip
        return True


def select(ranked: list[Ranked], limit: int, max_words: int, question_terms: frozenset[str] = frozenset(),
           weights: RecallWeights = DEFAULT_WEIGHTS) -> list[RecalledMemory]:  # fmt: skip
    """Best first, near-duplicates dropped, at most `limit` excerpts and `max_words` words. Each excerpt's
    messages come in the order they were said (`RecalledMemory.follows`); excerpts come best first."""
    selection = _Selection(limit, max_words, question_terms, weights)
    excerpts, joins, fits = selection.excerpts, selection.joins, selection.fits
    for item in ranked:
        if selection.words_left <= 0:
            break
        if len(excerpts) < limit:
            selection.consider(item, shown_facts(item[0]))
        # All there: only a message said near one shown may still join (most candidates end here, unweighed).
        elif (record := item[0]).kind is MemoryKind.EPISODIC and fits(facts := shown_facts(record)):
            if (excerpt := joins(record.memory_id, facts)) is not None:
                selection.consider(item, facts, excerpt)
    return [memory for excerpt in selection.excerpts for memory in excerpt.in_order()]


def recalled(record: MemoryRecord, text: str, score: float) -> RecalledMemory:
    """A record as the prompt shows it, with what it needs to say when it was told and when it happens."""
    return _recalled(record, shown_facts(record), text, score)


def _recalled(record: MemoryRecord, facts: ShownFacts, text: str, score: float) -> RecalledMemory:
    on, precision = facts.on, facts.precision
    if facts.may_give_date and (said := said_date(record, text)) is not None:
        on, precision = said  # "next month" as it was then, not as it sounds now
    return RecalledMemory(
        record.memory_id,
        facts.kind,
        text,
        round(score, 4),
        record.event_at,
        told_at=record.created_at,
        on=on,
        precision=precision,
        yearly=facts.yearly,
        # Marked when extracted; a message (an episode) that speaks of it is just as painful.
        sensitive=facts.marked_sensitive or _pained(facts, text),
    )


def _pained(facts: ShownFacts, text: str) -> bool:
    """Whether `text`, shown of the memory, touches pain. What it shows is some of the memory's sentences (focused on
    the question) or its first words (cut to the budget), and no painful phrase reads across a sentence's end: a
    memory whose words touch none (read ahead as it was written, `memory.recall.ahead`) shows none. (A cut could only
    drop what follows a phrase: "sick of waiting" cut after "sick" stays painless, as the message is.) The shown
    text itself is read only for the others, each question showing different sentences (~65 µs a text)."""
    return bool(text) and facts.pains and (text is facts.whole or touches_pain(text))
