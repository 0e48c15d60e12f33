"""The commands about people's data, answered by the running process when there is one: memories, mood."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.errors import ConfigError


def add_person_data_commands(sub: Any) -> None:
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
