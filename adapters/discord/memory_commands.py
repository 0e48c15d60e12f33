"""The slash commands over what the companion remembers: /memories, /forget, /remember, /export and /mood."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.components import PAGE_SIZE, forget_all_view, show_memories, show_why
from adapters.discord.incoming import language_from_locale, user_of
from adapters.discord.slash_shared import answer, everywhere
from bot.engine.commands.results import MOOD_CHART_FILENAME
from bot.engine.commands.user_commands import UserCommands
from bot.engine.commands.why import asks_why
from bot.engine.model import UserRef
from bot.engine.texts.browser import asks_browser, say_browser
from bot.engine.texts.say import say

_FORGET_ALL_WORDS = {"all", "tout", "everything", "*"}
EXPORT_FILENAME = "souvenir-export.json"

BrowserLink = Callable[[UserRef], Awaitable[str]]


def add_memory_commands(
    tree: app_commands.CommandTree[Any], service: UserCommands, browser_link: BrowserLink | None
) -> None:
    """`browser_link` makes a single-use link to the memory browser for an account (None: it is off)."""

    @tree.command(name="memories", description=_("What I remember about you"))
    @app_commands.rename(page=_("page"))
    @app_commands.describe(page=_("A page number (1 is the newest), or “why” for what my last reply drew on"))
    @everywhere
    async def memories(interaction: discord.Interaction[Any], page: str = "") -> None:
        await _memories(interaction, service, browser_link, page)

    @tree.command(name="forget", description=_("Forget one memory, or everything"))
    @app_commands.rename(memory=_("memory"))
    @app_commands.describe(memory=_("A number from /memories, a memory id, or “all” to forget everything"))
    @everywhere
    async def forget(interaction: discord.Interaction[Any], memory: str = "") -> None:
        if memory.strip().lower() not in _FORGET_ALL_WORDS:
            await answer(interaction, lambda user, hint: service.forget_memory(user, memory, hint))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = await service.language_of(user_of(interaction), language_from_locale(interaction.locale))
        await interaction.followup.send(
            say("forget_all_confirm", language), view=forget_all_view(language), ephemeral=True
        )

    @tree.command(name="remember", description=_("Ask me to remember something"))
    @app_commands.rename(text=_("text"))
    @app_commands.describe(text=_("What I should remember"))
    @everywhere
    async def remember(interaction: discord.Interaction[Any], text: str) -> None:
        await answer(interaction, lambda user, hint: service.remember(user, text, hint))

    @tree.command(name="export", description=_("A copy of everything I keep about you"))
    @everywhere
    async def export(interaction: discord.Interaction[Any]) -> None:
        await _export(interaction, service)

    @tree.command(name="mood", description=_("A chart of how your messages have felt (only you see it)"))
    @app_commands.rename(days=_("days"))
    @app_commands.describe(days=_("How many days back (30 unless you say)"))
    @everywhere
    async def mood(interaction: discord.Interaction[Any], days: app_commands.Range[int, 1, 400] | None = None) -> None:
        await _mood(interaction, service, days)


async def _memories(
    interaction: discord.Interaction[Any], service: UserCommands, browser_link: BrowserLink | None, page: str
) -> None:
    """/memories: the newest page, a numbered page, what the last reply drew on (“why”) or the browser (“web”)."""
    if not page.strip():
        await show_memories(interaction, service, 0, in_place=False)
        return
    if asks_why(page):
        await show_why(interaction, service, in_place=False)
        return
    if asks_browser(page):
        await _browser(interaction, service, browser_link)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    user, hint = user_of(interaction), language_from_locale(interaction.locale)
    listing = await service.memories_listing(user, page, PAGE_SIZE, hint)
    if listing.page is None:  # no such page, or not a page number
        await interaction.followup.send(listing.text, ephemeral=True)
    else:
        await show_memories(interaction, service, listing.page.offset, in_place=False)


async def _browser(
    interaction: discord.Interaction[Any], service: UserCommands, browser_link: BrowserLink | None
) -> None:
    """/memories web: a link, for this account only, that opens the memory browser once within 10 minutes."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    user = user_of(interaction)
    language = await service.language_of(user, language_from_locale(interaction.locale))
    if browser_link is None:
        await interaction.followup.send(say_browser("browser_off", language), ephemeral=True)
        return
    url = await browser_link(user)
    await interaction.followup.send(say_browser("browser_link", language, url=url), ephemeral=True)


async def _export(interaction: discord.Interaction[Any], service: UserCommands) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    user, hint = user_of(interaction), language_from_locale(interaction.locale)
    document = await service.export(user)
    caption = say("export_caption", await service.language_of(user, hint))
    attachment = discord.File(io.BytesIO(document), filename=EXPORT_FILENAME)
    await interaction.followup.send(caption, file=attachment, ephemeral=True)


async def _mood(interaction: discord.Interaction[Any], service: UserCommands, days: int | None) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    user, hint = user_of(interaction), language_from_locale(interaction.locale)
    chart = await service.mood(user, str(days) if days else "", hint)
    if chart.png is None:
        await interaction.followup.send(chart.text, ephemeral=True)
        return
    attachment = discord.File(io.BytesIO(chart.png), filename=MOOD_CHART_FILENAME)
    await interaction.followup.send(chart.text, file=attachment, ephemeral=True)
