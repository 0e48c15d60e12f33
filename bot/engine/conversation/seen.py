"""What one answered message changes on the person's profile, and only that: a /timezone or /language sent
while the model was writing stays."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from bot.engine.model import IncomingMessage, UserProfile
from bot.engine.safety.rules import SafetyCheck

# The profile fields a message updates (the rest belong to commands).
_SEEN_FIELDS = ("display_name", "language", "first_seen_at", "last_seen_at", "last_disclosed_at", "reachable")
_SAFETY_FIELDS = ("talk_started_at", "break_reminded_at")


def seen_profile(
    profile: UserProfile,
    message: IncomingMessage,
    now: datetime,
    language: str,
    *,
    disclosed: bool,
    safety: SafetyCheck,
    crisis_answered: bool,
    learnt: tuple[str, ...],
) -> tuple[UserProfile, tuple[str, ...]]:
    """The profile after this message, and the fields it changed (`learnt`: those it told, "call me Max")."""
    seen = replace(
        profile,
        display_name=message.user.display_name or profile.display_name,
        language=language,
        first_seen_at=profile.first_seen_at or now,
        last_seen_at=now,
        last_disclosed_at=now if disclosed else profile.last_disclosed_at,
        reachable=True,
        talk_started_at=safety.talk_started_at,
        break_reminded_at=now if safety.break_due else profile.break_reminded_at,
        crisis_noted_at=None if crisis_answered else profile.crisis_noted_at,  # answered: once per reading
    )
    fields = (*_SEEN_FIELDS, *learnt, *_SAFETY_FIELDS, *(("crisis_noted_at",) if crisis_answered else ()))
    # A week of gentle unprompted messages; the next private reply carries the guidance too.
    if safety.read_now or crisis_answered:
        seen = replace(seen, last_crisis_at=now, crisis_followed_up=False)
        fields = (*fields, "last_crisis_at", "crisis_followed_up")
    elif safety.crisis and profile.last_crisis_at is not None and not profile.crisis_followed_up:
        seen = replace(seen, crisis_followed_up=True)
        fields = (*fields, "crisis_followed_up")
    return seen, fields
