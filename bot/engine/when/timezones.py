"""Time zones from what people type: an IANA name ("Europe/Paris") or a city ("Paris", "new york")."""

from __future__ import annotations

import unicodedata
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace(" ", "_").replace("-", "_")


@cache
def _zones() -> tuple[str, ...]:
    # Canonical-looking names only: "Area/City"; skip legacy aliases like "US/Pacific" that confuse pickers.
    return tuple(sorted(z for z in available_timezones() if "/" in z and not z.startswith(("Etc/", "SystemV/"))))


@cache
def _by_folded_name() -> dict[str, str]:
    index: dict[str, str] = {}
    for zone in sorted(available_timezones()):
        index.setdefault(_fold(zone), zone)
    for zone in _zones():
        index.setdefault(_fold(zone.rsplit("/", 1)[-1]), zone)
    return index


def resolve_timezone(text: str) -> str | None:
    """The IANA zone for an IANA name or a city name, or None when it is not known."""
    folded = _fold(text)
    if not folded:
        return None
    zone = _by_folded_name().get(folded)
    if zone is None:
        return None
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return zone


def suggest_timezones(prefix: str, limit: int = 25) -> list[str]:
    """Zones whose name or city starts with (or contains) what was typed, for autocomplete."""
    folded = _fold(prefix)
    if not folded:
        return list(_zones()[:limit])
    starts = [z for z in _zones() if _fold(z).startswith(folded) or _fold(z.rsplit("/", 1)[-1]).startswith(folded)]
    contains = [z for z in _zones() if folded in _fold(z) and z not in starts]
    return (starts + contains)[:limit]
