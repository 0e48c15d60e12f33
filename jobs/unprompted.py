"""What an unprompted message is about, and what to call the person in it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.engine.model import UserProfile

CHECKIN = "checkin"  # the template key of a check-in, and of every quiet note the week after a crisis


@dataclass(frozen=True, slots=True)
class Occasion:
    """What an unprompted message is about."""

    template_key: str  # a key of `jobs.templates`
    brief: str  # the occasion in plain English, for the model (never the person's own words: those go in `what`)
    recall_text: str  # what to look for in the person's memories ("": recall nothing)
    what: str = ""  # the person's own words for it
    days: int = 0  # days until it (someone else's occasion announced ahead)
    on: date | None = None  # the occasion's date
    about: str = ""  # whose occasion it is, in the person's words (their sister), when not theirs
    quiet: bool = False  # the week after a crisis: a gentle note that asks nothing (`jobs.after_crisis`)


def first_name(profile: UserProfile) -> str:
    """What to call them: the name they asked for as given, else the first word of their account name."""
    if profile.preferred_name.strip():
        return profile.preferred_name.strip()
    return profile.display_name.split()[0] if profile.display_name.strip() else ""
