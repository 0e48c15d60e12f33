"""The people whose memories are kept as rows (`person_rows`), built from the index and kept up to date by it.

Only where this process is the index's one writer (the embedded engine), as the record cache: the index tells the
keeper every memory it writes (with its vector and keyword terms), every record whose fields change (superseded,
hidden), and every deletion. A person's rows are built from the index (their records, vectors and keyword terms),
in the background, the first time they write or recall in this process (that recall searches the index); once the
rows kept reach `rows_kept`, only when they recall a second time. A build runs on the event loop a slice at a time
(`_built`), so that a recall meanwhile waits for one slice at most. They then grow with what they write; what is
written while a build runs is added to it when it ends. A deletion drops the person's rows and any build under
way: erased words leave this process at once, and the rows are built again from what is left. Rows are kept for
`rows_kept` memories in all, the people who recalled least recently let go first.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from memory.recall.rows.person_rows import Corpus, PersonRows, Written
from memory.records import MemoryRecord
from memory.words.sparse import SparseTerms

log = logging.getLogger(__name__)

# A person's memories as the index holds them (record, dense vector, keyword terms), and the key their keyword ids
# are keyed with (None: plain ids).
PersonPoints = tuple[list[tuple[MemoryRecord, list[float], SparseTerms]], bytes | None]
Load = Callable[[str], Awaitable[PersonPoints]]
# Memories kept as rows, all people together. Each costs ~6 kB (the vector 2 kB, the postings 3.3 kB, the columns
# and its keyword ids: 1,480 against 1,178 MB at peak at 100 people in bench.compare_mem0), so ~1 GB at most. Below
# it a box keeps everyone (100 people of LoCoMo's length fit); above it, the people who talk now.
ROWS_KEPT = 150_000
_ASKED_KEPT = 10_000
ROOM_AGAIN = 0.9  # share of `rows_kept` the rows must fall to, once full, before people asking once are built again
BUILT_A_TURN = 8  # rows written between two turns of the event loop (~0.5 ms: 40-80 µs each)


@dataclass(slots=True)
class _Build:
    task: asyncio.Task[PersonRows | None] | None = None
    pending: list[Written] = field(default_factory=list)  # written while the build reads the index
    stale: bool = False  # something was deleted or changed meanwhile: the build is thrown away


async def _built(user_key: str, dimension: int, written: Sequence[Written], keyword_key: bytes | None) -> PersonRows:
    """The rows a slice at a time on the event loop, its turn given back between slices: a recall meanwhile waits
    for a slice at most at each of its steps. Built in a worker thread, the rows held the interpreter's lock, and with
    it the loop, for the whole person (~45 ms for ~700 memories), and every recall meanwhile waited at each of its
    steps that let the lock go: at 100 people with rows kept for a quarter of them (people asked twice built, others
    let go), the recalls through the index answered at p50 / p95 9.1 / 30.0 ms while builds ran, 6.6 / 13.2 ms
    with builds in slices (the reading of the points too: memory/qdrant/edge.py `with_vectors`)."""
    rows = PersonRows(user_key, dimension, keyword_key)
    rows.reserve(len(written))
    for start in range(0, len(written), BUILT_A_TURN):
        rows.write(written[start : start + BUILT_A_TURN])
        await asyncio.sleep(0)
    return rows


class RecallRows:
    def __init__(self, dimension: int, *, rows_kept: int = ROWS_KEPT) -> None:
        self._dimension = dimension
        self._rows_kept = rows_kept
        self._people: OrderedDict[str, PersonRows] = OrderedDict()
        self._builds: dict[str, _Build] = {}
        self.corpus = Corpus()
        self._asked: OrderedDict[str, None] = OrderedDict()  # not kept, asked once while there was no room
        self._full = False  # someone was let go to make room (`_has_room`)
        # One build at a time: each is CPU work, and a box that lets many people go (more memories than
        # `rows_kept`) would otherwise build for everyone who asks at once.
        self._one_at_a_time = asyncio.Lock()

    @property
    def kept(self) -> int:
        """Rows kept, all people together."""
        return sum(rows.size for rows in self._people.values())

    def holds(self, user_key: str) -> bool:
        return user_key in self._people

    # ---- told by the index ----

    def written(self, records: Sequence[MemoryRecord], vectors: Sequence[Sequence[float]],
                terms: Sequence[SparseTerms], load: Load) -> None:  # fmt: skip
        """Memories just written (the index holds them now), with their vectors and keyword terms."""
        by_user: dict[str, list[Written]] = {}
        for record, vector, its_terms in zip(records, vectors, terms, strict=True):
            by_user.setdefault(record.user_key, []).append(Written(record, vector, its_terms))
        for user_key, items in by_user.items():
            rows = self._people.get(user_key)
            build = self._builds.get(user_key)
            if rows is not None:
                rows.write(items)
                if rows.wasted > max(rows.living, 64):
                    self._let(self._people.pop(user_key))  # mostly rewritten: built again, compact, on the next recall
            elif build is not None:
                build.pending.extend(items)
            elif self._has_room():
                self._start(user_key, load)

    def changed(self, user_key: str, records: Sequence[MemoryRecord]) -> None:
        """Records of the person whose fields changed (not their words): read again by the index."""
        rows = self._people.get(user_key)
        if rows is not None:
            rows.refresh(records)
        build = self._builds.get(user_key)
        if build is not None:
            build.stale = True

    def dropped(self, user_key: str) -> None:
        """Some or all of the person's memories were deleted: their rows go (built again when needed)."""
        self._let(self._people.pop(user_key, None))
        self._asked.pop(user_key, None)
        build = self._builds.get(user_key)
        if build is not None:
            build.stale = True

    # ---- asked by recall ----

    async def ready(self, user_key: str, load: Load, *, wait: bool = False) -> PersonRows | None:
        """The person's rows. When they are not kept, None (recall searches the index) and they are built in the
        background for the next recall; with `wait`, they are built now (None: they could not be)."""
        rows = self._people.get(user_key)
        if rows is not None:
            self._people.move_to_end(user_key)
            return rows
        build = self._builds.get(user_key)
        if not wait:
            if build is None and (self._has_room() or user_key in self._asked):
                self._start(user_key, load)
            elif build is None:  # no room: only for someone who asks again, not for every passing question
                self._asked[user_key] = None
                while len(self._asked) > _ASKED_KEPT:
                    self._asked.popitem(last=False)
            return None
        if build is None or build.stale:
            build = self._start(user_key, load)
        assert build.task is not None
        # The build's own rows: another build ending meanwhile may already have let this person go again.
        return await asyncio.shield(build.task)

    async def close(self) -> None:
        tasks = [b.task for b in self._builds.values() if b.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._builds.clear()
        self._people.clear()
        self._full = False
        self.corpus = Corpus()

    # ---- building ----

    def _start(self, user_key: str, load: Load) -> _Build:
        build = _Build()
        self._builds[user_key] = build
        build.task = asyncio.get_running_loop().create_task(self._build(user_key, build, load))
        return build

    async def _build(self, user_key: str, build: _Build, load: Load) -> PersonRows | None:
        try:
            async with self._one_at_a_time:
                if build.stale:
                    return None
                points, key = await load(user_key)
                written = [Written(record, vector, terms) for record, vector, terms in points]
                rows = await _built(user_key, self._dimension, written, key)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not keep a person's memories as rows: recall reads the index", exc_info=True)
            return None
        finally:
            if self._builds.get(user_key) is build:
                del self._builds[user_key]
        if build.stale:
            return None
        rows.write(build.pending)
        self._asked.pop(user_key, None)
        self._people[user_key] = rows
        self.corpus.add(rows.frequency, rows.living)
        rows.corpus = self.corpus
        self._let_go(keep=user_key)
        return rows

    def _has_room(self) -> bool:
        """Whether someone may be built without being asked twice. Once a build has let people go, the rows kept sit
        just below `rows_kept`, and each person asking once would be built, letting the next go: at 1,000 people,
        207 builds for 300 questions (~80 ms of work each), the recalls slower for it than through the index alone
        (p50 96 against 50 ms). So, once full, not until the rows kept fall to `ROOM_AGAIN` of it."""
        kept = self.kept
        if self._full and kept <= self._rows_kept * ROOM_AGAIN:
            self._full = False
        return not self._full and kept < self._rows_kept

    def _let_go(self, keep: str) -> None:
        kept = self.kept
        while kept > self._rows_kept and len(self._people) > 1:
            user_key, rows = next(iter(self._people.items()))
            if user_key == keep:
                self._people.move_to_end(user_key)
                continue
            self._let(self._people.pop(user_key))
            kept -= rows.size
            self._full = True

    def _let(self, rows: PersonRows | None) -> None:
        """A person's rows no longer kept: their terms leave the corpus."""
        if rows is not None and rows.corpus is not None:
            self.corpus.add(rows.frequency, rows.living, -1)
            rows.corpus = None
