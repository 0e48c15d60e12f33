"""Never twice, never lost to a crash: concurrent sweeps, a sweep dying mid-way, blocked users, erasure."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.engine.model import DatedEvent, MonthDay
from tests.jobs.conftest import World, WorldFactory
from tests.jobs.fakes import ScriptedLLM

BIRTHDAY_MORNING = datetime(2026, 3, 14, 8, tzinfo=UTC)  # 09:00 in Paris


async def _birthday_user(make_world: WorldFactory, user_key: str = "telegram:42", **world_options: object) -> World:
    world = await make_world(**world_options)
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(user_key, birthday=MonthDay(3, 14), timezone="Europe/Paris")
    world.clock.current = BIRTHDAY_MORNING
    return world


async def test_two_sweeps_at_once_send_each_wish_once(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    for n in range(60):
        await world.add_user(f"telegram:{n}", birthday=MonthDay(3, 14), timezone="Europe/Paris")
    world.clock.current = BIRTHDAY_MORNING

    await asyncio.gather(world.sweeper().tick(), world.sweeper().tick(), world.sweeper().tick())
    await world.sweeper().tick()

    assert sorted(d.user_key for d in world.messenger.deliveries) == sorted(f"telegram:{n}" for n in range(60))


async def test_a_sweep_that_dies_while_composing_is_recovered_after_the_lease(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    stuck = ScriptedLLM(gate=asyncio.Event())
    crashed = asyncio.create_task(world.sweeper(llm=stuck).tick())
    await asyncio.wait_for(stuck.called.wait(), 5)
    crashed.cancel()  # the process dies holding the claim
    await asyncio.gather(crashed, return_exceptions=True)

    await world.sweeper().tick()
    assert world.messenger.deliveries == []  # leased and claimed: nobody else sends yet

    world.clock.current += world.lease + timedelta(minutes=1)
    sent = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC))
    assert [d.at for d in sent] == [BIRTHDAY_MORNING + world.lease + timedelta(minutes=1)]


async def test_a_slow_sweep_overtaken_after_its_lease_does_not_send_again(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    slow = ScriptedLLM(answer="from the slow sweep", gate=asyncio.Event())
    assert slow.gate is not None
    slow_tick = asyncio.create_task(world.sweeper(llm=slow).tick())
    await asyncio.wait_for(slow.called.wait(), 5)

    world.clock.current += world.lease + timedelta(minutes=1)
    await world.sweeper().tick()  # takes the stale claim over and sends
    slow.gate.set()
    await slow_tick

    assert len(world.messenger.deliveries) == 1
    assert world.messenger.deliveries[0].text != "from the slow sweep"


async def test_platform_error_is_retried_and_delivered_once(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    world.messenger.failing = True
    await world.run_until(BIRTHDAY_MORNING + timedelta(minutes=5))
    world.messenger.failing = False

    sent = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC))

    assert len(sent) == 1 and world.messenger.attempts > 2


async def test_blocked_user_is_marked_unreachable_and_skipped_from_then_on(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    world.messenger.blocked.add("telegram:42")

    await world.run_until(datetime(2027, 3, 15, 12, tzinfo=UTC), step=timedelta(hours=6))

    assert world.messenger.attempts == 1
    assert (await world.profiles.load_profile("telegram:42")).reachable is False
    assert await world.redis.zcard("souvenir:jobs:due") == 0
    await world.planner.plan_user("telegram:42")  # e.g. /birthday again while still blocked
    assert await world.redis.zcard("souvenir:jobs:due") == 0


async def test_forget_user_removes_every_schedule_and_key(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    world.events.add(DatedEvent("m1", "telegram:42", "exam", datetime(2026, 4, 2).date(), False, "event"))
    await world.add_user(birthday=MonthDay(3, 14), checkins=True, last_seen_at=world.clock.current)
    await world.add_user("telegram:7", birthday=MonthDay(3, 14))
    await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC))  # state written for both

    await world.planner.forget_user("telegram:42")

    members = [m for m in await world.redis.zrange("souvenir:jobs:due", 0, -1)]
    assert members == ["u:telegram:7|b"]
    assert [k async for k in world.redis.scan_iter("souvenir:jobs:*telegram:42*")] == []
    assert [k async for k in world.redis.scan_iter("souvenir:jobs:*telegram:7*")] != []


async def test_platform_without_messenger_is_skipped_quietly(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world, "discord:99")

    sent = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC))

    assert sent == [] and world.messenger.attempts == 0
    assert await world.score("u:discord:99|b") == datetime(2027, 3, 14, 8, tzinfo=UTC).timestamp()


async def test_a_sweep_that_dies_during_the_platform_call_is_never_sent_again(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)

    class DyingMessenger:
        async def send_direct(self, user_key: str, text: str) -> None:
            await world.messenger.send_direct(user_key, text)  # delivered…
            raise asyncio.CancelledError  # …and the process dies before recording it

    crashed = asyncio.create_task(world.sweeper(messenger=DyingMessenger()).tick())
    await asyncio.gather(crashed, return_exceptions=True)

    await world.run_until(datetime(2026, 3, 14, 23, tzinfo=UTC))

    assert len(world.messenger.deliveries) == 1
    assert await world.score("u:telegram:42|b") == datetime(2027, 3, 14, 8, tzinfo=UTC).timestamp()


async def test_someone_who_unblocks_and_writes_again_gets_their_wishes_back(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    world.messenger.blocked.add("telegram:42")
    await world.run_until(BIRTHDAY_MORNING + timedelta(minutes=5))
    assert await world.redis.zcard("souvenir:jobs:due") == 0

    back = datetime(2026, 4, 2, 10, tzinfo=UTC)  # what the engine does when they write again
    profile = await world.profiles.load_profile("telegram:42")
    await world.profiles.save_profile(replace(profile, reachable=True, last_seen_at=back))
    await world.planner.note_activity("telegram:42", back)

    assert await world.score("u:telegram:42|b") == datetime(2027, 3, 14, 8, tzinfo=UTC).timestamp()


async def test_an_unknown_scheduled_item_does_not_block_the_sweep(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    await world.redis.zadd("souvenir:jobs:due", {"not-an-item": 0})

    sent = await world.run_until(BIRTHDAY_MORNING)

    assert len(sent) == 1
    assert await world.score("not-an-item") is None


async def test_one_unreadable_profile_does_not_hold_back_anyone_elses_wish(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    for user_key in ("telegram:7", "telegram:42"):
        await world.add_user(user_key, birthday=MonthDay(3, 14), timezone="Europe/Paris")
    await world.redis.hset("souvenir:profile:telegram:7", "birthday", "not a date")  # damaged by hand, say
    world.clock.current = BIRTHDAY_MORNING

    sent = await world.run_until(BIRTHDAY_MORNING + timedelta(minutes=5))

    assert [d.user_key for d in sent] == ["telegram:42"]


async def test_a_setting_changed_while_the_wish_is_written_survives_the_disclosure_mark(
    make_world: WorldFactory,
) -> None:
    world = await _birthday_user(make_world)
    slow = ScriptedLLM(answer="Happy birthday!", gate=asyncio.Event())
    assert slow.gate is not None
    tick = asyncio.create_task(world.sweeper(llm=slow).tick())
    await asyncio.wait_for(slow.called.wait(), 5)
    profile = await world.profiles.load_profile("telegram:42")
    await world.profiles.save_profile(replace(profile, language="fr", checkins=True))  # /settings meanwhile

    slow.gate.set()
    await tick

    assert [d.text.startswith("(Just so you know: I'm an AI") for d in world.messenger.deliveries] == [True]
    after = await world.profiles.load_profile("telegram:42")
    assert (after.language, after.checkins, after.last_disclosed_at) == ("fr", True, BIRTHDAY_MORNING)


async def test_a_redis_restart_that_forgot_the_scripts_still_sends_each_wish_once(make_world: WorldFactory) -> None:
    world = await _birthday_user(make_world)
    await world.sweeper().tick()  # scripts known to this Redis
    await world.redis.script_flush()  # what a restart without persistence of scripts does
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user("telegram:7", birthday=MonthDay(3, 14), timezone="Europe/Paris")
    world.clock.current = BIRTHDAY_MORNING

    sent = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC))

    assert sorted(d.user_key for d in world.messenger.deliveries) == ["telegram:42", "telegram:7"]
    assert [d.user_key for d in sent] == ["telegram:7"]
