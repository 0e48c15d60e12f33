"""The ports pictures need: an image endpoint, a per-person daily count, and a messenger that sends photos."""

from __future__ import annotations

from datetime import date
from typing import Protocol, runtime_checkable

from bot.engine.media.pictures import Picture


class ImageGenerator(Protocol):
    async def generate(self, prompt: str, reference: bytes | None) -> bytes:
        """The image for `prompt` (PNG or JPEG bytes), drawn from `reference` (the persona's avatar) when the
        endpoint can edit an image. Raises `bot.errors.PictureRefused` when the endpoint refuses the prompt,
        `bot.errors.PictureUnavailable` for any other failure (it logged the reason for the operator)."""
        ...


class PictureQuota(Protocol):
    """How many pictures a person had today, by their local day."""

    async def take(self, user_key: str, day: date, limit: int) -> bool:
        """Count one more picture on `day`; False (and nothing counted) once `limit` were made that day."""
        ...

    async def give_back(self, user_key: str, day: date) -> None:
        """Uncount one picture that could not be made."""
        ...


@runtime_checkable
class PictureMessenger(Protocol):
    """A `Messenger` that can also send a photo with a caption to a person's private chat."""

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        """Raises `bot.errors.UserUnreachable` when the platform says the person blocked the bot."""
        ...
