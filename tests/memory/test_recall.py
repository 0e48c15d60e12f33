"""Recall ranking: relevant first, dated memories for "when" questions, compact and without repeats."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta

from bot.engine.model import RecallQuery
from memory.recall.ranking import RecallWeights, rank, recency, with_session_prior
from memory.recall.selection import select
from memory.records import MemoryKind, MemoryRecord, MemorySource, ScoredMemory
from memory.service import LongTermMemoryService
from memory.writing.episodes import SAID
from memory.writing.extraction.candidates import PRECISION
from tests.memory.fake_index import FakeMemoryIndex

NOW = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
USER = "telegram:1"


def _record(text: str, kind: MemoryKind = MemoryKind.EPISODIC, *, days_ago: float = 0, said: str | None = None,
            local_date: str | None = None, message: str | None = None) -> MemoryRecord:  # fmt: skip
    at = NOW - timedelta(days=days_ago)
    return MemoryRecord(
        str(uuid.uuid4()), USER, kind, text, "en", at,
        MemorySource("telegram", "telegram:dm:1", (message or str(uuid.uuid4()),)),
        event_at=at, local_date=local_date, attributes={SAID: said} if said else {},
    )  # fmt: skip


def _query(text: str, **options: object) -> RecallQuery:
    return RecallQuery(USER, text, NOW, **options)  # type: ignore[arg-type]


def _texts(records: list[MemoryRecord], question: str, **options: object) -> list[str]:
    hits = [ScoredMemory(r, 1.0 / (i + 1)) for i, r in enumerate(records)]
    query = _query(question, **options)
    return [m.text for m in select(rank(hits, query, []), query.limit, query.max_words)]


def test_the_memory_that_says_it_beats_the_one_that_only_has_it_as_context() -> None:
    context_only = _record(
        "Mel: how was your weekend? | Caroline: I went to a support group", said="Mel: how was your weekend?"
    )
    says_it = _record(
        "Caroline: I went to a support group | Mel: how was your weekend?", said="Caroline: I went to a support group"
    )
    assert (
        _texts([context_only, says_it], "When did Caroline go to the support group?")[0]
        == "Caroline: I went to a support group"
    )


def test_when_questions_favour_dated_memories() -> None:
    episode = _record("we talked about the wedding plans and the wedding dress")
    dated = _record("Sister's wedding — 3 June 2026", MemoryKind.TEMPORAL, local_date="2026-06-03")
    assert _texts([episode, dated], "when is the wedding?")[0] == "Sister's wedding — 3 June 2026"


def test_core_facts_do_not_fade_but_episodes_do_a_little() -> None:
    fact = _record("likes jazz", MemoryKind.SEMANTIC, days_ago=3000)
    old, new = _record("a walk", days_ago=3000), _record("a walk", days_ago=1)
    assert recency(fact, NOW) == 1.0
    assert 0.9 <= recency(old, NOW) < recency(new, NOW) <= 1.0


def test_near_identical_texts_are_shown_once_and_the_word_budget_holds() -> None:
    records = [_record("I love Blue Note jazz records"), _record("I love Blue Note jazz records!")]
    records += [_record(f"jazz story number {i} " + "word " * 20) for i in range(10)]
    texts = _texts(records, "jazz", limit=8, max_words=60)
    assert texts.count("I love Blue Note jazz records") + texts.count("I love Blue Note jazz records!") == 1
    assert sum(len(t.split()) for t in texts) <= 60
    assert len(_texts(records, "jazz", limit=3)) == 3


def test_a_single_long_memory_is_cut_to_the_budget() -> None:
    (text,) = _texts([_record("jazz " * 500)], "jazz", max_words=50)
    assert len(text.split()) == 51 and text.endswith("…")


def test_facts_read_from_a_message_already_shown_are_not_repeated() -> None:
    episode = _record("I love Blue Note jazz and my cat", message="m1")
    fact = _record("I love Blue Note jazz", MemoryKind.SEMANTIC, message="m1")
    assert len(_texts([episode, fact], "Blue Note jazz")) == 1


async def test_relative_dates_in_the_question_favour_memories_from_then() -> None:
    index = FakeMemoryIndex()
    last_week = _record("dinner with Marc at the lake house", days_ago=7)
    yesterday = _record("dinner with Marc at the lake house", days_ago=1)
    await index.add([yesterday, last_week])
    recalled = await LongTermMemoryService(index).recall(_query("what did I do with Marc last week?", timezone="UTC"))
    assert recalled[0].memory_id == last_week.memory_id


async def test_superseded_memories_are_not_recalled() -> None:
    index = FakeMemoryIndex()
    old = _record("I love steak", MemoryKind.SEMANTIC)
    await index.add([old])
    await index.supersede(USER, [old.memory_id], NOW - timedelta(minutes=1))
    assert await LongTermMemoryService(index).recall(_query("steak")) == []


def test_a_name_asked_about_favours_memories_that_say_it_themselves() -> None:
    said = "Melanie: I painted a horse, it took me ages to get the mane right"
    melanie = _record(f"{said} | Caroline: wow", said=said)
    asked = "Caroline: is that your painting, Mel?"
    caroline = _record(f"{asked} | Melanie: yes", said=asked)
    others = [_record(f"Caroline: hello {w} | Melanie: hi", said=f"Caroline: hello {w}") for w in ("there", "again")]
    assert _texts([caroline, melanie, *others], "What has Melanie painted?")[0] == said


def test_closeness_in_meaning_decides_when_no_keyword_is_shared() -> None:
    near, far = _record("we adopted a puppy"), _record("the train was late")
    query = _query("any new pets?")
    hybrid = [ScoredMemory(far, 0.02), ScoredMemory(near, 0.01)]
    similar = [ScoredMemory(near, 0.62), ScoredMemory(far, 0.08)]
    ranked = rank(hybrid, query, [], similar)
    assert [record.text for record, _ in ranked] == ["we adopted a puppy", "the train was late"]


def test_recalled_memories_carry_when_they_were_told_and_when_they_happen() -> None:
    episode = _record("I went to the support group yesterday", days_ago=21)
    birthday = replace(_record("Birthday — 14 March (every year)", MemoryKind.TEMPORAL, days_ago=400,
                               local_date="2025-03-14"), recurrence="yearly")  # fmt: skip
    next_month = replace(_record("Move to Lyon — April 2026", MemoryKind.TEMPORAL, local_date="2026-04-01"),
                         attributes={PRECISION: "month"})  # fmt: skip
    shown = {m.text: m for m in select([(r, 1.0) for r in (episode, birthday, next_month)], 8, 300)}

    told = shown["I went to the support group yesterday"]
    assert told.told_at == NOW - timedelta(days=21) and told.on is None and not told.yearly
    yearly = shown["Birthday — 14 March (every year)"]
    assert yearly.yearly and yearly.on == date(2025, 3, 14) and yearly.precision == "day"
    month = shown["Move to Lyon — April 2026"]
    assert month.on == date(2026, 4, 1) and month.precision == "month" and not month.yearly


async def test_the_weights_injected_into_the_service_decide_the_order() -> None:
    index = FakeMemoryIndex()
    last_week = _record("dinner with Marc at the lake house", days_ago=7)
    yesterday = _record("dinner with Marc at the lake house", days_ago=1)
    await index.add([yesterday, last_week])
    query = _query("what did I do with Marc last week?", timezone="UTC")
    ignore_dates = RecallWeights(near_date_boost=1.0, session_weight=0.0)
    assert (await LongTermMemoryService(index).recall(query))[0].memory_id == last_week.memory_id
    assert (await LongTermMemoryService(index, recall_weights=ignore_dates).recall(query))[0].memory_id == (
        yesterday.memory_id
    )


def test_a_past_conversation_that_matches_as_a_whole_lifts_its_memories() -> None:
    hike = [_record("we hiked up to the lake", days_ago=30), _record("the lake was freezing", days_ago=30)]
    other = _record("a lake house for sale", days_ago=3)
    scored = [(hike[0], 1.0), (other, 1.0), (hike[1], 0.8)]
    lifted = dict((r.memory_id, v) for r, v in with_session_prior(scored, 0.5))
    assert lifted[hike[0].memory_id] > lifted[other.memory_id]
    assert with_session_prior(scored, 0.0) == scored  # off: the order stays as relevance says
