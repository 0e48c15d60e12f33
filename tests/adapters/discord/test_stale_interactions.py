"""Interactions the running bot no longer knows: a command left over from an older registration, and a
button whose custom_id matches nothing. The person gets a short ephemeral answer, the log one warning."""

from __future__ import annotations

import logging

import pytest

from tests.adapters.discord.conftest import Bot
from tests.adapters.discord.test_slash_commands import add_memories, run
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord_rest import Sent

GONE_EN = "That command no longer exists — /help lists the ones I have."
GONE_FR = "Cette commande n'existe plus — /help liste celles que j'ai."


def souvenir_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("adapters.")]


@pytest.mark.parametrize(("locale", "expected"), [("en-US", GONE_EN), ("fr", GONE_FR)])
async def test_a_command_the_bot_no_longer_has_says_so_with_one_warning(
    bot: Bot, caplog: pytest.LogCaptureFixture, locale: str, expected: str
) -> None:
    caplog.set_level(logging.INFO)

    answer = await run(bot, p.user("Alice"), "horoscope", locale=locale, sign="leo")  # /mood exists now

    assert answer.ephemeral and answer.content == expected
    [record] = souvenir_records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "horoscope" in record.getMessage()


async def test_a_command_whose_options_changed_says_so_too(bot: Bot, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    answer = await run(bot, p.user("Alice"), "remember")  # its required "text" option is missing

    assert answer.ephemeral and answer.content == GONE_EN
    [record] = souvenir_records(caplog)
    assert record.levelno == logging.WARNING and record.exc_info is None


@pytest.mark.parametrize("custom_id", ["souvenir:memories:page:next", "v0:forget:abc", "souvenir:forget-all:yes"])
async def test_a_button_that_matches_nothing_is_answered_as_expired(bot: Bot, custom_id: str) -> None:
    alice = p.user("Alice")
    add_memories(bot, alice, 2)
    page = await run(bot, alice, "memories", locale="fr")
    before = len(bot.fake.rest.sent)

    await bot.fake.press(alice, page, custom_id, locale="fr")
    answer: Sent = await bot.fake.wait_for(lambda: next(iter(bot.fake.rest.sent[before:]), None))

    assert answer.how == "callback" and answer.ephemeral
    assert answer.content == "Ce bouton a expiré. Relance la commande (/help les liste toutes)."
    assert bot.fake.rest.messages[page.message_id]["content"] == page.content  # the page is left as it was
