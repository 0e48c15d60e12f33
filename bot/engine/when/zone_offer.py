"""The one offer of a time zone made in conversation: someone with no zone set says where they live ("I live
in Paris", "j'habite à Montréal"), and the reply ends with "Shall I use Paris time for you? /timezone
Europe/Paris". The zone is never changed without their /timezone, and the offer is made once per person
(`UserProfile.timezone_offered`), whether they take it or not.

Only a place with one clear zone is offered; "I live in Portland" (Oregon or Maine?) offers nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, replace

from bot.engine.model import ChatKind, IncomingMessage, UserProfile
from bot.engine.texts.timezone import say_zone
from bot.engine.when.city_zones import Cities, zone_of_place

log = logging.getLogger(__name__)

# The city database is read once per process (the app reads it at start): a reply never waits for it longer
# than this (the next mention of the place is offered instead).
_LOOKUP_TIMEOUT = 3.0  # seconds
_MAX_PLACE_WORDS = 4  # "Saint-Martin-de-Ré" is one word here, "New York City" three
_LIVING_IN = re.compile(
    r"\b(?:(?:i|we)(?: now| still)?(?: live| am living|'m living| are living|'re living) in"
    r"|i(?: am|'m) (?:based|settled) in|(?:i|we)(?:'ve| have)? (?:just |recently )?moved to"
    r"|j'habite(?: à| a| sur)?|on habite(?: à| a)?|nous habitons(?: à| a)?|je vis (?:à|a)|on vit (?:à|a)"
    r"|je suis (?:installée?|basée?) (?:à|a)|j'ai (?:déménagé|emménagé) (?:à|a)"
    r"|je viens d'(?:emménager|arriver) (?:à|a))"
    r"\s+(?P<place>[^\W\d_][^\n.,;:!?()\"«»]*)",
    re.IGNORECASE,
)
# A word right after "I live in" that starts no city name ("I live in a flat", "j'habite la campagne").
_NOT_PLACES = frozenset(
    "a an the my our this that his her their some with here there alone near far hope fear peace denial "
    "un une le la les l des du mon ma mes notre nos ce cette chez avec en au aux dans ici seul seule pas plus "
    "loin près toujours encore".split()
)


@dataclass(frozen=True, slots=True)
class ZoneOffer:
    place: str  # as the person wrote it (capitalised when they wrote it in lower case)
    zone: str


async def zone_offer(
    cities: Cities | None, profile: UserProfile, message: IncomingMessage
) -> ZoneOffer | None:
    """The zone to offer for where the message says the person lives, or None: they have a zone, were
    offered one already, this is a group chat (where they live is not the group's business), or no clear
    place is named."""
    if cities is None or profile.timezone is not None or profile.timezone_offered:
        return None
    if message.chat_kind is not ChatKind.PRIVATE:
        return None
    said = _LIVING_IN.search(message.text.replace("’", "'"))
    if said is None:
        return None
    words = said["place"].split()[:_MAX_PLACE_WORDS]
    try:
        async with asyncio.timeout(_LOOKUP_TIMEOUT):
            return await _offer(cities, words)
    except TimeoutError:
        log.info("the city database was not read yet; no time zone offered this time")
        return None
    except Exception:
        log.exception("could not look up where a person said they live; no time zone offered")
        return None


async def _offer(cities: Cities, words: list[str]) -> ZoneOffer | None:
    # The longest run of words that names a place: "I live in New York with my cat" is New York.
    for end in range(len(words), 0, -1):
        if end == 1 and words[0].casefold() in _NOT_PLACES:
            return None
        place = " ".join(words[:end])
        found = await zone_of_place(place, cities)
        if found.choices:
            return None  # several zones fit: not worth asking about unprompted
        # An IANA link such as "Japan" is a zone, not a place: cities and "Area/City" names only.
        if found.zone is not None and "/" in found.zone:
            return ZoneOffer(place if not place.islower() else place.title(), found.zone)
    return None


def with_zone_offer(
    text: str, profile: UserProfile, offer: ZoneOffer | None, language: str
) -> tuple[str, UserProfile, tuple[str, ...]]:
    """The reply with the offer after it, the profile marked as offered, and the field that changed."""
    if offer is None:
        return text, profile, ()
    key = "timezone_offer_vous" if profile.address_form == "vous" else "timezone_offer"
    of_place = f"d'{offer.place}" if offer.place[:1].casefold() in "aeiouyhéèêâîôûàœ" else f"de {offer.place}"
    line = say_zone(key, language, place=offer.place, of_place=of_place, zone=offer.zone)
    return f"{text}\n\n{line}", replace(profile, timezone_offered=True), ("timezone_offered",)
