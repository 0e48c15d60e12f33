"""The persona commands: import a persona file or character card, show the active persona, export it as a card."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.config import Settings
from bot.errors import ConfigError


def add_persona_commands(sub: Any) -> None:
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
