"""Dated things in a message ("my sister's wedding is next month", "mon anniversaire c'est le 14 mars")."""

from __future__ import annotations

from datetime import date, datetime

from bot.engine.when.dates import FoundDate, resolve_dates
from memory.records import MemoryKind
from memory.words.text_caches import text_cache
from memory.writing.extraction.candidates import Candidate
from memory.writing.extraction.lexicon import EVENT_LABELS
from memory.writing.extraction.whose import whose

_WINDOW = 60  # characters around a date in which its label and whose it is are looked for
_MONTHS_EN = ("January February March April May June July August September October November December").split()
_MONTHS_FR = "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split()


def describe_date(day: date, precision: str, yearly: bool, language: str) -> str:
    months = _MONTHS_FR if language == "fr" else _MONTHS_EN
    month = months[day.month - 1]
    if yearly:
        return f"{day.day} {month} (chaque année)" if language == "fr" else f"{day.day} {month} (every year)"
    if precision == "year":
        return str(day.year)
    if precision == "month":
        return f"{month} {day.year}"
    if precision == "week":
        return (
            f"semaine du {day.day} {month} {day.year}" if language == "fr" else f"week of {day.day} {month} {day.year}"
        )
    return f"{day.day} {month} {day.year}"


def describe_event(label: str, subject: str | None, language: str) -> str:
    """Short words for a dated thing: "sister's wedding", "mariage (sœur)", "birthday"."""
    if subject is None or subject.casefold() in label.casefold():
        return label  # "Miso's birthday" about Miso is not "Miso's Miso's birthday"
    if language == "fr":
        return f"{label} ({subject})"
    return f"{subject}'s {label}"


def _label(window: str, language: str) -> tuple[str, bool, int] | None:
    """The label whose words come first near the date; a wedding anniversary wins over a birthday."""
    best: tuple[str, bool, int] | None = None
    for pattern, en, fr, yearly in EVENT_LABELS:
        match = pattern.search(window)
        if match is None:
            continue
        if en == "anniversary":
            return (fr if language == "fr" else en, yearly, match.start())
        if best is None or match.start() < best[2]:
            best = (fr if language == "fr" else en, yearly, match.start())
    return best


def _dated(text: str, found: FoundDate, language: str) -> Candidate | None:
    start = max(0, found.start - _WINDOW)
    window = text[start : min(len(text), found.end + _WINDOW)]
    labelled = _label(window, language)
    if labelled is None:
        return None
    label, yearly, label_at = labelled
    if yearly and found.precision != "day":
        return None  # "my birthday is next month" does not say which day
    owner = whose(text, start, start + label_at, yearly=yearly)
    if not owner.known:
        return None  # someone else's, but whose is not said: neither theirs nor anybody's to wish for
    subject = owner.subject
    what = describe_event(label, subject, language)
    when = describe_date(found.local_date, found.precision, yearly, language)
    return Candidate(
        MemoryKind.TEMPORAL,
        f"{what[0].upper()}{what[1:]} — {when}",
        label=label,
        subject=subject,
        importance=0.9 if yearly else 0.8,
        local_date=found.local_date.isoformat(),
        recurrence="yearly" if yearly else None,
        event_at=found.event_at,
        precision=found.precision,
    )


@text_cache(maxsize=256)
def dates_in(text: str, at: datetime, timezone: str, language: str) -> tuple[FoundDate, ...]:
    """`resolve_dates`, kept for the few latest messages: writing one reads its dates twice (for its episode's
    indexed text, and for dated facts)."""
    return tuple(resolve_dates(text, at, timezone, language))


def extract_dated(text: str, at: datetime, timezone: str, language: str) -> list[Candidate]:
    """Temporal candidates for the dates in `text` that come with words saying what they are."""
    out: list[Candidate] = []
    for found in dates_in(text, at, timezone, language):
        candidate = _dated(text, found, language)
        if candidate is not None:
            out.append(candidate)
    return out
