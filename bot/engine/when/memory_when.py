"""When a remembered thing was told and when it happens, in the words the prompt shows next to it.

Counted from the person's local today with `bot.engine.when.relative_time`: "told you 3 weeks ago", "in 12 days",
"next one in 3 months". A dated memory's own text ends with the calendar date it was stored with
("Claire's wedding — 9 January 2027"); the prompt shows that part in the same relative words instead
("Claire's wedding — in a month"), so no calendar date sits next to the rule never to turn them into dates.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from bot.engine.model import RecalledMemory
from bot.engine.when.relative_time import local_day, next_yearly, relative_day

_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
)
# What memory writes after the dash, in English or French: "9 January 2027", "14 mars (chaque année)",
# "April 2026", "2026", "week of 9 March 2026", "semaine du 9 mars 2026".
_DATE_PART = re.compile(
    rf" — (?:(?:week of|semaine du) )?(?:\d{{1,2}} )?(?:(?:{_MONTHS}) )?(?:\d{{4}}|\((?:every year|chaque année)\))$"
)


def happens_on(memory: RecalledMemory, local_now: datetime) -> date | None:
    """The local date the memory happens on (a yearly one: any of its years), if it has one."""
    if memory.on is not None:
        return memory.on
    if memory.kind == "temporal" and memory.event_at is not None:
        return local_day(memory.event_at, local_now.tzinfo)
    return None


def told_note(memory: RecalledMemory, local_now: datetime) -> str:
    told_at = memory.told_at or memory.event_at
    if told_at is None:
        return ""
    today = local_now.date()
    return relative_day(local_day(told_at, local_now.tzinfo), today, today_word="earlier today")


def _next_one(on: date, today: date) -> str:
    """How far the next occurrence of a yearly date is: "today", "tomorrow", "in 3 months"."""
    upcoming = next_yearly(on.month, on.day, today)
    return "today" if upcoming == today else relative_day(upcoming, today)


def when_note(memory: RecalledMemory, local_now: datetime) -> str:
    """When it was told or happens: "told you 3 weeks ago", "next one in 12 days", "told you 3 weeks ago; the
    next one is in 3 months", "told you yesterday; that is in 4 days"."""
    today = local_now.date()
    on = happens_on(memory, local_now)
    told = told_note(memory, local_now)
    if on is None:
        return f"told you {told}" if told else ""
    if memory.yearly:
        next_one = _next_one(on, today)
        when = "today" if next_one == "today" else f"next one {next_one}"
    else:
        when = relative_day(on, today, precision=memory.precision)
    if memory.kind != "episodic" or not told:
        return when
    # A message that said "next month": when it was said, and when the thing it speaks of happens.
    if when == told or (when, told) == ("today", "earlier today"):
        return f"told you {told}"
    if memory.yearly:
        return f"told you {told}; it is today" if when == "today" else f"told you {told}; the next one is {next_one}"
    tense = "is" if when.startswith(("in ", "next", "this", "tomorrow", "today")) else "was"
    return f"told you {told}; that {tense} {when}"


def with_relative_date(memory: RecalledMemory, local_now: datetime) -> str | None:
    """A dated memory's text with its calendar date said relatively ("Claire's wedding — in a month",
    "Birthday — every year, next one in 12 days"); None when the text ends with no date memory wrote."""
    on = happens_on(memory, local_now)
    if memory.kind != "temporal" or on is None or not _DATE_PART.search(memory.text):
        return None
    today = local_now.date()
    if memory.yearly:
        next_one = _next_one(on, today)
        when = "every year, today" if next_one == "today" else f"every year, next one {next_one}"
    else:
        when = relative_day(on, today, precision=memory.precision)
    return _DATE_PART.sub(f" — {when}", memory.text)
