"""Training the mood head: folds that hold every label, and evaluation files kept out of training."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from memory.mood.train import TRAINING_FILES, stratified_folds

DATA = Path(__file__).resolve().parents[1] / "data"
EVALUATION_FILES = ("mood_fresh.jsonl", "mood_fresh_hard.jsonl", "mood_unseen.jsonl")


def test_every_fold_holds_its_share_of_every_label_whatever_the_order() -> None:
    gold = ["joy", "sadness"] * 10  # interleaved, as two files appended one after the other can be
    folds = stratified_folds(gold, 2)
    assert Counter(zip(folds.tolist(), gold, strict=True)) == {
        (0, "joy"): 5, (1, "joy"): 5, (0, "sadness"): 5, (1, "sadness"): 5,
    }  # fmt: skip


def _texts(name: str) -> set[str]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["text"].strip().lower() for line in lines if line.strip()}


def test_no_evaluation_message_is_trained_on() -> None:
    assert not set(TRAINING_FILES) & set(EVALUATION_FILES)
    trained = set().union(*(_texts(name) for name in TRAINING_FILES))
    for name in EVALUATION_FILES:
        assert not _texts(name) & trained, name
