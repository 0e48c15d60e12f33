"""A person's occasions that fall today or in the next few days, for the chat prompt.

Recall brings back what matches the message; a birthday must be known on the day whatever the person
writes about. This picks, from the profile birthday (/birthday) and the dated events memory keeps, the ones
on the person's local today and the few just ahead. Pure: the local date is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.engine.model import DatedEvent, MonthDay
from bot.engine.when.relative_time import next_yearly

SOON_DAYS = 7  # how far ahead an occasion is worth a line
MAX_SHOWN = 4  # the prompt stays short: today's first, then the nearest


@dataclass(frozen=True, slots=True)
class Occasion:
    what: str  # "birthday", "sister's wedding", "anniversaire (Marc)"
    kind: str  # "birthday" | "anniversary" | "event"
    own: bool  # the person's own (their birthday), not someone else's
    in_days: int  # 0 today, 1 tomorrow…


def _words(event: DatedEvent) -> str:
    """The prompt says "Today is Léa's birthday" in English: a French "anniversaire" of their own is named in
    English by its kind (someone else's keeps its words, "anniversaire (sœur)", which the model reads fine)."""
    if event.about is None and event.language != "en" and event.kind in ("birthday", "anniversary"):
        return event.kind
    return event.what


def _next_date(event: DatedEvent, today: date) -> date:
    return next_yearly(event.on.month, event.on.day, today) if event.yearly else event.on


def upcoming_occasions(
    birthday: MonthDay | None, events: Sequence[DatedEvent], today: date, *, soon_days: int = SOON_DAYS
) -> list[Occasion]:
    """Occasions from today to `soon_days` ahead, nearest first, at most MAX_SHOWN. The profile birthday
    and a remembered "my birthday" are the same occasion and are shown once."""
    found: list[Occasion] = []
    if birthday is not None:
        next_birthday = next_yearly(birthday.month, birthday.day, today)
        found.append(Occasion("birthday", "birthday", True, (next_birthday - today).days))
    for event in events:
        own = event.about is None
        if birthday is not None and own and event.kind == "birthday":
            continue  # the profile birthday is the one the person set on purpose
        found.append(Occasion(_words(event), event.kind, own, (_next_date(event, today) - today).days))
    seen: set[tuple[str, int]] = set()
    out: list[Occasion] = []
    for occasion in sorted(found, key=lambda o: (o.in_days, not o.own)):
        key = (occasion.what.casefold(), occasion.in_days)
        if 0 <= occasion.in_days <= soon_days and key not in seen:
            seen.add(key)
            out.append(occasion)
    return out[:MAX_SHOWN]
