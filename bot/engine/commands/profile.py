"""/profile: how the person wants to be addressed — the name to use, pronouns, "tu" or "vous"."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.commands.results import CommandResult
from bot.engine.conversation.addressing import MAX_NAME_CHARS, MAX_PRONOUNS_CHARS
from bot.engine.model import UserRef
from bot.engine.ports import ProfileStore
from bot.engine.texts.say import say

_NAME_FIELDS = ("name", "nom", "prénom", "prenom")
_PRONOUN_FIELDS = ("pronouns", "pronoms")


async def set_profile(profiles: ProfileStore, user: UserRef, text: str, language: str) -> CommandResult:
    """/profile alone shows the settings; /profile name <name> | pronouns <pronouns> | tu | vous sets one
    (an empty name or pronouns clears it). `text` is already cleaned as commands' arguments are."""
    field, _, value = text.strip().partition(" ")
    field, value = field.lower(), " ".join(value.split())
    profile = await profiles.load_profile(user.key)
    if not field:
        unset = say("profile_unset", language)
        name = profile.preferred_name or profile.display_name or user.display_name or unset
        form = f"« {profile.address_form} »" if profile.address_form else unset
        shown = say("profile_shown", language, name=name, pronouns=profile.pronouns or unset, form=form)
        return CommandResult(shown + "\n" + say("usage_profile", language))
    if field in ("tu", "vous"):
        await profiles.save_profile(replace(profile, address_form=field))
        return CommandResult(say(f"profile_{field}", language))
    if field in _NAME_FIELDS:
        if not value:
            await profiles.save_profile(replace(profile, preferred_name=""))
            return CommandResult(say("profile_name_cleared", language))
        if len(value) > MAX_NAME_CHARS or not any(c.isalpha() for c in value):
            return CommandResult(say("profile_name_invalid", language, max=MAX_NAME_CHARS), ok=False)
        await profiles.save_profile(replace(profile, preferred_name=value))
        return CommandResult(say("profile_name_set", language, name=value))
    if field in _PRONOUN_FIELDS:
        pronouns = value[:MAX_PRONOUNS_CHARS]
        await profiles.save_profile(replace(profile, pronouns=pronouns))
        key = "profile_pronouns_set" if pronouns else "profile_pronouns_cleared"
        return CommandResult(say(key, language, pronouns=pronouns))
    return CommandResult(say("usage_profile", language), ok=False)
