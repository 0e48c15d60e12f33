"""Draw docs/performance.png from the JSON figures the bench scripts wrote into docs/perf/.

    python scripts/performance_plot.py [--perf docs/perf] [--out docs/performance.png]

Panels: Souvenir against mem0 (one run of bench/compare_mem0.py), the scale curve (bench/scale_curve.py: the
whole recall path and the index search, p50 and p95, and RSS) and the message overhead with 1 / 100 / 1,000
concurrent people (bench/engine_overhead.py, long-term memory on and off).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path) -> Any:
    return json.loads(path.read_text())


def _scale_rows(perf: Path) -> list[dict[str, Any]]:
    """The run with the most sizes (the 1M run when there is one)."""
    runs = [_load(p)["scale"] for p in sorted(perf.glob("scale*.json"))]
    return max(runs, key=len) if runs else []


def draw(perf: Path, out: Path) -> None:
    fig, axes = plt.subplots(2, 2, figsize=(12, 9))
    compare = _load(perf / "compare.json")
    ours, theirs = compare["souvenir"], compare["mem0"]

    ax = axes[0][0]
    names = ["recall / search\np50 (ms)", "recall / search\np95 (ms)", "ingest\n(items/s)", "R@10\n(x100)"]
    keys = ["search_p50_ms", "search_p95_ms", "ingest_per_s", "r_at_10"]
    scale = [1, 1, 1, 100]
    x = range(len(names))
    width = 0.38
    for offset, (label, figures, colour) in enumerate((("Souvenir", ours, "#2a7"), ("mem0 2.2.1", theirs, "#c54"))):
        values = [figures[k] * s for k, s in zip(keys, scale, strict=True)]
        bars = ax.bar([i + (offset - 0.5) * width for i in x], values, width, label=label, color=colour)
        ax.bar_label(bars, fmt="%.0f", fontsize=8)
    ax.set_xticks(list(x), names)
    ratios = compare["ratios"]
    ax.set_title(
        f"Against mem0, LoCoMo dev ({ours['items']} turns, {ours['questions']} questions)\n"
        f"search ×{ratios['search_speedup']:.1f} faster, ingest ×{ratios['ingest_speedup']:.1f}, "
        f"R@10 {ratios['r_at_10_delta']:+.2f}",
        fontsize=10,
    )
    ax.legend()

    rows = _scale_rows(perf)
    sizes = [r["memories"] for r in rows]
    ax = axes[0][1]
    for key, label, colour in (("recall_path", "whole recall path", "#2a7"), ("index_search", "index search", "#58c")):
        ax.plot(sizes, [r[key]["p50_ms"] for r in rows], "o-", color=colour, label=f"{label} p50")
        ax.plot(sizes, [r[key]["p95_ms"] for r in rows], "o--", color=colour, label=f"{label} p95")
    if all("conversation_next_questions" in r for r in rows):  # runs since 2026-12-02
        next_questions = [r["conversation_next_questions"]["p50_ms"] for r in rows]
        ax.plot(sizes, next_questions, "o-.", color="#a5a", label="a person's next question p50 (records kept)")
    ax.set_xscale("log")
    ax.set_xlabel("memories in the index (1,000 people)")
    ax.set_ylabel("ms (query embedding included)")
    ax.set_title("Scale curve: recall latency", fontsize=10)
    ax.legend(fontsize=8)

    ax = axes[1][0]
    ax.plot(sizes, [r["rss_mb"] for r in rows], "o-", color="#555", label="RSS")
    ax.plot(sizes, [r["rss_heap_mb"] for r in rows], "o--", color="#a63", label="heap")
    ax.plot(sizes, [r["rss_mapped_mb"] for r in rows], "o:", color="#36a", label="mapped index files")
    ax.set_xscale("log")
    ax.set_xlabel("memories in the index (1,000 people)")
    ax.set_ylabel("MB")
    ax.set_title("Scale curve: process memory", fontsize=10)
    ax.legend(fontsize=8)

    ax = axes[1][1]
    for memory, colour in (("off", "#58c"), ("on", "#2a7")):
        files = sorted(perf.glob(f"overhead_{memory}_*.json"), key=lambda p: int(p.stem.rsplit("_", 1)[1]))
        runs = [_load(p) for p in files]
        if not runs:
            continue
        people = [r["concurrency"] for r in runs]
        ax.plot(people, [r["p50_ms"] for r in runs], "o-", color=colour, label=f"long-term memory {memory}, p50")
        ax.plot(people, [r["p95_ms"] for r in runs], "o--", color=colour, label=f"long-term memory {memory}, p95")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("people writing at once")
    ax.set_ylabel("ms per message (instant fake LLM)")
    ax.set_title("Message overhead against concurrency", fontsize=10)
    ax.legend(fontsize=8)

    fig.suptitle("Souvenir performance (2-core shared box; see docs/performance.md)", fontsize=12)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perf", type=Path, default=ROOT / "docs" / "perf")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "performance.png")
    args = parser.parse_args()
    draw(args.perf, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
