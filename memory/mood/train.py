"""Train the offline mood head on the project's labelled set and write the weights the package ships.

    python -m memory.mood.train [--data tests/data/mood_labelled.jsonl tests/data/mood_train_extra.jsonl
                                        tests/data/mood_heldout.jsonl] [--heldout PATH]
                                [--out memory/mood/mood_head.npz] [--folds 5] [--l2 ...]

Prints k-fold cross-validated figures on the training set (each message scored by a head that never saw
it), then trains on the whole set and, given --heldout, scores a file it did not train on. Deterministic:
fixed folds, gradient descent from zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

import numpy as np

from bot.engine.mood import MOOD_LABELS
from memory.embedding import UseEmbedder
from memory.mood.head import SHIPPED_HEAD, MoodHead, fit_head
from memory.mood.labelled import load_labelled
from memory.mood.reader import features, reading_from
from memory.mood.scoring import score_readings

ROOT = Path(__file__).resolve().parents[2]
# The shipped head learns from all three; mood_heldout.jsonl is therefore no longer a fair test of it (score it
# only with --data without it). The fresh evaluation files (mood_fresh*.jsonl, mood_unseen.jsonl) are never here.
TRAINING_FILES = ("mood_labelled.jsonl", "mood_train_extra.jsonl", "mood_heldout.jsonl")


def _score(head: MoodHead, texts: list[str], x: np.ndarray, gold: list[str]) -> dict[str, Any]:
    readings = [reading_from(t, p) for t, p in zip(texts, head.probabilities(x), strict=True)]
    return score_readings(gold, readings)


def stratified_folds(gold: list[str], folds: int) -> np.ndarray:
    """Each message's fold: every label's messages dealt round the folds in file order, so each fold holds
    its share of every label whatever order the training files come in."""
    fold_of = np.zeros(len(gold), dtype=int)
    dealt: dict[str, int] = {}
    for i, label in enumerate(gold):
        fold_of[i] = dealt.get(label, 0) % folds
        dealt[label] = dealt.get(label, 0) + 1
    return fold_of


def cross_validate(
    texts: list[str], x: np.ndarray, gold: list[str], *, folds: int, l2: float, dim: int
) -> dict[str, Any]:
    y = np.array([MOOD_LABELS.index(g) for g in gold])
    fold_of = stratified_folds(gold, folds)
    probabilities = np.zeros((len(texts), len(MOOD_LABELS)))
    for fold in range(folds):
        train, test = fold_of != fold, fold_of == fold
        head = fit_head(x[train], y[train], embedding_dimension=dim, l2=l2)
        probabilities[test] = head.probabilities(x[test])
    readings = [reading_from(t, p) for t, p in zip(texts, probabilities, strict=True)]
    return score_readings(gold, readings)


async def _main(args: argparse.Namespace) -> None:
    embedder = UseEmbedder()
    rows = [row for path in args.data for row in load_labelled(path)]
    texts, gold = [r.text for r in rows], [str(r.label) for r in rows]
    x = features(texts, await embedder.embed(texts))
    dim = embedder.dimension
    print(f"training set: {len(rows)} messages from {', '.join(str(p) for p in args.data)}")
    for l2 in args.l2:
        cv = cross_validate(texts, x, gold, folds=args.folds, l2=l2, dim=dim)
        print(f"  {args.folds}-fold CV, l2={l2:g}: accuracy {cv['accuracy']:.3f}  macro-F1 {cv['macro_f1']:.3f}  "
              f"valence sign {cv['valence_sign_accuracy']:.3f}")  # fmt: skip
    y = np.array([MOOD_LABELS.index(g) for g in gold])
    head = fit_head(x, y, embedding_dimension=dim, l2=args.l2[0])
    if args.heldout:
        held = load_labelled(args.heldout)
        held_texts = [r.text for r in held]
        hx = features(held_texts, await embedder.embed(held_texts))
        report = _score(head, held_texts, hx, [r.label for r in held])
        print(f"held-out {args.heldout} ({len(held)}), l2={args.l2[0]:g}: accuracy {report['accuracy']:.3f}  "
              f"macro-F1 {report['macro_f1']:.3f}  valence sign {report['valence_sign_accuracy']:.3f}")  # fmt: skip
        print(json.dumps(report["per_label"]))
    if args.out:
        head.save(args.out)
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--data", type=Path, nargs="+", default=[ROOT / "tests" / "data" / name for name in TRAINING_FILES]
    )
    parser.add_argument(
        "--heldout", default="", help="a labelled file to score the trained head on (one not among --data)"
    )
    parser.add_argument("--out", default=str(SHIPPED_HEAD), help="where to write the head ('' to skip)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument(
        "--l2", type=float, nargs="+", default=[30.0], help="penalties to cross-validate; the first is shipped"
    )
    args = parser.parse_args()
    args.out = Path(args.out) if args.out else None
    args.heldout = Path(args.heldout) if args.heldout else None
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
