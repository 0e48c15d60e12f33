"""The week after a crisis, what the companion sends first is only ever quiet: a birthday wish without party
talk, and instead of an occasion note or a check-in after silence, "thinking of you, I'm here if you want to
talk" — once, not again while it is unanswered. After the week, messages are as they were."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.engine.model import DatedEvent, MonthDay, UserProfile
from jobs.after_crisis import CRISIS_WEEK, in_week_after_crisis
from jobs.compose_prompt import AFTER_CRISIS
from tests.jobs.conftest import World, WorldFactory
from tests.jobs.fakes import Delivery, ScriptedLLM

TEN_MINUTES = timedelta(minutes=10)
QUIET_NOTE = "Thinking of you Sam. No need to answer — I'm here whenever you feel like talking."
QUIET_NOTE_FR = "Je pense à toi Sam. Pas besoin de répondre — je suis là quand tu as envie de parler."
QUIET_BIRTHDAY = "Happy birthday Sam. Thinking of you today — I hope it brings you a little softness."
PARTY = ("🎂", "🎉", "!", "celebrat", "Good luck", "job interview", "how did it go", "it's been a few days")


async def _birthday(world: World, crisis_at: datetime, **fields: object) -> list[Delivery]:
    world.clock.current = datetime(2026, 3, 10, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", display_name="Sam", birthday=MonthDay(3, 14),
                         last_crisis_at=crisis_at, **fields)  # fmt: skip
    return await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC), step=TEN_MINUTES)


async def _interview(world: World, crisis_at: datetime, **fields: object) -> list[Delivery]:
    """A job interview on 13 March: a note the day before, and "how did it go?" the day after."""
    world.events.add(DatedEvent("m1", "telegram:42", "job interview", date(2026, 3, 13), False, "event"))
    world.clock.current = datetime(2026, 3, 10, 12, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", display_name="Sam", last_crisis_at=crisis_at, **fields)
    return await world.run_until(datetime(2026, 3, 15, 12, tzinfo=UTC), step=TEN_MINUTES)


async def _checkin(world: World, crisis_at: datetime, **fields: object) -> list[Delivery]:
    last_seen = world.clock.current = datetime(2026, 3, 10, 9, tzinfo=UTC)
    await world.add_user(timezone="Europe/Paris", display_name="Sam", checkins=True, last_seen_at=last_seen,
                         last_crisis_at=crisis_at, **fields)  # fmt: skip
    return await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC), step=TEN_MINUTES)


def _body(delivery: Delivery) -> str:
    return delivery.text.split("\n\n")[-1]  # without the AI disclosure above it


async def test_a_birthday_in_the_week_after_a_crisis_is_a_quiet_wish(make_world: WorldFactory) -> None:
    [sent] = await _birthday(await make_world(), crisis_at=datetime(2026, 3, 10, 9, tzinfo=UTC))

    assert _body(sent) == QUIET_BIRTHDAY
    assert not [word for word in PARTY if word in _body(sent)]


async def test_an_event_in_the_week_after_a_crisis_gets_one_quiet_note(make_world: WorldFactory) -> None:
    sent = await _interview(await make_world(), crisis_at=datetime(2026, 3, 10, 9, tzinfo=UTC))

    # The day-before note became the quiet word; "how did it go?" is not sent while that one is unanswered.
    assert [(d.at, _body(d)) for d in sent] == [(datetime(2026, 3, 12, 8, tzinfo=UTC), QUIET_NOTE)]


async def test_a_checkin_in_the_week_after_a_crisis_asks_nothing(make_world: WorldFactory) -> None:
    [sent] = await _checkin(await make_world(), crisis_at=datetime(2026, 3, 10, 9, tzinfo=UTC), language="fr")

    assert _body(sent) == QUIET_NOTE_FR
    assert "?" not in _body(sent)


async def test_after_the_week_messages_are_as_before(make_world: WorldFactory) -> None:
    [birthday] = await _birthday(await make_world(), crisis_at=datetime(2026, 3, 6, 8, tzinfo=UTC))
    assert "Happy birthday Sam! 🎂" in birthday.text

    await (world := await make_world()).redis.flushdb()
    before, after = await _interview(world, crisis_at=datetime(2026, 3, 1, 9, tzinfo=UTC))
    assert "Tomorrow's the day: “job interview”. Good luck Sam" in before.text
    assert "how did it go?" in after.text

    await (world := await make_world()).redis.flushdb()
    [checkin] = await _checkin(world, crisis_at=datetime(2026, 3, 2, 9, tzinfo=UTC))
    assert "Hey Sam, it's been a few days — how are you doing?" in checkin.text


@pytest.mark.parametrize("scenario", [_birthday, _interview, _checkin])
async def test_the_model_is_told_to_be_quiet_in_the_week_and_not_after(
    make_world: WorldFactory, scenario: Callable[..., Awaitable[list[Delivery]]]
) -> None:
    within = await make_world(llm=ScriptedLLM(answer="Thinking of you."))
    await scenario(within, crisis_at=datetime(2026, 3, 10, 9, tzinfo=UTC))
    assert within.llm is not None and within.llm.requests
    for request in within.llm.requests:
        assert AFTER_CRISIS in request.system
        assert "happy birthday, personally" not in request.system and "Encourage them" not in request.system
        assert "job interview" not in request.system  # the occasion itself is not brought up

    await within.redis.flushdb()
    after = await make_world(llm=ScriptedLLM(answer="Good luck tomorrow."))
    await scenario(after, crisis_at=datetime(2026, 2, 20, 9, tzinfo=UTC))
    assert after.llm is not None and after.llm.requests
    assert all(AFTER_CRISIS not in r.system for r in after.llm.requests)


def test_the_quiet_week_lasts_seven_days() -> None:
    crisis = datetime(2026, 3, 10, 9, tzinfo=UTC)
    profile = UserProfile("telegram:42", last_crisis_at=crisis)
    assert CRISIS_WEEK == timedelta(days=7)
    assert in_week_after_crisis(profile, crisis + timedelta(days=6, hours=23))
    assert not in_week_after_crisis(profile, crisis + timedelta(days=7))
    assert not in_week_after_crisis(UserProfile("telegram:42"), crisis)
