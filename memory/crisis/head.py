"""Multinomial logistic regression in numpy over (none, concern, imminent): the learned crisis reader's weights.

Features are the message's USE embedding, the cue vector and the known words and letter runs
(`memory.crisis.features`), standardised with the training set's mean and spread. The package ships the trained
weights with the vocabulary they were trained on (`crisis_head.npz`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memory.crisis.features import CUES, KnownRows, Vocabulary, features

LEVELS = ("none", "concern", "imminent")
SHIPPED_HEAD = Path(__file__).with_name("crisis_head.npz")


@dataclass(frozen=True)
class CrisisHead:
    weights: np.ndarray  # (features, levels)
    bias: np.ndarray  # (levels,)
    mean: np.ndarray  # (features,)
    scale: np.ndarray  # (features,)
    embedding_dimension: int
    vocabulary: Vocabulary

    def probabilities(self, texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> np.ndarray:
        """Each text (with its embedding) -> (none, concern, imminent) probabilities, one row a text."""
        return self.probabilities_of(features(texts, vectors, self.vocabulary))

    def probabilities_of(self, rows: np.ndarray) -> np.ndarray:
        """(n, features) -> (n, levels) probabilities, in `LEVELS` order."""
        logits = ((rows - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True))

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, weights=self.weights.astype(np.float32), bias=self.bias.astype(np.float32),
            mean=self.mean.astype(np.float32), scale=self.scale.astype(np.float32),
            embedding_dimension=np.array(self.embedding_dimension), levels=np.array(LEVELS),
            words=np.array(self.vocabulary.words), characters=np.array(self.vocabulary.characters),
        )  # fmt: skip

    @classmethod
    def load(cls, path: Path = SHIPPED_HEAD) -> CrisisHead:
        with np.load(path) as data:
            if tuple(str(level) for level in data["levels"]) != LEVELS:
                raise ValueError(f"{path}: not a crisis head for the levels {LEVELS}")
            vocabulary = Vocabulary(tuple(map(str, data["words"])), tuple(map(str, data["characters"])))
            return cls(
                data["weights"], data["bias"], data["mean"], data["scale"], int(data["embedding_dimension"]), vocabulary
            )


def fit_head(
    dense: np.ndarray, known: KnownRows, levels: np.ndarray, *, vocabulary: Vocabulary, l2: float = 1.0,
    steps: int = 500, crisis_weight: float = 1.0,
) -> CrisisHead:
    """Full-batch gradient descent with momentum, from zero (deterministic), over every feature standardised with
    the training set's mean and spread. `dense` holds each row's embedding and cue vector, `known` its words and
    letter runs (`memory.crisis.features.training_features`): the standardised matrix is never built, since the
    words alone would make it tens of thousands of columns wide. `levels` index `LEVELS`; `crisis_weight` counts
    each crisis example that many times: a miss costs more than a false alarm."""
    n, split = dense.shape
    known_mean = known.column_means()
    mean = np.concatenate([dense.mean(axis=0), known_mean])
    scale = np.concatenate([dense.std(axis=0), np.sqrt(known_mean * (1 - known_mean))]) + 1e-3
    inverse = (1 / scale[split:]).astype(np.float32)
    standardised = ((dense - mean[:split]) / scale[:split]).astype(np.float32)
    x = _Standardised(standardised, known, mean[split:] * inverse, inverse)
    y = np.zeros((n, len(LEVELS)), dtype=np.float32)
    y[np.arange(n), levels] = 1.0
    sample = np.where(levels > 0, crisis_weight, 1.0)[:, None]
    sample = (sample / sample.mean()).astype(np.float32)
    weights = np.zeros((len(mean), len(LEVELS)), dtype=np.float32)
    bias = np.zeros(len(LEVELS), dtype=np.float32)
    velocity_w, velocity_b = np.zeros_like(weights), np.zeros_like(bias)
    # Step size from the data's largest curvature, so the descent is stable whatever the feature count.
    rate = 1.0 / (_largest_singular_value(x) ** 2 / n / 2 * float(sample.max()) + l2 / n)
    for _ in range(steps):
        logits = x.times(weights) + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - y) * sample
        grad_w = x.transposed_times(error) / n + (l2 / n) * weights
        grad_b = error.mean(axis=0)
        velocity_w = 0.9 * velocity_w - rate * grad_w
        velocity_b = 0.9 * velocity_b - rate * grad_b
        weights += velocity_w
        bias += velocity_b
    return CrisisHead(weights, bias, mean, scale, split - len(CUES), vocabulary)


@dataclass(frozen=True)
class _Standardised:
    """The standardised training matrix [dense | known], kept as its two parts."""

    dense: np.ndarray  # already standardised
    known: KnownRows
    known_shift: np.ndarray  # mean / scale of each known column
    known_inverse: np.ndarray  # 1 / scale of each known column

    def times(self, w: np.ndarray) -> np.ndarray:
        split = self.dense.shape[1]
        known_w = w[split:] * self.known_inverse[:, None]
        return np.asarray(self.dense @ w[:split] + self.known.times(known_w) - self.known_shift @ w[split:])

    def transposed_times(self, e: np.ndarray) -> np.ndarray:
        known = self.known.transposed_times(e) * self.known_inverse[:, None] - np.outer(self.known_shift, e.sum(0))
        return np.vstack([self.dense.T @ e, known]).astype(np.float32)


def _largest_singular_value(x: _Standardised, iterations: int = 100) -> float:
    """By power iteration from a fixed start (deterministic): a full SVD of a wide matrix takes minutes."""
    width = x.dense.shape[1] + len(x.known_shift)
    v = np.ones((width, 1), dtype=np.float32) / np.sqrt(width)
    value = 0.0
    for _ in range(iterations):
        u = x.transposed_times(x.times(v))
        value = float(np.linalg.norm(u))
        if value == 0.0:
            return 0.0
        v = u / value
    return float(np.sqrt(value))
