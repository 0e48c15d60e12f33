"""An exchange survives the outbox's JSON as it was: the same episode id after a round trip, clear refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine.media.pictures import Picture
from bot.engine.media.voice_note import VoiceNote
from bot.engine.model import ChatKind, ChatTurn, Exchange, IncomingMessage, Reply, UserRef
from bot.errors import InvalidInput
from memory.writing.episodes import episodic_record
from memory.writing.outbox_codec import JsonExchangeCodec

AT = datetime(2026, 2, 28, 23, 30, tzinfo=UTC)


def test_a_group_exchange_with_context_comes_back_equal_and_with_the_same_episode_id() -> None:
    user = UserRef("discord", "77", "Zoë 🌸", person_key="person:abc")
    message = IncomingMessage(
        user, "discord:chat:9", "m1", "Ma sœur se marie le 3 mars ‮ 🎉", AT, ChatKind.GROUP, "fr", "m0"
    )
    earlier = (
        ChatTurn("user", "salut", AT.replace(minute=29), "person:abc", "Zoë"),
        ChatTurn("assistant", "coucou", AT),
    )
    exchange = Exchange(message, Reply("Félicitations !", "fr", disclosed=True), "Europe/Paris", "fr", earlier, 4)
    codec = JsonExchangeCodec()
    back = codec.decode(codec.encode(exchange))
    assert back == exchange
    assert back.message.sent_at.tzinfo is UTC
    assert episodic_record(back).memory_id == episodic_record(exchange).memory_id


@pytest.mark.parametrize("data", [b"", b"not json", b'{"message": {}}', b"\xff\xfe"])
def test_unreadable_bytes_are_refused_clearly(data: bytes) -> None:
    with pytest.raises(InvalidInput, match="not a readable exchange"):
        JsonExchangeCodec().decode(data)


def test_a_reply_with_a_picture_and_a_voice_note_is_queued_as_its_text() -> None:
    message = IncomingMessage(UserRef("telegram", "1", "Léa"), "telegram:dm:1", "m1", "send me a picture", AT)
    reply = Reply("Here I am!", "en", picture=Picture(b"\x89PNG\r\n\x1a\n\xff\xfe\x00", "a café"),
                  voice=VoiceNote(b"OggS\xff\x00", 1.5))  # fmt: skip
    codec = JsonExchangeCodec()
    back = codec.decode(codec.encode(Exchange(message, reply, "Europe/Paris", "en")))
    assert back.reply.text == "Here I am!" and back.reply.picture is None and back.reply.voice is None
