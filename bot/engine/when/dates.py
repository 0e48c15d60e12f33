"""Dates people write, in French and English: birthdays for /birthday, and dated things inside messages.

The one place `dateparser` is used. Common shapes ("14 mars", "March 14th", "14/03", "1990-03-14", "in two
weeks", "jeudi prochain"…) are read by strict patterns first, because dateparser quietly "fixes" impossible
dates ("13/13" becomes 2113-03-13); dateparser only reads what the patterns do not know, and its answer must
agree with the digits the person wrote. Pure functions: the reference time and zone are always passed in.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from bot.engine.model import MonthDay
from bot.engine.when.weekday_habits import names_no_day
from bot.errors import InvalidInput

Precision = Literal["day", "week", "month", "year"]

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "janvier": 1, "janv": 1,
    "february": 2, "feb": 2, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2, "fév": 2,
    "march": 3, "mar": 3, "mars": 3,
    "april": 4, "apr": 4, "avril": 4, "avr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juin": 6,
    "july": 7, "jul": 7, "juillet": 7, "juil": 7,
    "august": 8, "aug": 8, "août": 8, "aout": 8,
    "september": 9, "sep": 9, "sept": 9, "septembre": 9,
    "october": 10, "oct": 10, "octobre": 10,
    "november": 11, "nov": 11, "novembre": 11,
    "december": 12, "dec": 12, "décembre": 12, "decembre": 12, "déc": 12,
}  # fmt: skip
WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
    "lundi": 0, "mardi": 1, "mercredi": 2, "jeudi": 3, "vendredi": 4, "samedi": 5, "dimanche": 6,
}  # fmt: skip
NUMBERS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a few": 3,
    "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "sept": 7, "huit": 8,
    "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "quinze": 15, "quelques": 3,
}  # fmt: skip
_UNIT_DAYS = {
    "day": 1,
    "jour": 1,
    "week": 7,
    "semaine": 7,
    "fortnight": 14,
    "month": 30,
    "mois": 30,
    "year": 365,
}
_UNIT_DAYS.update({"an": 365, "année": 365, "annee": 365})

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(WEEKDAYS)
_NUM = r"\d{1,3}|" + "|".join(sorted((re.escape(k) for k in NUMBERS), key=len, reverse=True))
_UNIT = r"days?|jours?|weeks?|semaines?|fortnights?|months?|mois|years?|ans?|années?|annees?"
_ORD = r"(?:st|nd|rd|th|er|ère|e|ème)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"

_ISO = re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)")
_NUMERIC = re.compile(r"(?<![\d/.])(?P<a>\d{1,2})[/.](?P<b>\d{1,2})(?:[/.](?P<year>\d{4}|\d{2}))?(?![\d/])")
_NUMERIC_CUE = re.compile(r"(?:\b(?:le|on|du|au|the|by|until|before|after|avant|après|jusqu'au)\s+)$", re.I)
_DAY_MONTH = re.compile(
    rf"\b(?:(?:le|the)\s+)?(?P<d>\d{{1,2}}){_ORD}(?:\s+of)?\s+(?P<m>{_MONTH})\b\.?{_YEAR}(?!\d)", re.I
)
_MONTH_DAY = re.compile(rf"\b(?P<m>{_MONTH})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}(?![\d:]){_YEAR}\b", re.I)
_MONTH_YEAR = re.compile(rf"\b(?:(?:in|en|of|de|d')\s*)?(?P<m>{_MONTH})\.?,?\s+(?P<year>\d{{4}})\b", re.I)
_MONTH_ONLY = re.compile(
    rf"\b(?:in|en|during|pendant|since|depuis|au mois d[e'])\s*(?P<m>{_MONTH})\b(?!\.?,?\s*\d)", re.I
)
_IN_N = re.compile(rf"\b(?:in|dans|d'ici)\s+(?P<n>{_NUM})\s+(?P<u>{_UNIT})\b", re.I)
_N_AGO = re.compile(
    rf"\b(?:(?P<n>{_NUM})\s+(?P<u>{_UNIT})\s+ago|il\s+y\s+a\s+(?P<n2>{_NUM})\s+(?P<u2>{_UNIT}))\b", re.I
)
_NEXT_LAST = re.compile(
    r"\b(?:(?P<en>next|last|this|coming)\s+(?P<eu>week-?end|week|month|year)"
    r"|(?:la\s+|le\s+|l'|cette\s+|ce\s+)(?P<fu>semaine|mois|année|an|week-?end)(?:\s+(?P<fw>prochaine?|dernière?))?)\b",
    re.I,
)
_WEEKDAY_RE = re.compile(
    rf"\b(?:(?P<pre>next|last|this|coming|on)\s+)?(?P<w>{_WEEKDAY})"
    r"(?:\s+(?P<post>prochain|dernier|qui vient))?\b",
    re.I,
)
_Adder = Callable[[re.Match[str], date, Precision, bool, bool], None]
_DAY_WORDS = re.compile(
    r"\b(?P<w>the day after tomorrow|the day before yesterday|après-demain|apres-demain|avant-hier|today|"
    r"tonight|tomorrow|yesterday|last night|aujourd'hui|ce soir|demain|hier(?: soir)?)\b",
    re.I,
)
_DAY_WORD_OFFSET = {
    "the day after tomorrow": 2, "après-demain": 2, "apres-demain": 2, "the day before yesterday": -2,
    "avant-hier": -2, "today": 0, "tonight": 0, "aujourd'hui": 0, "ce soir": 0, "tomorrow": 1, "demain": 1,
    "yesterday": -1, "last night": -1, "hier": -1, "hier soir": -1,
}  # fmt: skip
_PAST = re.compile(
    r"\b(?:was|were|went|did|had|got|came|saw|met|made|took|gave|ago|last|yesterday|finished|started|"
    r"celebrated|visited|attended|joined|bought|j'étais|était|étais|étions|hier|"
    r"dernier|dernière|(?:ai|as|a|avons|avez|ont|suis|est|sommes|sont)\s+\w+(?:é|ée|és|ées|i|is|u|us)\b)\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class FoundDate:
    """A date found in a message, resolved against the message time in the person's zone."""

    text: str  # the words that say it, as written
    start: int
    end: int
    local_date: date  # the day in the person's zone; for coarser precisions a day within that week/month/year
    precision: Precision
    relative: bool  # said relative to the message time ("tomorrow", "next month", "jeudi")
    year_given: bool  # an explicit year was written ("14 March 2023")
    timezone: str

    @property
    def event_at(self) -> datetime:
        """Local noon of that day, as aware UTC: noon keeps the UTC date equal to the local one."""
        local = datetime.combine(self.local_date, time(12, 0), tzinfo=ZoneInfo(self.timezone))
        return local.astimezone(UTC)

    def month_day(self) -> MonthDay:
        return MonthDay(self.local_date.month, self.local_date.day, self.local_date.year if self.year_given else None)


