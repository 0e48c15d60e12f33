"""Where a person in crisis can find someone to talk to now: lines by country, the country from their time zone.

The country comes from the person's IANA time zone (tzdata's zone.tab names the country of each zone), else
from the language they write in; everyone also gets findahelpline.com, which lists lines for every country.
The operator may replace or add lines (SOUVENIR_CRISIS_LINES_FILE, read by `bot.crisis_lines_file`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

DEFAULT_LINES: Mapping[str, tuple[str, ...]] = {
    "US": ("988 Suicide & Crisis Lifeline: call or text 988 (24/7, free)",),
    "CA": ("9-8-8 Suicide Crisis Helpline: call or text 988 (24/7, English and French)",),
    "FR": ("3114, numéro national de prévention du suicide (24h/24, gratuit)",),
    "BE": (
        "Centre de Prévention du Suicide : 0800 32 123 (24h/24, gratuit)",
        "Zelfmoordlijn: 1813 (24/7, gratis)",
    ),
    "CH": ("La Main Tendue / Die Dargebotene Hand / Telefono Amico : 143 (24h/24)",),
    "GB": ("Samaritans: call 116 123 (24/7, free)",),
    "IE": ("Samaritans: call 116 123 (24/7, free)",),
}
# When the time zone says nothing (none set, or a zone of no one country): the language's likeliest country.
DEFAULT_LANGUAGE_COUNTRIES: Mapping[str, str] = {"fr": "FR"}
DEFAULT_EVERYWHERE: tuple[str, ...] = ("findahelpline.com: free, confidential helplines in every country",)

# Old zone names zone.tab does not list, by prefix.
_ZONE_PREFIXES = {"US/": "US", "Canada/": "CA"}


@dataclass(frozen=True, slots=True)
class CrisisLines:
    by_country: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(DEFAULT_LINES))
    by_language: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_LANGUAGE_COUNTRIES))
    everywhere: tuple[str, ...] = DEFAULT_EVERYWHERE

    def lines_for(self, zone: str | None, language: str) -> tuple[str, ...]:
        """The lines of the person's country, then the ones for everyone (never empty)."""
        country = country_of_zone(zone) if zone else None
        local = self.by_country.get(country or "", ())
        if not local:
            local = self.by_country.get(self.by_language.get(language, ""), ())
        return (*local, *self.everywhere)


def country_of_zone(zone: str) -> str | None:
    """The ISO 3166 country code of an IANA zone ("Europe/Brussels" -> "BE"), None for "UTC" and the like."""
    for prefix, country in _ZONE_PREFIXES.items():
        if zone.startswith(prefix):
            return country
    return _zone_countries().get(zone)


@functools.cache
def _zone_countries() -> Mapping[str, str]:
    """Read once (a few kB): the app warms this at start-up, off the event loop."""
    text = ""
    try:
        text = resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        system = Path("/usr/share/zoneinfo/zone.tab")
        if system.is_file():
            text = system.read_text(encoding="utf-8")
    if not text:
        log.warning("no zone.tab found: crisis lines follow the person's language only")
    countries = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            parts = line.split("\t")
            if len(parts) >= 3:
                countries[parts[2]] = parts[0]
    return countries


def warm_zone_countries() -> None:
    _zone_countries()
