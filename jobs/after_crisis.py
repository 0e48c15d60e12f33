"""The week after a crisis: what a caring friend would still send, and how.

For `CRISIS_WEEK` after a message was read as a crisis (`UserProfile.last_crisis_at`), nothing unprompted is
cheerful: a birthday becomes a quiet wish without party talk, and every other note (an occasion, an event,
"how did it go?", a check-in after days of silence) becomes the same gentle word that asks nothing of them:
thinking of you, I'm here if you want to talk. Pure: the decider (a quiet note waits for an answer
to the last message, like a check-in), the composer and the birthday card ask it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.engine.model import UserProfile
from jobs.unprompted import CHECKIN, Occasion

CRISIS_WEEK = timedelta(days=7)
_BIRTHDAY = "birthday_self"
_QUIET_BIRTHDAY = (
    "It is their birthday today. Wish them a happy birthday quietly, in a few soft words: no party talk, no "
    "celebration plans, no questions."
)
_QUIET_NOTE = (
    "Only to let them know you are thinking of them and are there if they ever want to talk. Ask them nothing, "
    "and mention no occasion, date or plan."
)


def in_week_after_crisis(profile: UserProfile, now: datetime) -> bool:
    # A crisis stamped ahead of this clock (another replica's) counts too: erring on the gentle side.
    return profile.last_crisis_at is not None and now - profile.last_crisis_at < CRISIS_WEEK


def week_after_crisis(occasion: Occasion, profile: UserProfile, now: datetime) -> Occasion:
    """The occasion to write about: `occasion` itself, unless the person had a crisis within the week.
    Nothing is recalled for a quiet note: a detail from their life could touch what they are going through."""
    if occasion.quiet or not in_week_after_crisis(profile, now):
        return occasion
    if occasion.template_key == _BIRTHDAY:
        return Occasion(_BIRTHDAY, _QUIET_BIRTHDAY, recall_text="", on=occasion.on, quiet=True)
    return Occasion(CHECKIN, _QUIET_NOTE, recall_text="", quiet=True)
