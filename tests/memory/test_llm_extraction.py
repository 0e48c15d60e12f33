"""LLM extraction survives what local models do to JSON, and falls back to offline extraction."""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime

import pytest

from bot.engine.ports import CompletionRequest
from bot.errors import LLMUnavailable
from memory.records import MemoryKind
from memory.writing.extraction.json_repair import parse_json_object
from memory.writing.extraction.llm import LlmExtractor

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


class ScriptedModel:
    """Answers from a queue; an exception in the queue is raised instead."""

    def __init__(self, *answers: str | Exception) -> None:
        self.answers: deque[str | Exception] = deque(answers)
        self.requests: list[CompletionRequest] = []

    async def complete(self, request: CompletionRequest) -> str:
        self.requests.append(request)
        answer = self.answers.popleft()
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.mark.parametrize(
    "raw",
    [
        '```json\n{"facts": [{"text": "likes jazz"},],}\n```',
        "Sure! Here it is: {'facts': [{'text': 'likes jazz'}]} Hope that helps.",
        '{facts: [{text: "likes jazz", replaces_old: False}]}',
        '{"facts": [{"text": "likes jazz"}',
    ],
)
def test_common_json_breakage_is_repaired(raw: str) -> None:
    assert parse_json_object(raw)["facts"][0]["text"] == "likes jazz"


def test_unreadable_text_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_json_object("I could not find anything to remember.")


async def test_model_answer_becomes_candidates_and_asks_for_json() -> None:
    model = ScriptedModel(
        '{"facts": [{"text": "Works as a nurse", "about": null}], "preferences": [{"text": "Loves jazz", '
        '"topic": "jazz", "likes": true}], "events": [{"what": "wedding", "about": "sister", "date": '
        '"2026-06-03", "yearly": false}, {"what": "party", "date": "2026-02-30"}], "emotions": '
        '[{"text": "Misses her grandfather", "sensitive": true}]}'
    )
    found = await LlmExtractor(model).extract("...", AT, "Europe/Paris", "en")
    assert found is not None
    assert model.requests[0].json_output
    by_kind = {(c.kind, c.label) for c in found}
    assert (MemoryKind.SEMANTIC, "likes") in by_kind and (MemoryKind.EMOTIONAL, "sensitive") in by_kind
    (wedding,) = [c for c in found if c.kind is MemoryKind.TEMPORAL]  # 30 February is no date
    assert (wedding.subject, wedding.local_date) == ("sister", "2026-06-03")
    assert "sister's wedding" in wedding.text.lower()


async def test_one_retry_then_none_so_offline_extraction_is_kept() -> None:
    model = ScriptedModel("no json here", '{"facts": []}')
    assert await LlmExtractor(model).extract("hello", AT, "UTC", "en") == []
    assert len(model.requests) == 2
    assert "not one valid JSON" in model.requests[1].turns[-1].text

    broken = ScriptedModel("nope", "still nope")
    assert await LlmExtractor(broken).extract("hello", AT, "UTC", "en") is None
    assert len(broken.requests) == 2


async def test_unavailable_model_means_offline_only() -> None:
    model = ScriptedModel(LLMUnavailable("down"))
    assert await LlmExtractor(model).extract("hello", AT, "UTC", "en") is None
    assert len(model.requests) == 1
