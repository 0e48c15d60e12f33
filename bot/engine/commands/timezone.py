"""/timezone [zone or city]: the person's time zone. Alone it shows the zone in use; a zone name, a zone's city
or any well-known city sets it; a city name that several zones share asks which one is meant."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from bot.engine.commands.results import CommandResult
from bot.engine.ports import Clock, OccasionPlanner, ProfileStore
from bot.engine.texts.current_settings import say_setting
from bot.engine.texts.say import say
from bot.engine.texts.timezone import say_zone
from bot.engine.when.city_zones import Cities, City, PlaceZone, zone_of_place
from bot.engine.when.timezones import resolve_timezone

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TimezoneSetting:
    profiles: ProfileStore
    planner: OccasionPlanner
    clock: Clock
    default_zone: str
    cities: Cities | None = None  # None: zone names and their own cities only ("Europe/Paris", "Paris")

    async def set(self, person_key: str, text: str, lang: str, quoted: str) -> CommandResult:
        """`text` is cleaned as commands' arguments are; `quoted` is how a refusal quotes it back."""
        if not text.strip():
            chosen = (await self.profiles.load_profile(person_key)).timezone
            zone = chosen or self.default_zone
            key = "timezone_current" if chosen else "timezone_current_default"
            current = say_setting(key, lang, zone=zone, time=self._local(zone))
            return CommandResult(f"{current}\n{say('usage_timezone', lang)}")
        place = await self._place(text)
        if place.choices:
            choices = "\n".join(self._choice(city, lang) for city in place.choices)
            return CommandResult(say_zone("timezone_choices", lang, text=quoted, choices=choices), ok=False)
        if place.zone is None:
            return CommandResult(say("timezone_unknown", lang, text=quoted), ok=False)
        profile = await self.profiles.load_profile(person_key)
        await self.profiles.save_profile(replace(profile, timezone=place.zone))
        await self.planner.plan_user(person_key)
        return CommandResult(say("timezone_set", lang, zone=place.zone, time=self._local(place.zone)))

    async def _place(self, text: str) -> PlaceZone:
        try:
            return await zone_of_place(text, self.cities)
        except Exception:
            # The city database could not be read: zone names and their cities still work.
            log.exception("could not look a city up; only zone names are known")
            return PlaceZone(resolve_timezone(text))

    def _local(self, zone: str) -> str:
        return self.clock.now().astimezone(ZoneInfo(zone)).strftime("%H:%M")

    def _choice(self, city: City, lang: str) -> str:
        named = f"{city.name}, {city.region}" if city.region else city.name
        return say_zone("timezone_choice", lang, zone=city.zone, city=named, country=city.country,
                        time=self._local(city.zone))  # fmt: skip
