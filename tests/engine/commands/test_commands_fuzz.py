"""Whatever a person types after a command — surrogates from a broken client, control characters, huge
pastes, numbers where words go — the commands answer in the person's language and store nothing unreadable.

Over real Redis (profiles, windows, reply trail) with the in-memory memory browser; hypothesis draws the
arguments, lone surrogates included (Telegram's JSON may carry "\\ud83d")."""

from __future__ import annotations

import asyncio

import redis.asyncio as aioredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "42", "Léa")
TOM = UserRef("telegram", "43", "Tom")
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Every code point, lone surrogates and controls included, weighted towards the hostile ones.
_ANY_CHAR = st.characters(codec=None, categories=None)
_HOSTILE = st.sampled_from(
    ["\ud83d", "\udfff", "\x00", "\x1b[2J", "\u202e", "\u200b", "\ufeff", "\U000e0041", "-1", "0", "abc", "*",
     "telegram:43", "?", "[", "\\", "29 février", "Feb 29 2027", "30 février", "Mars/Olympus", "../../etc",
     "999999999999999999999", "1e9", "🐱", "שלום", " ", "\n", "a" * 5000]
)  # fmt: skip
ARGUMENT = st.lists(st.one_of(st.text(_ANY_CHAR, max_size=40), _HOSTILE), max_size=4).map("".join)
COMMANDS = ("remember", "set_birthday", "set_timezone", "set_checkins", "set_group_sharing", "set_language",
            "set_profile", "memories_listing", "forget_memory", "mood", "link")  # fmt: skip


async def _run(redis_url: str, command: str, argument: str) -> None:
    client = aioredis.from_url(redis_url, decode_responses=True)
    try:
        memories = InMemoryMemoryBrowser()
        commands, profiles, _ = redis_backed_commands(client, FakeClock(), memories)
        await commands.set_language(LEA, "fr")
        tom_before = await commands.export(TOM)
        result = await getattr(commands, command)(LEA, argument)
        text = result.text
        assert isinstance(text, str) and text.strip()
        text.encode("utf-8")  # sendable on every platform
        assert "Traceback" not in text
        if not result.ok:  # a refusal never quotes a huge paste back
            assert len(text) < 2000
        # What was stored can be read back and exported; the other person is untouched.
        await profiles.load_profile(LEA.key)
        (await commands.export(LEA)).decode("utf-8")
        for items in memories.items.values():
            for item in items:
                item.text.encode("utf-8")
        assert await commands.export(TOM) == tom_before
    finally:
        await client.flushdb()
        await client.aclose()


@FUZZ
@given(command=st.sampled_from(COMMANDS), argument=ARGUMENT)
def test_any_argument_to_any_command_gets_an_answer_and_stores_only_readable_text(
    redis_server_url: str, command: str, argument: str
) -> None:
    asyncio.run(_run(f"{redis_server_url.rstrip('/')}/3", command, argument))

