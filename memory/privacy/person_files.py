"""Files made for one person (a mood chart, a voice reply, a picture the terminal cannot show): one folder per
person under SOUVENIR_DATA_DIR/people, named by a hash of their key (no account id in a path), erased whole with
/forget all. Whatever a front end writes about someone goes there, or nowhere."""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from pathlib import Path


class PersonFiles:
    """`bot.engine.ports.UserDataEraser` for the files a person caused."""

    def __init__(self, root: Path) -> None:
        self._root = root

    def folder_of(self, user_key: str) -> Path:
        return self._root / hashlib.sha256(user_key.encode()).hexdigest()[:32]

    async def forget_user(self, user_key: str) -> int:
        """The person's folder, whole; how many files it held."""
        return await asyncio.to_thread(_remove_folder, self.folder_of(user_key))


def _remove_folder(folder: Path) -> int:
    held = sum(1 for path in folder.rglob("*") if path.is_file()) if folder.is_dir() else 0
    shutil.rmtree(folder, True)
    return held
