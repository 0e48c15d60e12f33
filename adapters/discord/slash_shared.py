"""What every slash command shares: where it can be used, the on/off option, and its answer, seen only by the
person who asked."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.incoming import language_from_locale, user_of
from bot.engine.commands.results import CommandResult
from bot.engine.model import UserRef

F = TypeVar("F", bound=Callable[..., Any])


def everywhere(command: F) -> F:
    """Installable on guilds and on a person's account; usable in guilds, DMs and group DMs."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def on_off_state(command: F) -> F:
    """A required `state` option with the choices on and off (localised)."""
    choices = [app_commands.Choice(name=_("on"), value="on"), app_commands.Choice(name=_("off"), value="off")]
    command = app_commands.choices(state=choices)(command)
    command = app_commands.describe(state=_("On or off"))(command)
    return app_commands.rename(state=_("state"))(command)


async def answer(
    interaction: discord.Interaction[Any],
    produce: Callable[[UserRef, str | None], Awaitable[CommandResult | str]],
) -> None:
    """Deferred first (a slow store must not miss Discord's 3-second deadline), then answered ephemerally."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await produce(user_of(interaction), language_from_locale(interaction.locale))
    await interaction.followup.send(result if isinstance(result, str) else result.text, ephemeral=True)
