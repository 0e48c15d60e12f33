"""The slash commands that set how the companion treats a person: /birthday, /timezone, /language, /profile,
/age, and the switches /checkins, /voice and /groups."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from adapters.discord.slash_shared import answer, everywhere, on_off_state
from bot.engine.commands.user_commands import UserCommands
from bot.engine.when.timezones import suggest_timezones


def add_setting_commands(tree: app_commands.CommandTree[Any], service: UserCommands) -> None:
    """When and where the person is (/birthday, /timezone), and the language the companion uses (/language)."""

    @tree.command(name="birthday", description=_("Tell me your birthday"))
    @app_commands.rename(date=_("date"))
    @app_commands.describe(date=_("Your birthday, e.g. March 14"))
    @everywhere
    async def birthday(interaction: discord.Interaction[Any], date: str) -> None:
        await answer(interaction, lambda user, hint: service.set_birthday(user, date, hint))

    @tree.command(name="timezone", description=_("Set your time zone"))
    @app_commands.rename(zone=_("zone"))
    @app_commands.describe(zone=_("A city or a zone such as Europe/Paris"))
    @everywhere
    async def timezone(interaction: discord.Interaction[Any], zone: str) -> None:
        await answer(interaction, lambda user, hint: service.set_timezone(user, zone, hint))

    @timezone.autocomplete("zone")
    async def zone_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in suggest_timezones(current)]

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
    @everywhere
    async def language(interaction: discord.Interaction[Any], choice: str) -> None:
        await answer(interaction, lambda user, hint: service.set_language(user, choice, hint))


def add_profile_commands(tree: app_commands.CommandTree[Any], service: UserCommands) -> None:
    """How the companion addresses a person (/profile), and their age (/age)."""

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
    @everywhere
    async def profile(interaction: discord.Interaction[Any], setting: str | None = None, value: str = "") -> None:
        asked = f"{setting} {value}".strip() if setting else ""
        await answer(interaction, lambda user, hint: service.set_profile(user, asked, hint))

    @tree.command(name="age", description=_("Tell me your age"))
    @app_commands.rename(years=_("years"))
    @app_commands.describe(years=_("Your age in years"))
    @everywhere
    async def age(interaction: discord.Interaction[Any], years: app_commands.Range[int, 1, 150]) -> None:
        await answer(interaction, lambda user, hint: service.set_age(user, str(years), hint))


def add_switch_commands(tree: app_commands.CommandTree[Any], service: UserCommands) -> None:
    """The on/off settings: check-ins after a silence, voice replies, private things coming up in groups."""

    @tree.command(name="checkins", description=_("Let me check in when we haven't talked for a while"))
    @on_off_state
    @everywhere
    async def checkins(interaction: discord.Interaction[Any], state: str) -> None:
        await answer(interaction, lambda user, hint: service.set_checkins(user, state, hint))

    @tree.command(name="voice", description=_("Answer me with voice messages"))
    @on_off_state
    @everywhere
    async def voice(interaction: discord.Interaction[Any], state: str) -> None:
        await answer(interaction, lambda user, hint: service.set_voice(user, state, hint))

    @tree.command(name="groups", description=_("Whether what you tell me in private may come up in groups"))
    @on_off_state
    @everywhere
    async def groups(interaction: discord.Interaction[Any], state: str) -> None:
        await answer(interaction, lambda user, hint: service.set_group_sharing(user, state, hint))
