"""End to end: slash commands and inline buttons through the real python-telegram-bot."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import redis.asyncio as aioredis

from adapters.telegram.callbacks import fingerprint
from bot.engine.ports import DrawnMemory, TrailReply
from memory.redis.reply_trail import RedisReplyTrail
from tests.adapters.telegram.conftest import Souvenir


def buttons(message: dict[str, Any]) -> dict[str, str]:
    """Button label -> callback data, from the inline keyboard the bot attached."""
    markup = message.get("reply_markup") or {"inline_keyboard": []}
    return {button["text"]: button["callback_data"] for row in markup["inline_keyboard"] for button in row}


async def test_the_command_menu_is_registered_in_english_and_french(souvenir: Souvenir) -> None:
    commands = souvenir.telegram.commands
    english = {c["command"]: c["description"] for c in commands[("default", None)]}
    french = {c["command"]: c["description"] for c in commands[("default", "fr")]}
    everything = {
        "start",
        "help",
        "memories",
        "forget",
        "remember",
        "birthday",
        "timezone",
        "checkins",
        "groups",
        "language",
        "mood",
        "link",
        "unlink",
        "profile",
        "age",
        "export",
        "voice",
        "privacy",
        "picture",
    }
    assert set(english) == set(french) == everything
    assert english["memories"] == "What I remember about you"
    assert french["memories"] == "Ce dont je me souviens sur toi"
    # Groups only see the commands that reveal nothing personal.
    assert {c["command"] for c in commands[("all_group_chats", None)]} == {"start", "help", "privacy"}


async def test_start_discloses_the_ai_and_explains_the_controls(souvenir: Souvenir) -> None:
    await souvenir.telegram.push_command(10, "start", first_name="Léa")
    [reply] = await souvenir.reply_in(10)
    assert "Hi Léa! I'm Souvenir, an AI companion." in reply["text"]
    for control in ("/memories", "/forget", "/export", "/privacy"):
        assert control in reply["text"]
    assert souvenir.engine.seen == []  # commands never reach the conversation engine


async def test_help_privacy_and_unknown_commands_answer_in_the_users_language(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    await telegram.push_command(11, "help", language_code="fr")
    await telegram.push_command(11, "privacy", language_code="fr")
    await telegram.push_command(11, "dance", language_code="fr")
    replies = await souvenir.reply_in(11, 3)
    assert replies[0]["text"].startswith("Parle-moi simplement. Commandes :")
    assert replies[1]["text"].startswith("Ce que je garde :")
    assert replies[2]["text"] == replies[0]["text"]  # an unknown command shows the help


async def test_settings_commands_change_the_profile_and_bad_arguments_get_usage(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    await telegram.push_command(12, "timezone", "Europe/Paris")
    await telegram.push_command(12, "birthday", "March 14")
    await telegram.push_command(12, "checkins", "on")
    await telegram.push_command(12, "birthday", language_code="fr")
    await telegram.push_command(12, "checkins", "maybe", language_code="fr")
    await telegram.push_command(12, "groups", "on")
    replies = [m["text"] for m in await souvenir.reply_in(12, 6)]
    assert replies[0].startswith("Your time zone is now Europe/Paris")
    assert replies[1] == "Noted: your birthday is March 14. 🎂"
    assert replies[2].startswith("Check-ins are on")
    assert replies[3] == "Ton anniversaire : le 14 mars.\nUsage : /birthday <date>, ex. /birthday 14 mars"
    assert replies[4] == "Usage : /checkins on ou /checkins off"
    assert replies[5].startswith("Okay: in group chats I may now draw on")
    profile = await souvenir.profiles.load_profile("telegram:12")
    assert profile.timezone == "Europe/Paris"
    assert profile.birthday is not None and (profile.birthday.month, profile.birthday.day) == (3, 14)
    assert profile.checkins is True
    assert profile.share_dm_memories_in_groups is True


async def test_remember_keeps_a_note_and_export_sends_it_back_as_a_json_document(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    await telegram.push_command(13, "remember", "my cat is called Miso")
    [confirmation] = await souvenir.reply_in(13)
    assert confirmation["text"] == "Got it, I'll remember that."
    assert souvenir.memory_texts(13) == ["my cat is called Miso"]

    await telegram.push_command(13, "export")
    document = (await souvenir.reply_in(13, 2))[1]
    assert document["document"]["file_name"] == "souvenir-export.json"
    assert document["caption"] == "Everything I keep about you."
    exported = json.loads(document["_content"])
    assert exported["user"] == "telegram:13"
    assert [m["text"] for m in exported["memories"]] == ["my cat is called Miso"]
    [upload] = telegram.calls_of("sendDocument")
    assert upload.files["document"][0] == "souvenir-export.json"  # sent as a multipart file


async def test_memories_pages_with_buttons_and_forgets_one_from_the_page(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.add_memories(14, *(f"fact {n}" for n in range(1, 8)))  # fact 7 is the newest
    await telegram.push_command(14, "memories")
    [listing] = await souvenir.reply_in(14)
    assert listing["text"].splitlines() == [
        "What I remember (1–5 of 7):", "1. fact 7", "2. fact 6", "3. fact 5", "4. fact 4", "5. fact 3",
    ]  # fmt: skip
    first_page = buttons(listing)
    assert set(first_page) == {"Forget #1", "Forget #2", "Forget #3", "Forget #4", "Forget #5", "Next ›"}

    await telegram.push_callback(14, first_page["Next ›"], listing)
    await telegram.wait_for(lambda: "6–7 of 7" in telegram.sent(14)[0]["text"])
    second = telegram.sent(14)[0]
    assert second["text"].splitlines()[1:] == ["1. fact 2", "2. fact 1"]
    assert set(buttons(second)) == {"Forget #1", "Forget #2", "‹ Previous"}

    await telegram.push_callback(14, buttons(second)["Forget #1"], second)
    await telegram.wait_for(lambda: "6–6 of 6" in telegram.sent(14)[0]["text"])
    assert "fact 2" not in souvenir.memory_texts(14)
    assert len(souvenir.memory_texts(14)) == 6
    answers = [c.params.get("text") for c in telegram.calls_of("answerCallbackQuery")]
    assert "Forgotten." in answers
    assert len(telegram.sent(14)) == 1  # the page was edited in place, never re-sent

    await telegram.push_callback(14, buttons(telegram.sent(14)[0])["‹ Previous"], telegram.sent(14)[0])
    await telegram.wait_for(lambda: "1–5 of 6" in telegram.sent(14)[0]["text"])


async def test_forget_all_asks_first_then_leaves_nothing(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.add_memories(15, "my sister is Inès", "I live in Lyon")
    await telegram.push_command(15, "timezone", "Europe/Paris")
    await telegram.push_command(15, "forget", "all")
    confirm = (await souvenir.reply_in(15, 2))[1]
    assert confirm["text"] == "Forget everything I know about you? This can't be undone."
    assert souvenir.memory_texts(15) == ["my sister is Inès", "I live in Lyon"]  # nothing gone before "yes"

    await telegram.push_callback(15, buttons(confirm)["Yes, forget everything"], confirm)
    await telegram.wait_for(lambda: telegram.sent(15)[1]["text"].startswith("Done."))
    assert "reply_markup" not in telegram.sent(15)[1]  # the buttons are gone
    assert souvenir.memory_texts(15) == []
    profile = await souvenir.profiles.load_profile("telegram:15")
    assert profile.timezone is None and profile.display_name == ""

    await telegram.push_command(15, "memories")
    listing = (await souvenir.reply_in(15, 3))[2]
    assert listing["text"] == "I don't remember anything about you yet."
    assert buttons(listing) == {}


async def test_forget_all_can_be_cancelled(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.add_memories(16, "I love jazz")
    await telegram.push_command(16, "forget", "tout", language_code="fr")
    [confirm] = await souvenir.reply_in(16)
    assert set(buttons(confirm)) == {"Oui, tout oublier", "Annuler"}
    await telegram.push_callback(16, buttons(confirm)["Annuler"], confirm, language_code="fr")
    await telegram.wait_for(lambda: telegram.sent(16)[0]["text"] == "D'accord, je garde tout.")
    assert souvenir.memory_texts(16) == ["I love jazz"]


async def test_forget_by_id_and_unknown_ids(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    [_kept, gone] = souvenir.add_memories(17, "keep me", "forget me")
    await telegram.push_command(17, "forget", gone)
    await telegram.push_command(17, "forget", "no-such-id")
    await telegram.push_command(17, "forget")
    replies = [m["text"] for m in await souvenir.reply_in(17, 3)]
    assert replies == [
        "Forgotten.",
        "I have no memory with that id.",
        "Usage: /forget <number from /memories>, /forget <memory id> or /forget all",
    ]
    assert souvenir.memory_texts(17) == ["keep me"]


async def test_memories_takes_a_page_number_and_forget_takes_the_number_shown(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.add_memories(21, *(f"fact {n}" for n in range(1, 8)))  # two pages of five
    for argument in ("99", "abc", "2"):
        await telegram.push_command(21, "memories", argument)
    past, bad, second = await souvenir.reply_in(21, 3)
    assert past["text"] == "There's no page 99: the last one is 2 (/memories 2)." and buttons(past) == {}
    assert bad["text"] == "Usage: /memories, or /memories <page number> such as /memories 2"
    assert second["text"].splitlines()[1:] == ["1. fact 2", "2. fact 1"] and "Forget #1" in buttons(second)

    await telegram.push_command(21, "forget", "1")
    forgotten = (await souvenir.reply_in(21, 4))[3]

    assert forgotten["text"] == "Forgotten: “fact 2”"
    assert "fact 2" not in souvenir.memory_texts(21) and len(souvenir.memory_texts(21)) == 6


async def test_a_chosen_language_answers_commands_whatever_the_telegram_language(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    await telegram.push_command(22, "language", "fr", language_code="en")
    await telegram.push_command(22, "help", language_code="en")
    await telegram.push_command(22, "memories", "x", language_code="en")
    chosen, help_text, usage = (m["text"] for m in await souvenir.reply_in(22, 3))

    assert chosen == "D'accord, je te parlerai en français désormais."
    assert help_text.startswith("Parle-moi simplement.") and "/language" in help_text
    assert usage.startswith("Usage : /memories")


async def test_forged_buttons_only_ever_touch_the_pressers_own_memories(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    [victim_memory] = souvenir.add_memories(18, "victim's secret")
    await telegram.push_command(18, "memories")
    [victims_page] = await souvenir.reply_in(18)
    await telegram.push_command(19, "memories")
    [own_page] = await souvenir.reply_in(19)

    forged = f"m:f:0:1:{fingerprint(victim_memory)}"
    await telegram.push_callback(19, forged, victims_page)  # pressing on someone else's message
    await telegram.push_callback(19, forged, own_page)  # a forged payload on their own message
    await telegram.push_callback(19, "fa:yes", victims_page)
    await telegram.push_callback(19, "m:p:99999999", own_page)
    await telegram.wait_for(lambda: len(telegram.calls_of("answerCallbackQuery")) == 4)
    assert souvenir.memory_texts(18) == ["victim's secret"]
    assert telegram.sent(18)[0]["text"] == victims_page["text"]  # never edited by the forger


async def test_personal_commands_do_nothing_in_groups(souvenir: Souvenir) -> None:
    telegram = souvenir.telegram
    souvenir.add_memories(20, "private thing")
    group: dict[str, Any] = {"chat_id": -700, "chat_type": "group"}
    await telegram.push_command(20, "memories", **group)
    await telegram.push_command(20, "export", **group)
    await telegram.push_command(20, "help", **group)
    [reply] = await souvenir.reply_in(-700)
    assert reply["text"].startswith("Just talk to me.")
    await telegram.push_command(20, "privacy", **group)
    replies = await souvenir.reply_in(-700, 2)
    assert all("private thing" not in m.get("text", "") for m in replies)
    assert telegram.calls_of("sendDocument") == []


async def test_memories_why_shows_what_the_last_reply_drew_on_with_buttons_that_forget(
    souvenir: Souvenir, redis_client: aioredis.Redis
) -> None:
    telegram = souvenir.telegram
    miso, piano = souvenir.add_memories(30, "Léa has a cat named Miso", "Miso sleeps on the piano")
    drawn = (DrawnMemory(miso, "semantic", "Léa has a cat named Miso"),
             DrawnMemory(piano, "episodic", "Miso sleeps on the piano"))  # fmt: skip
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=2))  # what the engine noted with its last reply
    await trail.note_reply(TrailReply("telegram:dm:30", "telegram:30", souvenir.clock.now(), drawn))

    await telegram.push_command(30, "memories", "why")
    [why] = await souvenir.reply_in(30)
    assert why["text"].splitlines()[:3] == [
        "My last reply drew on these memories of you:",
        "1. (fact) Léa has a cat named Miso",
        "2. (something you said) Miso sleeps on the piano",
    ]
    assert set(buttons(why)) == {"Forget #1", "Forget #2"}

    await telegram.push_callback(30, buttons(why)["Forget #2"], why)
    await telegram.wait_for(lambda: "piano" not in telegram.sent(30)[0]["text"])
    assert souvenir.memory_texts(30) == ["Léa has a cat named Miso"]
    assert telegram.sent(30)[0]["text"].splitlines()[1] == "1. (fact) Léa has a cat named Miso"
    assert set(buttons(telegram.sent(30)[0])) == {"Forget #1"}
    assert "Forgotten." in [c.params.get("text") for c in telegram.calls_of("answerCallbackQuery")]

    # Someone else pressing a forged button for Léa's memory, on their own /memories why, touches nothing of hers.
    await telegram.push_command(31, "memories", "pourquoi")
    [own] = await souvenir.reply_in(31)
    assert own["text"].startswith("I haven't replied to you here lately.") and buttons(own) == {}
    await telegram.push_callback(31, f"w:f:1:{fingerprint(miso)}", own)
    await telegram.wait_for(lambda: len(telegram.calls_of("answerCallbackQuery")) == 2)
    assert souvenir.memory_texts(30) == ["Léa has a cat named Miso"]


async def test_profile_sets_how_to_address_the_person(souvenir: Souvenir) -> None:
    await souvenir.telegram.push_command(12, "profile", "name Max", language_code="fr")
    await souvenir.telegram.push_command(12, "profile", "tu", language_code="fr")
    replies = await souvenir.reply_in(12, 2)
    assert [r["text"] for r in replies] == ["C'est noté, je t'appellerai Max.", "OK, on se tutoie !"]
    profile = await souvenir.profiles.load_profile("telegram:12")
    assert (profile.preferred_name, profile.address_form) == ("Max", "tu")
