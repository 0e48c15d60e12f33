"""Cost against the number of people (and memories) on the box: search p50/p95, ingest rate, peak RSS."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SYSTEMS = (("souvenir", "Souvenir (whole recall path)"), ("qdrant_local", "mem0 · Qdrant local (default)"),
           ("faiss", "mem0 · FAISS"), ("chroma", "mem0 · Chroma"))  # fmt: skip


def _series(report: dict[str, Any], system: str, key: str) -> tuple[list[int], list[float]]:
    xs, ys = [], []
    for size in report["sizes"]:
        figures = size["souvenir"] if system == "souvenir" else size["mem0"].get(system)
        if figures and figures.get(key) is not None:
            xs.append(size["people"])
            ys.append(figures[key])
    return xs, ys


def draw(report: dict[str, Any], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.6))
    for system, label in SYSTEMS:
        xs, p50 = _series(report, system, "search_p50_ms")
        line = axes[0].plot(xs, p50, marker="o", label=f"{label} p50")[0]
        xs, p95 = _series(report, system, "search_p95_ms")
        axes[0].plot(xs, p95, marker="x", linestyle="--", color=line.get_color(), label=f"{label} p95")
        axes[1].plot(*_series(report, system, "ingest_per_s"), marker="o", color=line.get_color(), label=label)
        axes[2].plot(*_series(report, system, "peak_rss_mb"), marker="o", color=line.get_color(), label=label)
    floor = report.get("floor", {}).get("query_embedding_p50_ms")
    if floor:
        axes[0].axhline(floor, color="grey", linestyle=":", label="one query embedding (p50)")
    memories = {s["people"]: s["memories"] for s in report["sizes"]}
    for ax, title, unit in ((axes[0], "search (ms)", "ms"), (axes[1], "ingest (messages/s)", "msg/s"),
                            (axes[2], "peak RSS (MB)", "MB")):  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(title)
        ax.set_ylabel(unit)
        ax.set_xticks(sorted(memories))
        ax.set_xticklabels([f"{p}\n({memories[p]:,})" for p in sorted(memories)])
        ax.set_xlabel("people on the box (memories)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7)
    axes[1].legend(fontsize=7)
    fig.suptitle("Souvenir and mem0 on one box, same LoCoMo-derived data, same USE embedder, one run")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
