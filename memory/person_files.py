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

    async def forget_user(self, user_key: str) -> None:
        await asyncio.to_thread(shutil.rmtree, self.folder_of(user_key), True)
