"""What people type is cleaned once, in the engine, before anything is stored or sent to the model."""

from __future__ import annotations

from bot.engine.conversation.message_text import clean_message_text
from tests.engine.conftest import MessageFactory, Rig

LIMIT = 4000


def test_ansi_escapes_and_control_characters_are_stripped_newlines_tabs_and_emoji_kept() -> None:
    raw = "\x1b[31mred\x1b[0m alert\x07\x00\x1b]0;title\x07 done\r\nnext\tline 🐱‍👤 café\x7f\x9b2J"

    cleaned = clean_message_text(raw, LIMIT)

    assert cleaned.text == "red alert done\nnext\tline 🐱‍👤 café"
    assert not cleaned.cut


def test_invalid_utf8_kept_as_replacement_characters() -> None:
    # What a terminal with surrogateescape decoding (or a JSON "\ud800") hands over for bytes that aren't UTF-8.
    raw = b"\xff\xfe hello caf\xc3\xa9".decode("utf-8", "surrogateescape") + "\ud800"

    cleaned = clean_message_text(raw, LIMIT)

    assert cleaned.text == "\ufffd\ufffd hello café\ufffd"
    cleaned.text.encode("utf-8")  # storable and sendable


def test_a_long_message_is_cut_at_a_word_and_says_so() -> None:
    raw = "word " * 10_000  # 50,000 characters

    cleaned = clean_message_text(raw, LIMIT)

    assert cleaned.cut and cleaned.original_chars == len(raw.strip())
    assert len(cleaned.text) <= LIMIT and cleaned.text.endswith("word […]")


async def test_the_engine_stores_and_sends_the_cleaned_text(rig: Rig, message: MessageFactory) -> None:
    reply = await rig.engine.handle(message("\x1b[1mHello\x1b[0m\x00 there \ud83d"))

    assert reply is not None and reply.text.endswith("echo: Hello there \ufffd")
    [stored] = [t.text for t in await rig.window.recent_turns("telegram:dm:42") if t.role == "user"]
    assert stored == "Hello there \ufffd"
    await rig.engine.drain()
    assert rig.memory.exchanges[0].message.text == "Hello there \ufffd"


async def test_a_huge_message_is_capped_in_the_window_memory_and_every_later_prompt(
    rig: Rig, message: MessageFactory
) -> None:
    huge = "I love jazz. " * 4000  # 52,000 characters
    await rig.engine.handle(message(huge))
    await rig.engine.handle(message("And you?"))
    await rig.engine.drain()

    first, second = rig.llm.requests
    sent = first.turns[-1].text
    assert len(sent) < LIMIT + 300
    assert f"{len(huge.strip())} characters" in sent  # the model is told the message was cut
    assert all(len(t.text) <= LIMIT for t in second.turns if t.role == "user")
    stored = [t.text for t in await rig.window.recent_turns("telegram:dm:42") if t.role == "user"]
    assert len(stored[0]) <= LIMIT and stored[0].endswith(" […]")
    assert len(rig.memory.exchanges[0].message.text) <= LIMIT


async def test_a_message_of_nothing_but_escapes_gets_no_reply(rig: Rig, message: MessageFactory) -> None:
    assert await rig.engine.handle(message("\x1b[2J\x1b[H\x00")) is None
    assert rig.llm.requests == [] and await rig.window.recent_turns("telegram:dm:42") == []
