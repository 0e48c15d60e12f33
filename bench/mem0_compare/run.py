"""The parent: one child process per system and size (so each peak RSS is its own), their timed work in turns
(bench/mem0_compare/child.py), the table, the JSON, the plot."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.mem0_compare.box import BUDGET, QUESTIONS, TAIL, build_box
from bench.mem0_compare.child import Child, serve
from bench.mem0_compare.mem0_side import SETUPS

ROOT = Path(__file__).resolve().parents[2]
SIZES = (1, 10, 100, 1000)
QUICK = 10
SYSTEMS = ("souvenir", *SETUPS)
ROUND = 20  # questions a system is asked in one turn
TAIL_CHUNK = 64  # tail messages a system ingests in one turn (Souvenir's write path takes 64 at a time)
# The most people at which every system's child is alive at once. At 1,000 people mem0's FAISS child alone
# peaks at ~12 GB and Souvenir's at ~4 GB: there each child takes all its turns alone, one after the other.
TOGETHER = 100


def _load() -> float:
    return os.getloadavg()[0]


def _start(system: str, data: Path, people: int, questions: int, tail: int, shared: Path) -> Child:
    command = [sys.executable, "-m", "bench.compare_mem0", "--data", str(data), "--child", system,
               "--people", str(people), "--questions", str(questions), "--tail", str(tail),
               "--fill-vectors", str(shared)]  # fmt: skip
    return Child.start(system, people, command, ROOT)


def _turns(children: list[Child], tail: int, questions: int, asked_a_turn: int = ROUND) -> None:
    """The timed work, a turn each: the tail `TAIL_CHUNK` messages at a time, then the questions `asked_a_turn` at
    a time, the systems' order rotated every round."""
    rounds: list[dict[str, Any]] = [{"ingest": min(TAIL_CHUNK, tail - s)} for s in range(0, tail, TAIL_CHUNK)]
    rounds += [{"ask": list(range(s, min(s + asked_a_turn, questions)))} for s in range(0, questions, asked_a_turn)]
    for n, command in enumerate(rounds):
        first = n % len(children)
        for child in children[first:] + children[:first]:
            child.send(command)


def _size(people: int, systems: list[str], args: argparse.Namespace, shared: Path) -> dict[str, dict[str, Any]]:
    """Every system's figures at one size: in turns, all children alive together when the size allows it."""
    box = build_box(args.data, people, args.questions)
    tail, questions = box.tail(args.tail), len(box.asked)
    together = people <= TOGETHER
    groups = [systems] if together else [[system] for system in systems]
    results: dict[str, dict[str, Any]] = {}
    for group in groups:
        children, loads, began = [], {}, time.perf_counter()
        for system in group:  # the fills one after the other: each child's fill has the box to itself
            print(f"{people} people: {system} fills ... (load {_load():.2f})", file=sys.stderr, flush=True)
            loads[system] = _load()
            child = _start(system, args.data, people, args.questions, args.tail, shared)
            child.answer()
            children.append(child)
        print(f"{people} people: {', '.join(group)} in turns (load {_load():.2f})", file=sys.stderr, flush=True)
        _turns(children, tail, questions, args.turn)
        for child in children:
            out = child.finish()
            out["load"] = [round(loads[child.system], 2), round(_load(), 2)]
            out["wall_s"] = round(time.perf_counter() - began, 1)
            # A large size runs for hours: each system's figures are shown as soon as it is done.
            print(f"{people} people: {child.system}: {json.dumps(out['figures'])}", file=sys.stderr, flush=True)
            results[child.system] = out
    return results


def child_main(system: str, data: Path, people: int, questions: int, tail: int, shared: Path | None = None) -> int:
    box = build_box(data, people, questions)
    if system == "souvenir":
        from bench.mem0_compare.souvenir_side import opened_souvenir

        async def souvenir() -> None:
            async with opened_souvenir(box, tail) as side:
                await serve(side)

        asyncio.run(souvenir())
    else:
        from bench.mem0_compare.mem0_side import filled_mem0

        with tempfile.TemporaryDirectory(prefix=f"mem0-{system}-") as scratch:
            asyncio.run(serve(filled_mem0(system, box, scratch, tail, shared)))
    return 0


