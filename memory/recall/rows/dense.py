"""The rows' vectors and their dense search: the rows a question may see with the highest cosines, best first.

Each row's vector is held in half precision, as the embedded index keeps it (every vector is rounded to half
precision when its row is written, so nothing is lost), in faiss's flat scalar-quantizer index, which scans it
with SIMD. After the question's embedding has pushed the rows out of the processor's cache, the scan reads the
vectors from memory: half the bytes of single precision, ~0.3 ms at 3,800 memories against ~0.65 ms for numpy's
product over single-precision rows (bench.recall_profile). A row's cosine is the same sum as numpy's, in another
order (a difference of ~3e-8).

Only this module imports faiss.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import faiss
import numpy as np
import numpy.typing as npt

# One question at a time, on the event loop: OpenMP's threads would only spin on the core the embedder works on.
faiss.omp_set_num_threads(1)

Rows = npt.NDArray[np.intp]
Cosines = npt.NDArray[np.float32]
# Beyond this many rows a question may not see, faiss is asked to skip them itself (a bitmap checked row by row,
# ~2x the scan) rather than for that many more rows, dropped afterwards.
SKIPPED_AFTER = 256
# Rows asked for beyond those wanted: enough that a run of equal cosines at the cut (the same words said a few
# times) ends within them, rather than the whole search being made again at twice the count.
SPARE = 16


def half_precision(vector: Sequence[float]) -> npt.NDArray[np.float16]:
    """`vector` at unit length (a zero one left so), rounded to half precision: what a row holds."""
    values = np.asarray(vector, dtype=np.float32)
    norm = math.sqrt(float(values @ values))
    return (values / norm if norm > 0 else values).astype(np.float16)


class DenseRows:
    """Vectors appended one row after another: row `i` is the `i`-th vector added."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self._index = faiss.IndexScalarQuantizer(dimension, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)

    @property
    def size(self) -> int:
        return int(self._index.ntotal)

    def add(self, vectors: Sequence[npt.NDArray[np.float16]]) -> None:
        """Rows at the end, from vectors at unit length and half precision (`half_precision`)."""
        if vectors:
            self._index.add(np.array(vectors, dtype=np.float32).reshape(len(vectors), self.dimension))

    def best(self, query: npt.NDArray[np.float32], allowed: npt.NDArray[np.bool_], wanted: int) -> tuple[Rows, Cosines]:
        """The `wanted` rows among those `allowed` (a mask over every row) with the highest cosine with `query`
        (of unit length), best first, ties in row order; and their cosines."""
        size = self.size
        seen = int(np.count_nonzero(allowed[:size]))
        if not seen or wanted <= 0:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.float32)
        asked = np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)
        hidden = size - seen
        skipping = None
        if hidden > SKIPPED_AFTER:
            bits = np.packbits(allowed[:size], bitorder="little")
            skipping = faiss.IDSelectorBitmap(size, faiss.swig_ptr(bits))  # `bits` and it live through the search
        # Without skipping, enough more rows that the hidden ones, wherever they rank, leave `wanted` of the others;
        # and a few more than wanted, whose lowest value tells whether a row left out may tie with the last one kept
        # (asked for exactly `wanted`, the last found always was that value, and every question searched twice).
        asked_for, most = (wanted + hidden + SPARE, size) if skipping is None else (wanted + SPARE, seen)
        while True:
            rows, values = self._search(asked, min(asked_for, most), skipping)  # best first
            lowest = values[-1]
            if skipping is None:
                keep = allowed[rows]
                rows, values = rows[keep], values[keep]
            # Rows left out rank at most as high as the lowest found: if it is the cut's own value, one of them
            # may tie with a row kept (an equal vector, the same words said twice) and come first in row order.
            if asked_for >= most or len(values) < wanted or lowest < values[wanted - 1]:
                break
            asked_for *= 2
        order = np.lexsort((rows, -values))[:wanted]
        return rows[order].astype(np.intp), values[order]

    def _search(self, asked: npt.NDArray[np.float32], count: int, skipping: Any) -> tuple[Rows, Cosines]:
        params = None
        if skipping is not None:
            params = faiss.SearchParameters()
            params.sel = skipping
        cosines, found = self._index.search(asked, count, params=params)
        return found[0], cosines[0]
