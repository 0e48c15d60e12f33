"""`souvenir chat` on a real terminal (a pseudo-terminal): the prompt stays whole while log lines and the
companion's messages print above it, lines can be edited and the last ones brought back, and Ctrl-D leaves on a
new line."""

from __future__ import annotations

import asyncio
import os
import pty
import re
import select
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Hang, Reply
from tests.fakes.souvenir_process import ROOT, souvenir_env

_ESCAPE = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


def screen(raw: str) -> list[str]:
    """The lines a terminal shows for `raw`: carriage returns, cursor moves left and right and erasures
    applied (enough of a VT100 for one prompt line at a time)."""
    lines, row, col = [""], 0, 0
    pos = 0
    while pos < len(raw):
        escape = _ESCAPE.match(raw, pos)
        if escape:
            argument, command = escape.groups()
            count = int(argument) if argument.isdigit() else 1
            if command == "D":
                col = max(0, col - count)
            elif command == "C":
                col += count
            elif command in "JK":
                lines[row] = lines[row][:col]
                del lines[row + 1 :]
            pos = escape.end()
            continue
        char = raw[pos]
        pos += 1
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
            if row == len(lines):
                lines.append("")
        elif char >= " ":
            line = lines[row].ljust(col)
            lines[row] = line[:col] + char + line[col + 1 :]
            col += 1
    return [line.rstrip() for line in lines]


class Terminal:
    def __init__(self, master: int) -> None:
        self._master = master
        self.raw = ""

    async def wait_for(self, text: str, *, after: str = "", within: float = 60) -> None:
        """Until `text` shows, past the last `after` when given."""
        async with asyncio.timeout(within):
            while text not in self.raw[self.raw.rfind(after) if after else 0 :]:
                ready, _, _ = await asyncio.to_thread(select.select, [self._master], [], [], 0.2)
                if ready:
                    try:
                        self.raw += os.read(self._master, 4096).decode(errors="replace")
                    except OSError:  # the chat closed the terminal
                        raise AssertionError(f"the chat ended; the screen:\n{self.raw}") from None

    async def shows_last(self, line: str, *, within: float = 30) -> None:
        """Until the terminal's last line reads `line`."""
        async with asyncio.timeout(within):
            while ([shown for shown in screen(self.raw) if shown] or [""])[-1] != line:
                ready, _, _ = await asyncio.to_thread(select.select, [self._master], [], [], 0.2)
                if ready:
                    self.raw += os.read(self._master, 4096).decode(errors="replace")

    async def read_to_the_end(self) -> None:
        """What the chat printed until it closed the terminal."""
        while True:
            try:
                chunk = await asyncio.to_thread(os.read, self._master, 4096)
            except OSError:  # EIO: nothing holds the other end any more
                return
            if not chunk:
                return
            self.raw += chunk.decode(errors="replace")

    def type(self, keys: str) -> None:
        os.write(self._master, keys.encode())


@asynccontextmanager
async def chat_on_a_terminal(env: dict[str, str]) -> AsyncIterator[tuple[Terminal, asyncio.subprocess.Process]]:
    master, slave = pty.openpty()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chat",
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1", **env},
        stdin=slave, stdout=slave, stderr=slave,
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    try:
        terminal = Terminal(master)
        await terminal.wait_for("you>")
        yield terminal, process
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        os.close(master)


async def test_a_log_line_prints_above_the_prompt_up_brings_back_the_last_line_and_ctrl_d_leaves_on_a_new_line(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    # The reply, then memory extraction that hangs past the timeout: a warning while the person types.
    fake_llm.script(Reply("hello there"), Hang(30))
    env = {**souvenir_env(data_dir, fake_llm.base_url, None), "SOUVENIR_LLM_TIMEOUT_S": "3"}
    async with chat_on_a_terminal(env) as (terminal, process):
        terminal.type("hi\r")
        await terminal.wait_for("you>", after="hello there")
        terminal.type("half-typed")
        await terminal.wait_for("LLM call failed")
        await terminal.wait_for("half-typed", after="LLM call failed")  # redrawn after the log line

        shown = [line for line in screen(terminal.raw) if line]
        warning = next(line for line in shown if "LLM call failed" in line)
        assert "WARNING" in warning and "you>" not in warning, shown
        assert shown[-1] == "you> half-typed", shown  # the prompt, whole, below the log line

        terminal.type("\x15\x1b[A")  # Ctrl-U clears the line, Up brings back the last one sent
        await terminal.shows_last("you> hi")
        terminal.type("\x15\x04")  # Ctrl-U clears it again, Ctrl-D leaves
        assert await asyncio.wait_for(process.wait(), 60) == 0
        await asyncio.wait_for(terminal.read_to_the_end(), 10)
    *_, last_prompt, after_it = screen(terminal.raw)
    assert last_prompt == "you>" and after_it == "", repr(terminal.raw[-80:])  # the shell's prompt: a line of its own
