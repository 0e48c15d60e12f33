"""`open_long_term_memory`: the app's long-term memory over the real embedded index and embedder."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.engine.model import Exchange, IncomingMessage, RecallQuery, Reply, UserRef
from memory.factory import MemoryOptions, open_long_term_memory
from memory.index_factory import IndexOptions
from tests.conftest import FakeClock

USER = UserRef("discord", "42", "Sam")


async def test_remembers_across_reopening_and_forgets_on_request(data_dir: Path, clock: FakeClock) -> None:
    options = MemoryOptions(IndexOptions(data_dir))
    said = [
        "My sister's wedding is on June 6, I'm nervous about my speech",
        "I adopted a cat called Miso last spring",
        "work has been exhausting this week",
    ]
    async with open_long_term_memory(options, clock=clock) as memory:
        for number, text in enumerate(said):
            clock.advance(minutes=5)
            message = IncomingMessage(USER, "discord:dm:42", str(number), text, clock.now())
            await memory.remember_exchange(Exchange(message, Reply("Tell me more.", "en"), "Europe/Paris", "en"))
    clock.advance(days=2)
    async with open_long_term_memory(options, clock=clock) as memory:
        recalled = await memory.recall(RecallQuery(USER.key, "how is Miso the cat doing?", clock.now()))
        assert recalled[0].text == "I adopted a cat called Miso last spring"
        (wedding,) = await memory.dated_events(USER.key)
        assert (wedding.about, wedding.on.month, wedding.on.day) == ("sister", 6, 6)
        when = await memory.recall(RecallQuery(USER.key, "when is the wedding?", clock.now() + timedelta(hours=1)))
        assert when[0].kind == "temporal"
        await memory.forget_user(USER.key)
        assert (await memory.list_memories(USER.key, 0, 10)).total == 0
