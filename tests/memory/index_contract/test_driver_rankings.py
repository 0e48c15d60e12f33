"""The drivers' hybrid ranking on synthetic vectors: keyword matches fused in, rarer terms weighing more."""

from __future__ import annotations

import pytest

from memory.qdrant.driver import IndexDriver, IndexPoint, Where
from memory.qdrant.payload import record_to_payload
from memory.words.sparse import encode_document, encode_query
from tests.memory.index_memories import ALICE, memory

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


async def test_hybrid_fuses_keyword_matches_the_dense_side_misses(driver: IndexDriver) -> None:
    """Synthetic vectors: the memory naming "Zorglub" points away from the query, so only the sparse
    retriever can bring it back; dense-only search must not see it."""
    close_by = [memory(f"Note {i} about gardening.") for i in range(6)]
    named = memory("Zorglub is the name of my goldfish.")
    points = [
        IndexPoint(r.memory_id, [1.0, 0.1 * i, 0.0, 0.0], encode_document(r.text), record_to_payload(r))
        for i, r in enumerate(close_by)
    ]
    points.append(
        IndexPoint(named.memory_id, [0.0, 0.0, 0.0, 1.0], encode_document(named.text), record_to_payload(named))
    )
    await driver.upsert(ALICE, points)
    where = Where(user_key=ALICE)

    dense_only = await driver.nearest([1.0, 0.0, 0.0, 0.0], where, 3)
    fused = await driver.hybrid([1.0, 0.0, 0.0, 0.0], encode_query("Zorglub"), where, 3, candidates=3)

    assert named.memory_id not in [h.point_id for h in dense_only]
    # Top of the sparse list ties with the top of the dense list under RRF.
    assert named.memory_id in [h.point_id for h in fused[:2]]
    assert len(fused) == 3


async def test_rarer_terms_weigh_more(driver: IndexDriver) -> None:
    """IDF comes from the engine: the sparse retriever's best match is the memory sharing the rare word.

    Dense vectors keep the rare memory out of the dense candidate, so it can only come from sparse."""
    common = [memory(f"I went to the market with my friend, day {i}.") for i in range(8)]
    # Longer than the others, so without IDF its term weight would lose.
    rare = memory("I went to the conservatory with my friend and her brother yesterday evening after work.")
    query = [1.0, 0.0, 0.0, 0.0]
    points = [IndexPoint(r.memory_id, query, encode_document(r.text), record_to_payload(r)) for r in common]
    away = [0.0, 0.0, 1.0, 0.0]
    points.append(IndexPoint(rare.memory_id, away, encode_document(rare.text), record_to_payload(rare)))
    await driver.upsert(ALICE, points)

    fused = await driver.hybrid(query, encode_query("market conservatory"), Where(user_key=ALICE), 2, candidates=1)

    assert rare.memory_id in [h.point_id for h in fused]
