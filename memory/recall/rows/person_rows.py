"""One person's memories as rows of arrays: what a recall weighs of each, kept as the memories are written.

A recall weighs a few hundred candidates. Read one by one from the index (ids, records, then each record's facts)
that was most of its time beyond the query's embedding; kept here as columns, each signal of every candidate is
one array operation. Row `i` is one memory: its vector (unit length, half precision, searched in `dense`), whether
it is still there (`alive`), its scope, until when it is true, its conversation and what fades it, and its words in
three postings (term -> rows):
- `keywords`: its keyword-search terms (`memory.words.sparse`: BM25 tf saturation), as the index's keyword
  ranking reads them;
- `stems`: its stems counted as the ranking's BM25 counts them (own words thrice), with each row's `length`;
- `own`: the stems of its own words (not its context's).
A memory rewritten takes a new row and its old one dies (a posting is never edited); rows are only appended, so
the arrays grow by doubling (the vectors' index, as it grows). Postings are `array.array`s, copied to numpy arrays
for the terms of a question (the copy kept until the posting grows).
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from memory.recall.facts import microseconds, recall_facts
from memory.recall.ranking import NO_DAY, record_days
from memory.recall.rows.dense import DenseRows, half_precision
from memory.records import MemoryRecord
from memory.words.sparse import SparseTerms

NEVER = np.iinfo(np.int64).max  # `valid_to` of a memory still true
_FIRST_CAPACITY = 64

Floats = npt.NDArray[np.float64]
_NO_ROWS = np.zeros(0, dtype=np.int32)
_NO_VALUES = np.zeros(0, dtype=np.float64)
_NO_TERMS = np.zeros(0, dtype=np.intp)
_NO_IDS = array("I")
# column -> (type, value of a row not written yet)
_COLUMNS: dict[str, tuple[type, object]] = {
    "alive": (np.bool_, False),
    "scope": (np.int32, 0),
    "valid_to": (np.int64, NEVER),
    "session": (np.int32, 0),
    "length": (np.float64, 1.0),
    "moment": (np.int64, 0),
    "half_life": (np.float64, math.inf),
    "floor": (np.float64, 1.0),
    "weight": (np.float64, 1.0),
    "dated": (np.bool_, False),
    "local_day": (np.int32, NO_DAY),  # `memory.recall.ranking.record_days`
    "said_day": (np.int32, NO_DAY),
}


@dataclass(frozen=True, slots=True)
class Written:
    """A memory as it was written, with the vector and keyword terms it was indexed with."""

    record: MemoryRecord
    vector: Sequence[float]
    terms: SparseTerms  # its keyword terms, as the index stores them


class _Posting:
    __slots__ = ("_read", "rows", "values")

    def __init__(self) -> None:
        self.rows = array("i")
        self.values = array("d")
        self._read: tuple[npt.NDArray[np.int32], Floats] | None = None

    def read(self) -> tuple[npt.NDArray[np.int32], Floats]:
        """As arrays: copies (a view would stop the posting from growing), made again once it has grown."""
        read = self._read
        if read is None or len(read[0]) != len(self.rows):
            read = self._read = (np.array(self.rows, dtype=np.int32), np.array(self.values, dtype=np.float64))
        return read


def _post(postings: dict[object, _Posting], terms: Iterable[object], row: int, values: Iterable[float]) -> None:
    """`row` into the posting of each of `terms`, with its value (one call a memory: ~100 terms each)."""
    get = postings.get
    for term, value in zip(terms, values, strict=False):  # `values` may be endless (repeat)
        posting = get(term)
        if posting is None:
            posting = postings[term] = _Posting()
        posting.rows.append(row)
        posting.values.append(value)


class Corpus:
    """How many memories hold each keyword term, over every person's rows this process keeps: the keyword
    ranking's IDF, as the index takes it over its whole collection."""

    def __init__(self) -> None:
        self.documents = 0
        self.frequency: Counter[object] = Counter()

    def add(self, frequency: dict[object, int], documents: int, sign: int = 1) -> None:
        """A person's memories (`documents` of them, holding the terms `frequency` counts) in, or out (-1)."""
        self.documents += sign * documents
        for term, count in frequency.items():
            self.frequency[term] = self.frequency.get(term, 0) + sign * count

    def count(self, terms: Sequence[int], sign: int) -> None:
        """One memory holding `terms` in, or out (-1)."""
        self.documents += sign
        _counted(self.frequency, terms, sign)


