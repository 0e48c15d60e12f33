"""`souvenir chat` kept running in a subprocess, fed line by line, for tests that act on it meanwhile."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tests.fakes.souvenir_process import ROOT


class ChatProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.seen = ""
        self.killed = False

    async def kill_now(self) -> None:
        """SIGKILL, as the kernel's OOM killer or a power cut would: nothing gets to finish or clean up."""
        self.killed = True
        self.process.kill()
        await self.process.wait()

    async def _read_line(self, within: float) -> None:
        assert self.process.stdout is not None
        chunk = await asyncio.wait_for(self.process.stdout.readline(), within)
        assert chunk, f"the chat exited; it printed:\n{self.seen}"
        self.seen += chunk.decode()

    async def wait_for(self, text: str, *, after: int = 0, within: float = 120) -> str:
        """Read the chat's output until `text` appears past `after`; return what was printed past `after`."""
        while text not in self.seen[after:]:
            await self._read_line(within)
        return self.seen[after:]

    async def say(self, line: str, expect: str) -> str:
        """Type `line` and wait until `expect` appears after it; return what the chat printed meanwhile."""
        assert self.process.stdin is not None
        start = len(self.seen)
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        return await self.wait_for(expect, after=start)


@asynccontextmanager
async def running_chat(env: dict[str, str], *args: str) -> AsyncIterator[ChatProcess]:
    """A chat that has started (its greeting printed); on exit stdin is closed and it must end with 0."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chat", *args,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    chat = ChatProcess(process)
    try:
        await chat.wait_for("Chatting as")
        yield chat
        if chat.killed:
            return
        assert process.stdin is not None
        process.stdin.close()
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == 0, err.decode()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
