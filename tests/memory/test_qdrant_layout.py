"""A Qdrant server collection is laid out for a distributed cluster as the settings say: shards, replicas and
write consistency, with the person key and kind indexed."""

from __future__ import annotations

from typing import Any

import pytest
from qdrant_client import AsyncQdrantClient, models

from bot.app.memory import index_options
from bot.config import load_settings
from bot.errors import ConfigError
from memory.index_factory import collection_layout
from memory.qdrant.payload import KIND, USER_KEY
from memory.qdrant.server import COLLECTION, CollectionLayout, ServerDriver

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


class RecordingQdrant(AsyncQdrantClient):
    """qdrant-client's local mode (which ignores cluster settings), recording what it is asked to set up."""

    def __init__(self) -> None:
        super().__init__(location=":memory:")
        self.created: dict[str, Any] = {}
        self.indexed: dict[str, Any] = {}
        self.updated: list[models.CollectionParamsDiff] = []

    async def create_collection(self, collection_name: str, **options: Any) -> bool:
        self.created = options
        return await super().create_collection(collection_name, **options)

    async def create_payload_index(self, collection_name: str, field_name: str, **options: Any) -> Any:
        self.indexed[field_name] = options["field_schema"]
        return await super().create_payload_index(collection_name, field_name, **options)

    async def update_collection(self, collection_name: str, **options: Any) -> bool:
        self.updated.append(options["collection_params"])
        return True


def test_the_settings_give_the_collection_layout() -> None:
    settings = load_settings(qdrant_shards=6, qdrant_replication=3, qdrant_write_consistency=2)
    assert collection_layout(index_options(settings)) == CollectionLayout(6, 3, 2)
    assert collection_layout(index_options(load_settings())) == CollectionLayout(1, 1, 1)


def test_a_write_consistency_above_the_replication_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(qdrant_replication=2, qdrant_write_consistency=3)
    assert "SOUVENIR_QDRANT_WRITE_CONSISTENCY" in str(caught.value)


async def test_the_collection_is_created_with_the_layout_and_person_and_kind_indexes() -> None:
    client = RecordingQdrant()
    driver = await ServerDriver.open(client, 8, layout=CollectionLayout(6, 3, 2))
    created = client.created
    assert (created["shard_number"], created["replication_factor"], created["write_consistency_factor"]) == (6, 3, 2)
    assert client.indexed[USER_KEY].is_tenant  # each person's points live together on a shard
    assert client.indexed[KIND].type == models.KeywordIndexType.KEYWORD
    await driver.close()


async def test_the_collection_records_what_built_it_in_its_metadata() -> None:
    client = RecordingQdrant()
    built_by = {"souvenir_schema_version": 1, "embedding": "openai-compatible:embed-b", "dimension": 8}
    driver = await ServerDriver.open(client, 8, collection="souvenir_memories_1", metadata=built_by)
    assert client.created["metadata"] == built_by
    await driver.close()


async def test_an_existing_collection_takes_a_new_replication_and_write_consistency() -> None:
    client = RecordingQdrant()
    await client.create_collection(
        COLLECTION,
        vectors_config={"dense": models.VectorParams(size=8, distance=models.Distance.COSINE)},
        sparse_vectors_config={"sparse": models.SparseVectorParams(modifier=models.Modifier.IDF)},
    )
    driver = await ServerDriver.open(client, 8, layout=CollectionLayout(1, 3, 2))
    assert [(p.replication_factor, p.write_consistency_factor) for p in client.updated] == [(3, 2)]
    await driver.close()
