"""Tone, not labels: what the prompt and unprompted messages take from how a person has been feeling.

A `MoodSnapshot` is kept up to date in the background (after each message, see `memory.mood.journal`) and read
in one go on the reply path. What comes out of here is guidance on how to speak — never a mood's name as a
diagnosis, never a score, never "my records show".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.mood import NEGATIVE, MoodPattern, TimedReading

# How recent the last reading must be to count as "how they are now".
_CURRENT = timedelta(hours=12)
_WEEK = timedelta(days=7)
# A painful topic they spoke of within this long is not raised by the companion.
_SENSITIVE_RECENT = timedelta(days=14)
# Words for the tone, never clinical ones.
_SOUNDED = {
    "sadness": "low",
    "anxiety": "worried",
    "anger": "upset",
    "tiredness": "tired",
    "joy": "in good spirits",
    "calm": "at ease",
}
_HOURS = {  # time-of-day patterns: local hours they cover
    "morning": range(5, 12),
    "afternoon": range(12, 17),
    "evening": range(17, 22),
    "late night": (*range(22, 24), *range(0, 5)),
    "night": (*range(22, 24), *range(0, 5)),
}


@dataclass(frozen=True, slots=True)
class MoodSnapshot:
    """What is known of a person's moods, kept ready for the reply path."""

    recent: tuple[TimedReading, ...] = ()  # the last week's readings, oldest first
    baseline: float | None = None  # mean valence over their whole series
    patterns: tuple[MoodPattern, ...] = ()  # believed with evidence
    sensitive_at: datetime | None = None  # the last time they spoke of a painful topic


def _since(snapshot: MoodSnapshot, now: datetime, span: timedelta) -> list[TimedReading]:
    return [r for r in snapshot.recent if now - span <= r.at <= now + timedelta(minutes=5)]


def _mean(readings: list[TimedReading]) -> float:
    return sum(r.reading.valence for r in readings) / len(readings)


def _pattern_now(pattern: MoodPattern, local_now: datetime) -> str | None:
    """A line for a pattern that applies at this local moment, or None."""
    hard = pattern.mood in NEGATIVE
    if pattern.kind == "weekday" and pattern.weekday == local_now.strftime("%A").lower() and pattern.mood:
        day = local_now.strftime("%A")
        if hard:
            return f"It is {day}, often a hard day for them: be gentle, don't push."
        return f"It is {day}, usually a good day for them."
    if pattern.kind == "time_of_day" and pattern.hours and local_now.hour in _HOURS.get(pattern.hours, ()):
        if hard:
            return f"The {pattern.hours} is often a harder time for them: keep it soft and easy."
        return None
    if pattern.kind == "trend" and pattern.direction == "down":
        return "These days seem heavier for them than usual: go softly, no pressure."
    if pattern.kind == "trend" and pattern.direction == "up":
        return "They seem to be doing better lately."
    return None


def tone_guidance(snapshot: MoodSnapshot | None, local_now: datetime, *, sensitive_now: bool = False) -> str:
    """Short guidance on tone for the system prompt ("" when there is nothing to say)."""
    lines: list[str] = []
    if sensitive_now:
        lines.append(
            "What they write now touches something painful (a loss, an illness, a break-up, family trouble, a job): "
            "take care. Listen first, be warm and unhurried, no jokes, no advice unless they ask, and stay with "
            "it rather than changing the subject."
        )
    if snapshot is not None:
        now = local_now
        week = _since(snapshot, now, _WEEK)
        current = _since(snapshot, now, _CURRENT)
        latest = current[-1].reading if current else None
        if latest is not None and latest.label in _SOUNDED and latest.intensity >= 0.3:
            word = _SOUNDED[latest.label]
            lines.append(f"Their last messages sounded {word}" + (": be gentle." if latest.label in NEGATIVE else "."))
        if len(week) >= 4:
            negative = Counter(r.reading.label for r in week if r.reading.label in NEGATIVE)
            label, count = negative.most_common(1)[0] if negative else ("", 0)
            if count >= len(week) / 2:
                lines.append(f"They've sounded {_SOUNDED[label]} all week: be patient and kind.")
            elif snapshot.baseline is not None and _mean(week) < min(0.0, snapshot.baseline - 0.25):
                lines.append("This week seems heavier for them than usual: go softly.")
        for pattern in snapshot.patterns:
            line = _pattern_now(pattern, local_now)
            if line and line not in lines:
                lines.append(line)
        recent_pain = snapshot.sensitive_at is not None and now - snapshot.sensitive_at <= _SENSITIVE_RECENT
        if recent_pain and not sensitive_now:
            lines.append(
                "Something painful came up for them lately: don't bring it up yourself; if they do, be gentle."
            )
    if not lines:
        return ""
    return (
        "How they seem lately (for your tone only: never mention it, never name a mood, never say you keep "
        "track or what you noticed):\n" + "\n".join(f"- {line}" for line in lines)
    )


def feels_heavy(snapshot: MoodSnapshot | None, now: datetime, within: timedelta) -> bool:
    """Whether the last `within` has been hard for them: a painful topic came up, or they mostly sounded low.
    Unprompted messages soften then (no cheerful check-in the day after a loss)."""
    if snapshot is None:
        return False
    if snapshot.sensitive_at is not None and timedelta(0) <= now - snapshot.sensitive_at <= within:
        return True
    readings = _since(snapshot, now, within)
    return bool(readings) and _mean(readings) <= -0.25
