"""The bot's profile picture: SOUVENIR_PERSONA_AVATAR, else the PNG the persona's character card came in.

Platforms rate-limit avatar changes (Discord allows a couple an hour), so each platform is sent an image
only when it differs from the last one it accepted: the digest of that one is kept in the data dir.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

from bot.errors import ConfigError

_FORMATS = {b"\x89PNG\r\n\x1a\n": "png", b"\xff\xd8\xff": "jpeg", b"GIF87a": "gif", b"GIF89a": "gif"}


def image_format(image: bytes) -> str | None:
    """ "png", "jpeg" or "gif" from the file's first bytes (what the platforms accept), else None."""
    return next((name for magic, name in _FORMATS.items() if image.startswith(magic)), None)


@dataclass(frozen=True, slots=True)
class BotAvatar:
    image: bytes
    record_dir: Path  # holds, per platform, the digest of the last avatar it accepted

    @property
    def format(self) -> str | None:
        return image_format(self.image)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.image).hexdigest()

    async def as_jpeg(self) -> bytes:
        """The image as a JPEG (what Telegram takes for a profile photo), converted off the event loop.
        Raises ValueError when the image cannot be read."""
        if self.format == "jpeg":
            return self.image
        return await asyncio.to_thread(_to_jpeg, self.image)

    async def changed_for(self, platform: str) -> bool:
        """True when `platform` has not yet accepted this image."""
        return await asyncio.to_thread(self._recorded, platform) != self.digest

    async def mark_set(self, platform: str) -> None:
        await asyncio.to_thread(self._record, platform)

    def _marker(self, platform: str) -> Path:
        return self.record_dir / f"avatar-set-{platform}.sha256"

    def _recorded(self, platform: str) -> str:
        try:
            return self._marker(platform).read_text(encoding="ascii").strip()
        except OSError:
            return ""

    def _record(self, platform: str) -> None:
        self.record_dir.mkdir(parents=True, exist_ok=True)
        self._marker(platform).write_text(self.digest + "\n", encoding="ascii")


def _to_jpeg(image: bytes) -> bytes:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(image)) as opened:
            opened.load()
            # A transparent card keeps a white background rather than black.
            flat = Image.new("RGB", opened.size, "white")
            rgba = opened.convert("RGBA")
            flat.paste(rgba, mask=rgba.getchannel("A"))
    except (UnidentifiedImageError, OSError) as exc:
        raise ValueError(f"cannot read the avatar image: {exc}") from exc
    out = io.BytesIO()
    flat.save(out, format="JPEG", quality=90)
    return out.getvalue()


def bot_avatar(avatar_file: Path | None, card_image: bytes | None, data_dir: Path) -> BotAvatar | None:
    """The avatar to use, or None. A SOUVENIR_PERSONA_AVATAR that cannot be used stops start-up in one line."""
    image = card_image
    if avatar_file is not None:
        try:
            image = avatar_file.read_bytes()
        except OSError as exc:
            raise ConfigError(f"SOUVENIR_PERSONA_AVATAR: cannot read {avatar_file} ({exc.strerror})") from None
        if image_format(image) is None:
            raise ConfigError(f"SOUVENIR_PERSONA_AVATAR: {avatar_file} is not a PNG, JPEG or GIF image")
    if image is None:
        return None
    return BotAvatar(image, data_dir / "persona")
