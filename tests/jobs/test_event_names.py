"""A dated thing keeps the capitals of the names in it, from what the model extracted to the unprompted
message about it: "Arrivée de Paul", not "Arrivée de paul"."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.model import ChatKind, Exchange, IncomingMessage, Reply, UserRef
from bot.engine.ports import CompletionRequest
from memory.service import LongTermMemoryService
from tests.jobs.conftest import WorldFactory
from tests.memory.fake_index import FakeMemoryIndex

TOLD_AT = datetime(2026, 12, 3, 10, tzinfo=UTC)
PERSON = UserRef("telegram", "42", "Léa")


class ExtractingModel:
    """Extracts one dated event from the message; answers nothing else."""

    def __init__(self, what: str) -> None:
        self.what = what

    async def complete(self, request: CompletionRequest) -> str:
        if "You extract long-term memories" in request.system:
            return json.dumps({"events": [{"what": self.what, "about": None, "date": "2027-01-03"}]})
        return '{"decisions": []}'


@pytest.mark.parametrize(
    ("language", "said", "what", "sent_words"),
    [
        ("fr", "Paul sera là le 3 janvier, trop hâte", "Arrivée de Paul", "« Arrivée de Paul »"),
        (
            "en",
            "Paul will be here on January 3, can't wait",
            "Paul's arrival from Montréal",
            "“Paul's arrival from Montréal”",
        ),
    ],
)
async def test_the_message_about_an_event_keeps_the_names_capitals(
    make_world: WorldFactory, language: str, said: str, what: str, sent_words: str
) -> None:
    memory = LongTermMemoryService(FakeMemoryIndex(), default_timezone="Europe/Paris", llm=ExtractingModel(what))
    message = IncomingMessage(PERSON, "telegram:dm:42", "1", said, TOLD_AT, ChatKind.PRIVATE)
    await memory.remember_exchange(Exchange(message, Reply("Noted.", language), "Europe/Paris", language))
    world = await make_world()
    world.clock.current = TOLD_AT
    for event in await memory.dated_events(PERSON.key):
        world.events.add(event)
    await world.add_user(timezone="Europe/Paris", language=language, display_name="Léa")

    sent = await world.run_until(datetime(2027, 1, 2, 12, tzinfo=UTC), step=timedelta(hours=1))

    assert len(sent) == 1 and sent_words in sent[0].text
