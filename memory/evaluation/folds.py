"""Leave-one-conversation-out: every choice is made on the other conversations, scored on the one left out.

A choice is one of a handful of candidate `RecallWeights` (the defaults and one-factor deviations from them),
not a search: with five conversations, a big grid would fit the noise of the four it is picked on. For each
fold, the candidate with the best R@k on the training conversations (R@5 breaks ties) is scored on the
held-out conversation; the headline is the mean of the held-out figures over the folds.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memory.evaluation.scoring import Tally, merged
from memory.recall.ranking import RecallWeights

# The defaults first: the plain run is the first candidate's.
CANDIDATES: tuple[RecallWeights, ...] = (
    RecallWeights(),
    RecallWeights(rank_weight=0.3, similarity_weight=0.5),  # keywords count more
    RecallWeights(rank_weight=0.6, similarity_weight=0.9),  # meaning counts more
    RecallWeights(named_boost=1.25),
    RecallWeights(named_boost=2.0),
    RecallWeights(temporal_boost=1.6, near_date_boost=1.8),
    RecallWeights(session_weight=0.3),
    RecallWeights(session_weight=1.2),
    RecallWeights(focus_over=8),
    RecallWeights(focus_over=20),
    RecallWeights(excerpt_messages=3, join_apart=1),  # the excerpts before: a message and the ones either side
    RecallWeights(excerpt_messages=3),
    RecallWeights(join_apart=1),
)


@dataclass(frozen=True, slots=True)
class Fold:
    held_out: str
    weights: RecallWeights
    train_recall: float  # what the choice was made on
    tally: Tally  # the held-out conversation, scored with the chosen weights

    def report(self) -> dict[str, Any]:
        return {
            "held_out": self.held_out,
            "weights": self.weights.as_dict(),
            "train_overall": self.train_recall,
            "recall": self.tally.recall(),
            "recall_at_5": self.tally.recall_at_5(),
            "mean_words": self.tally.mean_words(),
            "n_questions": self.tally.n_questions,
        }


def leave_one_out(candidates: Sequence[RecallWeights], scored: Sequence[Mapping[str, Tally]], k: int) -> list[Fold]:
    """`scored[i]` holds candidate i's tally on each conversation (by id). One fold per conversation."""
    conversations = list(scored[0])
    folds: list[Fold] = []
    for held_out in conversations:
        training = [c for c in conversations if c != held_out]

        def train_score(index: int, training: list[str] = training) -> tuple[float, float]:
            tally = merged("train", k, [scored[index][c] for c in training])
            return tally.recall()["overall"], tally.recall_at_5()

        best = max(range(len(candidates)), key=train_score)  # the first of equals: defaults win ties
        folds.append(Fold(held_out, candidates[best], train_score(best)[0], scored[best][held_out]))
    return folds


def candidates_report(candidates: Sequence[RecallWeights], scored: Sequence[Mapping[str, Tally]], k: int
                      ) -> list[dict[str, Any]]:  # fmt: skip
    """Each candidate on every conversation: to see what the folds chose among (a fitted figure, not a result)."""
    out = []
    for weights, tallies in zip(candidates, scored, strict=True):
        tally = merged("candidate", k, list(tallies.values()))
        out.append({"weights": weights.as_dict(), "recall": tally.recall(), "recall_at_5": tally.recall_at_5()})
    return out


def folds_mean(folds: Sequence[Fold]) -> dict[str, Any]:
    """The mean over folds of each held-out figure (a category a fold lacks is left out of its mean)."""
    categories: dict[str, list[float]] = {}
    for fold in folds:
        for name, value in fold.tally.recall().items():
            categories.setdefault(name, []).append(value)
    return {
        "recall": {name: statistics.fmean(values) for name, values in categories.items()},
        "recall_at_5": statistics.fmean(f.tally.recall_at_5() for f in folds),
        "mean_words": statistics.fmean(f.tally.mean_words() for f in folds),
        "n_folds": len(folds),
    }
