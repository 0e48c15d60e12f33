"""Leave-one-conversation-out: the weights are chosen on the other conversations, never on the one scored."""

from __future__ import annotations

import json
from pathlib import Path

from memory.evaluation.folds import folds_mean, leave_one_out
from memory.evaluation.locomo import run_locomo_eval
from memory.evaluation.scoring import Tally
from memory.index_factory import EmbedderOptions
from memory.recall.ranking import RecallWeights
from tests.memory.test_locomo_eval import _sample


def _tally(hits: int, of: int = 4) -> Tally:
    """`hits` of `of` single-hop questions found."""
    tally = Tally("t", 10)
    for i in range(of):
        tally.add(4, ("D1:1",), [("D1:1",)] if i < hits else [()], 10, 1.0)
    return tally


def test_each_fold_is_scored_with_what_won_on_the_other_conversations() -> None:
    plain, named = RecallWeights(), RecallWeights(named_boost=2.0)
    # `named` is better on a and b; the defaults win c by far, so every fold that trains on c picks the defaults.
    scored = [
        {"a": _tally(1), "b": _tally(1), "c": _tally(4, 4)},
        {"a": _tally(3), "b": _tally(3), "c": _tally(0, 4)},
    ]
    folds = leave_one_out([plain, named], scored, 10)
    chosen = {f.held_out: f.weights for f in folds}
    # Trained on b and c: plain 5/8, named 3/8 -> plain; scored on a with plain (1/4), not named (3/4).
    assert chosen == {"a": plain, "b": plain, "c": named}
    held_out = {f.held_out: f.tally.recall()["overall"] for f in folds}
    assert held_out == {"a": 0.25, "b": 0.25, "c": 0.0}
    assert folds_mean(folds)["recall"]["overall"] == (0.25 + 0.25 + 0.0) / 3


def test_equal_candidates_keep_the_defaults() -> None:
    scored = [{"a": _tally(2), "b": _tally(2)}, {"a": _tally(2), "b": _tally(2)}]
    folds = leave_one_out([RecallWeights(), RecallWeights(named_boost=2.0)], scored, 10)
    assert all(f.weights == RecallWeights() for f in folds)


async def test_eval_with_folds_reports_them_beside_the_plain_figures(tmp_path: Path) -> None:
    first, second = _sample(), _sample()
    second["sample_id"] = "conv-other"
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([first, second]))
    out = tmp_path / "report.json"
    assert await run_locomo_eval(EmbedderOptions(), data, k=3, json_out=out, folds=True) == 0
    report = json.loads(out.read_text())
    assert report["n_questions"] == 8 and "overall" in report["recall"]  # the plain figures stay as they were
    assert [f["held_out"] for f in report["folds"]] == ["conv-test", "conv-other"]
    assert all(f["n_questions"] == 4 and "named_boost" in f["weights"] for f in report["folds"])
    assert report["folds_mean"]["n_folds"] == 2 and "overall" in report["folds_mean"]["recall"]
