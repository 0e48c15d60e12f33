"""The slash commands: thin wrappers over `UserCommands`, usable in DMs and guilds, user-installable.

Every answer is ephemeral (only the person who asked sees their memories and settings). Commands that
touch the stores defer first, so Discord's 3-second deadline holds even when a store is slow.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.components import PAGE_SIZE, forget_all_view, show_memories, show_why
from adapters.discord.incoming import language_from_locale, user_of
from bot.engine.commands.results import MOOD_CHART_FILENAME, CommandResult
from bot.engine.commands.user_commands import UserCommands
from bot.engine.commands.why import asks_why
from bot.engine.model import UserRef
from bot.engine.texts.browser import asks_browser, say_browser
from bot.engine.texts.say import say
from bot.engine.when.timezones import suggest_timezones
from bot.errors import InvalidInput

log = logging.getLogger(__name__)

_FORGET_ALL_WORDS = {"all", "tout", "everything", "*"}
EXPORT_FILENAME = "souvenir-export.json"

F = TypeVar("F", bound=Callable[..., Any])


def _everywhere(command: F) -> F:
    """Installable on guilds and on a person's account; usable in guilds, DMs and group DMs."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def _on_off_state(command: F) -> F:
    """A required `state` option with the choices on and off (localised)."""
    choices = [app_commands.Choice(name=_("on"), value="on"), app_commands.Choice(name=_("off"), value="off")]
    command = app_commands.choices(state=choices)(command)
    command = app_commands.describe(state=_("On or off"))(command)
    return app_commands.rename(state=_("state"))(command)


