"""Recall over a person's rows brings back what recall through the index's two searches brings back, and the rows
follow every write, correction and erasure."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.engine.model import RecallQuery
from memory.privacy.crypto import PersonCipher
from memory.qdrant.driver import Hit, Where
from memory.qdrant.edge import VECTOR_PAGE, EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.recall.lexical import stem
from memory.recall.rows.keeper import BUILT_A_TURN, RecallRows
from memory.recall.rows.person_rows import PersonRows, Written
from memory.recall.rows.ranking import keyword_scores
from memory.records import MemoryKind, MemoryRecord
from memory.service import LongTermMemoryService
from memory.words.sparse import SparseTerms
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder
from tests.memory.index_memories import ALICE, BOB, T0, memory

PEOPLE = ["my sister Léa", "my neighbour Marc", "Grandma", "my boss", "the vet", "my friend Aïcha", "Tom", "Jules"]
DOINGS = ["cooked a Thai curry with", "went hiking near Annecy with", "argued about money with",
          "watched a jazz film with", "painted the kitchen with", "planned a trip to Lisbon with",
          "played the double bass for", "baked bread for"]
WHEN = ["on Sunday", "last winter", "after work", "during the holidays", "at dawn"]
QUESTIONS = [
    "Who did I go hiking with?", "What did I cook with Léa?", "When did I paint the kitchen?",
    "Did I ever bake bread for Grandma?", "What trips have I planned?", "Who did I argue with about money?",
    "What did I do with Aïcha after work?", "Tell me about the double bass",
]


def _life(user: str, count: int, seed: int) -> list[MemoryRecord]:
    rng = random.Random(seed)
    sentences = [f"I {doing} {who} {when}." for doing, who, when in itertools.product(DOINGS, PEOPLE, WHEN)]
    rng.shuffle(sentences)
    kinds = [MemoryKind.EPISODIC, MemoryKind.SEMANTIC, MemoryKind.EMOTIONAL]
    return [memory(text, user=user, kind=kinds[i % 3], minutes=60 * i) for i, text in enumerate(sentences[:count])]


@dataclass
class _Memory:
    index: QdrantMemoryIndex
    rows: RecallRows
    by_rows: LongTermMemoryService
    by_index: LongTermMemoryService
    clock: FakeClock
    driver: EdgeDriver


async def _open(path: Path, clock: FakeClock, rows_kept: int = 150_000) -> _Memory:
    embedder = await shared_use_embedder()
    driver = await EdgeDriver.open(path, embedder.dimension)
    rows = RecallRows(embedder.dimension, rows_kept=rows_kept)
    index = QdrantMemoryIndex(driver, embedder, clock, cached_records=10_000, read_ahead=read_ahead, rows=rows)
    return _Memory(index, rows, LongTermMemoryService(index, recall_rows=index.recall_rows),
                   LongTermMemoryService(index), clock, driver)  # fmt: skip


@pytest.fixture
async def kept(tmp_path: Path) -> AsyncIterator[_Memory]:
    opened = await _open(tmp_path / "qdrant", FakeClock(T0 + timedelta(days=30)))
    yield opened
    await opened.index.close()


async def _ids(kept: _Memory, question: str, user: str = ALICE, *, rows: bool = True, **options: object) -> list[str]:
    """What recall brings back: over the person's rows (built first, if need be), or through the index's searches."""
    if rows:
        assert await kept.index.recall_rows(user, wait=True) is not None
    query = RecallQuery(user, question, T0 + timedelta(days=30), **options)  # type: ignore[arg-type]
    return [m.memory_id for m in await (kept.by_rows if rows else kept.by_index).recall(query)]


async def _texts(kept: _Memory, question: str, user: str = ALICE) -> list[str]:
    assert await kept.index.recall_rows(user, wait=True) is not None
    return [m.text for m in await kept.by_rows.recall(RecallQuery(user, question, T0 + timedelta(days=30)))]


def _holds_word(rows: RecallRows, word: str) -> bool:
    """Whether any person's rows still hold `word`: in a record, or as a stem in a posting."""
    for person in rows._people.values():
        if any(r is not None and word in r.text.casefold() for r in person.records):
            return True
        if stem(word) in person.stems or stem(word) in person.own:
            return True
    return False


