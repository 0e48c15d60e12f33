"""Patterns in a person's mood readings, believed only with evidence; noise yields nothing.

- weekday: a mood over-represented on one weekday ("Sundays are anxious"). Days are the units: the
  weekday labels are shuffled among the days that have readings (a seeded permutation test), so one
  long bad day cannot make a pattern on its own.
- time of day: the same for a mood over-represented in a part of the day ("late night").
- trend: the recent days' mean valence against the person's own baseline (the days before), a permutation
  test on day means; `since` is where the change best splits the series.
- topic: a mood over-represented among the messages that name a topic or person (exact hypergeometric).

Each family's p-values are Holm-corrected for the number of tests made, and a pattern also needs a real
effect size and a minimum of evidence; nothing is believed before four weeks of readings. Pure and
deterministic; dates are the series' own (no clock, no retention cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

import numpy as np

from bot.engine.mood import MOOD_LABELS, MoodLabel, MoodPattern, TimedReading
from memory.mood.stats import group_share_pvalues, holm, hypergeometric_tail, window_shift_pvalue

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
TESTED_MOODS: tuple[MoodLabel, ...] = tuple(m for m in MOOD_LABELS if m != "neutral")
# Parts of the day by local hour; "late night" runs past midnight.
DAY_PARTS = ("late night", "morning", "afternoon", "evening")
_PART_OF_HOUR = tuple(0 if h < 5 or h >= 23 else 1 if h < 12 else 2 if h < 18 else 3 for h in range(24))


@dataclass(frozen=True, slots=True)
class PatternRules:
    """How much evidence a pattern needs."""

    min_span_days: int = 28  # first to last reading
    min_readings: int = 20
    alpha: float = 0.05  # weekday patterns, after Holm correction for the weekday × mood tests made
    # Time of day, trend and topic are searched on top of the weekdays: each family at 0.01 keeps the whole
    # search's chance of believing noise near 5% (Bonferroni over the three extra families).
    alpha_other: float = 0.01
    min_ratio: float = 1.5  # the mood's share in the group against its share elsewhere
    min_evidence: int = 3  # readings of the mood in the group
    min_days: int = 3  # distinct days those readings fall on
    min_group_days: int = 4  # a weekday/part of day must have readings on this many days to be tested
    trend_windows: tuple[int, ...] = (7, 14, 28)  # recent windows tried (days), in one max-statistic test
    min_baseline_days: int = 14
    min_trend_shift: float = 0.2  # in valence units
    permutations: int = 9999
    seed: int = 11


def find_patterns(
    readings: Sequence[TimedReading], timezone: str, rules: PatternRules = PatternRules()
) -> list[MoodPattern]:
    """The patterns believed in one person's readings, their local time being in `timezone` (IANA)."""
    zone = ZoneInfo(timezone)
    return find_patterns_local(readings, [r.at.astimezone(zone) for r in readings], rules)


def find_patterns_local(
    readings: Sequence[TimedReading], local_times: Sequence[datetime], rules: PatternRules = PatternRules()
) -> list[MoodPattern]:
    """As `find_patterns`, with each reading's local wall time given (e.g. from the offsets a file carries)."""
    if len(readings) != len(local_times):
        raise ValueError("one local time per reading")
    if len(readings) < rules.min_readings:
        return []
    days = [t.date() for t in local_times]
    if (max(days) - min(days)).days + 1 < rules.min_span_days:
        return []
    labels: list[str] = [r.reading.label for r in readings]
    return [
        *_weekday_patterns(days, labels, rules),
        *_day_part_patterns(days, [_PART_OF_HOUR[t.hour] for t in local_times], labels, rules),
        *_trend_patterns(days, [r.reading.valence for r in readings], rules),
        *_topic_patterns(days, labels, [r.topics for r in readings], rules),
    ]


def _over_represented(
    kind: str, unit_keys: list[tuple[date, int]], group_names: Sequence[str], labels: list[str], rules: PatternRules
) -> list[MoodPattern]:
    """Shared by weekday and day-part: units are (day, group) cells; groups shuffled among the cells."""
    cells = sorted(set(unit_keys))
    index = {cell: i for i, cell in enumerate(cells)}
    counts = np.zeros((len(cells), len(MOOD_LABELS)))
    for key, label in zip(unit_keys, labels, strict=True):
        counts[index[key], MOOD_LABELS.index(label)] += 1
    groups = np.array([g for _, g in cells])
    observed, p_raw = group_share_pvalues(
        groups, counts, len(group_names), permutations=rules.permutations, seed=rules.seed
    )
    group_days = np.bincount(groups, minlength=len(group_names))
    tested = [(g, m) for g in range(len(group_names)) if group_days[g] >= rules.min_group_days
              for m in range(len(MOOD_LABELS)) if MOOD_LABELS[m] in TESTED_MOODS]  # fmt: skip
    adjusted = holm([float(p_raw[g, m]) for g, m in tested])
    found: list[MoodPattern] = []
    for (g, m), p in zip(tested, adjusted, strict=True):
        in_group = groups == g
        evidence = int(counts[in_group, m].sum())
        days_with = int((counts[in_group, m] > 0).sum())
        elsewhere = counts[~in_group].sum()
        base = counts[~in_group, m].sum() / elsewhere if elsewhere else 0.0
        strong = observed[g, m] >= rules.min_ratio * base and observed[g, m] - base >= 0.1
        alpha = rules.alpha if kind == "weekday" else rules.alpha_other
        if p < alpha and strong and evidence >= rules.min_evidence and days_with >= rules.min_days:
            mood = MOOD_LABELS[m]
            if kind == "weekday":
                found.append(MoodPattern("weekday", mood=mood, weekday=group_names[g], evidence=evidence,
                                         p_value=_rounded(p)))  # fmt: skip
            else:
                found.append(MoodPattern("time_of_day", mood=mood, hours=group_names[g], evidence=evidence,
                                         p_value=_rounded(p)))  # fmt: skip
    return sorted(found, key=lambda p: (p.p_value or 0.0, -p.evidence))


