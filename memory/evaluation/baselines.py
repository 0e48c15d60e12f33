"""Baselines over raw turns ("Speaker: text"): BM25, dense (the configured embedder) and their RRF fusion."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from memory.evaluation.locomo_data import Conversation
from memory.ports import Embedder
from memory.words.bm25 import bm25_scores
from memory.words.sparse import tokenize

RRF_K = 60


class RawTurns:
    """One conversation's turns, searchable three ways; results are lists of dia_ids, best first."""

    def __init__(self, conversation: Conversation, vectors: np.ndarray) -> None:
        self.ids = [t.dia_id for t in conversation.turns]
        self.texts = [f"{t.speaker}: {t.text}" for t in conversation.turns]
        self._vectors = vectors
        self._docs = [Counter(tokenize(text)) for text in self.texts]
        self._lengths = [sum(d.values()) for d in self._docs]

    @classmethod
    async def build(cls, conversation: Conversation, embedder: Embedder) -> RawTurns:
        texts = [f"{t.speaker}: {t.text}" for t in conversation.turns]
        return cls(conversation, np.asarray(await embedder.embed(texts), dtype=np.float32))

    def bm25(self, question: str, k: int, k1: float = 1.2, b: float = 0.75) -> list[str]:
        scores = bm25_scores(self._docs, self._lengths, set(tokenize(question)), k1, b)
        order = np.argsort(-np.asarray(scores), kind="stable")
        return [self.ids[i] for i in order[:k] if scores[i] > 0]

    def dense(self, question_vector: Sequence[float], k: int) -> list[str]:
        scores = self._vectors @ np.asarray(question_vector, dtype=np.float32)
        return [self.ids[i] for i in np.argsort(-scores, kind="stable")[:k]]

    def hybrid(self, question: str, question_vector: Sequence[float], k: int) -> list[str]:
        fused: dict[str, float] = {}
        for ranking in (self.bm25(question, 50), self.dense(question_vector, 50)):
            for rank, dia_id in enumerate(ranking):
                fused[dia_id] = fused.get(dia_id, 0.0) + 1.0 / (RRF_K + rank + 1)
        return [i for i, _ in sorted(fused.items(), key=lambda kv: kv[1], reverse=True)[:k]]

    def words(self, ids: Sequence[str]) -> int:
        by_id = dict(zip(self.ids, self.texts, strict=True))
        return sum(len(by_id[i].split()) for i in ids)
