"""Per-process caches keyed by memory and message texts (tokenising is the costly part of recall).

They hold people's words, so every one registers here and an erasure drops them all: they refill from
what is still stored on the next recall.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, lru_cache
from typing import TypeVar

T = TypeVar("T")

_CACHES: list[_lru_cache_wrapper[object]] = []


def text_cache(maxsize: int) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """`functools.lru_cache`, dropped by `forget_cached_texts`."""

    def register(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
        cached = lru_cache(maxsize=maxsize)(function)
        _CACHES.append(cached)  # type: ignore[arg-type]
        return cached

    return register


def forget_cached_texts() -> None:
    for cache in _CACHES:
        cache.cache_clear()


def cached_texts() -> int:
    """How many entries the caches hold (all processes' own)."""
    return sum(cache.cache_info().currsize for cache in _CACHES)
