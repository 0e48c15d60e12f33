"""A birthday card goes through whatever wraps a platform's messenger: the speaking one (/voice on) and the
one that resolves pseudonymous keys — as a photo with its caption, or as text where no photo can be sent."""

from __future__ import annotations

from bot.engine.media.pictures import Picture
from bot.engine.media.voice_messenger import SpeakingMessenger
from bot.engine.media.voice_note import VoiceNote
from bot.engine.model import Reply, UserRef
from memory.privacy.pseudonyms import ResolvingMessenger

CARD = Picture(b"\x89PNG\r\n\x1a\nfake", "a cake")


class PhotoPlatform:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, Picture | None]] = []

    async def send_direct(self, user_key: str, text: str) -> None:
        self.sent.append((user_key, text, None))

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        self.sent.append((user_key, text, None))

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        self.sent.append((user_key, text, picture))


class TextPlatform:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def send_direct(self, user_key: str, text: str) -> None:
        self.sent.append((user_key, text))

    async def send_voice_direct(self, user_key: str, note: VoiceNote, text: str) -> None:
        self.sent.append((user_key, text))


class Silent:
    async def spoken(self, user: UserRef, reply: Reply) -> Reply:
        return reply


class Pseudonyms:
    async def platform_account(self, key: str) -> str | None:
        return "telegram:42" if key == "telegram:~abc" else None


async def test_a_card_goes_through_the_speaking_and_resolving_wrappers_as_a_photo() -> None:
    platform = PhotoPlatform()
    resolving = ResolvingMessenger(platform, Pseudonyms())  # type: ignore[arg-type]
    await SpeakingMessenger(resolving, Silent()).send_direct_picture("telegram:~abc", "Happy birthday!", CARD)
    assert platform.sent == [("telegram:42", "Happy birthday!", CARD)]


async def test_where_no_photo_can_be_sent_the_words_still_go() -> None:
    platform = TextPlatform()
    await SpeakingMessenger(platform, Silent()).send_direct_picture("terminal:me", "Happy birthday!", CARD)
    assert platform.sent == [("terminal:me", "Happy birthday!")]
