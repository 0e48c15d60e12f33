"""/timezone with any well-known city, in French or English spelling, from the packaged city database; a name
several zones share asks which one, in the person's language."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import UserRef
from bot.engine.when.city_zones import City
from bot.geonames_cities import GeonamesCities
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")


@dataclass
class Setup:
    commands: UserCommands
    profiles: RedisProfiles


@pytest.fixture
async def setup(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Setup]:
    commands, profiles, _ = redis_backed_commands(redis_client, clock, InMemoryMemoryBrowser(), cities=GeonamesCities())
    yield Setup(commands, profiles)


async def _speak_french(setup: Setup) -> None:
    profile = await setup.profiles.load_profile(LEA.key)
    await setup.profiles.save_profile(replace(profile, language="fr"))


async def _zone(setup: Setup) -> str | None:
    return (await setup.profiles.load_profile(LEA.key)).timezone


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Lyon", "Europe/Paris"),
        ("Marseille", "Europe/Paris"),
        ("Geneva", "Europe/Zurich"),  # also a town in Illinois: Geneva, Switzerland is by far the best known
        ("Cologne", "Europe/Berlin"),
        ("saint-etienne", "Europe/Paris"),
        ("Quebec", "America/Toronto"),
    ],
)
async def test_a_well_known_city_sets_its_zone_and_the_answer_names_it(setup: Setup, typed: str, zone: str) -> None:
    result = await setup.commands.set_timezone(LEA, typed)

    assert result.ok and zone in result.text and "there" in result.text
    assert await _zone(setup) == zone


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Londres", "Europe/London"),
        ("Genève", "Europe/Zurich"),
        ("Bruxelles", "Europe/Brussels"),
        ("Marseille", "Europe/Paris"),
        ("Pékin", "Asia/Shanghai"),
    ],
)
async def test_french_city_names_are_understood_and_answered_in_french(setup: Setup, typed: str, zone: str) -> None:
    await _speak_french(setup)

    result = await setup.commands.set_timezone(LEA, typed)

    assert result.ok and result.text.startswith(f"Ton fuseau horaire est maintenant {zone}")
    assert await _zone(setup) == zone


async def test_a_city_in_several_zones_asks_which_one_with_ready_commands(setup: Setup) -> None:
    result = await setup.commands.set_timezone(LEA, "Portland")

    assert not result.ok and await _zone(setup) is None
    assert result.text.startswith("There's more than one “Portland”")
    lines = result.text.splitlines()[1:]
    assert lines == [
        "/timezone America/Los_Angeles — Portland, Oregon (US), 05:00 there",
        "/timezone America/New_York — Portland, Maine (US), 08:00 there",
    ]
    chosen = await setup.commands.set_timezone(LEA, lines[1].split()[1])
    assert chosen.ok and await _zone(setup) == "America/New_York"


async def test_the_question_comes_in_french_with_two_to_four_choices(setup: Setup) -> None:
    await _speak_french(setup)

    result = await setup.commands.set_timezone(LEA, "Springfield")

    assert not result.ok and result.text.startswith("Il y a plusieurs « Springfield »")
    choices = result.text.splitlines()[1:]
    assert 2 <= len(choices) <= 4 and all(line.startswith("/timezone America/") for line in choices)
    assert "/timezone America/Chicago — Springfield, Illinois (US), il y est 07:00" in choices
    assert await _zone(setup) is None


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Paris", "Europe/Paris"),  # also a town in Texas: the zone's own city comes first
        ("London", "Europe/London"),
        ("Montréal", "America/Montreal"),
        ("new york", "America/New_York"),
        ("Sydney", "Australia/Sydney"),
        ("Asia/Tokyo", "Asia/Tokyo"),
    ],
)
async def test_zone_names_and_their_cities_still_set_the_zone(setup: Setup, typed: str, zone: str) -> None:
    """A guard: these worked before the city database and must keep working."""
    assert (await setup.commands.set_timezone(LEA, typed)).ok
    assert await _zone(setup) == zone


async def test_an_unknown_place_is_refused_and_changes_nothing(setup: Setup) -> None:
    assert (await setup.commands.set_timezone(LEA, "Asia/Tokyo")).ok
    unknown = await setup.commands.set_timezone(LEA, "Narnia")
    assert not unknown.ok and "Narnia" in unknown.text and await _zone(setup) == "Asia/Tokyo"


class BrokenCities:
    async def named(self, name: str) -> Sequence[City]:
        raise OSError("the city database could not be read")


async def test_an_unreadable_city_database_still_leaves_zone_names_and_their_cities(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    commands, profiles, _ = redis_backed_commands(redis_client, clock, InMemoryMemoryBrowser(), cities=BrokenCities())

    assert (await commands.set_timezone(LEA, "Paris")).ok
    lyon = await commands.set_timezone(LEA, "Lyon")

    assert not lyon.ok and "Lyon" in lyon.text
    assert (await profiles.load_profile(LEA.key)).timezone == "Europe/Paris"
