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
from bot.config import Settings, is_encryption_key, load_settings
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

    run = sub.add_parser("run", help="start every configured platform adapter and the scheduler")
    run.set_defaults(handler=_run)

    doctor = sub.add_parser("doctor", help="check the set-up: settings, data dir, Redis, Qdrant, LLM, platform tokens")
    doctor.set_defaults(handler=_doctor)

    migrate = sub.add_parser("migrate", help="bring stored data up to this version's schema (also done at start)")
    migrate.set_defaults(handler=_migrate)

    reindex = sub.add_parser(
        "reindex",
        help="re-embed every memory with the configured embedding model into a new index, then switch to it",
        description="Resumable: a run that stops goes on from its checkpoint. The old index answers until the switch.",
    )
    reindex.set_defaults(handler=_reindex)

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
        ("why", "the memories the last reply to the person drew on, with their ids"),
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

    mood = sub.add_parser(
        "mood",
        help="draw a person's mood chart (PNG)",
        description="Works while Souvenir runs: the running process answers over its admin socket.",
    )
    mood.add_argument("--user", required=True, help="the person's key (as for `memories`)")
    mood.add_argument("--png", type=Path, required=True, dest="png_out", help="write the chart to this PNG file")
    mood.add_argument("--days", type=int, default=90, help="how many days back (default 90)")
    mood.set_defaults(handler=_mood)

    persona = sub.add_parser(
        "persona",
        help="import, show or export the persona (our YAML/JSON file or a Character Card V2/V3, JSON or PNG)",
    )
    psub = persona.add_subparsers(dest="action", metavar="ACTION", required=True)
    imported = psub.add_parser("import", help="check a persona file or card and make it the active persona")
    imported.add_argument("file", type=Path)
    imported.set_defaults(handler=_persona_import)
    psub.add_parser("show", help="the active persona and what it holds").set_defaults(handler=_persona_show)
    exported = psub.add_parser("export", help="write the active persona as a Character Card V2 JSON file")
    exported.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    exported.set_defaults(handler=_persona_export)

    _add_key_commands(sub)

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
    return parser


async def _run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.runner import run_companion

    return await run_companion(settings)


async def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.upgrades import run_migrate

    return await run_migrate(settings)


async def _reindex(args: argparse.Namespace, settings: Settings) -> int:
    from bot.upgrades import run_reindex

    return await run_reindex(settings)


async def _chat(args: argparse.Namespace, settings: Settings) -> int:
    from adapters.terminal import TerminalChat
    from bot.app import open_core
    from bot.engine.model import UserRef

    model = f"{settings.llm_provider} model {settings.resolved_llm_model}"
    print(f"Souvenir: {model} at {settings.llm_base_url or 'its default URL'}; data in {settings.data_dir}")
    async with open_core(settings) as core:
        chat = TerminalChat(
            engine=core.conversation or core.engine, commands=core.commands, clock=core.clock, user_name=args.user,
            # What is written for the person (charts, voice replies, pictures) is theirs: /forget all erases it.
            files_dir=core.person_files.folder_of(UserRef("terminal", args.user, args.user).key) if core.person_files
            else settings.data_dir, follow_ups=core.front_ends,
        )  # fmt: skip
        await chat.run()
    return 0


async def _doctor(args: argparse.Namespace, settings: Settings) -> int:
    from bot.doctor import run_doctor

    return await run_doctor(settings)


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


async def _mood(args: argparse.Namespace, settings: Settings) -> int:
    """`souvenir mood`: the same chart as /mood, asked of the running process when there is one."""
    import base64

    from bot.admin.client import ask_running_process
    from bot.admin.operations import AdminRequest, MemoryAdmin

    if not 1 <= args.days <= 400:
        raise ConfigError("--days: between 1 and 400")
    request = AdminRequest(action="mood", user=args.user, days=args.days)
    answer = await ask_running_process(settings.data_dir, request)
    if answer is None:
        from bot.app import open_core

        async with open_core(settings) as core:
            admin = MemoryAdmin(commands=core.commands, memory=core.memory, people=core.profiles, clock=core.clock)
            answer = await admin.handle(request)
    if answer.png:
        try:
            args.png_out.write_bytes(base64.b64decode(answer.png))
        except OSError as exc:
            raise ConfigError(f"--png: cannot write {args.png_out}: {exc.strerror or exc}") from None
        sys.stdout.write(f"{args.png_out}\n")
    sys.stdout.write(answer.out)
    sys.stderr.write(answer.err)
    return answer.code
