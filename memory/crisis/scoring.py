"""Recall and false alarms of a crisis reading on labelled messages, per language and per level."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memory.crisis.labelled import Labelled


def score(rows: Sequence[Labelled], said: Sequence[int]) -> dict[str, Any]:
    """`said`: the level read for each row (0 none). Recall counts a crisis read at any level; the level's
    accuracy is over the crises read; false alarms are level-0 messages read as a crisis."""
    out: dict[str, Any] = {}
    for language in ("en", "fr", "all"):
        part = [(r, s) for r, s in zip(rows, said, strict=True) if language in ("all", r.language)]
        crises = [(r, s) for r, s in part if r.level > 0]
        calm = [(r, s) for r, s in part if r.level == 0]
        seen = [(r, s) for r, s in crises if s > 0]
        figures: dict[str, Any] = {
            "crisis": len(crises), "ordinary": len(calm),
            "recall": round(len(seen) / max(1, len(crises)), 3),
            "false_alarms": round(sum(s > 0 for _, s in calm) / max(1, len(calm)), 3),
            "level_accuracy": round(sum(r.level == s for r, s in seen) / max(1, len(seen)), 3),
        }  # fmt: skip
        for level, name in ((1, "concern"), (2, "imminent")):
            those = [(r, s) for r, s in crises if r.level == level]
            figures[f"recall_{name}"] = round(sum(s > 0 for _, s in those) / max(1, len(those)), 3)
            figures[f"read_as_{name}"] = round(sum(s == level for _, s in those) / max(1, len(those)), 3)
        out[language] = figures
    return out


def misses(rows: Sequence[Labelled], said: Sequence[int]) -> list[str]:
    pairs = zip(rows, said, strict=True)
    return [f"{r.level}->{s} {r.language}: {r.text}" for r, s in pairs if (r.level > 0) != (s > 0)]


def line(name: str, figures: dict[str, Any]) -> str:
    f = figures
    return (
        f"{name}: {f['crisis']} crisis / {f['ordinary']} ordinary: recall {f['recall']:.3f} (concern "
        f"{f['recall_concern']:.3f}, imminent {f['recall_imminent']:.3f}), false alarms {f['false_alarms']:.3f}, "
        f"level right {f['level_accuracy']:.3f} (imminent read as imminent {f['read_as_imminent']:.3f})"
    )
