"""The one BM25 the index, recall and the baselines share."""

from __future__ import annotations

from memory.words.bm25 import bm25_scores, saturated_tf


def test_a_rare_word_outweighs_a_common_one() -> None:
    docs = [{"cat": 1, "miso": 1}, {"cat": 1}, {"cat": 1}, {"dog": 1}]
    scores = bm25_scores(docs, [2, 1, 1, 1], {"cat", "miso"}, 1.2, 0.75)
    assert scores[0] > scores[1] > scores[3] == 0.0


def test_repeats_saturate_and_long_documents_count_less() -> None:
    assert saturated_tf(10, 10, 10, 1.2, 0.75) < 10 * saturated_tf(1, 10, 10, 1.2, 0.75)
    assert saturated_tf(1, 40, 10, 1.2, 0.75) < saturated_tf(1, 5, 10, 1.2, 0.75)


def test_no_documents_no_scores() -> None:
    assert bm25_scores([], [], {"cat"}, 1.2, 0.75) == []
