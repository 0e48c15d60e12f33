"""The reply's language follows the person: a short line that reads plainly in French (or English) is answered
in it, whatever came before; one word that could go either way ("ok", "merci", "thanks") does not flip the
conversation; a language chosen with /language wins over all of it."""

from __future__ import annotations

import pytest

from bot.engine.model import UserRef
from bot.engine.texts.language import reply_language
from tests.engine.conftest import MessageFactory, Rig
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

ENGLISH = ("Hello! How are you today?", "I had a long day at work.", "My sister is coming this weekend.")
FRENCH = ("Salut, comment ça va ?", "J'ai eu une longue journée au travail.", "Ma sœur vient ce week-end.")


async def _after(rig: Rig, message: MessageFactory, earlier: tuple[str, ...], text: str) -> str:
    for line in earlier:
        await rig.engine.handle(message(line))
        rig.clock.advance(minutes=1)
    reply = await rig.engine.handle(message(text))
    assert reply is not None
    system = rig.llm.requests[-1].system
    told = "fr" if "Reply in French" in system else "en" if "Reply in English" in system else "?"
    assert told == reply.language  # what the model is told is what the reply is marked with
    return reply.language


@pytest.mark.parametrize("text", ["oui merci", "ça va ?", "dimanche difficile", "bonne nuit", "à demain"])
async def test_a_short_french_line_after_english_ones_is_answered_in_french(
    rig: Rig, message: MessageFactory, text: str
) -> None:
    assert await _after(rig, message, ENGLISH, text) == "fr"


@pytest.mark.parametrize("text", ["yes thanks", "good night", "Sunday is hard", "see you tomorrow"])
async def test_a_short_english_line_after_french_ones_is_answered_in_english(
    rig: Rig, message: MessageFactory, text: str
) -> None:
    assert await _after(rig, message, FRENCH, text) == "en"


@pytest.mark.parametrize(("earlier", "text", "stays"), [
    (ENGLISH, "ok", "en"), (FRENCH, "ok", "fr"), (ENGLISH, "merci", "en"), (FRENCH, "thanks", "fr"),
    (FRENCH, "lol", "fr"), (FRENCH, "cool", "fr"),
])  # fmt: skip
async def test_one_word_that_could_go_either_way_does_not_flip_the_language(
    rig: Rig, message: MessageFactory, earlier: tuple[str, ...], text: str, stays: str
) -> None:
    assert await _after(rig, message, earlier, text) == stays


async def test_a_language_chosen_with_the_command_wins_over_what_they_write(rig: Rig, message: MessageFactory) -> None:
    commands, _, _ = redis_backed_commands(rig.redis, rig.clock, InMemoryMemoryBrowser())
    await commands.set_language(UserRef("telegram", "42", "Léa"), "en")
    assert await _after(rig, message, FRENCH, "oui merci, bonne nuit") == "en"


async def test_a_platform_in_french_leans_a_first_word_to_french(rig: Rig, message: MessageFactory) -> None:
    reply = await rig.engine.handle(message("ok", hint="fr"))
    assert reply is not None and reply.language == "fr"


async def test_in_a_group_only_the_persons_own_messages_count(rig: Rig, message: MessageFactory) -> None:
    await rig.engine.handle(message("Hello everyone, how was your week?", group="-100"))
    for line in FRENCH:  # someone else, in French
        rig.clock.advance(minutes=1)
        await rig.engine.handle(message(line, user="7", name="Marc", group="-100"))
    rig.clock.advance(minutes=1)
    reply = await rig.engine.handle(message("lol", group="-100"))
    assert reply is not None and reply.language == "en"


def test_the_newest_message_weighs_most_when_the_line_says_little() -> None:
    mixed = ["Salut, comment ça va ?", "Je suis fatiguée ce soir.", "I had a long day at work."]
    assert reply_language("ok", mixed, last_reply="fr") == "fr"  # two French lines and the last reply outweigh it
    assert reply_language("ok", [*mixed, "I'm going to bed now."], last_reply="en") == "en"
    assert reply_language("génial", mixed, last_reply="en") == "fr"  # one French word tips a mixed chat


@pytest.mark.parametrize("text", ["oui merci", "dimanche difficile", "bonne nuit"])
def test_a_plain_french_line_after_a_long_english_talk_is_answered_in_french(text: str) -> None:
    """A talk as long as the window keeps (20 turns): however many English lines came before, a line that reads
    plainly in French is answered in French."""
    english = ["Hello! How are you today?", "I had a long day at work.", "My sister is coming this weekend.",
               "We are going to the sea.", "I love the sea in winter.", "It was so good to see her."]  # fmt: skip
    assert reply_language(text, english, last_reply="en") == "fr"
    assert reply_language("ok", [*english, text], last_reply="fr") == "fr"  # and a word either way keeps it