def _rounded(p: float) -> float:
    """Three significant figures: small p-values stay readable (1.2e-07, not 0.0)."""
    return float(f"{p:.3g}")


def _weekday_patterns(days: list[date], labels: list[str], rules: PatternRules) -> list[MoodPattern]:
    return _over_represented("weekday", [(d, d.weekday()) for d in days], WEEKDAYS, labels, rules)


def _day_part_patterns(days: list[date], parts: list[int], labels: list[str], rules: PatternRules) -> list[MoodPattern]:
    return _over_represented("time_of_day", list(zip(days, parts, strict=True)), DAY_PARTS, labels, rules)


def _trend_patterns(days: list[date], valences: list[float], rules: PatternRules) -> list[MoodPattern]:
    """Recent windows of day-mean valence against the days before them (one max-statistic test)."""
    by_day: dict[date, list[float]] = {}
    for d, v in zip(days, valences, strict=True):
        by_day.setdefault(d, []).append(v)
    ordered = sorted(by_day)
    means = np.array([float(np.mean(by_day[d])) for d in ordered])
    last = ordered[-1]
    masks = [np.array([(last - d).days < w for d in ordered]) for w in rules.trend_windows]
    usable = [(w, m) for w, m in zip(rules.trend_windows, masks, strict=True)
              if m.sum() >= 3 and (~m).sum() >= rules.min_baseline_days]  # fmt: skip
    if not usable:
        return []
    windows = np.stack([m for _, m in usable])
    p, best = window_shift_pvalue(means, windows, permutations=rules.permutations, seed=rules.seed)
    window, recent = usable[best]
    shift = float(means[recent].mean() - means[~recent].mean())
    if p >= rules.alpha_other or abs(shift) < rules.min_trend_shift:
        return []
    since = _change_point(ordered, means, down=shift < 0, window=window, rules=rules)
    evidence = sum(len(by_day[d]) for d in ordered if d >= since)
    return [MoodPattern("trend", direction="down" if shift < 0 else "up", since=since, evidence=evidence,
                        p_value=_rounded(p))]  # fmt: skip


def _change_point(ordered: list[date], means: np.ndarray, *, down: bool, window: int, rules: PatternRules) -> date:
    """The first day of the recent stretch: the split that best separates the days after from the baseline
    (a t-like score, in the trend's direction), between half and one and a half times the window that found
    the trend, keeping at least three recent days and the baseline's minimum."""
    last = ordered[-1]
    candidates = [i for i, d in enumerate(ordered)
                  if window / 2 <= (last - d).days + 1 <= 1.5 * window
                  and i >= rules.min_baseline_days and len(ordered) - i >= 3]  # fmt: skip
    best_score, best_at = -np.inf, len(ordered) - 3
    for at in candidates:
        before, after = means[:at], means[at:]
        shift = after.mean() - before.mean()
        score = (-shift if down else shift) * np.sqrt(len(before) * len(after) / len(ordered))
        if score > best_score:
            best_score, best_at = score, at
    return ordered[best_at]


def _topic_patterns(
    days: list[date], labels: list[str], topics: list[tuple[str, ...]], rules: PatternRules
) -> list[MoodPattern]:
    population = len(labels)
    mentions: dict[str, list[int]] = {}
    for i, named in enumerate(topics):
        for topic in dict.fromkeys(named):
            mentions.setdefault(topic, []).append(i)
    tests: list[tuple[str, MoodLabel, int, float, float]] = []  # topic, mood, evidence, p, ratio
    for topic, where in sorted(mentions.items()):
        if len(where) < rules.min_evidence or len({days[i] for i in where}) < rules.min_days:
            continue
        for mood in TESTED_MOODS:
            with_mood = sum(1 for label in labels if label == mood)
            hits = [i for i in where if labels[i] == mood]
            rate = with_mood / population
            ratio = (len(hits) / len(where)) / rate if rate else 0.0
            p = hypergeometric_tail(len(hits), len(where), with_mood, population) if hits else 1.0
            enough = len(hits) >= rules.min_evidence and len({days[i] for i in hits}) >= rules.min_days
            tests.append((topic, mood, len(hits) if enough else -1, p, ratio))
    adjusted = holm([t[3] for t in tests])
    found = [
        MoodPattern("topic", mood=mood, topic=topic, evidence=evidence, p_value=_rounded(p))
        for (topic, mood, evidence, _, ratio), p in zip(tests, adjusted, strict=True)
        if evidence >= 0 and p < rules.alpha_other and ratio >= rules.min_ratio
    ]
    return sorted(found, key=lambda p: (p.p_value or 0.0, -p.evidence))
