"""The trained part of the offline mood reader: multinomial logistic regression in numpy.

Features are a message's USE embedding followed by its lexical cues (`memory.mood.cues`), standardised
with the training set's mean and spread. Trained by `python -m memory.mood.train`, which writes the
weights the package ships (`memory/mood/mood_head.npz`, a few tens of kB).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.engine.mood import MOOD_LABELS

SHIPPED_HEAD = Path(__file__).with_name("mood_head.npz")


@dataclass(frozen=True)
class MoodHead:
    weights: np.ndarray  # (features, labels)
    bias: np.ndarray  # (labels,)
    mean: np.ndarray  # (features,) standardisation
    scale: np.ndarray  # (features,)
    embedding_dimension: int

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """(n, features) -> (n, labels) probabilities, labels in `MOOD_LABELS` order."""
        logits = ((features - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return np.asarray(exp / exp.sum(axis=1, keepdims=True))

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float32),
            bias=self.bias.astype(np.float32),
            mean=self.mean.astype(np.float32),
            scale=self.scale.astype(np.float32),
            embedding_dimension=np.array(self.embedding_dimension),
            labels=np.array(MOOD_LABELS),
        )

    @classmethod
    def load(cls, path: Path = SHIPPED_HEAD) -> MoodHead:
        with np.load(path) as data:
            labels = tuple(str(label) for label in data["labels"])
            if labels != MOOD_LABELS:
                raise ValueError(f"{path}: trained for labels {labels}, expected {MOOD_LABELS}")
            return cls(
                weights=data["weights"],
                bias=data["bias"],
                mean=data["mean"],
                scale=data["scale"],
                embedding_dimension=int(data["embedding_dimension"]),
            )


def fit_head(
    features: np.ndarray,
    labels: np.ndarray,
    *,
    embedding_dimension: int,
    l2: float = 1.0,
    steps: int = 400,
) -> MoodHead:
    """Fit by full-batch gradient descent with momentum (deterministic: zero start, no sampling).

    `labels` are indices into `MOOD_LABELS`; `l2` is the penalty on the weights per training example."""
    n, dims = features.shape
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = (features - mean) / scale
    y = np.zeros((n, len(MOOD_LABELS)))
    y[np.arange(n), labels] = 1.0
    weights = np.zeros((dims, len(MOOD_LABELS)))
    bias = np.zeros(len(MOOD_LABELS))
    velocity_w = np.zeros_like(weights)
    velocity_b = np.zeros_like(bias)
    # Step size from the data's largest curvature, so the descent is stable whatever the feature count.
    rate = 1.0 / (np.linalg.norm(x, ord=2) ** 2 / n / 2 + l2 / n)
    for _ in range(steps):
        logits = x @ weights + bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad_w = x.T @ (p - y) / n + (l2 / n) * weights
        grad_b = (p - y).mean(axis=0)
        velocity_w = 0.9 * velocity_w - rate * grad_w
        velocity_b = 0.9 * velocity_b - rate * grad_b
        weights += velocity_w
        bias += velocity_b
    return MoodHead(weights, bias, mean, scale, embedding_dimension)
