"""The AI disclosure in the terminal chat: the chat `souvenir chat` runs (the same core, engine and stores as
`souvenir run`, the openai SDK against the fake OpenAI server), with a clock the test moves between lines."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TextIO, cast

from adapters.terminal import TerminalChat
from bot.app import open_core
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.test_app_disclosure import DISCLOSED, DISCLOSURE, TIMELINE


class TypedLater:
    """Each line typed `minutes` after the previous one: the clock moves as the chat reads it."""

    def __init__(self, clock: FakeClock, lines: list[tuple[float, str]]) -> None:
        self._clock = clock
        self._lines = list(lines)

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if not self._lines:
            return ""
        minutes, line = self._lines.pop(0)
        self._clock.advance(minutes=minutes)
        return line + "\n"


async def test_said_at_the_start_after_a_pause_and_every_three_hours_of_a_conversation(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    settings = load_settings(
        _env_file=None, data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible",
        llm_base_url=fake_llm.base_url, llm_max_retries=0,
    )  # fmt: skip
    out, typed = io.StringIO(), cast(TextIO, TypedLater(clock, TIMELINE))
    async with open_core(settings, clock=clock) as core:
        chat = TerminalChat(
            engine=core.conversation or core.engine, commands=core.commands, clock=core.clock, user_name="lea",
            stdin=typed, stdout=out, files_dir=data_dir, follow_ups=core.crisis_follow_ups,
        )  # fmt: skip
        await chat.run()

    printed = out.getvalue()
    replies = [printed[: printed.index(f"echo: {text}\n")] for _, text in TIMELINE]
    assert [before.endswith(f"\n{DISCLOSURE}\n\n") for before in replies] == DISCLOSED