async def test_recall_over_rows_brings_back_what_the_index_searches_bring_back(kept: _Memory) -> None:
    # More memories than the pool (150 by meaning, 100 by words and meaning): the rows must find the same pool.
    await kept.index.add(_life(ALICE, 320, seed=1) + _life(BOB, 120, seed=2))
    assert await kept.index.recall_rows(ALICE, wait=True) is not None
    same_first = 0
    for question in QUESTIONS:
        by_rows, by_index = await _ids(kept, question), await _ids(kept, question, rows=False)
        assert by_rows, question
        assert len(set(by_rows) & set(by_index)) >= 0.8 * len(by_index), question
        same_first += by_rows[:3] == by_index[:3]
    assert same_first >= len(QUESTIONS) - 1


async def test_a_memory_written_after_the_rows_were_built_is_recalled(kept: _Memory) -> None:
    await kept.index.add(_life(ALICE, 40, seed=3))
    assert await kept.index.recall_rows(ALICE, wait=True) is not None
    await kept.index.add([memory("My tortoise Gustave hates lettuce.", minutes=5000)])
    assert kept.rows.holds(ALICE)  # grown, not dropped
    assert (await _texts(kept, "What does my tortoise hate?"))[0] == "My tortoise Gustave hates lettuce."


async def test_a_superseded_memory_is_no_longer_recalled(kept: _Memory) -> None:
    old = memory("I live in Nantes.", minutes=1)
    await kept.index.add([old, *_life(ALICE, 30, seed=4)])
    assert "I live in Nantes." in await _texts(kept, "Where do I live?")
    await kept.index.supersede(ALICE, [old.memory_id], T0 + timedelta(days=2))
    assert kept.rows.holds(ALICE)  # told, not rebuilt
    assert "I live in Nantes." not in await _texts(kept, "Where do I live?")


async def test_a_forgotten_memory_leaves_the_rows_at_once(kept: _Memory) -> None:
    secret = memory("I once stole a zeppelin from the museum.", minutes=1)
    await kept.index.add([secret, *_life(ALICE, 30, seed=5), *_life(BOB, 10, seed=6)])
    assert "I once stole a zeppelin from the museum." in await _texts(kept, "What did I steal?")
    await kept.index.remove(ALICE, [secret.memory_id])
    assert not _holds_word(kept.rows, "zeppelin")
    assert "I once stole a zeppelin from the museum." not in await _texts(kept, "What did I steal?")
    assert not _holds_word(kept.rows, "zeppelin")  # built again from what is left


async def test_an_erased_person_leaves_nothing_in_the_rows(kept: _Memory) -> None:
    await kept.index.add([memory("My zeppelin is called Hindenburg.", user=BOB), *_life(BOB, 20, seed=7),
                          *_life(ALICE, 20, seed=8)])  # fmt: skip
    await kept.index.recall_rows(BOB, wait=True)
    await kept.index.recall_rows(ALICE, wait=True)
    await kept.index.forget_user(BOB)
    assert not kept.rows.holds(BOB)
    assert not _holds_word(kept.rows, "zeppelin")
    assert kept.rows.corpus.documents == 20  # Alice's alone: Bob's words no longer weigh on anyone's ranking
    assert await _ids(kept, "What is my zeppelin called?", user=BOB) == []


async def test_a_person_recalls_their_own_memories_only_and_in_the_scope_asked(kept: _Memory) -> None:
    await kept.index.add([memory("My cat Miso sleeps all day.", user=BOB),
                          memory("We agreed the cat may join the group trip.", scope="group:7"),
                          *_life(ALICE, 20, seed=9)])  # fmt: skip
    texts = await _texts(kept, "Tell me about the cat")
    assert "My cat Miso sleeps all day." not in texts
    assert "We agreed the cat may join the group trip." not in texts
    in_group = await _ids(kept, "Tell me about the cat", scopes=("dm", "group:7"))
    assert len(in_group) >= 1


