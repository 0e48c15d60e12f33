"""Pictures in the terminal: a terminal shows no images, so each one is written into the data dir and its path
printed under the caption."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Protocol, runtime_checkable

from bot.engine.media.pictures import Picture
from bot.engine.model import IncomingMessage, Reply


@runtime_checkable
class PictureHandler(Protocol):
    async def handle_picture(self, message: IncomingMessage, what: str) -> Reply | None: ...


async def save_picture(folder: Path, user_id: str, picture: Picture) -> Path:
    """Where the picture was written: `<folder>/pictures/<user>-<random>.png`."""
    suffix = Path(picture.filename).suffix
    safe_user = "".join(c if c.isalnum() or c in "-_" else "_" for c in user_id) or "user"
    path = folder / "pictures" / f"{safe_user}-{uuid.uuid4().hex[:12]}{suffix}"

    def write() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(picture.image)

    await asyncio.to_thread(write)
    return path.resolve()
