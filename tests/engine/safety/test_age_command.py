"""/age on real Redis stores: the age a person confirms, bad input refused in their language, and the
confirmation an adult age needs from someone who said they are under 18."""

from __future__ import annotations

import logging
from dataclasses import replace

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import ChatKind, UserRef
from bot.engine.safety.age import with_stated_age
from bot.engine.safety.content_policy import explicit_content_allowed
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingPlanner
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")


def _commands(redis_client: aioredis.Redis, clock: FakeClock) -> tuple[UserCommands, RedisProfiles]:
    planner = RecordingPlanner()
    commands, profiles, _ = redis_backed_commands(
        redis_client, clock, InMemoryMemoryBrowser(), planner=planner, schedule_eraser=planner
    )
    return commands, profiles


async def _explicit_allowed(profiles: RedisProfiles) -> bool:
    return explicit_content_allowed("private", await profiles.load_profile(LEA.key), ChatKind.PRIVATE)


async def _said(profiles: RedisProfiles, text: str) -> None:
    """What the engine does with a message: the age it states, kept."""
    profile, changed = with_stated_age(await profiles.load_profile(LEA.key), text)
    await profiles.save_profile_fields(profile, changed)


async def test_age_is_kept_shown_and_bad_input_changes_nothing(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    commands, profiles = _commands(redis_client, clock)
    assert not (await commands.set_age(LEA, "")).ok  # nothing kept yet: how to use it

    adult = await commands.set_age(LEA, "25")  # nothing known before: applied at once
    assert adult.ok and "25" in adult.text
    assert (await profiles.load_profile(LEA.key)).age == 25 and await _explicit_allowed(profiles)
    assert "25" in (await commands.set_age(LEA, "")).text

    profile = await profiles.load_profile(LEA.key)
    await profiles.save_profile(replace(profile, language="fr"))
    for bad in ("vingt", "-3", "250", "25.5"):
        refused = await commands.set_age(LEA, bad)
        assert not refused.ok and "n'est pas un âge" in refused.text
    assert (await profiles.load_profile(LEA.key)).age == 25

    minor = await commands.set_age(LEA, "16")  # /age says it explicitly: a lower age is applied at once
    assert "adaptées à ton âge" in minor.text and (await profiles.load_profile(LEA.key)).age == 16
    assert not await _explicit_allowed(profiles)


async def test_an_adult_age_for_a_minor_needs_the_same_command_twice_within_10_minutes(
    redis_client: aioredis.Redis, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    commands, profiles = _commands(redis_client, clock)
    await _said(profiles, "I'm 15")
    caplog.set_level(logging.WARNING, logger="bot.engine.safety.age")

    asked = await commands.set_age(LEA, "25")
    assert "under 18" in asked.text and "/age 25 again within 10 minutes" in asked.text
    assert (await profiles.load_profile(LEA.key)).age == 15 and not await _explicit_allowed(profiles)
    assert not caplog.records

    clock.advance(minutes=9)
    done = await commands.set_age(LEA, "25")
    assert done.text == "Noted: you're 25."
    assert (await profiles.load_profile(LEA.key)).age == 25 and await _explicit_allowed(profiles)
    [lifted] = caplog.records
    assert lifted.levelno == logging.WARNING and "15 -> 25" in lifted.getMessage()
    assert LEA.key not in lifted.getMessage() and "42" not in lifted.getMessage()  # the key hashed, no account id


async def test_a_confirmation_request_expires_after_10_minutes_and_must_repeat_the_same_age(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    commands, profiles = _commands(redis_client, clock)
    await commands.set_age(LEA, "16")
    profile = await profiles.load_profile(LEA.key)
    await profiles.save_profile(replace(profile, language="fr"))

    asked = await commands.set_age(LEA, "25")
    assert "moins de 18 ans" in asked.text and "renvoie /age 25" in asked.text
    clock.advance(minutes=11)
    assert "moins de 18 ans" in (await commands.set_age(LEA, "25")).text  # expired: asked again
    assert (await profiles.load_profile(LEA.key)).age == 16

    clock.advance(minutes=1)
    assert "moins de 18 ans" in (await commands.set_age(LEA, "30")).text  # another age is another request
    assert (await profiles.load_profile(LEA.key)).age == 16 and not await _explicit_allowed(profiles)

    clock.advance(minutes=1)
    await commands.set_age(LEA, "30")
    assert (await profiles.load_profile(LEA.key)).age == 30 and await _explicit_allowed(profiles)


async def test_saying_an_age_under_18_meanwhile_cancels_the_pending_request(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    commands, profiles = _commands(redis_client, clock)
    await commands.set_age(LEA, "16")
    await commands.set_age(LEA, "25")
    await _said(profiles, "j'ai 15 ans")
    assert "under 18" in (await commands.set_age(LEA, "25")).text
    assert (await profiles.load_profile(LEA.key)).age == 15 and not await _explicit_allowed(profiles)
