"""Evidence recall@k and the figures a LoCoMo run reports."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory.evaluation.locomo_data import CATEGORIES


def evidence_recall(evidence: Sequence[str], retrieved_sources: Sequence[Sequence[str]], k: int) -> float:
    """Share of the evidence turns covered by the sources of the top-k retrieved items."""
    covered = {dia_id for sources in retrieved_sources[:k] for dia_id in sources}
    return sum(1 for e in evidence if e in covered) / len(evidence)


@dataclass
class Tally:
    """Per-question scores of one retriever, by category."""

    name: str
    k: int
    at_k: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    at_5: list[float] = field(default_factory=list)
    words: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, category: int, evidence: Sequence[str], sources: Sequence[Sequence[str]], words: int,
            latency_ms: float) -> None:  # fmt: skip
        self.at_k[category].append(evidence_recall(evidence, sources, self.k))
        self.at_5.append(evidence_recall(evidence, sources, 5))
        self.words.append(words)
        self.latencies_ms.append(latency_ms)

    @property
    def n_questions(self) -> int:
        return sum(len(v) for v in self.at_k.values())

    def recall(self) -> dict[str, float]:
        out = {CATEGORIES[c]: statistics.fmean(v) for c, v in sorted(self.at_k.items()) if v}
        every = [x for v in self.at_k.values() for x in v]
        out["overall"] = statistics.fmean(every) if every else 0.0
        return out

    def recall_at_5(self) -> float:
        return statistics.fmean(self.at_5) if self.at_5 else 0.0

    def mean_words(self) -> float:
        return statistics.fmean(self.words) if self.words else 0.0

    def latency_percentile(self, q: float) -> float:
        if not self.latencies_ms:
            return 0.0
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def merged(name: str, k: int, tallies: Sequence[Tally]) -> Tally:
    """One tally of the questions of several (each question weighs the same)."""
    out = Tally(name, k)
    for tally in tallies:
        for category, values in tally.at_k.items():
            out.at_k[category].extend(values)
        out.at_5.extend(tally.at_5)
        out.words.extend(tally.words)
        out.latencies_ms.extend(tally.latencies_ms)
    return out
