"""The embedded shard builds vector graphs per person only (m=0, payload_m=16 on the tenant `user_key`), none
on the other fields; a shard made before that opens with its memories and gets the same layout."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import qdrant_edge as qe

from memory.qdrant.driver import DENSE, SPARSE, Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.payload import FLOAT_FIELDS, KEYWORD_FIELDS, USER_KEY

DIMENSION = 8
PERSON = "terminal:max"


def _graphs(path: Path) -> dict[str, object]:
    return json.loads((path / "edge_config.json").read_text())["hnsw_config"]


def _field_graphs(path: Path) -> dict[str, tuple[bool | None, bool | None]]:
    """Each indexed field: (is it the tenant, are graphs built on its values)."""
    shard = qe.EdgeShard.load(str(path))
    try:
        schema = shard.info().payload_schema
    finally:
        shard.close()
    params = {field: info.params for field, info in schema.items()}
    return {field: (getattr(p, "is_tenant", None), None if p is None else p.enable_hnsw) for field, p in params.items()}


def _laid_out_per_person(path: Path) -> None:
    graphs = _graphs(path)
    assert (graphs["m"], graphs["payload_m"]) == (0, 16)
    others = [field for field in (*KEYWORD_FIELDS, *FLOAT_FIELDS) if field != USER_KEY]
    fields = _field_graphs(path)
    assert fields[USER_KEY] == (True, None)  # the tenant: its values get the graphs
    assert {field: fields[field][1] for field in others} == dict.fromkeys(others, False)


async def test_a_new_shard_builds_graphs_per_person_only(tmp_path: Path) -> None:
    path = tmp_path / "qdrant"
    driver = await EdgeDriver.open(path, DIMENSION)
    await driver.close()
    _laid_out_per_person(path)


def _old_shard(path: Path) -> None:
    """A shard as the code before per-person graphs made it: default graph config, graphs left on every field."""
    config = qe.EdgeConfig(
        vectors={DENSE: qe.EdgeVectorParams(size=DIMENSION, distance=qe.Distance.Cosine,
                                            datatype=qe.VectorStorageDatatype.Float16)},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        max_search_threads=1,
    )  # fmt: skip
    path.mkdir(parents=True)
    shard = qe.EdgeShard.create(str(path), config)
    for field in KEYWORD_FIELDS:
        shard.update(qe.UpdateOperation.create_field_index(field, qe.KeywordIndexParams(is_tenant=field == USER_KEY)))
    for field in FLOAT_FIELDS:
        shard.update(qe.UpdateOperation.create_field_index(field, qe.FloatIndexParams()))
    points = [
        qe.Point(str(uuid.uuid4()), {DENSE: [float(i + 1)] + [0.5] * (DIMENSION - 1),
                                     SPARSE: qe.SparseVector([i], [1.0])},
                 {USER_KEY: PERSON, "text": f"memory {i}", "kind": "episodic"})
        for i in range(5)
    ]  # fmt: skip
    shard.update(qe.UpdateOperation.upsert_points(points))
    shard.optimize()
    shard.flush()
    shard.close()


async def test_a_shard_made_before_opens_with_its_memories_and_per_person_graphs(tmp_path: Path) -> None:
    path = tmp_path / "qdrant"
    _old_shard(path)
    assert "hnsw_config" not in json.loads((path / "edge_config.json").read_text())

    driver = await EdgeDriver.open(path, DIMENSION)
    try:
        assert await driver.count(Where(user_key=PERSON)) == 5
        found = await driver.nearest([1.0] * DIMENSION, Where(user_key=PERSON), 10)
        assert sorted(h.payload["text"] for h in found) == [f"memory {i}" for i in range(5)]
    finally:
        await driver.close()
    _laid_out_per_person(path)

    driver = await EdgeDriver.open(path, DIMENSION)  # and again: nothing left to remake
    try:
        assert await driver.count(Where(user_key=PERSON)) == 5
    finally:
        await driver.close()
