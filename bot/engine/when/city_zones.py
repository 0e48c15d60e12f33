"""The time zone of a place someone names: an IANA name or a zone's own city first ("Europe/Paris", "Paris"),
then any well-known city from a city database ("Lyon", "Londres", "Genève"), behind the `Cities` port.

A name several cities share resolves when one of them is by far the best known (Paris, France over Paris,
Texas); otherwise the person is asked which zone they mean (Portland, Oregon or Maine). How well known a city
is: its population times the number of names it has in the world's languages. Population alone cannot tell
Geneva (nine times Geneva, Illinois) from Portland, Oregon (ten times Portland, Maine); the names can.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.engine.when.timezones import resolve_timezone

# The best known city wins when it is this many times better known than the best of any other zone; cities of
# other zones this far behind it are no choice worth offering.
_DOMINANCE = 20.0
_MAX_CHOICES = 4
# A city matched by one of its other names ("Victoria" is an old name of Hong Kong) counts for less than
# one that is called so.
_OTHER_NAME_WEIGHT = 0.1


@dataclass(frozen=True, slots=True)
class City:
    name: str
    country: str  # ISO 3166 code: "FR", "US"
    region: str  # a US state's name ("Oregon"); "" elsewhere
    zone: str  # IANA name
    population: int
    names: int  # how many names it has in the world's languages: how widely it is known
    exact: bool  # the name asked for is its own name, not one of its other names


class Cities(Protocol):
    async def named(self, name: str) -> Sequence[City]:
        """Every city called `name` (case, accents, hyphens aside), in any language it has a name in."""
        ...


@dataclass(frozen=True, slots=True)
class PlaceZone:
    zone: str | None = None  # the zone, when the place has one clear zone
    choices: tuple[City, ...] = ()  # several zones fit: the best known city of each, best first


async def zone_of_place(text: str, cities: Cities | None) -> PlaceZone:
    """The zone of what was typed; neither zone nor choices when nothing is known by that name."""
    zone = resolve_timezone(text)
    if zone is not None or cities is None:
        return PlaceZone(zone)
    return pick_zone(await cities.named(text))


def pick_zone(found: Sequence[City]) -> PlaceZone:
    best: dict[str, tuple[float, City]] = {}
    for city in found:
        renown = _renown(city)
        if city.zone not in best or renown > best[city.zone][0]:
            best[city.zone] = (renown, city)
    ranked = sorted(best.values(), key=lambda known: -known[0])
    if not ranked:
        return PlaceZone()
    top = ranked[0][0]
    if len(ranked) == 1 or top >= _DOMINANCE * ranked[1][0]:
        return PlaceZone(ranked[0][1].zone)
    return PlaceZone(choices=tuple(city for renown, city in ranked[:_MAX_CHOICES] if renown * _DOMINANCE >= top))


def _renown(city: City) -> float:
    return city.population * max(city.names, 1) * (1.0 if city.exact else _OTHER_NAME_WEIGHT)
