"""The memory browser's search in the index itself: the memories whose keyword vector holds every word searched,
counted and paged without reading (or opening) any but the page shown.

Each term's holders come from one sparse query per term (ids only, as many as the person's memories: a sparse
query returns only the points that hold a term of it), their intersection is ordered newest first by an ordered
scroll of those ids alone, and only the page's payloads are read. The terms are the keyword index's (words folded
and lightly stemmed, stopwords left out; keyed per person with encryption on), so nothing is stored in clear
for it.
"""

from __future__ import annotations

from dataclasses import replace

from memory.qdrant.driver import IndexDriver, Where
from memory.words.sparse import SparseTerms


async def newest_holding(
    driver: IndexDriver, where: Where, terms: SparseTerms, offset: int, limit: int
) -> tuple[list[str], int]:
    """The ids of the page (`limit` from `offset`, newest first) of the points `where` selects that hold every
    one of `terms`, and how many hold them in all."""
    if not terms or limit <= 0:
        return [], 0
    everyone = await driver.count(where)
    if not everyone:
        return [], 0
    each = await driver.holders([SparseTerms((i,), (1.0,)) for i in terms.indices], where, everyone)
    held = set.intersection(*each) if each else set()
    if not held:
        return [], 0
    ordered = await driver.newest(replace(where, ids=tuple(sorted(held))), len(held), with_payload=False)
    ordered.sort(key=lambda h: (-h.score, h.point_id))  # one total order whichever the call
    return [h.point_id for h in ordered[offset : offset + limit]], len(held)
