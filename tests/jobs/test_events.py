"""Dated events and other people's occasions: a note before, a follow-up after, a heads-up for a birthday."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from bot.engine.model import DatedEvent
from tests.jobs.conftest import WorldFactory

TEN_MINUTES = timedelta(minutes=10)
INTERVIEW = DatedEvent("m-int", "telegram:42", "job interview", date(2026, 5, 7), False, "event")


async def test_interview_gets_a_note_the_day_before_and_a_follow_up_the_day_after(make_world: WorldFactory) -> None:
    world = await make_world()
    world.events.add(INTERVIEW)
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", checkins=True, last_seen_at=world.clock.current)
    await world.planner.note_activity("telegram:42", datetime(2026, 5, 6, 12, tzinfo=UTC))  # no check-in noise

    world.clock.current = datetime(2026, 5, 5, 12, tzinfo=UTC)
    sent = await world.run_until(datetime(2026, 5, 10, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 5, 6, 7, tzinfo=UTC), datetime(2026, 5, 8, 7, tzinfo=UTC)]
    assert sent[0].text.endswith("Tomorrow's the day: “job interview”. Good luck — I'm rooting for you!")
    assert "“job interview” — how did it go?" in sent[1].text
    assert await world.score("u:telegram:42|e:m-int") is None


async def test_learned_after_the_day_before_note_time_it_encourages_the_morning_of(make_world: WorldFactory) -> None:
    world = await make_world()
    world.events.add(INTERVIEW)
    world.clock.current = datetime(2026, 5, 6, 18, tzinfo=UTC)  # told the evening before
    await world.add_user(timezone="Europe/Paris", checkins=True, last_seen_at=world.clock.current)

    sent = await world.run_until(datetime(2026, 5, 9, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 5, 7, 7, tzinfo=UTC), datetime(2026, 5, 8, 7, tzinfo=UTC)]
    assert "Today's the day" in sent[0].text


async def test_event_notes_come_without_checkins_but_not_when_occasions_are_off(make_world: WorldFactory) -> None:
    world = await make_world()
    world.events.add(INTERVIEW)
    world.events.add(replace(INTERVIEW, memory_id="m-int-43", user_key="telegram:43"))
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", checkins=False)
    await world.add_user("telegram:43", timezone="Europe/Paris", birthday_wishes=False)

    sent = await world.run_until(datetime(2026, 5, 10, 12, tzinfo=UTC), step=TEN_MINUTES)
    assert {d.user_key for d in sent} == {"telegram:42"} and len(sent) == 2


async def test_sisters_birthday_heads_up_days_before_in_french(make_world: WorldFactory) -> None:
    world = await make_world(birthday_days_before_others=2)
    sister = DatedEvent(
        "m-sis", "telegram:42", "anniversaire de ma sœur", date(1995, 6, 10), True, "birthday", about="sister"
    )
    world.events.add(sister)
    world.clock.current = datetime(2026, 6, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", language="fr")

    sent = await world.run_until(datetime(2026, 6, 12, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 6, 8, 7, tzinfo=UTC)]
    assert "« anniversaire de ma sœur », c'est dans 2 jours (10/06)" in sent[0].text
    assert await world.score("u:telegram:42|e:m-sis") == datetime(2027, 6, 8, 7, tzinfo=UTC).timestamp()


async def test_anniversary_on_the_day_even_with_checkins_off(make_world: WorldFactory) -> None:
    world = await make_world()
    anniversary = DatedEvent("m-ann", "telegram:42", "our wedding anniversary", date(2019, 9, 14), True, "anniversary")
    world.events.add(anniversary)
    world.clock.current = datetime(2026, 9, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="America/New_York")

    sent = await world.run_until(datetime(2026, 9, 16, 12, tzinfo=UTC), step=TEN_MINUTES)

    assert [d.at for d in sent] == [datetime(2026, 9, 14, 13, tzinfo=UTC)]
    assert "our wedding anniversary" in sent[0].text


async def test_a_forgotten_event_is_unscheduled(make_world: WorldFactory) -> None:
    world = await make_world()
    world.events.add(INTERVIEW)
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", checkins=True, last_seen_at=world.clock.current)
    assert await world.score("u:telegram:42|e:m-int") is not None

    world.events.remove("telegram:42", "m-int")  # /forget of that memory
    await world.planner.plan_user("telegram:42")

    assert await world.score("u:telegram:42|e:m-int") is None
    assert await world.redis.smembers("souvenir:jobs:events:telegram:42") == set()


async def test_a_memory_outage_while_planning_leaves_event_items_alone(make_world: WorldFactory) -> None:
    world = await make_world()
    world.events.add(INTERVIEW)
    world.clock.current = datetime(2026, 5, 1, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", checkins=True, last_seen_at=world.clock.current)
    planned = await world.score("u:telegram:42|e:m-int")

    world.events.failing = True
    await world.planner.plan_user("telegram:42")  # e.g. after /checkins while Qdrant is down

    assert planned is not None and await world.score("u:telegram:42|e:m-int") == planned
