"""The LoCoMo evaluation runs end to end (real embedder and embedded index) on a tiny LoCoMo-shaped file."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from bot.engine.model import Exchange
from memory.evaluation import locomo
from memory.evaluation.locomo import ingest_conversations, run_locomo_eval
from memory.evaluation.locomo_data import clean_evidence, load_locomo, session_time
from memory.index_factory import EmbedderOptions

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"


def _sample() -> dict[str, object]:
    return {
        "sample_id": "conv-test",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Caroline", "dia_id": "D1:1", "text": "Hey Mel! How have you been?"},
                {"speaker": "Melanie", "dia_id": "D1:2", "text": "Busy! I started pottery classes last week."},
                {"speaker": "Caroline", "dia_id": "D1:3", "text": "I went to a LGBTQ support group yesterday."},
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Melanie", "dia_id": "D2:1", "text": "We camped by the lake with the kids.",
                 "blip_caption": "a photo of a tent near a lake"},
                {"speaker": "Caroline", "dia_id": "D2:2", "text": "My counseling course starts in September!"},
            ],
        },
        "qa": [
            {"question": "When did Caroline go to the LGBTQ support group?", "answer": "7 May 2023",
             "evidence": ["D1:3"], "category": 2},
            {"question": "What did Melanie start last week?", "evidence": ["D1:2"], "category": 4},
            {"question": "Where did Melanie camp?", "evidence": ["D2:1; D9:99"], "category": 1},
            {"question": "What course will Caroline take?", "evidence": ["D:2:2"], "category": 3},
            {"question": "Adversarial", "evidence": ["D1:1"], "category": 5},
            {"question": "Points nowhere", "evidence": ["D7:7"], "category": 4},
        ],
    }  # fmt: skip


def test_evidence_and_session_times_are_cleaned() -> None:
    assert clean_evidence(["D8:6; D9:17", "D:11:26", "D30:05", "D"]) == ("D8:6", "D9:17", "D11:26", "D30:5")
    assert session_time("1:56 pm on 8 May, 2023").isoformat() == "2023-05-08T13:56:00+00:00"


def test_unscorable_questions_are_left_out(tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample()]))
    (conversation,) = load_locomo(data)
    assert [q.category for q in conversation.questions] == [2, 4, 1, 3]
    assert conversation.questions[2].evidence == ("D2:1",)
    assert "tent near a lake" in conversation.turns[3].text


async def test_eval_on_a_tiny_file_reports_recall(tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample()]))
    out = tmp_path / "report.json"
    code = await run_locomo_eval(EmbedderOptions(), data, k=3, json_out=out, baselines=True)
    assert code == 0
    report = json.loads(out.read_text())
    assert report["k"] == 3 and report["n_questions"] == 4
    assert set(report["recall"]) == {"single-hop", "multi-hop", "temporal", "open-domain", "overall"}
    # Five turns, top 3: the evidence of these plain questions is found.
    assert report["recall"]["overall"] >= 0.75
    assert 0 < report["mean_words"] <= 300
    assert report["ingest_msgs_per_s"] > 0 and report["recall_p95_ms"] >= report["recall_p50_ms"] > 0


async def test_missing_data_is_a_clean_failure(tmp_path: Path) -> None:
    assert await run_locomo_eval(EmbedderOptions(), tmp_path / "absent.json") == 2


@pytest.mark.skipif(not SHARED.exists(), reason="../shared/data/locomo-dev.json is not present")
def test_the_shared_locomo_file_loads() -> None:
    conversations = load_locomo(SHARED)
    assert len(conversations) == 5
    assert sum(len(c.questions) for c in conversations) > 700


class _Recorder:
    """Stands in for the service: keeps each batch of exchanges handed to `remember_exchanges`."""

    def __init__(self) -> None:
        self.batches: list[list[Exchange]] = []

    async def remember_exchanges(self, exchanges: Sequence[Exchange]) -> None:
        self.batches.append(list(exchanges))


async def test_ingestion_cut_in_two_writes_every_turn_once_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_sample()]))
    (one,) = load_locomo(data)
    conversations = [one, replace(one, sample_id="conv-other")]  # 5 turns each, 10 in the order
    monkeypatch.setattr(locomo, "INGEST_BATCH", 2)
    whole = _Recorder()
    assert (await ingest_conversations(cast(Any, whole), conversations))[0] == 10
    said = [e for batch in whole.batches for e in batch]
    assert [(e.message.conversation_id, e.message.message_id) for e in said][4:6] == [
        ("locomo:conv-test", "D2:2"), ("locomo:conv-other", "D1:1"),
    ]  # fmt: skip
    for split in range(11):
        fill, tail = _Recorder(), _Recorder()
        assert (await ingest_conversations(cast(Any, fill), conversations, stop=split))[0] == split
        assert (await ingest_conversations(cast(Any, tail), conversations, start=split))[0] == 10 - split
        batches = fill.batches + tail.batches
        assert [e for batch in batches for e in batch] == said  # the same exchanges (windows too), once each
        assert all(0 < len(b) <= 2 and len({e.message.conversation_id for e in b}) == 1 for b in batches)
