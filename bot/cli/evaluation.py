"""The `eval` commands: long-term memory on LoCoMo, the mood reader on labelled messages, mood patterns."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.errors import ConfigError


def add_eval_commands(sub: Any) -> None:
    evaluate = sub.add_parser("eval", help="evaluate long-term memory or mood reading on a benchmark")
    esub = evaluate.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    locomo = esub.add_parser("locomo", help="evidence recall@k on LoCoMo conversations (no LLM)")
    locomo.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    locomo.add_argument("--k", type=int, default=None, help="recalled per question (default SOUVENIR_RECALL_LIMIT)")
    locomo.add_argument("--json", type=Path, dest="json_out", help="write the figures to this JSON file")
    locomo.add_argument("--baselines", action="store_true", help="also score BM25 and dense retrieval over raw turns")
    locomo.add_argument(
        "--folds", action="store_true", help="leave one conversation out: weights chosen on the others, scored on it"
    )
    locomo.set_defaults(handler=_eval_locomo)
    mood = esub.add_parser("mood", help="the offline mood reader on labelled messages: macro-F1, valence sign")
    mood.add_argument("--data", type=Path, required=True, help='JSONL lines {"text", "lang", "label"}')
    mood.add_argument("--json", type=Path, dest="json_out", help="write the figures to this JSON file")
    mood.add_argument("--llm", action="store_true", help="read with the configured LLM (the app's extraction call)")
    mood.set_defaults(handler=_eval_mood)
    patterns = esub.add_parser("patterns", help="mood patterns (weekday, time of day, trend, topic) in one series")
    patterns.add_argument("--data", type=Path, required=True, help='JSONL lines {"at": ISO-8601 with offset, "text"}')
    patterns.add_argument("--json", type=Path, dest="json_out", help="write the patterns to this JSON file")
    patterns.set_defaults(handler=_eval_patterns)


async def _eval_locomo(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.memory import embedder_options
    from memory.evaluation.locomo import run_locomo_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_locomo_eval(
        embedder_options(settings), args.data, k=settings.recall_limit if args.k is None else args.k,
        json_out=args.json_out, baselines=args.baselines, folds=args.folds, recall_max_words=settings.recall_max_words,
    )  # fmt: skip


async def _eval_mood(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.mood import run_mood_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    if not args.llm:
        return await run_mood_eval(args.data, args.json_out)
    from bot.app.conversation import chat_endpoint
    from bot.llm.factory import open_language_model

    async with open_language_model(chat_endpoint(settings)) as llm:
        return await run_mood_eval(args.data, args.json_out, llm=llm)


async def _eval_patterns(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.mood import run_patterns_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_patterns_eval(args.data, args.json_out)