async def test_rows_are_built_from_the_index_after_a_restart(tmp_path: Path) -> None:
    clock = FakeClock(T0 + timedelta(days=30))
    first = await _open(tmp_path / "qdrant", clock)
    await first.index.add(_life(ALICE, 200, seed=10))
    before = {q: await _ids(first, q) for q in QUESTIONS}
    await first.index.close()
    again = await _open(tmp_path / "qdrant", clock)
    try:
        assert await again.index.recall_rows(ALICE) is None  # not kept yet: this recall searches the index
        assert await again.by_rows.recall(RecallQuery(ALICE, QUESTIONS[0], T0 + timedelta(days=30)))
        assert {q: await _ids(again, q) for q in QUESTIONS} == before
        assert again.rows.holds(ALICE)
    finally:
        await again.index.close()


async def test_the_people_who_recalled_least_recently_are_let_go_first(tmp_path: Path) -> None:
    opened = await _open(tmp_path / "qdrant", FakeClock(T0 + timedelta(days=30)), rows_kept=50)
    try:
        await opened.index.add(_life(ALICE, 30, seed=11) + _life(BOB, 30, seed=12))
        expected = await _ids(opened, "Who did I go hiking with?", rows=False)
        assert await _ids(opened, "Who did I go hiking with?") == expected
        await opened.index.recall_rows(BOB, wait=True)
        assert opened.rows.holds(BOB) and not opened.rows.holds(ALICE)
        assert opened.rows.kept <= 50 or len(opened.rows._people) == 1
        assert await _ids(opened, "Who did I go hiking with?") == expected  # built again
    finally:
        await opened.index.close()


async def _slow_reads(index: QdrantMemoryIndex) -> asyncio.Event:
    """From now on, a build's read of the index ends only once the returned event is set."""
    driver = index._driver
    read, gate = driver.with_vectors, asyncio.Event()

    async def held(where: Where) -> list[tuple[Hit, list[float], SparseTerms]]:
        found = await read(where)
        await gate.wait()
        return found

    driver.with_vectors = held  # type: ignore[method-assign]
    return gate


async def test_what_is_written_while_the_rows_are_built_is_in_them(kept: _Memory) -> None:
    gate = await _slow_reads(kept.index)
    await kept.index.add(_life(ALICE, 20, seed=13))  # the first write starts the build
    await kept.index.add([memory("My tortoise Gustave hates lettuce.", minutes=5000)])
    gate.set()
    assert (await _texts(kept, "What does my tortoise hate?"))[0] == "My tortoise Gustave hates lettuce."


async def test_a_build_that_read_a_memory_forgotten_meanwhile_is_thrown_away(kept: _Memory) -> None:
    secret = memory("I once stole a zeppelin from the museum.", minutes=1)
    gate = await _slow_reads(kept.index)
    await kept.index.add([secret, *_life(ALICE, 20, seed=14)])  # the build reads the secret, then waits
    await asyncio.sleep(0.05)
    await kept.index.remove(ALICE, [secret.memory_id])
    gate.set()
    await asyncio.sleep(0.05)
    assert not _holds_word(kept.rows, "zeppelin")
    assert "I once stole a zeppelin from the museum." not in await _texts(kept, "What did I steal?")
    assert not _holds_word(kept.rows, "zeppelin")


async def test_with_encryption_rows_find_by_keyword_as_the_index_does(tmp_path: Path, cipher: PersonCipher) -> None:
    embedder = await shared_use_embedder()
    driver = await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension)
    rows = RecallRows(embedder.dimension)
    index = QdrantMemoryIndex(driver, embedder, FakeClock(T0 + timedelta(days=30)), cached_records=10_000,
                              cipher=cipher, read_ahead=read_ahead, rows=rows)  # fmt: skip
    sealed = _Memory(index, rows, LongTermMemoryService(index, recall_rows=index.recall_rows),
                     LongTermMemoryService(index), index._clock, driver)  # type: ignore[arg-type]  # fmt: skip
    try:
        # A rare word among many memories: only the keyword ranking (keyed ids under encryption) brings it in.
        kestrel = memory("Kestrel is the name I gave my bicycle.", minutes=1)
        await index.add([kestrel, *_life(ALICE, 300, seed=15)])
        person = await index.recall_rows(ALICE, wait=True)
        assert person is not None
        scores = keyword_scores(person, "what is kestrel?")
        assert scores.argmax() == person.row_of[kestrel.memory_id] and scores.max() > 0
        assert (await _ids(sealed, "kestrel"))[:1] == (await _ids(sealed, "kestrel", rows=False))[:1]
        assert "Kestrel is the name I gave my bicycle." in await _texts(sealed, "kestrel")
    finally:
        await index.close()


