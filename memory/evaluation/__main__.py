"""`python -m memory.evaluation locomo --data PATH [--k 10] [--json OUT] [--baselines]` (same as the CLI's
`souvenir eval locomo`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import load_settings
from memory.evaluation.locomo import run_locomo_eval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memory.evaluation")
    commands = parser.add_subparsers(dest="command", required=True)
    locomo = commands.add_parser("locomo", help="evidence recall@k of long-term memory on LoCoMo")
    locomo.add_argument("--data", type=Path, required=True)
    locomo.add_argument("--k", type=int, default=10)
    locomo.add_argument("--json", type=Path, default=None)
    locomo.add_argument("--baselines", action="store_true")
    args = parser.parse_args(argv)
    return asyncio.run(run_locomo_eval(load_settings(), args.data, args.k, args.json, args.baselines))


if __name__ == "__main__":
    sys.exit(main())
