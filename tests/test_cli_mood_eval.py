"""`souvenir eval mood` and `souvenir eval patterns` run as a person would run them, offline."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Reply
from tests.memory.mood_series import planted_labels, write_texts

ROOT = Path(__file__).resolve().parents[1]


async def _souvenir(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    env = {**clean, "PYTHONPATH": str(ROOT), "SOUVENIR_DATA_DIR": str(tmp_path / "data"), **(env or {})}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 180)
    return process.returncode or 0, out.decode(), err.decode()


def _jsonl(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


async def test_eval_mood_scores_every_line(tmp_path: Path) -> None:
    data = _jsonl(tmp_path / "mood.jsonl", [
        {"text": "We won the final, I'm so happy!", "lang": "en", "label": "joy"},
        {"text": "Je suis crevée, j'ai besoin de dormir", "lang": "fr", "label": "tiredness"},
        {"text": "Je suis crevée, j'ai besoin de dormir", "lang": "fr", "label": "tiredness"},
        {"text": "Ma mère me manque tellement, je pleure", "lang": "fr", "label": "sadness"},
        {"text": "The bus leaves at nine", "lang": "en", "label": "neutral"},
        {"text": "I'm terrified about the exam tomorrow", "lang": "en", "label": "anxiety"},
    ])  # fmt: skip
    out = tmp_path / "report" / "mood.json"
    code, stdout, stderr = await _souvenir(tmp_path, "eval", "mood", "--data", str(data), "--json", str(out))
    assert code == 0, stderr
    report = json.loads(out.read_text())
    assert set(report) == {"n", "accuracy", "macro_f1", "valence_sign_accuracy", "per_label"}
    assert report["n"] == 6  # the repeated line is read twice
    assert set(report["per_label"]) == {"joy", "calm", "sadness", "anxiety", "anger", "tiredness", "neutral"}
    assert all(set(s) == {"precision", "recall", "f1"} for s in report["per_label"].values())
    assert report["accuracy"] == 1.0 and report["valence_sign_accuracy"] == 1.0
    # calm and anger are absent from the file, so their F1 is 0 and the mean of seven is 5/7
    assert abs(report["macro_f1"] - 5 / 7) < 1e-3
    assert "macro-F1" in stdout


async def test_eval_mood_refuses_a_bad_label_and_says_which_line(tmp_path: Path) -> None:
    data = _jsonl(tmp_path / "bad.jsonl", [
        {"text": "fine", "lang": "en", "label": "neutral"},
        {"text": "argh", "lang": "en", "label": "grumpy"},
    ])  # fmt: skip
    code, _, stderr = await _souvenir(tmp_path, "eval", "mood", "--data", str(data), "--json", str(tmp_path / "o.json"))
    assert code == 2 and "bad.jsonl:2" in stderr
    assert not (tmp_path / "o.json").exists()


async def test_eval_mood_with_llm_reads_through_the_extraction_call_and_falls_back_offline(tmp_path: Path) -> None:
    data = _jsonl(tmp_path / "mood.jsonl", [
        {"text": "The bus leaves at nine", "lang": "en", "label": "neutral"},
        {"text": "We won the final, I'm so happy!", "lang": "en", "label": "joy"},
    ])  # fmt: skip
    angry = '{"facts": [], "mood": {"label": "anger", "valence": -0.7, "intensity": 0.8}}'
    async with FakeOpenAI() as llm:
        llm.script(Reply(angry), Reply("no JSON here"), Reply("still none"))  # the second line: unreadable twice
        out = tmp_path / "llm.json"
        code, stdout, stderr = await _souvenir(
            tmp_path, "eval", "mood", "--data", str(data), "--json", str(out), "--llm",
            env={"SOUVENIR_LLM_BASE_URL": llm.base_url, "SOUVENIR_LLM_MAX_RETRIES": "0"},
        )  # fmt: skip
        assert code == 0, stderr
        assert len(llm.requests) == 3  # one extraction call a line (and its one retry), nothing more
    report = json.loads(out.read_text())
    assert "1 of 2 readings came from the language model" in stdout
    # The model read the bus line as anger (wrong); the offline reader read the final as joy (right).
    assert report["accuracy"] == 0.5 and report["per_label"]["joy"]["recall"] == 1.0


async def test_eval_patterns_finds_a_planted_sunday(tmp_path: Path) -> None:
    data = tmp_path / "series.jsonl"
    labelled = planted_labels(7, weeks=8, sunday_anxiety=0.9)
    write_texts(data, labelled)
    out = tmp_path / "patterns.json"
    code, _, stderr = await _souvenir(tmp_path, "eval", "patterns", "--data", str(data), "--json", str(out))
    assert code == 0, stderr
    report = json.loads(out.read_text())
    assert report["readings"] == len(labelled)
    weekday = [p for p in report["patterns"] if p["kind"] == "weekday"]
    assert [(p["weekday"], p["mood"]) for p in weekday] == [("sunday", "anxiety")]
    assert weekday[0]["evidence"] >= 8 and weekday[0]["p_value"] < 0.05


async def test_eval_patterns_on_noise_finds_no_weekday(tmp_path: Path) -> None:
    data = tmp_path / "noise.jsonl"
    write_texts(data, planted_labels(8, weeks=10, per_day=(1, 3)))
    out = tmp_path / "patterns.json"
    code, _, stderr = await _souvenir(tmp_path, "eval", "patterns", "--data", str(data), "--json", str(out))
    assert code == 0, stderr
    assert [p for p in json.loads(out.read_text())["patterns"] if p["kind"] == "weekday"] == []


async def test_eval_patterns_needs_offsets(tmp_path: Path) -> None:
    data = _jsonl(tmp_path / "naive.jsonl", [{"at": "2025-03-02T21:40:00", "text": "hello"}])
    code, _, stderr = await _souvenir(tmp_path, "eval", "patterns", "--data", str(data))
    assert code == 2 and "offset" in stderr