def _invalid(language: str | None, text: str) -> InvalidInput:
    if language == "fr":
        return InvalidInput(f"Je n'arrive pas à lire « {text} » comme une date (par exemple : 14 mars, 14/03).")
    return InvalidInput(f'I can\'t read "{text}" as a date (for example: March 14, 14/03).')


def _year(raw: str | None) -> int | None:
    if not raw:
        return None
    value = int(raw)
    return value + (2000 if value < 50 else 1900) if len(raw) == 2 else value


def _day_month_order(a: int, b: int, language: str | None) -> tuple[int, int]:
    """(day, month) of "a/b": plain if a side exceeds 12, else day first in French, month first in English."""
    if a > 12:
        return a, b
    if b > 12:
        return b, a
    return (a, b) if language != "en" else (b, a)


def _month_day(month: int, day: int, year: int | None, language: str | None, text: str) -> MonthDay:
    if year is not None and not 1900 <= year <= 2100:
        raise _invalid(language, text)
    try:
        return MonthDay(month, day, year)
    except ValueError:
        raise _invalid(language, text) from None


def parse_birthday(text: str, language: str | None) -> MonthDay:
    """A birthday as written ("March 14", "14 mars", "14/03", "1990-03-14", "le 29 février"); the year is kept
    when given. Raises InvalidInput (message safe to show) for impossible dates or unreadable text."""
    cleaned = " ".join(text.strip().lower().rstrip(".!").split())
    cleaned = re.sub(r"^(?:le|on|the|on the|it's|c'est le)\s+", "", cleaned)
    if not cleaned:
        raise _invalid(language, text)
    for pattern in (_ISO, _NUMERIC, _DAY_MONTH, _MONTH_DAY):
        match = pattern.fullmatch(cleaned)
        if match is None:
            continue
        groups = match.groupdict()
        if pattern is _NUMERIC:
            day, month = _day_month_order(int(groups["a"]), int(groups["b"]), language)
        else:
            day = int(groups["d"])
            raw_month = groups["m"]
            month = int(raw_month) if raw_month.isdigit() else MONTHS[raw_month]
        return _month_day(month, day, _year(groups.get("year") or groups.get("y")), language, text)
    return _parse_with_dateparser(cleaned, language, text)


