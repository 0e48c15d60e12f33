"""The prompt of the terminal chat on a real terminal: prompt_toolkit's line editing and history (in memory
only: what the person typed is not left in a file), with whatever is printed meanwhile (the companion's
messages, log lines) shown above the prompt instead of on it."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_input
from prompt_toolkit.output import create_output
from prompt_toolkit.patch_stdout import patch_stdout

PROMPT = "you> "


class TerminalPrompt:
    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self._session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(), input=create_input(stdin), output=create_output(stdout)
        )

    async def read_line(self) -> str | None:
        """The line typed, or None once the person leaves (Ctrl-D, Ctrl-C); prompt_toolkit then ends the
        prompt's line, so what follows starts on a line of its own."""
        try:
            return await self._session.prompt_async(PROMPT)
        except (EOFError, KeyboardInterrupt):
            return None


@contextmanager
def printed_above_prompt() -> Iterator[TextIO]:
    """Standard output and error, and the log handlers writing to them, go above the prompt while it waits;
    yields the stream to print to."""
    with patch_stdout():
        moved = []
        for handler in logging.getLogger().handlers:
            if isinstance(handler, logging.StreamHandler) and handler.stream in (sys.__stderr__, sys.__stdout__):
                moved.append((handler, handler.setStream(sys.stderr)))
        try:
            yield sys.stdout
        finally:
            for handler, stream in moved:
                handler.setStream(stream)