async def _answer(
    interaction: discord.Interaction[Any],
    produce: Callable[[UserRef, str | None], Awaitable[CommandResult | str]],
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await produce(user_of(interaction), language_from_locale(interaction.locale))
    await interaction.followup.send(result if isinstance(result, str) else result.text, ephemeral=True)


BrowserLink = Callable[[UserRef], Awaitable[str]]


def add_slash_commands(
    tree: app_commands.CommandTree[Any], service: UserCommands, browser_link: BrowserLink | None = None
) -> None:
    """`browser_link` makes a single-use link to the memory browser for an account (None: it is off)."""

    @tree.command(name="memories", description=_("What I remember about you"))
    @app_commands.rename(page=_("page"))
    @app_commands.describe(page=_("A page number (1 is the newest), or “why” for what my last reply drew on"))
    @_everywhere
    async def memories(interaction: discord.Interaction[Any], page: str = "") -> None:
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

    @tree.command(name="forget", description=_("Forget one memory, or everything"))
    @app_commands.rename(memory=_("memory"))
    @app_commands.describe(memory=_("A number from /memories, a memory id, or “all” to forget everything"))
    @_everywhere
    async def forget(interaction: discord.Interaction[Any], memory: str = "") -> None:
        if memory.strip().lower() not in _FORGET_ALL_WORDS:
            await _answer(interaction, lambda user, hint: service.forget_memory(user, memory, hint))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        language = await service.language_of(user_of(interaction), language_from_locale(interaction.locale))
        await interaction.followup.send(
            say("forget_all_confirm", language), view=forget_all_view(language), ephemeral=True
        )

    @tree.command(name="remember", description=_("Ask me to remember something"))
    @app_commands.rename(text=_("text"))
    @app_commands.describe(text=_("What I should remember"))
    @_everywhere
    async def remember(interaction: discord.Interaction[Any], text: str) -> None:
        await _answer(interaction, lambda user, hint: service.remember(user, text, hint))

    @tree.command(name="birthday", description=_("Tell me your birthday"))
    @app_commands.rename(date=_("date"))
    @app_commands.describe(date=_("Your birthday, e.g. March 14"))
    @_everywhere
    async def birthday(interaction: discord.Interaction[Any], date: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_birthday(user, date, hint))

    @tree.command(name="timezone", description=_("Set your time zone"))
    @app_commands.rename(zone=_("zone"))
    @app_commands.describe(zone=_("A city or a zone such as Europe/Paris"))
    @_everywhere
    async def timezone(interaction: discord.Interaction[Any], zone: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_timezone(user, zone, hint))

    @timezone.autocomplete("zone")
    async def zone_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in suggest_timezones(current)]

    @tree.command(name="checkins", description=_("Let me check in when we haven't talked for a while"))
    @_on_off_state
    @_everywhere
    async def checkins(interaction: discord.Interaction[Any], state: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_checkins(user, state, hint))

    @tree.command(name="voice", description=_("Answer me with voice messages"))
    @_on_off_state
    @_everywhere
    async def voice(interaction: discord.Interaction[Any], state: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_voice(user, state, hint))

    @tree.command(name="groups", description=_("Whether what you tell me in private may come up in groups"))
    @_on_off_state
    @_everywhere
    async def groups(interaction: discord.Interaction[Any], state: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_group_sharing(user, state, hint))

    @tree.command(name="language", description=_("The language I use with you"))
    @app_commands.rename(choice=_("language"))
    @app_commands.describe(choice=_("English, French, or the language you write in"))
    @app_commands.choices(
        choice=[
            app_commands.Choice(name=_("English"), value="en"),
            app_commands.Choice(name=_("French"), value="fr"),
            app_commands.Choice(name=_("The one I write in"), value="auto"),
        ]
    )
    @_everywhere
    async def language(interaction: discord.Interaction[Any], choice: str) -> None:
        await _answer(interaction, lambda user, hint: service.set_language(user, choice, hint))

    @tree.command(name="profile", description=_("How I address you: name, pronouns, tu or vous"))
    @app_commands.rename(setting=_("setting"), value=_("value"))
    @app_commands.describe(setting=_("What to set"), value=_("Your name or pronouns (empty: back to none)"))
    @app_commands.choices(
        setting=[
            app_commands.Choice(name=_("name"), value="name"),
            app_commands.Choice(name=_("pronouns"), value="pronouns"),
            app_commands.Choice(name="tu", value="tu"),
            app_commands.Choice(name="vous", value="vous"),
        ]
    )
    @_everywhere
    async def profile(interaction: discord.Interaction[Any], setting: str | None = None, value: str = "") -> None:
        asked = f"{setting} {value}".strip() if setting else ""
        await _answer(interaction, lambda user, hint: service.set_profile(user, asked, hint))

    @tree.command(name="age", description=_("Tell me your age"))
    @app_commands.rename(years=_("years"))
    @app_commands.describe(years=_("Your age in years"))
    @_everywhere
    async def age(interaction: discord.Interaction[Any], years: app_commands.Range[int, 1, 150]) -> None:
        await _answer(interaction, lambda user, hint: service.set_age(user, str(years), hint))

    @tree.command(name="export", description=_("A copy of everything I keep about you"))
    @_everywhere
    async def export(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user, hint = user_of(interaction), language_from_locale(interaction.locale)
        document = await service.export(user)
        caption = say("export_caption", await service.language_of(user, hint))
        attachment = discord.File(io.BytesIO(document), filename=EXPORT_FILENAME)
        await interaction.followup.send(caption, file=attachment, ephemeral=True)

    @tree.command(name="mood", description=_("A chart of how your messages have felt (only you see it)"))
    @app_commands.rename(days=_("days"))
    @app_commands.describe(days=_("How many days back (30 unless you say)"))
    @_everywhere
    async def mood(interaction: discord.Interaction[Any], days: app_commands.Range[int, 1, 400] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user, hint = user_of(interaction), language_from_locale(interaction.locale)
        chart = await service.mood(user, str(days) if days else "", hint)
        if chart.png is None:
            await interaction.followup.send(chart.text, ephemeral=True)
            return
        attachment = discord.File(io.BytesIO(chart.png), filename=MOOD_CHART_FILENAME)
        await interaction.followup.send(chart.text, file=attachment, ephemeral=True)

    @tree.command(name="link", description=_("Be one person on Telegram and Discord"))
    @app_commands.rename(code=_("code"))
    @app_commands.describe(code=_("The code /link gave you on your other account (empty: get a code here)"))
    @_everywhere
    async def link(interaction: discord.Interaction[Any], code: str = "") -> None:
        await _answer(interaction, lambda user, hint: service.link(user, code, hint))

    @tree.command(name="unlink", description=_("Undo /link"))
    @_everywhere
    async def unlink(interaction: discord.Interaction[Any]) -> None:
        await _answer(interaction, service.unlink)

    @tree.command(name="privacy", description=_("What is stored, where, and how to erase it"))
    @_everywhere
    async def privacy(interaction: discord.Interaction[Any]) -> None:
        await _answer(interaction, service.privacy_text)

    @tree.command(name="help", description=_("What I can do"))
    @_everywhere
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await _answer(interaction, service.help_text)


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