def _parse_with_dateparser(cleaned: str, language: str | None, text: str) -> MonthDay:
    import dateparser  # deferred: its import costs a few hundred ms and most inputs never need it

    digits = [int(d) for d in re.findall(r"\d+", cleaned)]
    if not digits and not any(name in cleaned for name in MONTHS):
        raise _invalid(language, text)
    languages = [language] if language in ("en", "fr") else ["en", "fr"]
    parsed = dateparser.parse(
        cleaned,
        languages=languages,
        settings={"REQUIRE_PARTS": ["day", "month"], "RELATIVE_BASE": datetime(2000, 1, 1)},
    )
    # Trust dateparser only when the day it read is one of the numbers the person wrote.
    if parsed is None or parsed.day not in digits:
        raise _invalid(language, text)
    year = parsed.year if parsed.year in digits else None
    return _month_day(parsed.month, parsed.day, year, language, text)


def _add_months(day: date, months: int) -> date:
    index = day.month - 1 + months
    year, month = day.year + index // 12, index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def _count(raw: str) -> int:
    raw = raw.lower()
    return int(raw) if raw.isdigit() else NUMBERS.get(raw, 1)


def _shift(today: date, n: int, unit: str) -> tuple[date, Precision]:
    unit = unit.lower().rstrip("s") if unit.lower() not in ("mois", "ans") else unit.lower()
    unit = {"ans": "an"}.get(unit, unit)
    if unit in ("month", "mois"):
        return _add_months(today, n), "month"
    if unit in ("year", "an", "année", "annee"):
        return _add_months(today, 12 * n), "year"
    return today + timedelta(days=n * _UNIT_DAYS.get(unit, 1)), "day"


def _sentence(text: str, start: int, end: int) -> str:
    left = max(text.rfind(".", 0, start), text.rfind("!", 0, start), text.rfind("?", 0, start))
    right_candidates = [i for i in (text.find(c, end) for c in ".!?") if i >= 0]
    return text[left + 1 : min(right_candidates) if right_candidates else len(text)]


def _sentence_is_past(text: str, start: int, end: int) -> bool:
    return _PAST.search(_sentence(text, start, end)) is not None


def _nearest_year(today: date, month: int, day: int, past: bool) -> date | None:
    """The occurrence of month/day in the future (or the past for past-tense sentences) closest to today.
    February 29 may be up to four years away."""
    for offset in (0, -1, 1, -2, -3, -4) if past else (0, 1, -1, 2, 3, 4):
        year = today.year + offset
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if (candidate <= today) if past else (candidate >= today):
            return candidate
    return None


_ASCII_LETTERS = re.compile(r"[a-z]+")
# Every word a date pattern needs when there is no digit (a month, a weekday, a unit, "tomorrow"...), as
# ASCII runs of letters, and a month glued to the word before it (`_MONTH_ONLY` allows no space).
_DATE_WORDS = frozenset(
    _ASCII_LETTERS.findall(phrase)[-1]  # "the day after tomorrow", "ce soir": their last word is needed
    for phrase in [*MONTHS, *WEEKDAYS, *_UNIT_DAYS, *_DAY_WORD_OFFSET, "days", "jours", "weeks", "semaines",
                   "fortnights", "months", "years", "ans", "annees", "weekend"]
    if phrase.isascii()  # a word with an accent cannot be in ASCII text
) | {glued + month for glued in ("in", "en", "during", "pendant", "since", "depuis", "de") for month in MONTHS}
# The only patterns that need no date word: "2026-03-14" (`_ISO`) and "14/03", "14.03" (`_NUMERIC`).
_DIGITS_DATE = re.compile(r"\d[-/.]\d")
_ASCII = re.compile(r"[\x00-\x7f]+")


def _cannot_hold_a_date(text: str) -> bool:
    """A quick, exact no: none of the words every pattern needs but "2026-03-14" and "14/03" (most messages).
    Only for text whose letters are all ASCII, where lower() and the patterns' IGNORECASE agree letter for
    letter: beyond ASCII it may hold only characters without case ("I’m", "—", "…", emoji, a no-break space),
    which no pattern's word holds."""
    if not text.isascii():
        beyond = _ASCII.sub("", text)
        if beyond.lower() != beyond.upper():
            return False  # an accent, another alphabet: the patterns read it
    if _DIGITS_DATE.search(text):
        return False
    return _DATE_WORDS.isdisjoint(_ASCII_LETTERS.findall(text.lower()))


