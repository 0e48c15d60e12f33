"""Birthday wishes: at 09:00 in the person's zone, once, DST-correct, after downtime, after a zone change."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

import pytest

from bot.engine.model import DatedEvent, MonthDay, RecalledMemory
from tests.jobs.conftest import WorldFactory
from tests.jobs.fakes import ScriptedLLM

TEN_MINUTES = timedelta(minutes=10)


async def test_wish_arrives_at_nine_local_and_only_once(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), timezone="Europe/Paris", display_name="Ana Lima")

    early = await world.run_until(datetime(2026, 3, 14, 7, 59, tzinfo=UTC))
    assert early == []
    sent = await world.run_until(datetime(2026, 3, 15, 12, tzinfo=UTC))

    assert [(d.user_key, d.at) for d in sent] == [("telegram:42", datetime(2026, 3, 14, 8, tzinfo=UTC))]
    assert "Happy birthday Ana" in sent[0].text
    assert await world.score("u:telegram:42|b") == datetime(2027, 3, 14, 8, tzinfo=UTC).timestamp()


async def test_spring_change_nonexistent_time_moves_forward_paris_and_new_york(make_world: WorldFactory) -> None:
    world = await make_world(birthday_time=time(2, 30))
    world.clock.current = datetime(2026, 3, 7, 12, tzinfo=UTC)
    await world.add_user("telegram:1", birthday=MonthDay(3, 8), timezone="America/New_York")
    await world.add_user("telegram:2", birthday=MonthDay(3, 29), timezone="Europe/Paris")

    world.clock.current = datetime(2026, 3, 8, 6, tzinfo=UTC)
    new_york = await world.run_until(datetime(2026, 3, 8, 9, tzinfo=UTC))
    world.clock.current = datetime(2026, 3, 28, 23, tzinfo=UTC)
    paris = await world.run_until(datetime(2026, 3, 29, 3, tzinfo=UTC))

    assert [d.at for d in new_york] == [datetime(2026, 3, 8, 7, 30, tzinfo=UTC)]  # 03:30 EDT
    assert [d.at for d in paris] == [datetime(2026, 3, 29, 1, 30, tzinfo=UTC)]  # 03:30 CEST


@pytest.mark.parametrize(
    ("zone", "day", "at", "first_instant"),
    [
        ("Europe/Paris", date(2026, 10, 25), time(2, 30), datetime(2026, 10, 25, 0, 30, tzinfo=UTC)),
        ("America/New_York", date(2026, 11, 1), time(1, 30), datetime(2026, 11, 1, 5, 30, tzinfo=UTC)),
    ],
)
async def test_autumn_change_sends_a_repeated_local_time_once_at_its_first_instant(
    make_world: WorldFactory, zone: str, day: date, at: time, first_instant: datetime
) -> None:
    world = await make_world(birthday_time=at)
    world.clock.current = first_instant - timedelta(days=3)
    await world.add_user(birthday=MonthDay(day.month, day.day), timezone=zone)

    world.clock.current = first_instant - timedelta(hours=2)
    sent = await world.run_until(first_instant + timedelta(hours=3))  # the local time happens twice in there

    assert [d.at for d in sent] == [first_instant]


async def test_summer_and_winter_nine_oclock_in_paris(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 6, 30, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(7, 1), timezone="Europe/Paris")

    summer = await world.run_until(datetime(2026, 7, 1, 12, tzinfo=UTC))
    assert [d.at for d in summer] == [datetime(2026, 7, 1, 7, tzinfo=UTC)]


async def test_29_february_birthday_on_28_february_in_a_common_year_and_29_in_a_leap_year(
    make_world: WorldFactory,
) -> None:
    world = await make_world()
    world.clock.current = datetime(2027, 2, 27, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(2, 29, 1996), timezone="Europe/Paris")

    common = await world.run_until(datetime(2027, 3, 2, 12, tzinfo=UTC), step=TEN_MINUTES)
    world.clock.current = datetime(2028, 2, 27, 12, tzinfo=UTC)
    leap = await world.run_until(datetime(2028, 3, 2, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in common] == [datetime(2027, 2, 28, 8, tzinfo=UTC)]
    assert [d.at for d in leap] == [datetime(2028, 2, 29, 8, tzinfo=UTC)]


async def test_zone_changed_the_day_before_the_wish_follows_the_new_zone(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 10, 12, tzinfo=UTC)
    profile = await world.add_user(birthday=MonthDay(3, 15), timezone="Europe/Paris")

    world.clock.current = datetime(2026, 3, 14, 18, tzinfo=UTC)  # /timezone the evening before
    await world.profiles.save_profile(replace(profile, timezone="America/New_York"))
    await world.planner.plan_user(profile.user_key)
    sent = await world.run_until(datetime(2026, 3, 16, 12, tzinfo=UTC))

    assert [d.at for d in sent] == [datetime(2026, 3, 15, 13, tzinfo=UTC)]  # 09:00 EDT, not 09:00 CET


async def test_restart_after_a_missed_nine_oclock_sends_late_the_same_day(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), timezone="Europe/Paris")

    world.clock.current = datetime(2026, 3, 14, 15, tzinfo=UTC)  # down from 07:00 to 16:00 local
    sent = await world.run_until(datetime(2026, 3, 14, 16, tzinfo=UTC))

    assert [d.at for d in sent] == [datetime(2026, 3, 14, 15, tzinfo=UTC)]


async def test_restart_the_next_day_skips_the_missed_wish_and_keeps_next_year(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), timezone="Europe/Paris")

    world.clock.current = datetime(2026, 3, 15, 9, tzinfo=UTC)  # down over the whole birthday
    sent = await world.run_until(datetime(2026, 3, 16, 9, tzinfo=UTC))

    assert sent == []
    assert await world.score("u:telegram:42|b") == datetime(2027, 3, 14, 8, tzinfo=UTC).timestamp()


async def test_birthday_told_in_conversation_counts_when_the_profile_has_none(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    world.events.add(DatedEvent("m1", "telegram:42", "my birthday", datetime(1990, 5, 3).date(), True, "birthday"))
    await world.add_user(timezone="Europe/Paris")

    sent = await world.run_until(datetime(2026, 5, 4, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 5, 3, 7, tzinfo=UTC)]


async def test_no_wish_when_turned_off(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), birthday_wishes=False)

    assert await world.run_until(datetime(2026, 3, 15, 12, tzinfo=UTC), step=TEN_MINUTES) == []
    assert await world.redis.zcard("souvenir:jobs:due") == 0


async def test_french_person_gets_the_french_template(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), language="fr", display_name="Léa")

    sent = await world.run_until(datetime(2026, 3, 14, 9, tzinfo=UTC))

    assert len(sent) == 1
    assert "Joyeux anniversaire Léa" in sent[0].text
    assert sent[0].text.startswith("(Pour que tu le saches : je suis une IA")


async def test_the_model_writes_with_memories_and_the_window_keeps_it(make_world: WorldFactory) -> None:
    llm = ScriptedLLM(answer="Happy birthday Ana! Enjoy the first one in the new flat.")
    world = await make_world(llm=llm)
    world.memory.memories = [RecalledMemory("x", "episodic", "moved into a new flat in Lyon")]
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(
        birthday=MonthDay(3, 14), display_name="Ana", last_disclosed_at=datetime(2026, 3, 14, 7, tzinfo=UTC)
    )

    sent = await world.run_until(datetime(2026, 3, 14, 9, tzinfo=UTC))

    # Disclosed 1 h ago, but after that silence the wish opens a new interaction: told again.
    assert [d.text for d in sent] == [
        "(Just so you know: I'm an AI companion, not a person.)\n\n"
        "Happy birthday Ana! Enjoy the first one in the new flat."
    ]
    assert "moved into a new flat in Lyon" in llm.requests[0].system
    assert "birthday" in llm.requests[0].system
    turns = await world.window.recent_turns("telegram:dm:42")
    assert [(t.role, t.text) for t in turns] == [("assistant", sent[0].text.split("\n\n", 1)[1])]  # without it


async def test_model_outage_falls_back_to_the_template_with_disclosure(make_world: WorldFactory) -> None:
    world = await make_world(llm=ScriptedLLM(failing=True))
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), display_name="Ana")

    sent = await world.run_until(datetime(2026, 3, 14, 9, tzinfo=UTC))

    assert len(sent) == 1 and "Happy birthday Ana" in sent[0].text
    assert sent[0].text.startswith("(Just so you know: I'm an AI companion")
    profile = await world.profiles.load_profile("telegram:42")
    assert profile.last_disclosed_at == datetime(2026, 3, 14, 8, tzinfo=UTC)