def _fastest(size: dict[str, Any], key: str) -> float:
    return min(figures[key] for figures in size["mem0"].values())


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Same box, same USE embedder, {BUDGET} words shown per question for every system, one run")
    for column in ("people (memories)", "system", "search p50 ms", "p95 ms", "ingest/s", "R@10", "R@5",
                   "answer cont.", "words/q", "peak RSS MB", "load"):  # fmt: skip
        table.add_column(column, justify="right")
    for size in report["sizes"]:
        rows = [("souvenir", size["souvenir"]), *((f"mem0 {k}", v) for k, v in size["mem0"].items())]
        for name, f in rows:
            load = report["run"]["children"][f"{size['people']}:{name.removeprefix('mem0 ')}"]["load"]
            table.add_row(
                f"{size['people']} ({size['memories']:,})", name, f"{f['search_p50_ms']:.1f}",
                f"{f['search_p95_ms']:.1f}", f"{f['ingest_per_s']:.0f}", f"{f['r_at_10']:.3f}", f"{f['r_at_5']:.3f}",
                f"{f['answer_containment']:.3f}", f"{f['words_per_question']:.0f}", f"{f['peak_rss_mb']:.0f}",
                f"{load[0]:.1f}-{load[1]:.1f}",
            )  # fmt: skip
    console = Console(width=170)
    console.print(table)
    for size in report["sizes"]:
        ours = size["souvenir"]
        default = size["mem0"].get("qdrant_local")
        if default is None or len(size["mem0"]) < len(SETUPS):
            continue  # the ratios are read against all three set-ups
        fastest_p50 = _fastest(size, "search_p50_ms")
        console.print(
            f"{size['people']} people: search vs mem0's fastest p50 {fastest_p50 / ours['search_p50_ms']:.2f}x, "
            f"p95 {_fastest(size, 'search_p95_ms') / ours['search_p95_ms']:.2f}x; vs its default p50 "
            f"{default['search_p50_ms'] / ours['search_p50_ms']:.2f}x; ingest vs its fastest "
            f"{ours['ingest_per_s'] / max(f['ingest_per_s'] for f in size['mem0'].values()):.2f}x; R@10 "
            f"{ours['r_at_10'] - max(f['r_at_10'] for f in size['mem0'].values()):+.3f}, answer containment "
            f"{ours['answer_containment'] - max(f['answer_containment'] for f in size['mem0'].values()):+.3f} "
            "against mem0's best"
        )  # fmt: skip
    floor = report["floor"]
    parts = ", ".join(f"{k} {v:.2f}" for k, v in floor["parts_p50_ms"].items())
    console.print(
        f"floor at {floor['memories']:,} memories ({floor['people']} people): one query embedding p50 "
        f"{floor['query_embedding_p50_ms']:.2f} ms; Souvenir's recall p50 {floor['recall_p50_ms']:.2f} ms = "
        f"{floor['recall_x_floor']:.2f}x ({parts}; ms, p50 each)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Souvenir against mem0 (three set-ups), one box, 1 to 1,000 people")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "locomo-dev.json")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here (written after each size)")
    parser.add_argument("--plot", type=Path, default=None, help="draw cost against people and memories here (PNG)")
    parser.add_argument("--quick", action="store_true", help=f"one size ({QUICK} people): a few minutes")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="people on the box, comma-separated")
    parser.add_argument("--questions", type=int, default=QUESTIONS, help="questions per size, drawn across the box")
    parser.add_argument("--tail", type=int, default=TAIL,
                        help="the last messages of the box, ingested timed (at most a quarter of the box)")  # fmt: skip
    parser.add_argument("--turn", type=int, default=ROUND, help="questions each system is asked in one turn")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=argparse.SUPPRESS)
    parser.add_argument("--child", choices=SYSTEMS, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--people", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--fill-vectors", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        return child_main(args.child, args.data, args.people, args.questions, args.tail, args.fill_vectors)
    try:
        build_box(args.data, 1, 1)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"Cannot read LoCoMo data at {args.data}: {exc}", file=sys.stderr)
        return 2
    sizes = [QUICK] if args.quick else [int(s) for s in args.sizes.split(",")]
    systems = args.systems.split(",")
    report: dict[str, Any] = {"sizes": [], "floor": {}}
    command = " ".join(["python -m bench.compare_mem0", *sys.argv[1:]])
    report["run"] = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"), "command": command,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "system": platform.platform()},
        "budget_words": BUDGET, "top_k": 10, "questions_per_size": args.questions, "tail": args.tail,
        "turns": {"questions_a_turn": args.turn, "tail_messages_a_turn": TAIL_CHUNK, "together_up_to_people": TOGETHER},
        "children": {},
    }  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="compare-mem0-fill-") as shared:  # the fill's vectors, shared
        _sizes(report, sizes, systems, args, Path(shared))
    report["run"]["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
    if args.plot is not None:
        from bench.mem0_compare.plot import draw

        draw(report, args.plot)
    _print(report)
    return 0


def _sizes(report: dict[str, Any], sizes: list[int], systems: list[str], args: argparse.Namespace,
           shared: Path) -> None:  # fmt: skip
    for people in sizes:
        results = _size(people, systems, args, shared)
        for system, out in results.items():
            report["run"]["children"][f"{people}:{system}"] = {
                k: out[k] for k in ("load", "wall_s", "ingest_s", "fill_s", "tail", "questions", "memories")
            }
        souvenir = results.pop("souvenir")
        report["sizes"].append({
            "people": people, "memories": souvenir["memories"], "souvenir": souvenir["figures"],
            "mem0": {k: v["figures"] for k, v in results.items()},
        })  # fmt: skip
        # The floor: from the largest size run (each size's is kept in "run").
        report["floor"] = {**souvenir["floor"], "people": people, "memories": souvenir["memories"]}
        report["run"]["children"][f"{people}:souvenir"]["floor"] = souvenir["floor"]
        if args.json is not None:
            args.json.write_text(json.dumps(report, indent=2), encoding="utf-8")
