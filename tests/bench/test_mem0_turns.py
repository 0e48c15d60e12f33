"""The comparison with mem0 hands out its timed work in turns: every system gets all of it, in a rotated order."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from bench.mem0_compare.child import PREFIX, serve
from bench.mem0_compare.run import _turns


class _Recording:
    def __init__(self, system: str, log: list[tuple[str, dict[str, Any]]]) -> None:
        self.system = system
        self._log = log

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        self._log.append((self.system, command))
        return {"ok": True}


def test_every_system_ingests_the_whole_tail_and_is_asked_every_question_once_in_rotated_turns() -> None:
    log: list[tuple[str, dict[str, Any]]] = []
    children: list[Any] = [_Recording(name, log) for name in ("souvenir", "faiss", "chroma")]

    _turns(children, tail=150, questions=45, asked_a_turn=20)

    for name in ("souvenir", "faiss", "chroma"):
        mine = [command for system, command in log if system == name]
        assert sum(c.get("ingest", 0) for c in mine) == 150
        asked = [i for c in mine for i in c.get("ask", [])]
        assert sorted(asked) == list(range(45))
        assert max(c.get("ingest", 0) for c in mine) <= 64
        assert all(len(c["ask"]) <= 20 for c in mine if "ask" in c)
    # all of the tail before any question, for every system
    first_question = next(n for n, (_, c) in enumerate(log) if "ask" in c)
    assert all("ingest" in c for _, c in log[:first_question])
    # each round goes first to another system
    firsts = [log[n][0] for n in range(0, len(log), 3)]
    assert firsts[:3] == ["souvenir", "faiss", "chroma"]


class _Side:
    fill_seconds = 1.5

    def __init__(self) -> None:
        self.ingested = 0
        self.asked: list[int] = []

    async def ingest(self, count: int) -> None:
        self.ingested += count

    async def ask(self, indices: list[int]) -> None:
        self.asked.extend(indices)

    async def finish(self) -> dict[str, Any]:
        return {"ingested": self.ingested, "asked": self.asked}


async def test_a_child_answers_each_command_behind_its_prefix_and_ends_with_its_figures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    commands = [{"ingest": 64}, {"ask": [3, 1]}, {"ingest": 10}, {"finish": True}, {"ask": [9]}]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(c) + "\n" for c in commands)))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)

    await serve(_Side())

    answers = [json.loads(line.removeprefix(PREFIX)) for line in out.getvalue().splitlines()]
    assert all(line.startswith(PREFIX) for line in out.getvalue().splitlines())
    assert answers[0] == {"ready": True, "fill_s": 1.5}
    assert answers[1:4] == [{"ok": True}] * 3
    assert answers[4] == {"ingested": 74, "asked": [3, 1]}  # nothing after "finish" is done
    assert len(answers) == 5


async def test_a_child_whose_parent_goes_away_stops_with_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"ingest": 1}) + "\n"))
    monkeypatch.setattr(sys, "stdout", io.StringIO())

    with pytest.raises(SystemExit, match="parent went away"):
        await serve(_Side())
