"""Unprompted messages follow how the person has been: no cheerful check-in the week of a loss, a gentler
birthday note after a heavy week, and painful topics never raised unprompted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.engine.model import MonthDay, RecalledMemory, UserProfile
from bot.engine.mood import MoodReading, TimedReading
from jobs.compose import Composer, Occasion
from memory.mood.series import RedisMoodSeries
from tests.jobs.conftest import World, WorldFactory
from tests.jobs.fakes import FakeMemory, ScriptedLLM

TEN_MINUTES = timedelta(minutes=10)
CHEERFUL_CHECKIN = "it's been a few days — how are you doing?"
CHEERFUL_BIRTHDAY = "Happy birthday Sam! 🎂"


async def _felt(world: World, at: datetime, valence: float, *, sensitive: bool = False) -> None:
    series = RedisMoodSeries(world.redis)
    world.moods = series
    label = "sadness" if valence < 0 else "joy"
    await series.add("telegram:42", TimedReading(at, MoodReading(label, valence, 0.7)), sensitive=sensitive, now=at)


async def test_no_cheerful_checkin_after_a_loss(make_world: WorldFactory) -> None:
    world = await make_world()
    last_seen = datetime(2026, 3, 10, 9, tzinfo=UTC)
    world.clock.current = last_seen
    await _felt(world, last_seen, -0.8, sensitive=True)  # "my grandmother died" was their last message
    await world.add_user(timezone="Europe/Paris", last_seen_at=last_seen, checkins=True, display_name="Sam")

    [sent] = await world.run_until(datetime(2026, 3, 14, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert CHEERFUL_CHECKIN not in sent.text
    assert "Thinking of you Sam. No need to answer" in sent.text


async def test_a_checkin_after_ordinary_days_stays_as_it_was(make_world: WorldFactory) -> None:
    world = await make_world()
    last_seen = datetime(2026, 3, 10, 9, tzinfo=UTC)
    world.clock.current = last_seen
    await _felt(world, last_seen, 0.5)
    await world.add_user(timezone="Europe/Paris", last_seen_at=last_seen, checkins=True, display_name="Sam")

    [sent] = await world.run_until(datetime(2026, 3, 14, 9, tzinfo=UTC), step=TEN_MINUTES)

    assert CHEERFUL_CHECKIN in sent.text


async def test_a_heavy_week_makes_the_birthday_note_gentler_in_french_and_with_the_model(
    make_world: WorldFactory,
) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 8, tzinfo=UTC)
    for day in range(5):
        await _felt(world, world.clock.now() - timedelta(days=day, hours=3), -0.6)
    await world.add_user(timezone="Europe/Paris", birthday=MonthDay(3, 14), display_name="Sam", language="fr")

    [sent] = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC), step=TEN_MINUTES)
    assert "Joyeux anniversaire Sam. Je pense à toi aujourd'hui" in sent.text
    assert "🎂" not in sent.text and "Tu fêtes ça comment" not in sent.text

    llm = ScriptedLLM()
    composer = Composer(llm=llm, memory=None, moods=world.moods)
    birthday = Occasion("birthday_self", "It is their birthday today.", "birthday")
    await composer.compose(birthday, UserProfile("telegram:42", display_name="Sam"), "en",
                           datetime(2026, 3, 14, 8, tzinfo=UTC), "Europe/Paris")  # fmt: skip
    assert "Their last days have been hard" in llm.requests[0].system


async def test_a_birthday_after_a_good_week_is_cheerful(make_world: WorldFactory) -> None:
    world = await make_world()
    world.clock.current = datetime(2026, 3, 13, 8, tzinfo=UTC)
    await _felt(world, world.clock.now(), 0.6)
    await world.add_user(timezone="Europe/Paris", birthday=MonthDay(3, 14), display_name="Sam")

    [sent] = await world.run_until(datetime(2026, 3, 14, 12, tzinfo=UTC), step=TEN_MINUTES)
    assert CHEERFUL_BIRTHDAY in sent.text


async def test_painful_memories_are_never_recalled_for_an_unprompted_message() -> None:
    llm = ScriptedLLM()
    memory = FakeMemory([
        RecalledMemory("m1", "emotional", "Their father died last spring", sensitive=True),
        RecalledMemory("m2", "semantic", "They are learning the cello"),
    ])  # fmt: skip
    composer = Composer(llm=llm, memory=memory)
    checkin = Occasion("checkin", "You have not talked for a few days.", "how they are")

    await composer.compose(checkin, UserProfile("telegram:42", display_name="Sam"), "en",
                           datetime(2026, 3, 14, 8, tzinfo=UTC), "Europe/Paris")  # fmt: skip

    system = llm.requests[0].system
    assert "cello" in system and "father" not in system
