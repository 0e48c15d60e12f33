"""One system in a child process of its own, and the parent's handle on it: the turns.

A child fills its system with every message of the box but the tail (untimed), says it is ready, and waits.
The parent then hands out the timed work in turns: a chunk of the tail to each system, then a round of
questions to each, the order of the systems rotated every round. A box whose speed drifts within the hour (a
shared machine's does, ~2x) then slows every system alike, where children run one after the other would each
meet a different machine. The children of a size are alive together only when they fit in memory together
(see run.py); otherwise each gets all its turns at once, one child after the other.

Messages, one JSON object a line: the parent writes {"ingest": n}, {"ask": [question indices]} or
{"finish": true} on the child's stdin; the child answers each on stdout behind `PREFIX` (anything else a
library prints there is ignored), the last answer with its figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any, Protocol

PREFIX = "@@souvenir-bench "


class Side(Protocol):
    fill_seconds: float

    async def ingest(self, count: int) -> None: ...
    async def ask(self, indices: list[int]) -> None: ...
    async def finish(self) -> dict[str, Any]: ...


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(PREFIX + json.dumps(message) + "\n")
    sys.stdout.flush()


async def serve(side: Side) -> None:
    """The child's side: ready, then each command in turn until "finish". Reading stdin blocks the child
    whole, its event loop too: while another system is timed, this one does nothing."""
    _say({"ready": True, "fill_s": side.fill_seconds})
    while line := sys.stdin.readline():
        command = json.loads(line)
        if "ingest" in command:
            await side.ingest(int(command["ingest"]))
            _say({"ok": True})
        elif "ask" in command:
            await side.ask([int(i) for i in command["ask"]])
            _say({"ok": True})
        elif command.get("finish"):
            _say(await side.finish())
            return
        else:
            raise ValueError(f"unknown command {command!r}")
    raise SystemExit("the parent went away before the end of the run")


class Child:
    """The parent's handle on one system's child process."""

    def __init__(self, system: str, people: int, process: subprocess.Popen[str], errors: IO[str]) -> None:
        self.system = system
        self.people = people
        self._process = process
        self._errors = errors

    @classmethod
    def start(cls, system: str, people: int, command: list[str], cwd: Path) -> Child:
        errors = tempfile.TemporaryFile("w+", encoding="utf-8")  # no pipe to fill up and block the child
        env = {**os.environ, "PYTHONPATH": str(cwd)}
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=errors, text=True)  # fmt: skip
        return cls(system, people, process, errors)

    def answer(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            if line.startswith(PREFIX):
                return dict(json.loads(line[len(PREFIX) :]))
        self._process.wait()
        self._errors.seek(0)
        sys.stderr.write(self._errors.read()[-4000:])
        raise SystemExit(f"the {self.system} run at {self.people} people failed (exit {self._process.returncode})")

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(command) + "\n")
        self._process.stdin.flush()
        return self.answer()

    def finish(self) -> dict[str, Any]:
        out = self.send({"finish": True})
        self._process.wait()
        self._errors.close()
        return out
