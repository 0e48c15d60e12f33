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


class _Clearable(Protocol):
    def cache_clear(self) -> None: ...

    def __len__(self) -> int: ...


_CACHES: list[_Clearable] = []


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


def forget_cached_texts() -> None:
    for cache in _CACHES:
        cache.cache_clear()


def cached_texts() -> int:
    """How many entries the caches hold (all processes' own)."""
    return sum(len(cache) for cache in _CACHES)
