"""The crisis reading: recall and false alarms on the fresh evaluation sets (never trained on), per language
and level, for the phrase cues alone, the learned reader alone and both; and what it adds to a reply.

Usage: python -m bench.crisis_detector [--misses] [--json OUT] [--repeats 20]

The cost is what the reply path adds: the phrase cues and the learned head over a vector recall computes anyway
(the embedding itself is recall's, and is timed apart). The phrase cues' development sets (crisis_labelled.tsv,
crisis_heldout.tsv, labels 0/1) are scored too: they have been looked at, so they are no blind test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from bot.engine.safety.crisis import LearnedCrisis, learned_level, phrase_crisis, read_crisis, shows_crisis
from memory.crisis.head import CrisisHead
from memory.crisis.labelled import FRESH_SETS, load_labelled
from memory.crisis.scoring import line, misses, score
from memory.embedding import UseEmbedder

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = ("crisis_labelled.tsv", "crisis_heldout.tsv")


@dataclass(frozen=True)
class Scores:
    true_pos: int
    false_pos: int
    false_neg: int
    true_neg: int
    misses: tuple[tuple[int, str, str], ...]  # (label, language, text) the phrase cues got wrong

    @property
    def precision(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_pos)

    @property
    def recall(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_neg)


def labelled(name: str = SETS[0]) -> list[tuple[int, str, str]]:
    rows = []
    for line_ in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line_.strip() and not line_.startswith("#"):
            label, language, text = line_.split("\t", 2)
            rows.append((int(label), language, text))
    return rows


def score_phrases(rows: list[tuple[int, str, str]]) -> Scores:
    tp = fp = fn = tn = 0
    wrong = []
    for label, language, text in rows:
        said = shows_crisis(text)
        tp += label == 1 and said
        fn += label == 1 and not said
        fp += label == 0 and said
        tn += label == 0 and not said
        if said != bool(label):
            wrong.append((label, language, text))
    return Scores(tp, fp, fn, tn, tuple(wrong))


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


async def _main(args: argparse.Namespace) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in SETS:
        s = score_phrases(labelled(name))
        print(f"phrase cues on {name} (development set): precision {s.precision:.3f}, recall {s.recall:.3f}")
    embedder = UseEmbedder()
    head = CrisisHead.load()
    for fresh in FRESH_SETS:
        rows = load_labelled(fresh)
        texts = [r.text for r in rows]
        vectors = await embedder.embed(texts)
        learned = [LearnedCrisis(*map(float, p)) for p in head.probabilities(texts, vectors)]
        said = {
            "phrase cues": [int(read_crisis(t).level) if phrase_crisis(t) else 0 for t in texts],
            "learned reader": [int(learned_level(t, lc)) for t, lc in zip(texts, learned, strict=True)],
            "both": [int(read_crisis(t, lc).level) for t, lc in zip(texts, learned, strict=True)],
        }
        print(f"fresh set {fresh.name} ({len(rows)} messages, never trained on):")
        for reading, levels in said.items():
            figures = score(rows, levels)
            out[f"{fresh.stem} · {reading}"] = figures
            for language in ("en", "fr", "all"):
                print(line(f"  {reading} · {language}", figures[language]))
        if args.misses:
            for miss in misses(rows, said["both"]):
                print(f"    wrong {miss}")
    texts = [r.text for r in load_labelled(FRESH_SETS[0])]
    vectors = await embedder.embed(texts)
    # What the reply path adds: the cues and the head, per message (the vector is recall's).
    added: list[float] = []
    for _ in range(args.repeats):
        for text, vector in zip(texts, vectors, strict=True):
            started = time.perf_counter()
            probabilities = head.probabilities([text], [vector])[0]
            read_crisis(text, LearnedCrisis(*map(float, probabilities)))
            added.append((time.perf_counter() - started) * 1000)
    embed: list[float] = []
    for text in texts[:60]:
        started = time.perf_counter()
        await embedder.embed([text + " "])  # not cached: recall's cost, shown for scale
        embed.append((time.perf_counter() - started) * 1000)
    timing = {"added_p50_ms": statistics.median(added), "added_p95_ms": _p95(added),
              "embedding_p50_ms": statistics.median(embed), "messages_timed": len(added)}  # fmt: skip
    out["timing"] = timing
    embedding = timing["embedding_p50_ms"]
    print(f"added to a reply: p50 {timing['added_p50_ms']:.3f} ms, p95 {timing['added_p95_ms']:.3f} ms over "
          f"{len(added)} readings (the message's embedding, recall's own: p50 {embedding:.1f} ms)")  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--json", default="")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    out = asyncio.run(_main(args))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
