"""The slash commands: thin wrappers over `UserCommands`, usable in DMs and guilds, user-installable, in groups
(`memory_commands`, `setting_commands`, `account_commands`; what they share is in `slash_shared`).

Every answer is ephemeral (only the person who asked sees their memories and settings). Commands that
touch the stores defer first, so Discord's 3-second deadline holds even when a store is slow.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from adapters.discord.account_commands import add_account_commands
from adapters.discord.incoming import language_from_locale
from adapters.discord.memory_commands import BrowserLink, add_memory_commands
from adapters.discord.setting_commands import add_profile_commands, add_setting_commands, add_switch_commands
from bot.engine.commands.user_commands import UserCommands
from bot.engine.texts.say import say
from bot.errors import InvalidInput

log = logging.getLogger(__name__)

def add_slash_commands(
    tree: app_commands.CommandTree[Any], service: UserCommands, browser_link: BrowserLink | None = None
) -> None:
    """Every slash command, by group. `browser_link` makes a single-use link to the memory browser for an account
    (None: it is off)."""
    add_memory_commands(tree, service, browser_link)
    add_setting_commands(tree, service)
    add_switch_commands(tree, service)
    add_profile_commands(tree, service)
    add_account_commands(tree, service)


class SouvenirCommandTree(app_commands.CommandTree[Any]):
    """Logs a failed command and tells the person something went wrong instead of leaving them hanging."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            await _say_command_is_gone(interaction, error)
            return
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        log.error("slash command %s failed", interaction.command.name if interaction.command else "?", exc_info=cause)
        text = (
            str(cause) if isinstance(cause, InvalidInput) else say("fallback", language_from_locale(interaction.locale))
        )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell the person their command failed")


async def _say_command_is_gone(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
    """A command Discord still shows but this version of the bot doesn't have (or has with other options):
    a leftover registration, not a failure — the next sync removes it."""
    log.warning("a stale application command was used (%s); the next command sync replaces it", error)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        elif not interaction.response.is_done():
            text = say("command_gone", language_from_locale(interaction.locale))
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the person that command no longer exists")
