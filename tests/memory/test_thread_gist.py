"""The model's gist of where a conversation stands: read tolerantly from the extraction answer (no call of its
own), kept only for private messages that touch nothing painful, and preferred by the person model's thread
when it is of the last conversation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.prompt.person import person_block
from memory.person.person_model import build_person_model
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.writing.extraction.candidates import Candidate
from memory.writing.extraction.llm import GIST_WORDS, LlmExtractor, read_gist
from memory.writing.thread_gist import GIST, gist_to_keep
from tests.memory.test_llm_extraction import ScriptedModel

NOW = datetime(2026, 3, 20, 12, tzinfo=UTC)
_ids = iter(range(1000))


@pytest.mark.parametrize(
    ("raw", "read"),
    [
        ("they were nervous about Thursday's interview", "they were nervous about Thursday's interview"),
        ('  « elle stressait pour son entretien de jeudi »\nand more  ', "elle stressait pour son entretien de jeudi"),
        ({"text": "they were packing for Lyon"}, "they were packing for Lyon"),
        ("about <b>the move</b>", "about b the move /b"),
        (None, None), ("", None), ("null", None), ("None", None), (42, None), (["a", "b"], None), ("ok", None),
    ],
)
def test_a_gist_is_read_tolerantly(raw: object, read: str | None) -> None:
    assert read_gist(raw) == read


def test_a_long_gist_is_cut_to_one_short_line() -> None:
    assert len((read_gist("word " * 100) or "").split()) == GIST_WORDS


async def test_the_extraction_answer_gives_the_gist_beside_the_facts_in_one_call() -> None:
    model = ScriptedModel(
        '{"facts": [{"text": "Has a job interview on Thursday"}], "gist": "they were nervous about Thursday\'s '
        'interview"}'
    )
    gists: list[str] = []
    found = await LlmExtractor(model).extract("I'm so nervous about Thursday", NOW, "UTC", "en", gist_out=gists)
    assert found is not None and [c.text for c in found] == ["Has a job interview on Thursday"]
    assert gists == ["they were nervous about Thursday's interview"] and len(model.requests) == 1
    assert '"gist"' in model.requests[0].system and "in the person's language" in model.requests[0].system


async def test_a_broken_gist_costs_the_gist_not_the_facts() -> None:
    model = ScriptedModel('{"facts": [{"text": "Loves jazz"}], "gist": {"oops": 1}}')
    gists: list[str] = []
    found = await LlmExtractor(model).extract("I love jazz", NOW, "UTC", "en", gist_out=gists)
    assert found is not None and [c.text for c in found] == ["Loves jazz"] and gists == []


def test_a_gist_is_kept_for_private_messages_that_touch_nothing_painful() -> None:
    assert gist_to_keep("Thursday is the interview", "nervous about the interview", [], "dm") is not None
    assert gist_to_keep("Thursday is the interview", "nervous about the interview", [], "group") is None
    assert gist_to_keep("the funeral is on Thursday", "getting through the week", [], "dm") is None
    assert gist_to_keep("rough week", "they are grieving their dad", [], "dm") is None
    painful = Candidate(MemoryKind.EMOTIONAL, "Misses her dad", "sensitive", sensitive=True)
    assert gist_to_keep("rough week", "a rough week", [painful], "dm") is None


def _said(text: str, hours_ago: float, gist: str | None = None, scope: str = "dm") -> MemoryRecord:
    at = NOW - timedelta(hours=hours_ago)
    return MemoryRecord(
        memory_id=f"e{next(_ids)}", user_key="telegram:1", kind=MemoryKind.EPISODIC, text=text, language="en",
        created_at=at, source=MemorySource("telegram", "telegram:dm:1"), valid_from=at, scope=scope,
        attributes={GIST: gist} if gist else {},
    )  # fmt: skip


def test_the_thread_prefers_the_models_gist_of_the_last_conversation() -> None:
    episodes = [  # newest first
        _said("ok talk later", 5),
        _said("I'm so nervous about the interview on Thursday, I keep rehearsing", 5.1,
              gist="they were nervous about Thursday's interview"),
        _said("Spent the morning cleaning the whole apartment", 5.2),
    ]
    model = build_person_model("telegram:1", [], episodes, NOW, "UTC")
    [line] = model.thread
    assert line.gist and line.text == "they were nervous about Thursday's interview"
    assert line.source.memory_id == episodes[1].memory_id and model.thread_at == episodes[1].created_at
    block = person_block(model, '"Sam"', "en", NOW.date(), with_thread=True).text
    assert "- they were nervous about Thursday's interview" in block and "rehearsing" not in block
    assert model.without([episodes[1].memory_id]).thread == ()  # forgetting the message takes its gist


def test_a_gist_of_an_earlier_conversation_gives_way_to_the_last_ones_words() -> None:
    episodes = [
        _said("Made fresh pasta tonight with my neighbours, it was great", 2),
        _said("I'm so nervous about the interview on Thursday", 50, gist="they were nervous about the interview"),
    ]
    thread = build_person_model("telegram:1", [], episodes, NOW, "UTC").thread
    assert not any(t.gist for t in thread) and "pasta" in thread[-1].text


def test_no_gist_from_a_group_or_a_painful_message_becomes_the_thread() -> None:
    episodes = [
        _said("the interview is on Thursday, wish me luck all", 1, gist="nervous about the interview", scope="group"),
        _said("my dad's funeral is on Thursday", 2, gist="getting ready for Thursday"),
    ]
    assert not any(t.gist for t in build_person_model("telegram:1", [], episodes, NOW, "UTC").thread)
