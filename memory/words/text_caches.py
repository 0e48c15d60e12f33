"""Per-process caches keyed by memory and message texts, and by the words in them (tokenising is the costly
part of recall).

They hold people's words, so every one registers here and an erasure drops them all: they refill from
what is still stored on the next recall.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Protocol, TypeVar

T = TypeVar("T")
K = TypeVar("K")
R = TypeVar("R", bound="_Record")


class _Record(Protocol):
    @property
    def memory_id(self) -> str: ...


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...

    def __len__(self) -> int: ...


_CACHES: list[_Clearable] = []
_generation = 0  # moved on by every `forget_cached_texts`


class _LruSize:
    """An lru_cache seen as a sized, clearable cache."""

    def __init__(self, cached: Callable[..., object]) -> None:
        self._cached = cached

    def cache_clear(self) -> None:
        self._cached.cache_clear()  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return int(self._cached.cache_info().currsize)  # type: ignore[attr-defined]


def text_cache(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """`functools.lru_cache`, dropped by `forget_cached_texts`."""

    def register(function: Callable[..., T]) -> Callable[..., T]:
        cached = lru_cache(maxsize=maxsize)(function)
        _CACHES.append(_LruSize(cached))
        return cached

    return register


class WordCache(dict[K, T]):
    """key -> compute(key), filled as keys are met (a text's words, the ids of a ranking): a lookup is a plain
    dict lookup, ~20x cheaper than an lru_cache call, which is what a text's hundred words cost. Emptied when
    full (words repeat: it refills with the common ones at once) and by `forget_cached_texts`."""

    def __init__(self, compute: Callable[[K], T], maxsize: int) -> None:
        super().__init__()
        self._compute = compute
        self._maxsize = maxsize
        _CACHES.append(self)

    def __missing__(self, key: K) -> T:
        if len(self) >= self._maxsize:
            self.clear()
        value = self[key] = self._compute(key)
        return value

    def cache_clear(self) -> None:
        self.clear()


class _PerRecord(dict[str, tuple[object, object]]):
    def cache_clear(self) -> None:
        self.clear()


# Records whose analysis is kept, and the texts (a memory's own words, the messages of its context): as many as
# the embedded index keeps records (memory/index_factory.py). Below it, a box holding more memories than that
# analyses a recall's candidates again and again: at 100 people (55,200 messages, bench.compare_mem0) with 8,192
# records and 32,768 texts, recall p50 / p95 17.3 / 28.4 ms; with these, 7.5 / 9.7 ms, for ~250 MB more at peak
# (903 -> 1,153 MB). Only what is stored fills them: a smaller box uses no more. Each entry holds its record: with
# the embedded index that is the record the index keeps anyway; with a server (no records kept, every read a new
# object) it is the latest read of each memory recalled, ~2 kB each.
RECORDS_KEPT = 80_000
TEXTS_KEPT = 131_072


def per_record(maxsize: int = RECORDS_KEPT) -> Callable[[Callable[[R], T]], Callable[[R], T]]:
    """Memoise what is read from a memory record (its words' stems, what the selection reads of it), for that
    very record object.

    A recall weighs ~170 candidates, and the embedded index keeps the records it read
    (memory/qdrant/record_cache.py): the same objects come back recall after recall. An entry is kept by memory
    id beside the object it was worked out from and used only for that object (`is`): a memory rewritten since
    is a new object, and is worked out again. Emptied when full and by `forget_cached_texts`."""

    def register(function: Callable[[R], T]) -> Callable[[R], T]:
        entries = _PerRecord()
        _CACHES.append(entries)

        def cached(record: R) -> T:
            entry = entries.get(record.memory_id)
            if entry is not None and entry[0] is record:
                return entry[1]  # type: ignore[return-value]
            if len(entries) >= maxsize:
                entries.clear()
            value = function(record)
            entries[record.memory_id] = (record, value)
            return value

        cached.__doc__ = function.__doc__
        return cached

    return register


def forget_cached_texts() -> None:
    global _generation
    _generation += 1
    for cache in _CACHES:
        cache.cache_clear()


def cache_generation() -> int:
    """Moves on whenever the caches are emptied: work that filled them meanwhile may hold erased words."""
    return _generation


def cached_texts() -> int:
    """How many entries the caches hold (all processes' own)."""
    return sum(len(cache) for cache in _CACHES)
