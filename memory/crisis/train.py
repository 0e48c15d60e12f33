"""Train the learned crisis reader on the training sets and write the weights the package ships.

    python -m memory.crisis.train [--folds 5] [--l2 1000] [--crisis-weight 2] [--out memory/crisis/crisis_head.npz]
                                  [--eval tests/data/crisis_fresh10.tsv] [--sets-left-out] [--misses]

Prints k-fold cross-validated figures on the training set (each message read by a head that never saw it): the
phrase cues alone, the learned reader alone, and both together as the reply path reads them; then trains on
the whole set and, given --eval, scores a set it never trained on. With --sets-left-out, each fresh set already
looked at is read by a head trained on everything else (how a new writer's lines fare: the threshold is chosen on
these). Deterministic: fixed folds, descent from zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.engine.safety.crisis import LEARNED_THRESHOLD, LearnedCrisis, learned_level, phrase_crisis, read_crisis
from memory.crisis.features import Vocabulary, training_features
from memory.crisis.head import SHIPPED_HEAD, CrisisHead, fit_head
from memory.crisis.labelled import FRESH_TENTH, LOOKED_AT, TRAINING, Labelled, load_labelled, training_rows
from memory.crisis.scoring import line, misses, score
from memory.embedding import UseEmbedder


def stratified_folds(rows: Sequence[Labelled], folds: int) -> np.ndarray:
    """Each row's fold: every (language, level)'s rows dealt round the folds in file order."""
    fold_of = np.zeros(len(rows), dtype=int)
    dealt: dict[tuple[str, int], int] = {}
    for i, row in enumerate(rows):
        key = (row.language, row.level)
        fold_of[i] = dealt.get(key, 0) % folds
        dealt[key] = dealt.get(key, 0) + 1
    return fold_of


def readings(rows: Sequence[Labelled], probabilities: np.ndarray, threshold: float) -> dict[str, list[int]]:
    """The level each reading gives each row: phrase cues, learned reader, and both as on the reply path."""
    learned = [LearnedCrisis(*map(float, p)) for p in probabilities]
    both = [int(read_crisis(r.text, lc, threshold).level) for r, lc in zip(rows, learned, strict=True)]
    alone = [int(learned_level(r.text, lc, threshold)) for r, lc in zip(rows, learned, strict=True)]
    phrases = [int(read_crisis(r.text).level) if phrase_crisis(r.text) else 0 for r in rows]
    return {"phrase cues": phrases, "learned reader": alone, "both": both}


def cross_validated(
    rows: Sequence[Labelled], vectors: Sequence[Sequence[float]], *, folds: int, l2: float, weight: float
) -> np.ndarray:
    """Each row read by a head trained without its fold, on a vocabulary taken from the other folds only."""
    fold_of = stratified_folds(rows, folds)
    probabilities = np.zeros((len(rows), 3))
    for fold in range(folds):
        train = [int(i) for i in np.flatnonzero(fold_of != fold)]
        test = [int(i) for i in np.flatnonzero(fold_of == fold)]
        head = trained([rows[i] for i in train], [vectors[i] for i in train], l2=l2, weight=weight)
        probabilities[test] = head.probabilities([rows[i].text for i in test], [vectors[i] for i in test])
    return probabilities


def trained(rows: Sequence[Labelled], vectors: Sequence[Sequence[float]], *, l2: float, weight: float) -> CrisisHead:
    texts = [r.text for r in rows]
    vocabulary = Vocabulary.of(texts)
    dense, known = training_features(texts, vectors, vocabulary)
    return fit_head(dense, known, np.array([r.level for r in rows]), vocabulary=vocabulary, l2=l2, crisis_weight=weight)


def report(name: str, rows: Sequence[Labelled], said: dict[str, list[int]], show_misses: bool) -> dict[str, object]:
    out: dict[str, object] = {}
    for reading, levels in said.items():
        figures = score(rows, levels)
        out[reading] = figures
        for language in ("en", "fr", "all"):
            print(line(f"  {name} · {reading} · {language}", figures[language]))
    if show_misses:
        for miss in misses(rows, said["both"]):
            print(f"    missed {miss}")
    return out


def sets_left_out(
    args: argparse.Namespace, sizes: Sequence[int], rows: list[Labelled], vectors: list[list[float]]
) -> dict[str, object]:
    """Each looked-at fresh set in the training data, read by a head trained on all the rest; `sizes` holds how
    many of `rows` each file of `args.data` gave, in order."""
    starts = np.cumsum([0, *sizes])
    out: dict[str, object] = {}
    for path, start, end in zip(args.data, starts, starts[1:], strict=False):
        if path.resolve() not in LOOKED_AT:  # --data may name it relatively
            continue
        keep = [i for i in range(len(rows)) if not start <= i < end]
        head = trained([rows[i] for i in keep], [vectors[i] for i in keep], l2=args.l2[0], weight=args.crisis_weight)
        held = rows[start:end]
        probabilities = head.probabilities([r.text for r in held], vectors[start:end])
        print(f"{path.name}, read by a head trained on everything else:")
        out[path.stem] = report(path.stem, held, readings(held, probabilities, args.threshold), args.misses)
    return out


async def _main(args: argparse.Namespace) -> None:
    embedder = UseEmbedder()
    parts = [training_rows(path) for path in args.data]
    rows = [row for part in parts for row in part]
    vectors = await embedder.embed([r.text for r in rows])
    print(f"training set: {len(rows)} messages from {', '.join(p.name for p in args.data)}")
    results: dict[str, object] = {}
    for l2 in args.l2:
        cv = cross_validated(rows, vectors, folds=args.folds, l2=l2, weight=args.crisis_weight)
        print(f"{args.folds}-fold CV, l2={l2:g}, crisis weight {args.crisis_weight:g}, threshold {args.threshold}")
        results[f"cv_l2_{l2:g}"] = report("CV", rows, readings(rows, cv, args.threshold), args.misses)
    if args.sets_left_out:
        results["sets_left_out"] = sets_left_out(args, [len(part) for part in parts], rows, vectors)
    head = trained(rows, vectors, l2=args.l2[0], weight=args.crisis_weight)
    if args.eval:
        held = load_labelled(args.eval)
        texts = [r.text for r in held]
        probabilities = head.probabilities(texts, await embedder.embed(texts))
        print(f"evaluation set {args.eval.name} ({len(held)} messages, never trained on):")
        results["eval"] = report("eval", held, readings(held, probabilities, args.threshold), args.misses)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if args.out:
        head.save(args.out)
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, nargs="+", default=list(TRAINING))
    parser.add_argument("--eval", type=Path, default=None, help=f"a set never trained on (e.g. {FRESH_TENTH.name})")
    parser.add_argument("--out", default=str(SHIPPED_HEAD), help="where to write the head ('' to skip)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--l2", type=float, nargs="+", default=[1000.0], help="penalties to try; first shipped")
    parser.add_argument("--crisis-weight", type=float, default=2.0, help="a crisis example counts this many times")
    parser.add_argument("--threshold", type=float, default=LEARNED_THRESHOLD)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--sets-left-out", action="store_true", help="read each looked-at set without it")
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    args.out = Path(args.out) if args.out else None
    asyncio.run(_main(args))


if __name__ == "__main__":
    main()
