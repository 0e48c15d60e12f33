"""The slash commands about the account and the companion itself: /link, /unlink, /privacy and /help."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.slash_shared import answer, everywhere
from bot.engine.commands.user_commands import UserCommands


def add_account_commands(tree: app_commands.CommandTree[Any], service: UserCommands) -> None:
    @tree.command(name="link", description=_("Be one person on Telegram and Discord"))
    @app_commands.rename(code=_("code"))
    @app_commands.describe(code=_("The code /link gave you on your other account (empty: get a code here)"))
    @everywhere
    async def link(interaction: discord.Interaction[Any], code: str = "") -> None:
        await answer(interaction, lambda user, hint: service.link(user, code, hint))

    @tree.command(name="unlink", description=_("Undo /link"))
    @everywhere
    async def unlink(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, service.unlink)

    @tree.command(name="privacy", description=_("What is stored, where, and how to erase it"))
    @everywhere
    async def privacy(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, service.privacy_text)

    @tree.command(name="help", description=_("What I can do"))
    @everywhere
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await answer(interaction, service.help_text)
