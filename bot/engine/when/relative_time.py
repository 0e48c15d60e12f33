"""How far a day is from today, in the words a friend would use: "yesterday", "3 weeks ago", "in 12 days".

The prompt puts these next to what the companion remembers, so the model can reason about time ("I went
yesterday", told three weeks ago, happened three weeks ago) without being handed calendar dates to recite.
Everything counts local calendar days in the person's zone, from an injected `today`: a message at 23:30
local time belongs to that local day whatever its UTC date. The words are English because they go into
the model's instructions, which are English whatever language the person speaks; the model answers in
theirs. Pure functions, no clock.
"""

from __future__ import annotations

import calendar
from datetime import date, datetime, tzinfo

# A date's precision, as memory stores it: a day, or a week/month/year ("next month", "cette année").
Precision = str

# Spelled out: calendar.month_name follows the process locale, and these words must stay English.
_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip

_DAYS_SHOWN = 13  # up to here in the past, "N days ago"; beyond, weeks
_WEEKS_SHOWN = 30  # up to here, weeks ago; beyond, months
_FUTURE_DAYS_SHOWN = 30  # ahead, days count ("in 12 days") up to a month


def yearly_date(month: int, day: int, year: int) -> date:
    """The date of a yearly occasion in `year`: 29 February is kept on 28 February in years without it."""
    if month == 2 and day == 29 and not calendar.isleap(year):
        return date(year, 2, 28)
    return date(year, month, day)


def next_yearly(month: int, day: int, today: date) -> date:
    """The next occurrence of a yearly occasion, today included."""
    this_year = yearly_date(month, day, today.year)
    return this_year if this_year >= today else yearly_date(month, day, today.year + 1)


def local_day(moment: datetime, zone: tzinfo | None) -> date:
    """The calendar day `moment` (aware) falls on in the person's zone."""
    return moment.astimezone(zone).date()


def _months_between(earlier: date, later: date) -> int:
    """Whole calendar months from `earlier` to `later` (14 Jan → 13 Mar is one, → 14 Mar two)."""
    months = (later.year - earlier.year) * 12 + later.month - earlier.month
    return months - 1 if later.day < earlier.day else months


def _plural(count: int, unit: str) -> str:
    return f"a {unit}" if count == 1 else f"{count} {unit}s"


def _past(day: date, today: date, today_word: str) -> str:
    days = (today - day).days
    if days <= 0:
        return today_word
    if days == 1:
        return "yesterday"
    if days <= _DAYS_SHOWN:
        return f"{days} days ago"
    if days <= _WEEKS_SHOWN:
        return f"{days // 7} weeks ago"
    months = _months_between(day, today)
    if months < 12:
        return f"{_plural(max(months, 1), 'month')} ago"
    years = today.year - day.year  # calendar years: "in March last year" is March of the year before this one
    month = _MONTH_NAMES[day.month - 1]
    if years == 1:
        return f"in {month} last year"
    if years == 2:
        return f"in {month} 2 years ago"
    return f"{years} years ago"


def _future(day: date, today: date) -> str:
    days = (day - today).days
    if days == 1:
        return "tomorrow"
    if days <= _FUTURE_DAYS_SHOWN:
        return f"in {days} days"
    months = _months_between(today, day)
    if months < 12:
        return f"in {_plural(max(months, 1), 'month')}"
    years = day.year - today.year
    if years == 1:
        return f"in {_MONTH_NAMES[day.month - 1]} next year"
    return f"in {years} years"


def _coarse(day: date, today: date, precision: Precision) -> str:
    """A week, month or year said without a day ("next month"): named as a whole, never as a day count."""
    if precision == "week":
        steps = (day.toordinal() - day.weekday() - (today.toordinal() - today.weekday())) // 7
        unit = "week"
    elif precision == "month":
        steps = (day.year - today.year) * 12 + day.month - today.month
        unit = "month"
    else:
        steps = day.year - today.year
        unit = "year"
    if steps == 0:
        return f"this {unit}"
    if steps == 1:
        return f"next {unit}"
    if steps == -1:
        return f"last {unit}"
    return f"in {steps} {unit}s" if steps > 0 else f"{-steps} {unit}s ago"


def relative_day(day: date, today: date, *, precision: Precision = "day", today_word: str = "today") -> str:
    """`day` seen from `today`, both local dates: "today", "yesterday", "5 days ago", "3 weeks ago",
    "4 months ago", "in March last year", "in March 2 years ago", "6 years ago", "tomorrow", "in 12 days",
    "in 3 months", "in March next year". `today_word` names today itself ("earlier today" for something said)."""
    if precision in ("week", "month", "year"):
        return _coarse(day, today, precision)
    if day > today:
        return _future(day, today)
    return _past(day, today, today_word)