async def _persona_import(args: argparse.Namespace, settings: Settings) -> int:
    from bot.persona_store import import_persona
    try:
        loaded = import_persona(args.file, settings.data_dir)
    except ConfigError as exc:  # a damaged card: one line, the active persona unchanged
        print(f"souvenir: {exc}", file=sys.stderr)
        return 2
    print(f"Imported {loaded.persona.name} as the active persona (restart Souvenir to use it).")
    _print_persona(loaded)
    if settings.persona_file is not None:
        print(f"Note: SOUVENIR_PERSONA_FILE={settings.persona_file} is set and takes precedence.")
    return 0
async def _persona_show(args: argparse.Namespace, settings: Settings) -> int:
    from bot.persona_file import read_persona
    from bot.persona_store import persona_path
    path = persona_path(settings.persona_file, settings.data_dir)
    print(f"Active persona: {path or 'the packaged default'}")
    _print_persona(read_persona(path))
    return 0
def _print_persona(loaded: Any) -> None:
    from bot.persona_card import describe_card
    if loaded.card is not None:
        lines = describe_card(loaded.card)
    else:
        persona = loaded.persona
        lines = [f"name: {persona.name}", "format: Souvenir persona file",
                 f"boundaries: {len(persona.boundaries)}"]  # fmt: skip
    for line in lines:
        print(f"  {line}")
async def _persona_export(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from bot.persona_store import card_v2, persona_path
    card = card_v2(persona_path(settings.persona_file, settings.data_dir), "persona export")
    try:
        args.out.write_text(json.dumps(card, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"souvenir: persona export: cannot write {args.out} ({exc.strerror})", file=sys.stderr)
        return 2
    print(f"Wrote {card['data']['name']} to {args.out} (Character Card V2).")
    return 0


async def _eval_locomo(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.locomo import run_locomo_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_locomo_eval(
        settings, args.data, k=args.k, json_out=args.json_out, baselines=args.baselines, folds=args.folds
    )


async def _eval_mood(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.mood import run_mood_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    if not args.llm:
        return await run_mood_eval(args.data, args.json_out)
    from bot.llm.factory import open_language_model

    async with open_language_model(settings) as llm:
        return await run_mood_eval(args.data, args.json_out, llm=llm)


async def _eval_patterns(args: argparse.Namespace, settings: Settings) -> int:
    from memory.evaluation.mood import run_patterns_eval

    if not args.data.is_file():
        raise ConfigError(f"--data: no such file {args.data}")
    return await run_patterns_eval(args.data, args.json_out)


def _add_key_commands(sub: Any) -> None:
    """`keygen` and `rotate-key`: the master key of encryption at rest (SOUVENIR_ENCRYPTION_KEY)."""
    sub.add_parser("keygen", help="print a fresh SOUVENIR_ENCRYPTION_KEY").set_defaults(handler=_keygen)
    rotate = sub.add_parser(
        "rotate-key",
        help="rewrap every person's data key with a new master key (the data itself is not re-encrypted)",
        description="Run while Souvenir is stopped, then set SOUVENIR_ENCRYPTION_KEY to the new key. "
        "Safe to run again if it was interrupted. Write --old=KEY --new=KEY: a key may start with '-'.",
    )
    rotate.add_argument("--old", required=True, help="the master key the data keys are wrapped with now")
    rotate.add_argument("--new", required=True, help="the new master key (from `souvenir keygen`)")
    rotate.set_defaults(handler=_rotate_key)


async def _keygen(args: argparse.Namespace, settings: Settings) -> int:
    from memory.crypto import new_master_key

    print(new_master_key())
    return 0


async def _rotate_key(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import open_key_store
    from memory.crypto import WrongMasterKey, rewrap_data_keys

    for flag, value in (("--old", args.old), ("--new", args.new)):
        if not is_encryption_key(value):
            raise ConfigError(f"{flag}: expected 32 random bytes in URL-safe base64, as `souvenir keygen` prints")
    async with open_key_store(settings) as (client, store):
        try:
            count = await rewrap_data_keys(client, args.old.strip(), args.new.strip(), store)
        except WrongMasterKey as exc:
            raise ConfigError(str(exc)) from None
    print(f"rewrapped {count} data keys; now set SOUVENIR_ENCRYPTION_KEY to the new key")
    return 0


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
        return asyncio.run(_keygen(args, Settings.model_construct()))
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

