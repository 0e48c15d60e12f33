"""Multinomial logistic regression in numpy over (none, concern, imminent): the learned crisis reader's weights.

Features are the message's USE embedding followed by the cue vector (`memory.crisis.features`), standardised
with the training set's mean and spread. The package ships the trained weights (`crisis_head.npz`, ~10 kB).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

LEVELS = ("none", "concern", "imminent")
SHIPPED_HEAD = Path(__file__).with_name("crisis_head.npz")


@dataclass(frozen=True)
class CrisisHead:
    weights: np.ndarray  # (features, levels)
    bias: np.ndarray  # (levels,)
    mean: np.ndarray  # (features,)
    scale: np.ndarray  # (features,)
    embedding_dimension: int

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(n, features) -> (n, levels) probabilities, in `LEVELS` order."""
        logits = ((features - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True))

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path, weights=self.weights.astype(np.float32), bias=self.bias.astype(np.float32),
            mean=self.mean.astype(np.float32), scale=self.scale.astype(np.float32),
            embedding_dimension=np.array(self.embedding_dimension), levels=np.array(LEVELS),
        )  # fmt: skip

    @classmethod
    def load(cls, path: Path = SHIPPED_HEAD) -> CrisisHead:
        with np.load(path) as data:
            if tuple(str(level) for level in data["levels"]) != LEVELS:
                raise ValueError(f"{path}: not a crisis head for the levels {LEVELS}")
            return cls(data["weights"], data["bias"], data["mean"], data["scale"], int(data["embedding_dimension"]))


def fit_head(
    features: np.ndarray, levels: np.ndarray, *, embedding_dimension: int, l2: float = 1.0, steps: int = 500,
    crisis_weight: float = 1.0,
) -> CrisisHead:
    """Full-batch gradient descent with momentum, from zero (deterministic). `levels` index `LEVELS`;
    `crisis_weight` counts each crisis example that many times: a miss costs more than a false alarm."""
    n, dims = features.shape
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = (features - mean) / scale
    y = np.zeros((n, len(LEVELS)))
    y[np.arange(n), levels] = 1.0
    sample = np.where(levels > 0, crisis_weight, 1.0)[:, None]
    sample = sample / sample.mean()
    weights = np.zeros((dims, len(LEVELS)))
    bias = np.zeros(len(LEVELS))
    velocity_w, velocity_b = np.zeros_like(weights), np.zeros_like(bias)
    # Step size from the data's largest curvature, so the descent is stable whatever the feature count.
    rate = 1.0 / (np.linalg.norm(x, ord=2) ** 2 / n / 2 * float(sample.max()) + l2 / n)
    for _ in range(steps):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - y) * sample
        grad_w = x.T @ error / n + (l2 / n) * weights
        grad_b = error.mean(axis=0)
        velocity_w = 0.9 * velocity_w - rate * grad_w
        velocity_b = 0.9 * velocity_b - rate * grad_b
        weights += velocity_w
        bias += velocity_b
    return CrisisHead(weights, bias, mean, scale, embedding_dimension)
