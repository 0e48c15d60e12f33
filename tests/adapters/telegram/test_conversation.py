"""End to end: the real python-telegram-bot, polling the fake Bot API, answering people."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from pydantic import SecretStr

from adapters.telegram import run_telegram
from adapters.telegram.split import split_message
from bot.engine.model import ChatKind
from bot.errors import ConfigError
from tests.adapters.telegram.conftest import EchoEngine, Souvenir, telegram_settings
from tests.fakes.fake_telegram import FakeTelegram


async def test_a_private_message_gets_one_plain_text_reply_after_typing(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    await telegram.push_text(77, "I had a rough day *at work*", language_code="fr")
    [reply] = await souvenir.reply_in(77)
    assert reply["text"] == "echo: I had a rough day *at work*"
    [seen] = souvenir.engine.seen
    assert seen.conversation_id == "telegram:dm:77"
    assert seen.language_hint == "fr"
    [send] = telegram.calls_of("sendMessage")
    assert "parse_mode" not in send.params  # plain text: nothing the LLM writes is read as Markdown
    typing = [c for c in telegram.calls_of("sendChatAction") if c.params["chat_id"] == 77]
    assert typing and typing[0].params["action"] == "typing"
    assert typing[0].at <= send.at


async def test_typing_is_repeated_while_the_engine_works(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.engine.gate = asyncio.Event()
    await telegram.push_text(78, "tell me something long")
    await telegram.wait_for(lambda: len(telegram.calls_of("sendChatAction")) >= 3)
    assert telegram.sent(78) == []
    souvenir.engine.gate.set()
    await souvenir.reply_in(78)
    typing_calls = len(telegram.calls_of("sendChatAction"))
    await telegram.push_text(78, "and now?")
    await souvenir.reply_in(78, 2)
    # The indicator stopped with the first answer: only the second message's typing came after.
    assert len(telegram.calls_of("sendChatAction")) <= typing_calls + 2


async def test_a_redelivered_update_is_answered_once(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    update = await telegram.push_text(40, "hello")
    await souvenir.reply_in(40)
    await telegram.redeliver(update)  # same update_id, same message: the acknowledgment was lost
    await telegram.push_text(40, "second")
    await souvenir.reply_in(40, 2)
    # Messages in one chat are handled in order, so the re-delivery was done before "second".
    assert [m.text for m in souvenir.engine.seen] == ["hello", "hello", "second"]
    assert telegram.texts(40) == ["echo: hello", "echo: second"]


async def test_in_a_group_only_mentions_and_replies_to_the_bot_are_answered(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    group = {"chat_id": -500, "chat_type": "supergroup"}
    await telegram.push_text(51, "we should go hiking on Sunday", **group)
    text = f"@{telegram.bot_username} what do you think?"
    mention = {"type": "mention", "offset": 0, "length": len(telegram.bot_username) + 1}
    asked = await telegram.push_text(52, text, entities=[mention], **group)
    [reply] = await souvenir.reply_in(-500)
    assert reply["text"] == "echo: what do you think?"
    assert reply["_reply_to_message_id"] == asked["message"]["message_id"]
    [seen] = souvenir.engine.seen
    assert seen.chat_kind is ChatKind.GROUP
    assert seen.conversation_id == "telegram:chat:-500"
    assert seen.user.key == "telegram:52"

    bot_message = telegram.sent(-500)[0]
    await telegram.push_text(51, "haha true", reply_to=bot_message, **group)
    replies = await souvenir.reply_in(-500, 2)
    assert replies[1]["text"] == "echo: haha true"
    assert [m.text for m in souvenir.engine.seen] == ["what do you think?", "haha true"]


async def test_in_a_forum_topic_the_answer_goes_to_the_same_topic(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    text = f"@{telegram.bot_username} hello from the topic"
    mention = {"type": "mention", "offset": 0, "length": len(telegram.bot_username) + 1}
    message = telegram.user_message(53, text, chat_id=-600, chat_type="supergroup", entities=[mention])
    await telegram.push_update({"message": {**message, "is_topic_message": True, "message_thread_id": 12}})
    [reply] = await souvenir.reply_in(-600)
    assert reply["text"] == "echo: hello from the topic"
    assert reply["message_thread_id"] == 12


async def test_a_long_reply_arrives_in_pieces_within_telegrams_limit(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    long_text = "\n\n".join(f"Paragraph {n}: " + "memories " * 250 for n in range(4))
    await telegram.push_text(79, long_text)
    expected = split_message("echo: " + long_text)
    await telegram.wait_for(lambda: len(telegram.sent(79)) >= len(expected))
    pieces = telegram.texts(79)
    assert len(expected) >= 2 and all(len(piece) <= 4096 for piece in pieces)
    assert pieces == expected


async def test_a_failing_handler_apologises_and_the_bot_carries_on(
    souvenir: Souvenir, caplog: pytest.LogCaptureFixture
) -> None:
    telegram = souvenir.telegram
    souvenir.engine.crash_on = {"boom"}
    await telegram.push_text(81, "boom", language_code="fr")
    await telegram.push_text(81, "still there?")
    replies = await souvenir.reply_in(81, 2)
    assert [m["text"] for m in replies] == [
        "Désolé, je n'arrive pas à réfléchir pour l'instant. Tu me réécris dans un moment ?",
        "echo: still there?",
    ]
    assert "Telegram text handler failed" in caplog.text


async def test_edited_messages_are_not_answered_again(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    pushed = await telegram.push_text(80, "first version")
    await souvenir.reply_in(80)
    edited = {**pushed["message"], "text": "second version", "edit_date": pushed["message"]["date"] + 5}
    await telegram.push_update({"edited_message": edited})
    await telegram.push_text(80, "next")
    await souvenir.reply_in(80, 2)
    assert telegram.texts(80) == ["echo: first version", "echo: next"]


async def test_without_a_token_the_bot_refuses_to_start(telegram: FakeTelegram) -> None:
    settings = replace(telegram_settings(telegram), token=None)
    with pytest.raises(ConfigError, match="SOUVENIR_TELEGRAM_TOKEN"):
        async with run_telegram(settings, engine=EchoEngine(None), commands=None):  # type: ignore[arg-type]
            pass
    assert telegram.calls == []


async def test_a_token_telegram_rejects_is_a_configuration_error(telegram: FakeTelegram) -> None:
    settings = replace(telegram_settings(telegram), token=SecretStr("999:not-the-right-token"))
    with pytest.raises(ConfigError, match="SOUVENIR_TELEGRAM_TOKEN"):
        async with run_telegram(settings, engine=EchoEngine(None), commands=None):  # type: ignore[arg-type]
            pass


async def test_the_bot_stops_cleanly_when_its_task_is_cancelled(telegram: FakeTelegram, souvenir: Souvenir) -> None:
    # The fixture's bot is running; a second one in a task that gets cancelled must release its poll.
    started = asyncio.Event()

    async def run() -> None:
        async with run_telegram(
            telegram_settings(telegram),
            engine=souvenir.engine,
            commands=None,  # type: ignore[arg-type]
            poll_timeout=0.5,
        ):
            started.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(run())
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    done, _ = await asyncio.wait([task], timeout=5)
    assert task in done and task.cancelled()
