"""The commands that run Souvenir or prepare its data: run, doctor, migrate, reindex, chat."""

from __future__ import annotations

import argparse
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot.config import Settings


def add_running_commands(sub: Any) -> None:
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
    async with open_core(settings) as core, _local_memory_page(core) as browser_link:
        chat = TerminalChat(
            engine=core.conversation or core.engine, commands=core.commands, clock=core.clock, user_name=args.user,
            # What is written for the person (charts, voice replies, pictures) is theirs: /forget all erases it.
            files_dir=core.person_files.folder_of(UserRef("terminal", args.user, args.user).key) if core.person_files
            else settings.data_dir, follow_ups=core.front_ends,
            browser_link=browser_link, browser_elsewhere=core.browser is not None and browser_link is None,
        )  # fmt: skip
        await chat.run()
    return 0


@asynccontextmanager
async def _local_memory_page(core: Any) -> AsyncIterator[Any]:
    """While the chat runs, the memory page served on SOUVENIR_HTTP_PORT when SOUVENIR_PUBLIC_URL is a loopback
    address (the terminal's person is on this machine); yields what makes `/memories web`'s single-use link, or
    None when the page is off or set up on a public address."""
    if core.browser is None:
        yield None
        return
    from adapters.web.app import login_links
    from adapters.web.entry import is_loopback
    from bot.app import open_status_server

    if not is_loopback(core.browser.public_url):
        yield None
        return
    async with open_status_server(core):
        yield login_links(core.browser)


async def _doctor(args: argparse.Namespace, settings: Settings) -> int:
    from bot.doctor import run_doctor

    return await run_doctor(settings)
