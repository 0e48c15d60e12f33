"""Precision and recall of the offline crisis detector on the labelled French and English messages.

Usage: python -m bench.crisis_detector [--misses]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from bot.engine.crisis import shows_crisis

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
# The development set, and one written after the detector's first version (its first-pass figures are in
# the README: it has been looked at since, so it is no longer blind).
SETS = ("crisis_labelled.tsv", "crisis_heldout.tsv")


@dataclass(frozen=True)
class Scores:
    true_pos: int
    false_pos: int
    false_neg: int
    true_neg: int
    misses: tuple[tuple[int, str, str], ...]  # (label, language, text) the detector got wrong

    @property
    def precision(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_pos)

    @property
    def recall(self) -> float:
        return self.true_pos / max(1, self.true_pos + self.false_neg)


def labelled(name: str = SETS[0]) -> list[tuple[int, str, str]]:
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            label, language, text = line.split("\t", 2)
            rows.append((int(label), language, text))
    return rows


def score(rows: list[tuple[int, str, str]]) -> Scores:
    tp = fp = fn = tn = 0
    misses = []
    for label, language, text in rows:
        said = shows_crisis(text)
        tp += label == 1 and said
        fn += label == 1 and not said
        fp += label == 0 and said
        tn += label == 0 and not said
        if said != bool(label):
            misses.append((label, language, text))
    return Scores(tp, fp, fn, tn, tuple(misses))


def main() -> None:
    for name in SETS:
        _report(name, labelled(name))


def _report(name: str, rows: list[tuple[int, str, str]]) -> None:
    for language in ("en", "fr", None):
        part = [r for r in rows if language is None or r[1] == language]
        s = score(part)
        print(
            f"{name} {language or 'all'}: {len(part)} messages, precision {s.precision:.3f}, recall {s.recall:.3f} "
            f"(tp {s.true_pos}, fp {s.false_pos}, fn {s.false_neg}, tn {s.true_neg})"
        )
    if "--misses" in sys.argv:
        for label, language, text in score(rows).misses:
            print(f"  missed {label} {language}: {text}")


if __name__ == "__main__":
    main()