def resolve_dates(text: str, at: datetime, timezone: str, language: str | None = None) -> list[FoundDate]:
    """Every date said in `text`, resolved against `at` (the message time) in the person's zone, in order.

    Impossible dates ("30 février") are left out: they are never returned as valid ones."""
    if _cannot_hold_a_date(text):
        return []
    zone = ZoneInfo(timezone)
    today = at.astimezone(zone).date()
    found: list[FoundDate] = []

    def add(match: re.Match[str], day: date, precision: Precision, relative: bool, year_given: bool) -> None:
        found.append(
            FoundDate(match.group(0), match.start(), match.end(), day, precision, relative, year_given, timezone)
        )

    def absolute(match: re.Match[str], month: int, day: int, year: int | None) -> None:
        if year is not None:
            try:
                add(match, date(year, month, day), "day", False, True)
            except ValueError:
                pass
            return
        resolved = _nearest_year(today, month, day, _sentence_is_past(text, match.start(), match.end()))
        if resolved is not None:
            add(match, resolved, "day", False, False)

    for match in _ISO.finditer(text):
        absolute(match, int(match["m"]), int(match["d"]), int(match["y"]))
    for match in _DAY_MONTH.finditer(text):
        absolute(match, MONTHS[match["m"].lower()], int(match["d"]), _year(match["year"]))
    for match in _MONTH_DAY.finditer(text):
        absolute(match, MONTHS[match["m"].lower()], int(match["d"]), _year(match["year"]))
    for match in _NUMERIC.finditer(text):
        # "4/5" is a score as often as a date: only read it as one with a year or after a word like "le"/"on".
        if match["year"] or _NUMERIC_CUE.search(text[: match.start()]):
            day_number, month = _day_month_order(int(match["a"]), int(match["b"]), language)
            if month <= 12:
                absolute(match, month, day_number, _year(match["year"]))
    for match in _MONTH_YEAR.finditer(text):
        add(match, date(int(match["year"]), MONTHS[match["m"].lower()], 1), "month", False, True)
    for match in _MONTH_ONLY.finditer(text):
        month = MONTHS[match["m"].lower()]
        past = _sentence_is_past(text, match.start(), match.end())
        year = today.year + (0 if (month <= today.month if past else month >= today.month) else (-1 if past else 1))
        add(match, date(year, month, 1), "month", True, False)
    for match in _DAY_WORDS.finditer(text):
        add(match, today + timedelta(days=_DAY_WORD_OFFSET[match["w"].lower()]), "day", True, False)
    for match in _IN_N.finditer(text):
        day, precision = _shift(today, _count(match["n"]), match["u"])
        add(match, day, precision, True, False)
    for match in _N_AGO.finditer(text):
        n, unit = (match["n"], match["u"]) if match["n"] else (match["n2"], match["u2"])
        day, precision = _shift(today, -_count(n), unit)
        add(match, day, precision, True, False)
    for match in _NEXT_LAST.finditer(text):
        _next_last(match, today, add)
    for match in _WEEKDAY_RE.finditer(text):
        _weekday(match, today, text, add)
    return _without_overlaps(found)


def _next_last(match: re.Match[str], today: date, add: _Adder) -> None:
    if match["en"]:
        word, unit = match["en"].lower(), match["eu"].lower()
        step = {"next": 1, "coming": 1, "last": -1, "this": 0}[word]
    else:
        unit, suffix = match["fu"].lower(), (match["fw"] or "").lower()
        if not suffix and not match.group(0).lower().startswith(("ce", "cette")):
            return  # "la semaine" alone is no date
        step = 1 if suffix.startswith("prochain") else -1 if suffix.startswith("derni") else 0
    if unit.replace("-", "") == "weekend":  # the Saturday of that weekend
        saturday = today + timedelta(days=(5 - today.weekday()) % 7)
        if today.weekday() == 6:
            saturday -= timedelta(days=1)
        add(match, saturday + timedelta(days=7 * step), "day", True, False)
    elif unit in ("week", "semaine"):
        monday = today - timedelta(days=today.weekday())
        add(match, monday + timedelta(days=7 * step), "week", True, False)
    elif unit in ("month", "mois"):
        add(match, _add_months(today.replace(day=1), step), "month", True, False)
    else:
        add(match, date(today.year + step, 1, 1), "year", True, False)


def _weekday(match: re.Match[str], today: date, text: str, add: _Adder) -> None:
    target = WEEKDAYS[match["w"].lower()]
    pre, post = (match["pre"] or "").lower(), (match["post"] or "").lower()
    ahead = (target - today.weekday()) % 7
    if (
        pre == "last"
        or post == "dernier"
        or (not pre.startswith(("next", "coming")) and not post and _sentence_is_past(text, match.start(), match.end()))
    ):
        add(match, today - timedelta(days=(today.weekday() - target) % 7 or 7), "day", True, False)
    elif pre == "next" or post == "prochain":
        add(match, today + timedelta(days=ahead or 7), "day", True, False)
    elif pre in ("", "on") and names_no_day(
        text, match.start("w"), match.end("w"), _sentence(text, match.start(), match.end())
    ):
        return  # "dimanche difficile", "le lundi c'est dur": a feeling or a habit, not the coming Sunday
    else:
        add(match, today + timedelta(days=ahead), "day", True, False)


def _without_overlaps(found: list[FoundDate]) -> list[FoundDate]:
    kept: list[FoundDate] = []
    for item in sorted(found, key=lambda f: (f.start, -(f.end - f.start))):
        if kept and item.start < kept[-1].end:
            continue
        kept.append(item)
    return kept
