"""`souvenir` (also `python -m bot`): run the companion, chat in the terminal, manage memories, evaluate."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from bot import __version__
from bot.config import Settings, load_settings
from bot.engine.model import UserRef
from bot.errors import ConfigError, SouvenirError

Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, int]]
log = logging.getLogger("souvenir")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="souvenir",
        description="Souvenir: a self-hosted AI companion for Discord and Telegram that remembers.",
        epilog="Configuration comes from SOUVENIR_* environment variables or a .env file (see .env.example).",
    )
    parser.add_argument("--version", action="version", version=f"souvenir {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    run = sub.add_parser("run", help="start every configured platform adapter and the scheduler")
    run.set_defaults(handler=_run)

    chat = sub.add_parser("chat", help="chat with the companion in this terminal")
    chat.add_argument("--user", default="you", help="who you are in this chat (default: you)")
    chat.set_defaults(handler=_chat)

    memories = sub.add_parser("memories", help="view, search, forget or export a person's memories")
    msub = memories.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, text in (
        ("list", "list what is remembered, newest first"),
        ("search", "recall the memories that match a text"),
        ("forget", "forget one memory by id, or everything with --all"),
        ("export", "print everything held about the person as JSON"),
    ):
        p = msub.add_parser(action, help=text)
        p.add_argument("--user", required=True, help="the person's key, e.g. telegram:12345 or terminal:you")
        if action == "list":
            p.add_argument("--limit", type=int, default=50)
        if action == "search":
            p.add_argument("query", help="what to look for")
        if action == "forget":
            group = p.add_mutually_exclusive_group(required=True)
            group.add_argument("--id", dest="memory_id", help="the memory id (from list)")
            group.add_argument("--all", action="store_true", help="erase the person from every store")
        p.set_defaults(handler=_memories)

    evaluate = sub.add_parser("eval", help="evaluate long-term memory on a benchmark")
    esub = evaluate.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    locomo = esub.add_parser("locomo", help="evidence recall@k on LoCoMo conversations (no LLM)")
    locomo.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    locomo.add_argument("--k", type=int, default=10)
    locomo.add_argument("--json", type=Path, dest="json_out", help="write the figures to this JSON file")
    locomo.add_argument("--baselines", action="store_true", help="also score BM25 and dense retrieval over raw turns")
    locomo.set_defaults(handler=_eval_locomo)
    return parser


def _user_ref(key: str) -> UserRef:
    platform, sep, user_id = key.partition(":")
    if not sep or not platform or not user_id:
        raise ConfigError(f"--user: expected a key like telegram:12345 or terminal:you (got {key!r})")
    return UserRef(platform, user_id, user_id)


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.runner import run_companion

    return await run_companion(settings)


async def _chat(args: argparse.Namespace, settings: Settings) -> int:
    from adapters.terminal import TerminalChat
    from bot.app import open_core

    model = f"{settings.llm_provider} model {settings.resolved_llm_model}"
    print(f"Souvenir: {model} at {settings.llm_base_url or 'its default URL'}; data in {settings.data_dir}")
    async with open_core(settings) as core:
        chat = TerminalChat(engine=core.engine, commands=core.commands, clock=core.clock, user_name=args.user)
        await chat.run()
    return 0


async def _memories(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import open_core
    from bot.engine.model import RecallQuery

    user = _user_ref(args.user)
    async with open_core(settings) as core:
        if args.action == "list":
            page = await core.commands.memories_page(user, 0, args.limit)
            for item in page.items:
                print(f"{item.memory_id}  {item.created_at:%Y-%m-%d}  {item.kind:<9}  {item.text}")
            print(f"({len(page.items)} of {page.total})")
        elif args.action == "search":
            query = RecallQuery(user.key, args.query, core.clock.now(), scopes=("dm",), limit=10)
            for memory in await core.memory.recall(query):
                print(f"{memory.memory_id}  {memory.score:.3f}  {memory.kind:<9}  {memory.text}")
        elif args.action == "forget":
            if args.all:
                result = await core.commands.forget_everything(user)
            else:
                result = await core.commands.forget_memory(user, args.memory_id)
            print(result.text)
            return 0 if result.ok else 1
        else:
            sys.stdout.write((await core.commands.export(user)).decode() + "\n")
    return 0


async def _eval_locomo(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.locomo import run_locomo_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_locomo_eval(settings, args.data, k=args.k, json_out=args.json_out, baselines=args.baselines)


async def _stoppable(work: Coroutine[Any, Any, int]) -> int:
    """SIGTERM unwinds like Ctrl-C, so embedded servers are stopped and nothing is left running. Only the
    first one cancels: a second would cut the clean-up itself short and leave the embedded Redis running.
    (`souvenir run` takes the signals over once it serves: bot.runner.StopSignals.)"""
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def stop() -> None:
        if task is None or task.cancelling():
            log.warning("already stopping: closing the stores")
        else:
            task.cancel()

    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        return await work
    except asyncio.CancelledError:
        return 143
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"souvenir: configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    for noisy in ("httpx", "httpcore", "openai", "anthropic", "discord.gateway", "apscheduler.executors"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(settings.log_level)))
    handler: Handler = args.handler
    try:
        return asyncio.run(_stoppable(handler(args, settings)))
    except ConfigError as exc:
        print(f"souvenir: configuration error: {exc}", file=sys.stderr)
        return 2
    except SouvenirError as exc:
        print(f"souvenir: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130

