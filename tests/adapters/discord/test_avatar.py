"""The persona's picture becomes the Discord bot's avatar, once per image, and a refusal never stops the bot."""

from __future__ import annotations

import base64
from pathlib import Path

from adapters.discord import run_discord
from bot.avatar import BotAvatar
from bot.engine.commands.user_commands import UserCommands
from tests.adapters.discord.conftest import FAST, EchoEngine, discord_settings
from tests.fakes.fake_discord import FakeDiscord

CARD = Path(__file__).parents[2] / "data" / "maelle_card_v2.png"


async def _start(fake: FakeDiscord, engine: EchoEngine, commands: UserCommands, avatar: BotAvatar) -> None:
    async with run_discord(discord_settings(fake), engine=engine, commands=commands, timings=FAST, avatar=avatar):
        pass


async def test_the_card_image_is_set_once_as_the_avatar(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands, tmp_path: Path
) -> None:
    avatar = BotAvatar(CARD.read_bytes(), tmp_path)
    await _start(fake, engine, commands, avatar)
    await _start(fake, engine, commands, avatar)  # a restart with the same picture sends nothing

    expected = "data:image/png;base64," + base64.b64encode(CARD.read_bytes()).decode()
    assert fake.rest.avatars == [expected]


async def test_a_refused_avatar_is_tried_again_at_the_next_start_and_the_bot_runs(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands, tmp_path: Path
) -> None:
    fake.rest.avatar_refusals = 1
    avatar = BotAvatar(CARD.read_bytes(), tmp_path)
    await _start(fake, engine, commands, avatar)
    assert fake.rest.avatars == []
    await _start(fake, engine, commands, avatar)
    assert len(fake.rest.avatars) == 1
