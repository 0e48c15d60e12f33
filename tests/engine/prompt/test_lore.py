"""A character card's lore book: which entries a message triggers, a regex key that cannot stall a reply, and
matching that stays off the event loop."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.prompt.lore import LoreEntry, triggered_lore
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


def _hits(entries: list[LoreEntry], text: str) -> list[str]:
    return [entry.content for entry in triggered_lore(entries, text, budget_tokens=500)]


def test_keys_match_whole_words_case_insensitively_unless_told_otherwise() -> None:
    entries = [
        LoreEntry(("dragon",), "Dragons hoard tea."),
        LoreEntry(("Mia",), "Mia is the cat.", case_sensitive=True),
    ]
    assert _hits(entries, "A DRAGON flew by, and mia too") == ["Dragons hoard tea."]
    assert _hits(entries, "dragonfly") == []


def test_a_regex_key_matches_as_written() -> None:
    entries = [LoreEntry((r"drag(on|ons)\b",), "Dragons hoard tea.", use_regex=True)]
    assert _hits(entries, "Two Dragons") == ["Dragons hoard tea."]


def test_a_backtracking_regex_key_answers_at_once() -> None:
    # With a backtracking engine, (a+)+$ against 40 a's and a b runs for days: this test would never end.
    entries = [LoreEntry((r"(a+)+$",), "never", use_regex=True)]
    assert _hits(entries, "a" * 40 + "b") == []


def test_a_regex_key_re2_cannot_read_never_matches() -> None:
    entries = [
        LoreEntry((r"(?<=the )dragon",), "look-behind", use_regex=True),
        LoreEntry(("[",), "bad", use_regex=True),
    ]
    assert _hits(entries, "the dragon [") == []


async def test_lore_is_matched_off_the_event_loop(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hundreds of keys on a long message take milliseconds: matched on a worker thread, never on the event loop.
    matched_in: set[int] = set()
    triggered_by = LoreEntry.triggered_by

    def recording(entry: LoreEntry, text: str) -> bool:
        matched_in.add(threading.get_ident())
        return triggered_by(entry, text)

    monkeypatch.setattr(LoreEntry, "triggered_by", recording)
    persona = replace(load_persona(None), lore=(LoreEntry((r"drag(on|ons)\b",), "Dragons hoard tea.", use_regex=True),))
    llm = ScriptedLLM()
    engine = Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=persona,
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
    )
    try:
        await engine.handle(message("Two dragons flew by", user="lore-1"))
    finally:
        await engine.drain()

    assert "Dragons hoard tea." in llm.requests[-1].system  # the same lore as before, formatted by the prompt
    assert matched_in and threading.get_ident() not in matched_in
