"""How long a full garbage collection stops a `souvenir run` process, before and after its start-up objects are
frozen (bot/startup_objects.py).

    python -m bench.gc_pause [--made 100000] [--json OUT]

It imports what `souvenir run` has imported once its platforms are up (the app, both platform adapters and
their libraries, the LLM SDKs, the embedded Qdrant, the scheduler), then times `gc.collect()` (median of 5):
as it is, once frozen, and once frozen with `--made` new objects beside (what running for a while adds).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import statistics
import time
from pathlib import Path

IMPORTED_BY_RUN = (
    "bot.runner", "bot.app", "adapters.discord", "adapters.telegram", "discord", "telegram.ext", "openai",
    "anthropic", "qdrant_edge", "apscheduler",
)  # fmt: skip


def _full_collection_ms(times: int = 5) -> float:
    out = []
    for _ in range(times):
        began = time.perf_counter()
        gc.collect()
        out.append((time.perf_counter() - began) * 1000)
    return statistics.median(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--made", type=int, default=100_000, help="objects made after start-up")
    parser.add_argument("--json", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args(argv)
    for name in IMPORTED_BY_RUN:
        importlib.import_module(name)
    from bot.startup_objects import frozen_startup_objects

    figures: dict[str, float] = {"tracked_objects": len(gc.get_objects()), "full_ms": _full_collection_ms()}
    with frozen_startup_objects() as frozen:
        figures["frozen_objects"] = frozen
        figures["full_after_freeze_ms"] = _full_collection_ms()
        made = [{"n": [n]} for n in range(args.made)]
        figures["made_objects"] = len(made) * 2
        figures["full_after_freeze_with_made_ms"] = _full_collection_ms()
    print(f"{figures['tracked_objects']:,} objects tracked once `souvenir run` is up: a full collection "
          f"{figures['full_ms']:.1f} ms")  # fmt: skip
    print(f"start-up objects frozen ({figures['frozen_objects']:,}): {figures['full_after_freeze_ms']:.1f} ms")
    print(f"  with {figures['made_objects']:,} objects made since: {figures['full_after_freeze_with_made_ms']:.1f} ms")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
