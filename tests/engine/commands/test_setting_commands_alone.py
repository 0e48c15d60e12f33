"""/birthday, /checkins, /language and /timezone with nothing after them: the current value first, then how to
change it, in the person's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import UserRef
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
    commands, profiles, _ = redis_backed_commands(redis_client, clock, InMemoryMemoryBrowser())
    yield Setup(commands, profiles)


async def test_in_english_each_setting_alone_shows_its_value_then_its_usage(setup: Setup) -> None:
    commands = setup.commands
    await commands.set_birthday(LEA, "March 14")
    await commands.set_timezone(LEA, "Asia/Tokyo")
    await commands.set_checkins(LEA, "on")
    await commands.set_language(LEA, "en")

    birthday, zone = await commands.set_birthday(LEA, ""), await commands.set_timezone(LEA, " ")
    checkins, language = await commands.set_checkins(LEA, ""), await commands.set_language(LEA, "")

    assert birthday.ok and birthday.text.splitlines() == [
        "Your birthday: March 14.", "Usage: /birthday <date>, e.g. /birthday March 14",
    ]  # fmt: skip
    assert zone.ok and zone.text.splitlines()[0] == "Your time zone: Asia/Tokyo (it's 21:00 there)."
    assert zone.text.splitlines()[1].startswith("Usage: /timezone")
    assert checkins.ok and checkins.text.splitlines()[0].startswith("Check-ins are on")
    assert checkins.text.splitlines()[1] == "Usage: /checkins on or /checkins off"
    assert language.ok and language.text.splitlines()[0] == "I speak English with you (you chose it)."
    assert language.text.splitlines()[1].startswith("Usage: /language")


async def test_in_english_nothing_set_yet_says_so_and_names_the_default_zone(setup: Setup) -> None:
    commands = setup.commands

    birthday, zone = await commands.set_birthday(LEA, ""), await commands.set_timezone(LEA, "")
    checkins, language = await commands.set_checkins(LEA, ""), await commands.set_language(LEA, "")

    assert birthday.text.splitlines()[0] == "I don't know your birthday yet."
    assert zone.text.splitlines()[0] == "You haven't set a time zone: I use UTC (it's 12:00 there)."
    assert checkins.text.splitlines()[0] == "Check-ins are off."
    assert language.text.splitlines()[0] == "I answer in the language you write in; right now, English."
    profile = await setup.profiles.load_profile(LEA.key)
    assert (profile.birthday, profile.timezone, profile.checkins, profile.language_chosen) == (None, None, False, False)


async def test_in_french_each_setting_alone_shows_its_value_then_its_usage(setup: Setup) -> None:
    commands = setup.commands
    await commands.set_language(LEA, "fr")
    await commands.set_birthday(LEA, "14 mars")
    await commands.set_timezone(LEA, "Europe/Paris")

    birthday, zone = await commands.set_birthday(LEA, ""), await commands.set_timezone(LEA, "")
    checkins, language = await commands.set_checkins(LEA, ""), await commands.set_language(LEA, "")

    assert birthday.text.splitlines() == [
        "Ton anniversaire : le 14 mars.", "Usage : /birthday <date>, ex. /birthday 14 mars",
    ]  # fmt: skip
    assert zone.text.splitlines()[0] == "Ton fuseau horaire : Europe/Paris (il y est 13:00)."
    assert zone.text.splitlines()[1].startswith("Usage : /timezone")
    assert checkins.text.splitlines() == ["Les nouvelles sont désactivées.", "Usage : /checkins on ou /checkins off"]
    assert language.text.splitlines()[0] == "Je te parle en français (tu l'as choisi)."
    assert language.text.splitlines()[1].startswith("Usage : /language")


async def test_in_french_following_the_language_written_in_is_said_so(setup: Setup) -> None:
    profile = await setup.profiles.load_profile(LEA.key)
    await setup.profiles.save_profile(replace(profile, language="fr"))

    language = await setup.commands.set_language(LEA, "")
    zone = await setup.commands.set_timezone(LEA, "")

    following = "Je te réponds dans la langue dans laquelle tu écris ; en ce moment, le français."
    assert language.text.splitlines()[0] == following
    assert zone.text.splitlines()[0] == "Tu n'as pas choisi de fuseau horaire : j'utilise UTC (il y est 12:00)."
