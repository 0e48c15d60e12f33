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
from bot.errors import ConfigError, DataDirInUse, SouvenirError
from bot.logs import configure_logging

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

    memories = sub.add_parser(
        "memories",
        help="list people; view, search, forget or export a person's memories",
        description="Works while Souvenir runs: the running process answers over its admin socket.",
    )
    msub = memories.add_subparsers(dest="action", metavar="ACTION", required=True)
    msub.add_parser("users", help="list the people stored: key, name, number of memories").set_defaults(
        handler=_memories
    )
    for action, text in (
        ("list", "list what is remembered, newest first"),
        ("search", "recall the memories that match a text"),
        ("forget", "forget one memory by id, or everything with --all"),
        ("export", "print everything held about the person as JSON"),
    ):
        p = msub.add_parser(action, help=text)
        p.add_argument(
            "--user",
            required=True,
            help="the person's key, e.g. telegram:12345 or terminal:you; a bare id (12345, you) when only one "
            "person has it",
        )
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
    locomo.add_argument("--k", type=int, default=None, help="recalled per question (default SOUVENIR_RECALL_LIMIT)")
    locomo.add_argument("--json", type=Path, dest="json_out", help="write the figures to this JSON file")
    locomo.add_argument("--baselines", action="store_true", help="also score BM25 and dense retrieval over raw turns")
    locomo.add_argument(
        "--folds", action="store_true", help="leave one conversation out: weights chosen on the others, scored on it"
    )
    locomo.set_defaults(handler=_eval_locomo)
    return parser


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
    """Asked of the process that holds the data dir when one runs; else on the stores opened here."""
    from bot.admin.client import ask_running_process
    from bot.admin.operations import AdminRequest, MemoryAdmin

    request = AdminRequest(
        action=args.action,
        user=getattr(args, "user", None),
        limit=max(1, getattr(args, "limit", 50)),
        query=getattr(args, "query", ""),
        memory_id=getattr(args, "memory_id", None),
        all=getattr(args, "all", False),
    )
    answer = await ask_running_process(settings.data_dir, request)
    if answer is None:
        from bot.app import open_core  # heavy: only when the CLI opens the stores itself

        async with open_core(settings) as core:
            admin = MemoryAdmin(
                commands=core.commands,
                memory=core.memory,
                people=core.profiles,
                clock=core.clock,
                recall_limit=settings.recall_limit,
            )
            answer = await admin.handle(request)
    sys.stdout.write(answer.out)
    sys.stderr.write(answer.err)
    return answer.code


async def _eval_locomo(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.locomo import run_locomo_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_locomo_eval(
        settings, args.data, k=args.k, json_out=args.json_out, baselines=args.baselines, folds=args.folds
    )


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
    # The terminal chat stays quiet unless a log level was asked for: the conversation is on the same screen.
    configure_logging(settings.log_level, quiet=args.command == "chat" and "log_level" not in settings.model_fields_set)
    handler: Handler = args.handler
    try:
        return asyncio.run(_stoppable(handler(args, settings)))
    except ConfigError as exc:
        print(f"souvenir: configuration error: {exc}", file=sys.stderr)
        return 2
    except DataDirInUse as exc:
        print(f"souvenir: {exc}", file=sys.stderr)
        return 2
    except SouvenirError as exc:
        print(f"souvenir: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130

