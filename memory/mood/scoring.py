"""Scores of mood readings against labels: accuracy, per-label precision/recall/F1, macro-F1, valence sign.

Valence sign: joy and calm are positive, sadness, anxiety, anger and tiredness negative; messages labelled
neutral are left out, and a non-neutral message read with valence 0 (neutral) counts as wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.mood import MOOD_LABELS, NEGATIVE, POSITIVE, MoodReading


def _sign(label: str) -> int:
    return 1 if label in POSITIVE else -1 if label in NEGATIVE else 0


def score_readings(gold: Sequence[str], readings: Sequence[MoodReading]) -> dict[str, Any]:
    """The `souvenir eval mood` report for one reading per labelled message."""
    if len(gold) != len(readings):
        raise ValueError("one reading per labelled message")
    predicted = [r.label for r in readings]
    n = len(gold)
    per_label: dict[str, dict[str, float]] = {}
    f1_scores: list[float] = []
    for label in MOOD_LABELS:
        true_pos = sum(1 for g, p in zip(gold, predicted, strict=True) if g == label and p == label)
        said = sum(1 for p in predicted if p == label)
        real = sum(1 for g in gold if g == label)
        precision = true_pos / said if said else 0.0
        recall = true_pos / real if real else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        f1_scores.append(f1)
        per_label[label] = {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}
    signed = [(g, r) for g, r in zip(gold, readings, strict=True) if _sign(g) != 0]
    right_sign = sum(1 for g, r in signed if (r.valence > 0 and _sign(g) > 0) or (r.valence < 0 and _sign(g) < 0))
    return {
        "n": n,
        "accuracy": round(sum(1 for g, p in zip(gold, predicted, strict=True) if g == p) / n, 4) if n else 0.0,
        "macro_f1": round(sum(f1_scores) / len(MOOD_LABELS), 4),
        "valence_sign_accuracy": round(right_sign / len(signed), 4) if signed else 0.0,
        "per_label": per_label,
    }
