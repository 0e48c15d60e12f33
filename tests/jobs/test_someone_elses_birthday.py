"""Someone else's birthday, told in conversation, never becomes the person's own: no "happy birthday" to them
on their grandmother's day, in English or French, from what memory extracted to what the scheduler sends."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.model import ChatKind, Exchange, IncomingMessage, Reply, UserRef
from bot.engine.ports import CompletionRequest
from memory.service import LongTermMemoryService
from tests.jobs.conftest import World, WorldFactory
from tests.memory.fake_index import FakeMemoryIndex

TOLD_AT = datetime(2026, 12, 3, 10, tzinfo=UTC)
PERSON = UserRef("telegram", "42", "Léa")


class BirthdayOfNobodyModel:
    """A model that reads a birthday on 3 March in the message and says it is about nobody."""

    async def complete(self, request: CompletionRequest) -> str:
        if "You extract long-term memories" in request.system:
            event = {"what": "birthday", "about": None, "date": "2027-03-03", "yearly": True}
            return json.dumps({"events": [event]})
        return '{"decisions": []}'


async def _told(world: World, text: str, language: str, *, with_model: bool = False) -> None:
    """The person says `text`; the dated events memory extracts from it go to the scheduler."""
    llm = BirthdayOfNobodyModel() if with_model else None
    memory = LongTermMemoryService(FakeMemoryIndex(), default_timezone="Europe/Paris", llm=llm)
    message = IncomingMessage(PERSON, "telegram:dm:42", "1", text, TOLD_AT, ChatKind.PRIVATE)
    await memory.remember_exchange(Exchange(message, Reply("Noted.", language), "Europe/Paris", language))
    for event in await memory.dated_events(PERSON.key):
        world.events.add(event)


@pytest.mark.parametrize(
    ("language", "text", "whose"),
    [
        ("en", "My grandmother Quetzalcoatlus lives in Montpellier and her birthday is on March 3.", "Quetzalcoatlus"),
        ("fr", "Ma grand-mère Zoé habite à Montpellier et son anniversaire est le 3 mars.", "Zoé"),
        ("fr", "Ma fille Inès, sa fête est le 3 mars.", "Inès"),
        ("fr", "C'est l'anniversaire de ma mère le 3 mars.", "mère"),
    ],
)
async def test_a_relatives_birthday_is_a_reminder_about_them_not_a_birthday_wish(
    make_world: WorldFactory, language: str, text: str, whose: str
) -> None:
    world = await make_world()
    world.clock.current = TOLD_AT
    await _told(world, text, language)
    await world.add_user(timezone="Europe/Paris", language=language, display_name="Léa")

    sent = await world.run_until(datetime(2027, 3, 4, 12, tzinfo=UTC), step=timedelta(hours=1))

    assert [d.at.date().isoformat() for d in sent] == ["2027-03-03"]
    assert whose in sent[0].text
    assert "Happy birthday" not in sent[0].text and "Joyeux anniversaire" not in sent[0].text


@pytest.mark.parametrize(
    ("language", "text", "wish"),
    [
        ("en", "My birthday is on March 3.", "Happy birthday"),
        ("fr", "Mon anniversaire est le 3 mars.", "Joyeux anniversaire"),
    ],
)
async def test_only_my_birthday_is_the_persons_and_gets_the_wish(
    make_world: WorldFactory, language: str, text: str, wish: str
) -> None:
    world = await make_world()
    world.clock.current = TOLD_AT
    await _told(world, text, language)
    await world.add_user(timezone="Europe/Paris", language=language, display_name="Léa")

    sent = await world.run_until(datetime(2027, 3, 4, 12, tzinfo=UTC), step=timedelta(hours=1))

    assert [d.at.date().isoformat() for d in sent] == ["2027-03-03"] and f"{wish} Léa" in sent[0].text


@pytest.mark.parametrize(
    ("language", "text"),
    [("en", "Her birthday is on March 3."), ("fr", "sa fête est le 3 mars"), ("fr", "son anniversaire est le 3 mars")],
)
async def test_a_birthday_of_someone_not_named_is_nobodys_and_sends_nothing(
    make_world: WorldFactory, language: str, text: str
) -> None:
    world = await make_world()
    world.clock.current = TOLD_AT
    await _told(world, text, language)
    await world.add_user(timezone="Europe/Paris", language=language, display_name="Léa")

    assert await world.run_until(datetime(2027, 3, 4, 12, tzinfo=UTC), step=timedelta(hours=1)) == []


@pytest.mark.parametrize(
    ("language", "text", "whose"),
    [
        ("en", "My grandmother Quetzalcoatlus lives in Montpellier and her birthday is on March 3.", "Quetzalcoatlus"),
        ("fr", "Ma grand-mère Zoé habite à Montpellier et son anniversaire est le 3 mars.", "Zoé"),
        ("en", "Her birthday is on March 3.", None),
    ],
)
async def test_a_model_that_says_a_relatives_birthday_is_about_nobody_does_not_make_it_the_persons(
    make_world: WorldFactory, language: str, text: str, whose: str | None
) -> None:
    world = await make_world()
    world.clock.current = TOLD_AT
    await _told(world, text, language, with_model=True)
    await world.add_user(timezone="Europe/Paris", language=language, display_name="Léa")

    sent = await world.run_until(datetime(2027, 3, 4, 12, tzinfo=UTC), step=timedelta(hours=1))

    assert not any("Happy birthday" in d.text or "Joyeux anniversaire" in d.text for d in sent)
    if whose is not None:
        assert len(sent) == 1 and whose in sent[0].text
