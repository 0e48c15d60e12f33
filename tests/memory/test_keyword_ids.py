"""With encryption on, the keyword index on disk does not spell out the words: its ids are keyed per person.

How it was found: a 25-word dictionary hashed with crc32 recovered "chlamydia", "therapist", "vodka" and
"diagnosed" from the sparse vectors of an encrypted shard. The same attack here finds every word of a shard
written in clear (so it can fail), and nothing in an encrypted one; keyword search still finds the memory, and
after `/forget all` the person's keyword key is gone with their data key.
"""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import qdrant_edge as qe

from memory.privacy.crypto import PersonCipher, TextCipher
from memory.qdrant.driver import SPARSE
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource
from memory.words.sparse import tokenize
from tests.conftest import FakeClock

LEA, MARC = "telegram:4242", "telegram:77"
AT = datetime(2026, 3, 1, tzinfo=UTC)
SECRETS = "I was diagnosed with chlamydia, my therapist says the vodka does not help"
DICTIONARY = (
    "chlamydia therapist vodka diagnosed depression alcohol abortion divorce cancer hiv pregnant suicide "
    "debt rehab cocaine affair anxiety bipolar lawyer prison gambling eviction overdose herpes miso"
).split()


class SameVector:
    """Every text gets the same vector: only the keyword ranking tells memories apart."""

    dimension = 8

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 7 for _ in texts]


def _memory(user: str, text: str) -> MemoryRecord:
    return MemoryRecord(str(uuid.uuid4()), user, MemoryKind.SEMANTIC, text, "en", AT, MemorySource("t", "t:dm:1", ()))


async def _write(path: Path, clock: FakeClock, cipher: TextCipher | None) -> None:
    index = QdrantMemoryIndex(await EdgeDriver.open(path, SameVector.dimension), SameVector(), clock, cipher=cipher)
    try:
        await index.add([_memory(LEA, SECRETS), _memory(MARC, "My cat Miso sleeps on the piano")])
    finally:
        await index.close()


def _ids_on_disk(path: Path) -> set[int]:
    """What anyone holding a copy of the shard reads: every sparse id of every point."""
    shard = qe.EdgeShard.load(str(path))
    try:
        records, _ = shard.scroll(qe.ScrollRequest(limit=100, with_payload=False, with_vector=True))
        vectors = [r.vector for r in records if isinstance(r.vector, dict)]
        return {int(i) for v in vectors for i in v[SPARSE].indices}
    finally:
        shard.close()


def _dictionary_attack(ids: set[int]) -> set[str]:
    return {word for word in DICTIONARY for token in tokenize(word) if zlib.crc32(token.encode()) in ids}


async def test_a_dictionary_finds_the_words_of_a_shard_written_in_clear(tmp_path: Path, clock: FakeClock) -> None:
    await _write(tmp_path / "qdrant", clock, None)
    found = _dictionary_attack(_ids_on_disk(tmp_path / "qdrant"))
    assert {"chlamydia", "therapist", "vodka", "diagnosed", "miso"} <= found


async def test_a_dictionary_finds_nothing_in_an_encrypted_shard(
    tmp_path: Path, clock: FakeClock, cipher: PersonCipher
) -> None:
    await _write(tmp_path / "qdrant", clock, cipher)
    ids = _ids_on_disk(tmp_path / "qdrant")
    assert len(ids) >= 10  # the keyword index is there, only keyed
    assert _dictionary_attack(ids) == set()


async def test_two_people_s_same_word_gets_two_ids(tmp_path: Path, clock: FakeClock, cipher: PersonCipher) -> None:
    # Keyed per person: one person's ids say nothing about another's (no id is shared across people).
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "q", 8), SameVector(), clock, cipher=cipher)
    try:
        await index.add([_memory(LEA, "Miso"), _memory(MARC, "Miso")])
    finally:
        await index.close()
    assert len(_ids_on_disk(tmp_path / "q")) == 2


async def test_keyword_search_still_finds_the_memory_and_nothing_after_erasure(
    tmp_path: Path, clock: FakeClock, cipher: PersonCipher
) -> None:
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "q", 8), SameVector(), clock, cipher=cipher)
    try:
        others = [_memory(LEA, f"Something else entirely, number {n}") for n in range(20)]
        wanted = _memory(LEA, "My therapist is called Dr Okonkwo")
        await index.add([*others, wanted, _memory(MARC, "Okonkwo is my neighbour")])
        [first, *_] = await index.search(IndexQuery(LEA, "Okonkwo", AT, limit=5))
        assert first.record == wanted  # the dense ranking ties: only the keyed keyword ranking puts it first

        assert (await cipher.opener(LEA)).keyword_key is not None
        await cipher.forget_user(LEA)
        assert (await cipher.opener(LEA)).keyword_key is None  # the key of their ids went with the data key
        assert await index.search(IndexQuery(LEA, "Okonkwo", AT, limit=5)) == []
        [marc] = await index.search(IndexQuery(MARC, "Okonkwo", AT, limit=5))
        assert marc.record.text == "Okonkwo is my neighbour"  # someone else's keys are untouched
    finally:
        await index.close()
