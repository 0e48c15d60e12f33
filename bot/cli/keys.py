"""The encryption key commands: `keygen` prints a master key, `rotate-key` rewraps the data keys with a new one."""

from __future__ import annotations

import argparse
from typing import Any

from bot.config import Settings, is_encryption_key
from bot.errors import ConfigError


def add_key_commands(sub: Any) -> None:
    """`keygen` and `rotate-key`: the master key of encryption at rest (SOUVENIR_ENCRYPTION_KEY)."""
    sub.add_parser("keygen", help="print a fresh SOUVENIR_ENCRYPTION_KEY").set_defaults(handler=keygen)
    rotate = sub.add_parser(
        "rotate-key",
        help="rewrap every person's data key with a new master key (the data itself is not re-encrypted)",
        description="Run while Souvenir is stopped, then set SOUVENIR_ENCRYPTION_KEY to the new key. "
        "Safe to run again if it was interrupted. Write --old=KEY --new=KEY: a key may start with '-'.",
    )
    rotate.add_argument("--old", required=True, help="the master key the data keys are wrapped with now")
    rotate.add_argument("--new", required=True, help="the new master key (from `souvenir keygen`)")
    rotate.set_defaults(handler=_rotate_key)


async def keygen(args: argparse.Namespace, settings: Settings) -> int:
    from memory.privacy.crypto import new_master_key

    print(new_master_key())
    return 0


async def _rotate_key(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app import open_key_store
    from memory.privacy.crypto import WrongMasterKey, rewrap_data_keys

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
