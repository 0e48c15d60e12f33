"""Check-ins: opt-in, after days of silence, never at night, one unanswered at a time, capped per day."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.engine.model import DatedEvent, MonthDay
from tests.jobs.conftest import World, WorldFactory

TEN_MINUTES = timedelta(minutes=10)


async def _silent_since(world: World, last_seen: datetime, **fields: Any) -> None:
    world.clock.current = last_seen
    await world.add_user(timezone="Europe/Paris", last_seen_at=last_seen, **fields)


async def test_no_checkin_without_opting_in(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 10, 9, tzinfo=UTC), checkins=False)

    assert await world.run_until(datetime(2026, 3, 25, 9, tzinfo=UTC), step=timedelta(hours=1)) == []
    assert await world.score("u:telegram:42|c") is None


async def test_checkin_after_three_silent_days_then_nothing_while_unanswered(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 10, 9, tzinfo=UTC), checkins=True, display_name="Sam")

    sent = await world.run_until(datetime(2026, 3, 25, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 13, 9, tzinfo=UTC)]
    assert "Hey Sam, it's been a few days" in sent[0].text


async def test_an_answer_clears_the_unanswered_checkin_and_restarts_the_count(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 10, 9, tzinfo=UTC), checkins=True)
    await world.run_until(datetime(2026, 3, 20, 9, tzinfo=UTC), step=TEN_MINUTES)

    answered = datetime(2026, 3, 20, 9, 5, tzinfo=UTC)  # what the engine does when the person writes
    profile = await world.profiles.load_profile("telegram:42")
    await world.profiles.save_profile(replace(profile, last_seen_at=answered))
    await world.planner.note_activity("telegram:42", answered)
    sent = await world.run_until(datetime(2026, 3, 30, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 23, 9, 10, tzinfo=UTC)]


async def test_checkin_due_at_night_waits_for_the_local_morning(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 10, 22, tzinfo=UTC), checkins=True)  # 23:00 in Paris

    sent = await world.run_until(datetime(2026, 3, 15, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 14, 7, tzinfo=UTC)]  # 08:00 in Paris, the quiet hours' end


async def test_an_unanswered_birthday_wish_holds_the_checkin_back(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 12, 9, tzinfo=UTC), checkins=True, birthday=MonthDay(3, 14))

    sent = await world.run_until(datetime(2026, 3, 25, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 14, 8, tzinfo=UTC)]


async def test_daily_cap_holds_back_a_second_note_the_same_day(make_world: WorldFactory) -> None:
    world = await make_world(daily_cap=1)
    for n, what in enumerate(["job interview", "dentist appointment"]):
        world.events.add(DatedEvent(f"m{n}", "telegram:42", what, date(2026, 5, 7), False, "event"))
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", checkins=True, last_seen_at=world.clock.current)

    sent = await world.run_until(datetime(2026, 5, 10, 12, tzinfo=UTC), step=TEN_MINUTES)

    days = [d.at.date() for d in sent]
    assert days == sorted(set(days)), "at most one unprompted message a day"
    assert date(2026, 5, 6) in days


async def test_checkin_due_in_the_same_sweep_as_the_birthday_wish_stays_quiet(make_world: WorldFactory) -> None:
    world = await make_world()
    # The check-in falls due at 07:55 UTC, the wish at 08:00: the 08:05 sweep finds both (check-in first).
    await _silent_since(world, datetime(2026, 3, 11, 7, 55, tzinfo=UTC), checkins=True, birthday=MonthDay(3, 14))
    world.clock.current = datetime(2026, 3, 14, 8, 5, tzinfo=UTC)  # e.g. just back from a short downtime

    sent = await world.run_until(datetime(2026, 3, 16, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 14, 8, 5, tzinfo=UTC)]
    assert "Happy birthday" in sent[0].text


async def test_a_known_minor_gets_no_checkin_but_still_a_birthday_wish(make_world: WorldFactory) -> None:
    world = await make_world()
    await _silent_since(world, datetime(2026, 3, 10, 9, tzinfo=UTC), checkins=True, age=15, display_name="Léa",
                        birthday=MonthDay(3, 20))  # fmt: skip

    sent = await world.run_until(datetime(2026, 3, 25, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 3, 20, 8, tzinfo=UTC)]
    assert "Happy birthday Léa" in sent[0].text
    assert "minor" in world.metrics.skipped  # counted on /metrics like the other skipped messages
    assert world.metrics.sent == 1
