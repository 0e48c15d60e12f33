"""`souvenir` (also `python -m bot`): run the companion, chat in the terminal, manage memories, evaluate.

Each group of subcommands is a module here that adds its arguments and handlers; this one builds the parser
from them and runs the handler asked for.

An entry point: it may import anything of Souvenir, the wiring (`bot.app`) included, and nothing imports it but
`python -m bot` and `python -m memory.evaluation`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from bot import __version__
from bot.cli.evaluation import add_eval_commands
from bot.cli.keys import add_key_commands, keygen
from bot.cli.person_data import add_person_data_commands
from bot.cli.persona import add_persona_commands
from bot.cli.running import add_running_commands
from bot.config import Settings, load_settings
from bot.errors import ConfigError, DataDirInUse, SouvenirError
from bot.logs import configure_logging, redact_secrets
from bot.private_files import restrict_new_files

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
    add_running_commands(sub)
    add_person_data_commands(sub)
    add_persona_commands(sub)
    add_key_commands(sub)
    add_eval_commands(sub)
    return parser


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


_SHOWN_AS = {"memory_id": "--id", "query": "the query"}


def _undecodable_argument(args: argparse.Namespace) -> str | None:
    """The first text argument whose bytes were not UTF-8: Python keeps those as lone surrogates, which
    no store, embedder or JSON output takes."""
    for name, value in vars(args).items():
        if isinstance(value, str) and any("\ud800" <= c <= "\udfff" for c in value):
            return _SHOWN_AS.get(name, f"--{name.replace('_', '-')}")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    restrict_new_files()  # before anything is written: data dir, embedded servers' files, charts
    args = _parser().parse_args(argv)
    if args.command == "keygen":  # needs no settings: it may be what makes them valid
        return asyncio.run(keygen(args, Settings.model_construct()))
    undecodable = _undecodable_argument(args)
    if undecodable is not None:
        print(f"souvenir: {undecodable}: not valid UTF-8 (check the terminal's encoding)", file=sys.stderr)
        return 2
    try:
        settings = load_settings()
    except ConfigError as exc:
        if args.command == "doctor":
            from bot.doctor import report_invalid_config

            return report_invalid_config(exc)
        print(f"souvenir: configuration error: {exc}", file=sys.stderr)
        return 2
    # The terminal chat stays quiet unless a log level was asked for: the conversation is on the same screen.
    configure_logging(
        settings.log_level,
        quiet=args.command == "chat" and "log_level" not in settings.model_fields_set,
        json_lines=settings.log_format == "json",
    )
    redact_secrets(settings.secret_values())
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
