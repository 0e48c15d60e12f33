"""A person with accounts on two platforms (/link) is wished a happy birthday once, where they were last seen."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine.model import MonthDay, UserRef, dm_conversation_id
from jobs.compose import Composer
from jobs.sweep import Sweeper
from memory.redis.identities import RedisIdentities
from tests.jobs.conftest import WorldFactory
from tests.jobs.fakes import RecordingMessenger

TG = UserRef("telegram", "42", "Ana")
DC = UserRef("discord", "4711", "Ana")


async def test_the_birthday_is_wished_once_on_the_platform_used_last(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    identities = RedisIdentities(world.redis, world.clock)
    issued = await identities.issue_code(TG)
    assert issued.code is not None
    assert (await identities.redeem(DC, issued.code)).person_key == TG.key
    await world.add_user(TG.key, birthday=MonthDay(3, 14), timezone="Europe/Paris", display_name="Ana")
    await identities.person_of(TG)
    await identities.person_of(DC)  # then wrote on Discord: the last platform used
    telegram, discord = RecordingMessenger(world.clock), RecordingMessenger(world.clock)
    sweeper = Sweeper(
        world.options,
        due=world.planner.due,
        profiles=world.profiles,
        window=world.window,
        dated_events=world.events,
        composer=Composer(llm=None, memory=world.memory),
        messengers={"telegram": telegram, "discord": discord},
        clock=world.clock,
        identities=identities,
    )

    while world.clock.now() < datetime(2026, 3, 15, 12, tzinfo=UTC):
        await sweeper.tick()
        world.clock.advance(minutes=5)

    assert [(d.user_key, d.at) for d in discord.deliveries] == [("discord:4711", datetime(2026, 3, 14, 8, tzinfo=UTC))]
    assert "Happy birthday Ana" in discord.deliveries[0].text
    assert telegram.deliveries == []
    # Her answer on Discord comes with the wish in that chat's window, where the model sees it.
    [wish] = await world.window.recent_turns(dm_conversation_id(DC))
    assert wish.role == "assistant" and "Happy birthday Ana" in wish.text
    assert await world.window.recent_turns(dm_conversation_id(TG)) == []
