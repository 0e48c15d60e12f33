"""The box every system is given: N people built from the dev conversations, the questions drawn across them,
and the scoring at equal words (evidence recall and answer containment).

Person p is dev conversation p mod 5 under a new id. The first five are the conversations as they are; every
later one keeps each turn (its speaker, its date, its place: the evidence and the answers stay where they
were), but a fifth of the words of each turn that no question or answer of its conversation uses are swapped
for words drawn from the other conversations, seeded by the person: no two people of the box say the same.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from memory.evaluation.locomo_data import CATEGORIES, Conversation, clean_evidence, load_locomo

SWAPPED = 0.2  # share of a replica's unprotected words drawn from the other conversations
BUDGET = 300  # words shown per question, for every system, before scoring
QUESTIONS = 300  # questions asked per size, drawn across the whole box
TAIL = 300  # the last messages of the box, each system's ingestion timed on them (see Box.tail)
CONTAINMENT_CATEGORIES = (1, 3, 4)  # multi-hop, open-domain, single-hop: answers that are words of the turns
_WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = frozenset(
    "a an the and or but of to in on at for with by from as is are was were be been being it its this that these "
    "those he she they them his her their i me my we our you your do does did has have had not no so if then than "
    "there here what which who whom when where why how about into over after before also just very can will would "
    "s t".split()
)


@dataclass(frozen=True, slots=True)
class Asked:
    """One question of the draw: whose it is, what it asks, what answers it."""

    person: str
    text: str
    category: int
    evidence: tuple[str, ...]
    answer: str


@dataclass(frozen=True, slots=True)
class Box:
    people: list[Conversation]
    asked: list[Asked]

    @property
    def memories(self) -> int:
        return sum(len(p.turns) for p in self.people)

    def tail(self, wanted: int = TAIL) -> int:
        """How many of the last messages (people in order, each one's turns in order) are ingested timed, once
        the box holds all the others: `wanted`, but at most a quarter of the box's, so one person still has
        most of a conversation before them."""
        return max(0, min(wanted, self.memories // 4))


def words_of(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def content_words(text: str) -> set[str]:
    return {w for w in words_of(text) if w not in STOPWORDS}


def _answers(sample: dict[str, object], conversation: Conversation) -> list[str]:
    """The answers of the conversation's scored questions, in the order `load_locomo` keeps them."""
    known = {t.dia_id for t in conversation.turns}
    out = []
    for qa in sample.get("qa", []):  # type: ignore[attr-defined]
        category = int(qa.get("category", 0))
        evidence = [e for e in clean_evidence(qa.get("evidence") or []) if e in known]
        if category in CATEGORIES and evidence:
            out.append(str(qa.get("answer", "")))
    return out


def _replica(conversation: Conversation, person_id: str, protected: set[str], pool: Sequence[str],
             rng: random.Random) -> Conversation:  # fmt: skip
    turns = []
    for turn in conversation.turns:
        words = turn.text.split()
        for i, word in enumerate(words):
            if word.lower().strip(".,!?;:'\"()") not in protected and rng.random() < SWAPPED:
                words[i] = rng.choice(pool)
        turns.append(replace(turn, text=" ".join(words)))
    return replace(conversation, sample_id=person_id, turns=tuple(turns))


def build_box(data: Path, people: int, questions: int = QUESTIONS, seed: int = 7) -> Box:
    dev = load_locomo(data)
    samples = json.loads(data.read_text(encoding="utf-8"))
    answers = [_answers(s, c) for s, c in zip(samples, dev, strict=True)]
    protected = [
        {w for q, a in zip(c.questions, ans, strict=True) for w in words_of(f"{q.text} {a}")}
        | {w.lower() for t in c.turns for w in t.speaker.split()}
        for c, ans in zip(dev, answers, strict=True)
    ]
    pools = [[w for other in dev if other is not c for t in other.turns for w in t.text.split()] for c in dev]
    box: list[Conversation] = []
    for p in range(people):
        source = p % len(dev)
        person_id = f"p{p:04d}"
        if p < len(dev):
            box.append(replace(dev[source], sample_id=person_id))
        else:
            box.append(_replica(dev[source], person_id, protected[source], pools[source], random.Random(seed + p)))
    every = [
        Asked(person.sample_id, q.text, q.category, q.evidence, answer)
        for p, person in enumerate(box)
        for q, answer in zip(person.questions, answers[p % len(dev)], strict=True)
    ]
    rng = random.Random(seed)
    rng.shuffle(every)
    drawn, texts = [], set()
    for asked in every:  # each text once: no system may find a question's vector from an earlier one
        if asked.text not in texts:
            texts.add(asked.text)
            drawn.append(asked)
        if len(drawn) >= questions:
            break
    return Box(box, drawn)


def cut(texts: Iterable[str], budget: int = BUDGET) -> list[str]:
    """What is shown of a ranked list at `budget` words: each text in order, the last one cut, none after."""
    out, left = [], budget
    for text in texts:
        if left <= 0:
            break
        words = text.split()[:left]
        if words:
            out.append(" ".join(words))
            left -= len(words)
    return out


def containment(answer: str, shown: Iterable[str]) -> float | None:
    """Share of the answer's content words present in what is shown (None: the answer has none)."""
    wanted = content_words(answer)
    if not wanted:
        return None
    seen = {w for text in shown for w in words_of(text)}
    return len(wanted & seen) / len(wanted)


@dataclass(slots=True)
class Scores:
    """Each question's figures at equal words. A system hands over what it would show, best first, as
    (text, evidence ids, group): a group is what counts as one of the k (Souvenir's excerpt, mem0's result)."""

    r_at_10: list[float]
    r_at_5: list[float]
    contained: list[float]
    words: list[int]
    latencies_ms: list[float]

    @classmethod
    def empty(cls) -> Scores:
        return cls([], [], [], [], [])

    def add(self, asked: Asked, shown: Sequence[tuple[str, Sequence[str], int]], latency_ms: float) -> None:
        texts = cut(text for text, _, _ in shown)
        groups: dict[int, set[str]] = {}
        for _, (_, sources, group) in zip(texts, shown, strict=False):  # the cut keeps a prefix of `shown`
            groups.setdefault(group, set()).update(sources)
        ranked = list(groups.values())
        for k, out in ((10, self.r_at_10), (5, self.r_at_5)):
            covered = set().union(*ranked[:k])
            out.append(sum(1 for e in asked.evidence if e in covered) / len(asked.evidence))
        if asked.category in CONTAINMENT_CATEGORIES and (share := containment(asked.answer, texts)) is not None:
            self.contained.append(share)
        self.words.append(sum(len(t.split()) for t in texts))
        self.latencies_ms.append(latency_ms)

    def figures(self, ingest_per_s: float, peak_rss_mb: float) -> dict[str, float]:
        def mean(values: Sequence[float]) -> float:
            return sum(values) / len(values) if values else 0.0

        return {
            "search_p50_ms": percentile(self.latencies_ms, 0.5),
            "search_p95_ms": percentile(self.latencies_ms, 0.95),
            "ingest_per_s": ingest_per_s,
            "r_at_10": mean(self.r_at_10),
            "r_at_5": mean(self.r_at_5),
            "answer_containment": mean(self.contained),
            "words_per_question": mean(self.words),
            "peak_rss_mb": peak_rss_mb,
        }


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
