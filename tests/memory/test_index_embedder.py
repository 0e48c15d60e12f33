"""The default USE embedder: unit vectors, French and English in one space, safe to call concurrently."""

from __future__ import annotations

import asyncio
import math

import pytest

from memory.embedding import USE_DIMENSION, UseEmbedder
from tests.memory.index_fixtures import shared_use_embedder


@pytest.fixture(scope="session")
async def embedder() -> UseEmbedder:
    return await shared_use_embedder()


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_vectors_are_unit_length_and_512_wide(embedder: UseEmbedder) -> None:
    texts = [f"Sentence number {i} about my garden." for i in range(150)]  # more than two batches of 64
    vectors = await embedder.embed(texts)
    assert embedder.dimension == USE_DIMENSION == 512
    assert len(vectors) == 150
    assert all(len(v) == 512 and math.isclose(math.fsum(x * x for x in v), 1.0, abs_tol=1e-4) for v in vectors)


async def test_french_and_english_meet(embedder: UseEmbedder) -> None:
    cat_en, cat_fr, job = await embedder.embed(
        ["My cat is called Miso.", "Mon chat s'appelle Miso.", "I work night shifts at the hospital."]
    )
    assert _cosine(cat_en, cat_fr) > 0.7
    assert _cosine(cat_en, cat_fr) > _cosine(cat_en, job) + 0.3


async def test_batches_give_the_same_vectors_as_single_calls(embedder: UseEmbedder) -> None:
    texts = ["I love hiking.", "J'adore la randonnée.", "Peanuts make me sick."]
    together = await embedder.embed(texts)
    alone = await asyncio.gather(*(embedder.embed([t]) for t in texts))
    for batch_vector, [single_vector] in zip(together, alone, strict=True):
        assert _cosine(batch_vector, single_vector) == pytest.approx(1.0, abs=1e-4)


async def test_empty_input_and_empty_text(embedder: UseEmbedder) -> None:
    assert await embedder.embed([]) == []
    [vector] = await embedder.embed([""])
    assert len(vector) == 512


async def test_blas_is_held_to_one_thread_for_the_whole_process_not_only_within_a_call(embedder: UseEmbedder) -> None:
    import threadpoolctl

    await embedder.embed(["warm up"])
    blas = [pool for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)
    # Between calls too: no limit is entered and left around each encode any more (it cost ~0.6 ms a call).
    await embedder.embed(["my cat is called Miso"])
    assert all(pool["num_threads"] == 1 for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas")
