"""One contract for the memory index, run against both backends.

"edge" is the embedded Qdrant Edge shard (the default); "server" is qdrant-client's API, here in its
local in-memory mode, which speaks the same client API as a real Qdrant server. The real USE
embedder is used throughout (loaded once per session).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from qdrant_client import AsyncQdrantClient

from bot.errors import InvalidInput
from memory.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.embedding import UseEmbedder
from memory.qdrant.driver import IndexDriver, IndexPoint, Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.qdrant.payload import record_to_payload
from memory.qdrant.server import ServerDriver
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource
from memory.sparse import encode_document, encode_query
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ALICE = "telegram:1001"
BOB = "discord:2002"


@pytest.fixture(scope="session")
async def use_embedder() -> UseEmbedder:
    return await shared_use_embedder()


async def _driver(backend: str, path: Path, dimension: int) -> IndexDriver:
    if backend == "edge":
        return await EdgeDriver.open(path / "qdrant", dimension)
    return await ServerDriver.open(AsyncQdrantClient(location=":memory:"), dimension)


@pytest.fixture(params=["edge", "edge-cached", "server", "edge-sealed"])
async def index(
    request: pytest.FixtureRequest, tmp_path: Path, use_embedder: UseEmbedder, clock: FakeClock, redis_url: str
) -> AsyncIterator[QdrantMemoryIndex]:
    backend, _, variant = str(request.param).partition("-")
    driver = await _driver(backend, tmp_path, use_embedder.dimension)
    # "cached": the embedded engine as the app opens it, keeping records read by searches in process.
    # "sealed": the same contract with every payload's words encrypted (SOUVENIR_ENCRYPTION_KEY).
    client = aioredis.from_url(redis_url) if variant == "sealed" else None
    cipher = PersonCipher(RedisDataKeys(client, new_master_key())) if client is not None else None
    cached = 1000 if variant == "cached" else 0
    memory_index = QdrantMemoryIndex(driver, use_embedder, clock, cipher=cipher, cached_records=cached)
    try:
        yield memory_index
    finally:
        await memory_index.close()
        if client is not None:
            await client.aclose()


def memory(
    text: str,
    *,
    user: str = ALICE,
    kind: MemoryKind = MemoryKind.SEMANTIC,
    scope: str = "dm",
    minutes: int = 0,
    memory_id: str | None = None,
) -> MemoryRecord:
    return MemoryRecord(
        memory_id=memory_id or str(uuid.uuid4()),
        user_key=user,
        kind=kind,
        text=text,
        language="en",
        created_at=T0 + timedelta(minutes=minutes),
        source=MemorySource("telegram", f"telegram:dm:{user}", ("42",)),
        scope=scope,
    )


def ask(text: str, *, user: str = ALICE, **kwargs: object) -> IndexQuery:
    return IndexQuery(user_key=user, text=text, at=T0 + timedelta(days=1), **kwargs)  # type: ignore[arg-type]


CAT = "My cat Miso sleeps all day on the sofa."
JOB = "I work as a nurse at the hospital in Lyon."
SISTER = "My sister Julie is getting married in June."
HIKING = "I love hiking in the mountains on weekends."
PEANUTS = "I am allergic to peanuts."
RAMEN = "I had a bowl of ramen soup for lunch."


async def add_life(index: QdrantMemoryIndex) -> dict[str, MemoryRecord]:
    records = {text: memory(text, minutes=i) for i, text in enumerate((CAT, JOB, SISTER, HIKING, PEANUTS, RAMEN))}
    await index.add(list(records.values()))
    return records


def texts(results: list) -> list[str]:
    return [r.record.text for r in results]


async def test_added_memory_comes_back_exactly_and_same_id_replaces(index: QdrantMemoryIndex) -> None:
    first = memory(CAT)
    await index.add([first])
    assert await index.fetch(ALICE, [first.memory_id]) == [first]

    corrected = memory("My cat Miso sleeps all day on the bed.", memory_id=first.memory_id, minutes=5)
    await index.add([corrected])

    assert await index.fetch(ALICE, [first.memory_id]) == [corrected]
    assert await index.count(ALICE) == 1


async def test_hybrid_search_finds_by_meaning(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("What do I do for a living?"))
    assert texts(results)[0] == JOB


async def test_hybrid_search_finds_a_rare_name(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("Miso", limit=3))
    assert texts(results)[0] == CAT


async def test_french_question_finds_english_memory(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    assert texts(await index.search(ask("Comment s'appelle mon chat ?")))[0] == CAT
    assert texts(await index.search(ask("Où est-ce que je travaille ?")))[0] == JOB
    assert texts(await index.search(ask("Quand se marie ma sœur ?", mode="dense")))[0] == SISTER


async def test_dense_mode_scores_are_cosine_similarities(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask(PEANUTS, mode="dense"))
    assert texts(results)[0] == PEANUTS
    assert results[0].score == pytest.approx(1.0, abs=1e-3)
    assert all(-1.0 <= r.score < 0.9 for r in results[1:])


async def test_search_respects_limit_and_returns_best_first(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("my pet", limit=2))
    assert len(results) == 2
    assert results[0].score >= results[1].score


async def test_scopes_keep_private_memories_out_of_groups(index: QdrantMemoryIndex) -> None:
    private = memory(CAT, scope="dm")
    in_group = memory("My cat Miso got a new collar.", scope="group:telegram:chat:7")
    await index.add([private, in_group])

    group_results = await index.search(ask("Miso the cat", scopes=("group:telegram:chat:7",)))
    assert [r.record.memory_id for r in group_results] == [in_group.memory_id]

    dm_results = await index.search(ask("Miso the cat"))
    assert [r.record.memory_id for r in dm_results] == [private.memory_id]

    both = await index.search(ask("Miso the cat", scopes=("dm", "group:telegram:chat:7")))
    assert {r.record.memory_id for r in both} == {private.memory_id, in_group.memory_id}
    assert await index.search(ask("Miso the cat", scopes=())) == []


async def test_kinds_filter(index: QdrantMemoryIndex) -> None:
    fact = memory(CAT, kind=MemoryKind.SEMANTIC)
    feeling = memory("I felt sad when my cat Miso was sick.", kind=MemoryKind.EMOTIONAL)
    await index.add([fact, feeling])

    results = await index.search(ask("Miso", kinds=(MemoryKind.EMOTIONAL,)))
    assert [r.record.memory_id for r in results] == [feeling.memory_id]
    results = await index.search(ask("Miso", kinds=(MemoryKind.EMOTIONAL, MemoryKind.SEMANTIC)))
    assert len(results) == 2


async def test_superseded_memory_is_not_current_but_stays_listed(index: QdrantMemoryIndex, clock: FakeClock) -> None:
    old_job = memory("I work as a baker in Lille.")
    new_job = memory("I work as a nurse in Lyon.", minutes=1)
    await index.add([old_job, new_job])
    moved_at = T0 + timedelta(hours=2)

    assert await index.supersede(ALICE, [old_job.memory_id], moved_at) == 1
    assert await index.supersede(ALICE, [old_job.memory_id], moved_at + timedelta(hours=1)) == 0

    after = await index.search(ask("Where do I work?"))
    assert [r.record.memory_id for r in after] == [new_job.memory_id]
    before = await index.search(IndexQuery(user_key=ALICE, text="Where do I work?", at=moved_at - timedelta(minutes=1)))
    assert {r.record.memory_id for r in before} == {old_job.memory_id, new_job.memory_id}
    history = await index.search(ask("Where do I work?", current_only=False))
    assert {r.record.memory_id for r in history} == {old_job.memory_id, new_job.memory_id}

    [fetched] = await index.fetch(ALICE, [old_job.memory_id])
    assert fetched.valid_to == moved_at
    assert not fetched.is_current(moved_at)
    listed = await index.scroll(ALICE, 0, 10)
    assert [r.memory_id for r in listed] == [new_job.memory_id, old_job.memory_id]

    clock.current = moved_at + timedelta(days=1)
    assert await index.count(ALICE) == 2
    assert await index.count(ALICE, current_only=True) == 1
    assert [r.memory_id for r in await index.scroll(ALICE, 0, 10, current_only=True)] == [new_job.memory_id]


async def test_remove_one(index: QdrantMemoryIndex) -> None:
    records = await add_life(index)
    cat = records[CAT]

    assert await index.remove(ALICE, [cat.memory_id]) == 1
    assert await index.remove(ALICE, [cat.memory_id]) == 0

    assert await index.fetch(ALICE, [cat.memory_id]) == []
    assert await index.count(ALICE) == len(records) - 1
    assert CAT not in texts(await index.search(ask("Miso", limit=10)))


async def test_forget_user_erases_one_person_only(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    bobs = memory("My dog Rex loves the beach.", user=BOB)
    await index.add([bobs])

    assert await index.forget_user(ALICE) == 6

    assert await index.count(ALICE) == 0
    assert await index.search(ask("Miso")) == []
    assert await index.count(BOB) == 1
    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]


async def test_scroll_pages_newest_first(index: QdrantMemoryIndex) -> None:
    records = [memory(f"Memory number {i} about the garden.", minutes=i) for i in range(7)]
    await index.add(list(reversed(records)))
    newest_first = [r.memory_id for r in reversed(records)]

    pages = [await index.scroll(ALICE, offset, 3) for offset in (0, 3, 6)]

    assert [len(p) for p in pages] == [3, 3, 1]
    assert [r.memory_id for page in pages for r in page] == newest_first
    assert await index.scroll(ALICE, 7, 3) == []
    assert await index.count(ALICE) == 7


async def test_listing_can_be_narrowed_to_kinds(index: QdrantMemoryIndex) -> None:
    birthday = memory("My birthday is on 2 June.", kind=MemoryKind.TEMPORAL, minutes=1)
    wedding = memory("My sister's wedding is on 14 August.", kind=MemoryKind.TEMPORAL, minutes=2)
    await index.add([memory(CAT), birthday, wedding, memory(JOB, kind=MemoryKind.EPISODIC)])

    dated = await index.scroll(ALICE, 0, 10, kinds=(MemoryKind.TEMPORAL,))

    assert [r.memory_id for r in dated] == [wedding.memory_id, birthday.memory_id]
    assert await index.count(ALICE, kinds=(MemoryKind.TEMPORAL,)) == 2
    assert await index.count(ALICE) == 4


async def test_fetch_keeps_the_order_asked_and_skips_unknown_ids(index: QdrantMemoryIndex) -> None:
    records = await add_life(index)
    wanted = [records[JOB].memory_id, str(uuid.uuid4()), records[CAT].memory_id, "not-a-uuid"]
    fetched = await index.fetch(ALICE, wanted)
    assert [r.text for r in fetched] == [JOB, CAT]


async def test_another_persons_ids_do_nothing(index: QdrantMemoryIndex) -> None:
    bobs = memory(CAT, user=BOB)
    await index.add([bobs, memory(JOB)])

    assert await index.fetch(ALICE, [bobs.memory_id]) == []
    assert await index.remove(ALICE, [bobs.memory_id]) == 0
    assert await index.supersede(ALICE, [bobs.memory_id], T0 + timedelta(hours=1)) == 0

    assert texts(await index.search(ask(CAT))) == [JOB]
    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]
    assert texts(await index.search(ask(CAT, user=BOB))) == [CAT]


async def test_reusing_another_persons_id_cannot_overwrite_their_memory(index: QdrantMemoryIndex) -> None:
    bobs = memory(CAT, user=BOB)
    await index.add([bobs])

    await index.add([memory("My password is hunter2.", memory_id=bobs.memory_id), memory(JOB)])

    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]
    assert await index.fetch(ALICE, [bobs.memory_id]) == []
    assert texts(await index.search(ask("password"))) == [JOB]


async def test_a_user_key_is_required(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    with pytest.raises(InvalidInput):
        await index.search(ask("Miso", user=""))
    with pytest.raises(InvalidInput):
        await index.forget_user("")
    with pytest.raises(InvalidInput):
        await index.add([memory(CAT, user="")])
    assert await index.count(ALICE) == 6


async def test_memory_ids_must_be_uuids(index: QdrantMemoryIndex) -> None:
    with pytest.raises(InvalidInput):
        await index.add([memory(CAT, memory_id="cat-1")])
    assert await index.count(ALICE) == 0


async def test_nothing_to_do_is_fine(index: QdrantMemoryIndex) -> None:
    await index.add([])
    assert await index.search(ask("anything")) == []
    assert await index.search(ask("the and of")) == []  # stopwords only: dense alone answers
    assert await index.fetch(ALICE, []) == []
    assert await index.remove(ALICE, []) == 0
    assert await index.forget_user(ALICE) == 0
    assert await index.scroll(ALICE, 0, 10) == []


@pytest.fixture(params=["edge", "server"])
async def driver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[IndexDriver]:
    backend_driver = await _driver(request.param, tmp_path, 4)
    try:
        yield backend_driver
    finally:
        await backend_driver.close()


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


@pytest.fixture(params=["edge", "server"])
async def short_walk_index(
    request: pytest.FixtureRequest, tmp_path: Path, use_embedder: UseEmbedder, clock: FakeClock
) -> AsyncIterator[QdrantMemoryIndex]:
    """Deep pages are located by counts beyond 2 ids, so a dozen memories exercise what 20,000 would."""
    driver = await _driver(request.param, tmp_path, use_embedder.dimension)
    memory_index = QdrantMemoryIndex(driver, use_embedder, clock, walk=2)
    try:
        yield memory_index
    finally:
        await memory_index.close()


async def test_every_page_of_a_long_listing_is_in_place(short_walk_index: QdrantMemoryIndex) -> None:
    index = short_walk_index
    minutes = [0, 1, 2, 3, 3, 3, 4, 10, 11, 30, 31, 32, 33, 90, 91, 200, 201]  # uneven, with ties
    records = [memory(f"Garden note {i}.", minutes=m) for i, m in enumerate(minutes)]
    await index.add(records)
    whole = [r.memory_id for r in await index.scroll(ALICE, 0, 100)]
    assert len(whole) == len(records)
    assert [r.memory_id for r in records[-4:]] == list(reversed(whole[:4]))  # newest first

    for limit in (1, 3, 5):
        pages = [[r.memory_id for r in await index.scroll(ALICE, offset, limit)] for offset in range(0, 20, limit)]
        assert [i for page in pages for i in page] == whole, f"pages of {limit}"
    assert await index.scroll(ALICE, len(records), 3) == []


async def test_a_hidden_episode_is_left_out_of_the_listing_but_still_found(index: QdrantMemoryIndex) -> None:
    episode = memory("I love Blue Note jazz.", kind=MemoryKind.EPISODIC)
    fact = memory("I love Blue Note jazz.", minutes=0)
    other = memory(CAT, kind=MemoryKind.EPISODIC, minutes=1)
    await index.add([episode, fact, other])

    assert await index.hide(ALICE, episode.memory_id, fact.memory_id) == 1
    assert await index.hide(ALICE, fact.memory_id, episode.memory_id) == 0  # only episodes hide
    assert await index.hide(BOB, other.memory_id, fact.memory_id) == 0  # only one's own

    listed = await index.scroll(ALICE, 0, 10, listed_only=True)
    assert {r.memory_id for r in listed} == {fact.memory_id, other.memory_id}
    assert await index.count(ALICE, listed_only=True) == 2
    assert await index.count(ALICE) == 3
    [stored] = await index.fetch(ALICE, [episode.memory_id])
    assert stored.hidden_by == fact.memory_id
    assert episode.memory_id in [r.record.memory_id for r in await index.search(ask("jazz", limit=5))]


async def test_listing_what_was_created_before_a_moment(index: QdrantMemoryIndex) -> None:
    records = [memory(f"Memory {i} about the sea.", kind=MemoryKind.EPISODIC, minutes=i) for i in range(5)]
    await index.add([*records, memory(CAT, minutes=1)])

    older = await index.scroll(ALICE, 0, 10, kinds=(MemoryKind.EPISODIC,), created_before=T0 + timedelta(minutes=3))

    assert [r.memory_id for r in older] == [records[2].memory_id, records[1].memory_id, records[0].memory_id]
