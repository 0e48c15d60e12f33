"""/age on real Redis stores: the age a person confirms, bad input refused in their language."""

from __future__ import annotations

from dataclasses import replace

import redis.asyncio as aioredis

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingPlanner
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")


async def test_age_is_kept_shown_and_bad_input_changes_nothing(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    planner = RecordingPlanner()
    commands, profiles, _ = redis_backed_commands(
        redis_client, clock, InMemoryMemoryBrowser(), planner=planner, schedule_eraser=planner
    )
    assert not (await commands.set_age(LEA, "")).ok  # nothing kept yet: how to use it

    adult = await commands.set_age(LEA, "25")
    assert adult.ok and "25" in adult.text
    assert (await profiles.load_profile(LEA.key)).age == 25
    assert "25" in (await commands.set_age(LEA, "")).text

    profile = await profiles.load_profile(LEA.key)
    await profiles.save_profile(replace(profile, language="fr"))
    for bad in ("vingt", "-3", "250", "25.5"):
        refused = await commands.set_age(LEA, bad)
        assert not refused.ok and "n'est pas un âge" in refused.text
    assert (await profiles.load_profile(LEA.key)).age == 25

    minor = await commands.set_age(LEA, "16")  # /age says it explicitly: it changes the kept age either way
    assert "adaptées à ton âge" in minor.text and (await profiles.load_profile(LEA.key)).age == 16
