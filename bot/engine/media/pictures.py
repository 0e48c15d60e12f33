"""A picture the companion sends: the image bytes of one generated photo, in its own value so a `Reply` carries
it without knowing how it was made. The caption is the reply's text (or the unprompted message's)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Picture:
    image: bytes  # PNG or JPEG bytes, as the image endpoint gave them
    scene: str = ""  # what it shows, in the words the image prompt used (for the log and the window)

    @property
    def filename(self) -> str:
        return "picture.jpg" if self.image.startswith(b"\xff\xd8\xff") else "picture.png"