async def test_once_the_rows_are_full_a_person_is_built_when_they_ask_again(tmp_path: Path) -> None:
    opened = await _open(tmp_path / "qdrant", FakeClock(T0 + timedelta(days=30)), rows_kept=30)
    try:
        await opened.index.add(_life(ALICE, 30, seed=16))
        assert await opened.index.recall_rows(ALICE, wait=True) is not None  # the rows are full now
        await opened.index.add(_life(BOB, 30, seed=17))
        assert await opened.index.recall_rows(BOB) is None  # one question searches the index, and builds nothing
        await asyncio.sleep(0.1)
        assert not opened.rows.holds(BOB) and BOB not in opened.rows._builds
        assert await opened.index.recall_rows(BOB) is None  # the second starts the build
        assert BOB in opened.rows._builds or opened.rows.holds(BOB)
        assert await opened.index.recall_rows(BOB, wait=True) is not None
    finally:
        await opened.index.close()


async def test_a_build_gives_the_event_loop_back_every_few_rows(kept: _Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recall that comes while someone's rows are built waits for a few rows, not for the whole person: between
    two turns of another task, at most one slice of rows is written, and the points are read a page at a time."""
    await kept.index.add(_life(ALICE, 120, seed=18))
    assert await kept.index.recall_rows(ALICE, wait=True) is not None
    kept.rows.dropped(ALICE)  # as when a memory is forgotten: built again on the next recall
    events: list[str] = []
    write = PersonRows.write

    def counted_write(rows: PersonRows, written: list[Written]) -> None:
        events.extend("row" for _ in written)
        write(rows, written)

    class CountedShard:
        def __init__(self, shard: Any) -> None:
            self._shard = shard

        def scroll(self, request: Any) -> Any:
            found = self._shard.scroll(request)
            events.extend("point" for _ in found[0])
            return found

        def __getattr__(self, name: str) -> Any:
            return getattr(self._shard, name)

    monkeypatch.setattr(PersonRows, "write", counted_write)
    monkeypatch.setattr(kept.driver, "_shard", CountedShard(kept.driver._shard))
    building = asyncio.create_task(kept.index.recall_rows(ALICE, wait=True))
    while not building.done():
        events.append("turn")
        await asyncio.sleep(0)
    assert building.result() is not None and events.count("row") >= 120
    runs = [len(list(run)) for what, run in itertools.groupby(events) if what != "turn"]
    assert max(runs) <= max(BUILT_A_TURN, VECTOR_PAGE), runs


async def test_once_someone_was_let_go_a_person_asking_once_is_not_built(tmp_path: Path) -> None:
    """Letting someone go leaves the rows just under the limit: the next person asking once must not be built (and
    let the next go in turn, a build for nearly every question), only one who asks again."""
    opened = await _open(tmp_path / "qdrant", FakeClock(T0 + timedelta(days=30)), rows_kept=50)
    people = [f"telegram:{2001 + n}" for n in range(6)]
    try:
        for n, user in enumerate(people[:5]):
            await opened.index.add(_life(user, 12, seed=30 + n))
            assert await opened.index.recall_rows(user, wait=True) is not None
        assert opened.rows.kept == 48 and not opened.rows.holds(people[0])  # the fifth let the first go
        await opened.index.add(_life(people[5], 12, seed=40))
        assert await opened.index.recall_rows(people[5]) is None  # one question: the index, and no build
        await asyncio.sleep(0.1)
        assert not opened.rows.holds(people[5]) and people[5] not in opened.rows._builds
        assert await opened.index.recall_rows(people[5]) is None  # the second starts the build
        assert await opened.index.recall_rows(people[5], wait=True) is not None
    finally:
        await opened.index.close()
