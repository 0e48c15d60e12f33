"""One USE embedder for every memory-index test module in the run (the model loads once)."""

from __future__ import annotations

from memory.embedding import UseEmbedder

_SHARED = UseEmbedder()


async def shared_use_embedder() -> UseEmbedder:
    await _SHARED.warm_up()  # loads on the first call only
    return _SHARED