def _counted(frequency: Counter[object], terms: Sequence[int], sign: int) -> None:
    """`terms` (each once) counted in `frequency`, or out (-1)."""
    if sign == 1:
        frequency.update(terms)  # counted in C
    else:
        for term in terms:
            frequency[term] -= 1


class PersonRows:
    """One person's rows. Not thread-safe: built in a worker thread, then changed on the event loop only."""

    # The columns (`_COLUMNS`), `capacity` rows long, set by `_allocate`.
    alive: npt.NDArray[np.bool_]
    scope: npt.NDArray[np.int32]
    valid_to: npt.NDArray[np.int64]
    session: npt.NDArray[np.int32]
    length: Floats
    moment: npt.NDArray[np.int64]
    half_life: Floats
    floor: Floats
    weight: Floats
    dated: npt.NDArray[np.bool_]
    local_day: npt.NDArray[np.int32]
    said_day: npt.NDArray[np.int32]

    def __init__(self, user_key: str, dimension: int, keyword_key: bytes | None = None) -> None:
        self.user_key = user_key
        self.dimension = dimension
        self.keyword_key = keyword_key  # what the person's keyword ids are keyed with, as the index's (None: plain)
        self.size = 0  # rows used, dead ones included
        self.living = 0
        self.records: list[MemoryRecord | None] = []
        # Each row's keyword ids (uint32), for its counts to leave `frequency` when it dies: 4 bytes an id in an
        # array, where a tuple of ints took ~40 (~2 kB a memory, a quarter of what a row cost).
        self.terms: list[array[int]] = []
        self.row_of: dict[str, int] = {}
        self.keywords: dict[object, _Posting] = {}
        self.stems: dict[object, _Posting] = {}
        self.own: dict[object, _Posting] = {}
        self.frequency: Counter[object] = Counter()  # keyword term -> living rows holding it
        self.corpus: Corpus | None = None  # set once kept: it follows this person's writes from then on
        self._scope_codes: dict[str, int] = {}
        self._session_codes: dict[object, int] = {}
        self.dense = DenseRows(dimension)  # the rows' vectors, as many as there are rows
        self.capacity = 0
        self._allocate(_FIRST_CAPACITY)

    def _allocate(self, capacity: int) -> None:
        """Room for `capacity` rows, the rows used copied over."""
        used = self.size
        for name, (dtype, fill) in _COLUMNS.items():
            column: npt.NDArray[Any] = np.full((capacity,), fill, dtype=dtype)
            if used:
                column[:used] = getattr(self, name)[:used]
            setattr(self, name, column)
        self.capacity = capacity

    # ---- writing ----

    def reserve(self, count: int) -> None:
        """Room for `count` more rows, made at once (a build writes its rows a slice at a time)."""
        if self.size + count > self.capacity:
            self._allocate(self.size + count)

    def write(self, written: Sequence[Written]) -> None:
        """Each memory as a new row (the row of an earlier version of it dies). CPU only."""
        needed = self.size + len(written)
        if needed > self.capacity:  # room for all at once: a build's rows at their size, later writes doubling
            self._allocate(max(needed, 2 * self.capacity) if self.size else needed)
        for item in written:
            self._kill(item.record.memory_id)
            self._append(item)
        # As the embedded index keeps them (memory/qdrant/edge.py): of unit length, in half precision. A row built
        # from the index and a row written here then hold the same vector, and cosines are the index's own.
        self.dense.add([half_precision(item.vector) for item in written])

    def refresh(self, records: Sequence[MemoryRecord]) -> None:
        """Records whose fields changed but not their words or vector (superseded, hidden): read anew."""
        for record in records:
            row = self.row_of.get(record.memory_id)
            if row is None:
                continue
            self.records[row] = record
            self.valid_to[row] = NEVER if record.valid_to is None else microseconds(record.valid_to)
            self.scope[row] = self._code(self._scope_codes, record.scope)
            self.local_day[row], self.said_day[row] = record_days(record)

    def scope_codes(self, scopes: Sequence[str]) -> list[int]:
        return [self._scope_codes[s] for s in scopes if s in self._scope_codes]

    def _kill(self, memory_id: str) -> None:
        row = self.row_of.pop(memory_id, None)
        if row is not None:
            self._count(self.terms[row], -1)
            self.terms[row] = _NO_IDS
            self.alive[row] = False
            self.records[row] = None
            self.living -= 1

    def _append(self, item: Written) -> None:
        """Into the next row (`write` has made room, and adds its vector)."""
        record, row = item.record, self.size
        facts = recall_facts(record)
        self.alive[row] = True
        self.scope[row] = self._code(self._scope_codes, record.scope)
        self.valid_to[row] = NEVER if record.valid_to is None else microseconds(record.valid_to)
        self.session[row] = self._code(self._session_codes, facts.session)
        self.length[row] = facts.length
        self.moment[row] = facts.moment
        self.half_life[row] = facts.half_life
        self.floor[row] = facts.floor
        self.weight[row] = facts.weight
        self.dated[row] = facts.dated
        self.local_day[row], self.said_day[row] = record_days(record)
        terms = item.terms
        _post(self.keywords, terms.indices, row, terms.values)
        self._count(terms.indices, 1)
        _post(self.stems, facts.keywords.keys(), row, facts.keywords.values())
        _post(self.own, facts.own, row, repeat(1.0))
        self.records.append(record)
        self.terms.append(array("I", terms.indices))
        self.row_of[record.memory_id] = row
        self.size += 1
        self.living += 1

    def _count(self, terms: Sequence[int], sign: int) -> None:
        _counted(self.frequency, terms, sign)
        if self.corpus is not None:
            self.corpus.count(terms, sign)

    @staticmethod
    def _code(codes: dict, key: object) -> int:  # type: ignore[type-arg]
        found = codes.get(key)
        if found is None:
            found = codes[key] = len(codes)
        return found

    # ---- reading ----

    def posting(self, postings: dict[object, _Posting], term: object) -> tuple[npt.NDArray[np.int32], Floats] | None:
        """The rows holding `term` and its value in each (read-only arrays)."""
        found = postings.get(term)
        if found is None or not found.rows:
            return None
        return found.read()

    def postings_of(
        self, postings: dict[object, _Posting], terms: Iterable[object]
    ) -> tuple[npt.NDArray[np.int32], Floats, npt.NDArray[np.intp], list[object]]:
        """The postings of `terms` end to end: rows, values, and for each which of the terms found it is (0, 1, …
        in the list of the terms found, the last thing returned)."""
        found: list[object] = []
        read: list[tuple[npt.NDArray[np.int32], Floats]] = []
        for term in terms:
            posting = self.posting(postings, term)
            if posting is not None:
                found.append(term)
                read.append(posting)
        if not read:
            return _NO_ROWS, _NO_VALUES, _NO_TERMS, found
        which = np.repeat(np.arange(len(read)), [len(rows) for rows, _ in read])
        return np.concatenate([r for r, _ in read]), np.concatenate([v for _, v in read]), which, found

    @property
    def wasted(self) -> int:
        """Dead rows: rebuilt from the index when they are many."""
        return self.size - self.living
