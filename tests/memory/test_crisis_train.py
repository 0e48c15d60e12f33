"""Training the crisis head: the sparse training products equal the dense ones the head reads with, a fit learns
what it is shown, and no evaluation line is trained on."""

from __future__ import annotations

import numpy as np

from memory.crisis.features import Vocabulary, features, training_features
from memory.crisis.head import fit_head
from memory.crisis.labelled import FRESH_SETS, TRAINING, load_labelled, training_rows

TEXTS = [
    "je veux mourir ce soir", "this exam is killing me lol", "I bought a rope today and I'm done",
    "on a fêté les 30 ans de ma soeur", "I want to die tonight", "the pizza was to die for",
    "j'ai acheté une corde pour l'escalade", "je veux plus vivre",
]  # fmt: skip
LEVELS = np.array([2, 0, 2, 0, 2, 0, 0, 1])


def _vectors(count: int) -> np.ndarray:
    return np.random.default_rng(7).standard_normal((count, 16)).astype(np.float32)


def test_the_training_features_are_the_reading_features_in_two_parts() -> None:
    vocabulary = Vocabulary.of(TEXTS * 3)
    vectors = _vectors(len(TEXTS))
    dense, known = training_features(TEXTS, vectors, vocabulary)
    whole = features(TEXTS, vectors, vocabulary)
    sparse_part = whole[:, dense.shape[1] :]
    assert np.array_equal(whole[:, : dense.shape[1]], dense)
    weights = np.random.default_rng(1).standard_normal((len(vocabulary), 3))
    errors = np.random.default_rng(2).standard_normal((len(TEXTS), 3))
    assert np.allclose(known.times(weights), sparse_part @ weights, atol=1e-5)
    assert np.allclose(known.transposed_times(errors), sparse_part.T @ errors, atol=1e-5)
    assert np.allclose(known.column_means(), sparse_part.mean(axis=0))


def test_a_fit_reads_back_the_levels_it_was_shown() -> None:
    vocabulary = Vocabulary.of(TEXTS * 3)
    vectors = _vectors(len(TEXTS))
    dense, known = training_features(TEXTS, vectors, vocabulary)
    head = fit_head(dense, known, LEVELS, vocabulary=vocabulary, l2=0.1, steps=300)
    assert head.embedding_dimension == 16
    assert head.probabilities(TEXTS, vectors).argmax(axis=1).tolist() == LEVELS.tolist()


def test_no_evaluation_line_is_trained_on() -> None:
    trained = {row.text.casefold() for row in training_rows(*TRAINING)}
    for path in FRESH_SETS:
        assert path not in TRAINING
        assert not {row.text.casefold() for row in load_labelled(path)} & trained, path.name
