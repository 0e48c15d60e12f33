"""Newest-first pages of a person's memories: one stable order across calls, deep pages located by counts."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memory.qdrant.driver import Hit, IndexDriver, Where
from memory.qdrant.payload import CREATED_AT_TS, timestamp
from memory.records import MemoryKind

WALK = 256  # ids walked at most above a page before it is located by counts instead
LOCATE_STEPS = 12


def listing_where(user_key: str, current_at: datetime | None, kinds: Sequence[MemoryKind] | None = None,
                  listed_only: bool = False, created_before: datetime | None = None) -> Where:  # fmt: skip
    """The person's memories a listing reads: still true at `current_at` (None: whatever their validity), of
    `kinds`, without the episodes hidden by their twin fact (`listed_only`), created before `created_before`."""
    now = None if current_at is None else timestamp(current_at)
    wanted = None if kinds is None else tuple(MemoryKind(k).value for k in kinds)
    before = None if created_before is None else timestamp(created_before)
    return Where(user_key=user_key, current_after=now, kinds=wanted, listed_only=listed_only, created_before=before)


async def newest_page(driver: IndexDriver, where: Where, offset: int, limit: int, walk: int) -> list[Hit]:
    """The hits from position `offset` (newest first), `limit` of them, with their payloads."""
    # Ordered scrolls page by value, not by position: find a created_at just above the page, walk the ids
    # alone from there down to the page, then read only the page (the top page is read at once).
    skip, start = await _locate(driver, where, offset, walk) if offset > walk else (offset, where)
    page = (await _ordered(driver, start, skip + limit, with_payload=offset == 0))[skip : skip + limit]
    if offset > 0 and page:
        read = await driver.newest(Where(user_key=where.user_key, ids=tuple(h.point_id for h in page)), len(page))
        by_id = {h.point_id: h for h in read}
        page = [by_id[h.point_id] for h in page if h.point_id in by_id]
    return page


async def _ordered(driver: IndexDriver, where: Where, limit: int, *, with_payload: bool) -> list[Hit]:
    """At least the `limit` newest, in one total order (newest first, then by id) whichever the call:
    memories created at the same moment (a fact and its message) may straddle two pages, so the group
    tied at the cut is read whole."""
    hits = await driver.newest(where, limit, with_payload=with_payload)
    if hits and len(hits) == limit:
        last = hits[-1].score
        tied = replace(where, created_after=math.nextafter(last, -math.inf),
                       created_before=math.nextafter(last, math.inf))  # fmt: skip
        group = await driver.newest(tied, await driver.count(tied), with_payload=with_payload)
        hits = list({h.point_id: h for h in [*hits, *group]}.values())
    return sorted(hits, key=lambda h: (-h.score, h.point_id))


async def _locate(driver: IndexDriver, where: Where, offset: int, walk: int) -> tuple[int, Where]:
    """A boundary a little above position `offset`: how many to skip below it, and the filter starting there.

    Interpolation search on created_at with filtered counts (cheap with the payload indexes; qdrant-edge
    holds the interpreter while it works, so a few short calls beat one walk past thousands of ids)."""
    ends = [*await driver.newest(where, 1), *await driver.newest(where, 1, oldest_first=True)]
    if len(ends) < 2:
        return offset, where
    high, low = (float(h.payload[CREATED_AT_TS]) for h in ends)
    newer_high, newer_low = 0, await driver.count(replace(where, created_after=low))
    target = offset - walk // 2
    for _ in range(LOCATE_STEPS):
        if newer_low <= offset or newer_low == newer_high:
            break
        guess = high - (high - low) * (target - newer_high) / (newer_low - newer_high)
        if not low < guess < high:
            guess = (high + low) / 2
        if not low < guess < high:
            break
        newer = await driver.count(replace(where, created_after=guess))
        if newer > offset:
            low, newer_low = guess, newer
        else:
            high, newer_high = guess, newer
            if newer > offset - walk:
                break
    if newer_low <= offset:
        high, newer_high = low, newer_low
    before = math.nextafter(high, math.inf)  # created at or before `high`
    if where.created_before is not None:
        before = min(before, where.created_before)
    return offset - newer_high, replace(where, created_before=before)
