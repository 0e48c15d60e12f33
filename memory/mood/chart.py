"""The /mood chart: valence over the last days, an average per weekday, and the believed patterns as a caption.

matplotlib lives here only, with the Agg backend (no display); drawing is CPU work: call it off the event loop.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import matplotlib

matplotlib.use("Agg")
from matplotlib.axes import Axes
from matplotlib.dates import AutoDateLocator, DateFormatter
from matplotlib.figure import Figure

from bot.engine.mood import MIN_CHART_READINGS, MoodPattern, TimedReading
from bot.engine.texts.mood import WEEKDAYS, describe_pattern, say_mood

_NEGATIVE_COLOUR = "#c0695a"
_POSITIVE_COLOUR = "#5a8fc0"


def render_chart(
    readings: Sequence[TimedReading],
    patterns: Sequence[MoodPattern],
    *,
    language: str,
    timezone: str,
    days: int,
    now: datetime,
) -> bytes | None:
    """The PNG, or None with fewer than `MIN_CHART_READINGS` readings in the last `days` days."""
    zone = ZoneInfo(timezone)
    start = now - timedelta(days=days)
    shown = [r for r in readings if start <= r.at <= now]
    if len(shown) < MIN_CHART_READINGS:
        return None
    lang = language if language in WEEKDAYS else "en"
    local = [(r.at.astimezone(zone), r.reading.valence) for r in shown]

    figure = Figure(figsize=(10, 5.2), dpi=100, layout="constrained")
    grid = figure.add_gridspec(1, 3)
    over_time = figure.add_subplot(grid[0, :2])
    by_weekday = figure.add_subplot(grid[0, 2], sharey=over_time)
    _draw_over_time(over_time, local, zone, start, now, lang=lang, days=days)
    _draw_weekdays(by_weekday, local, lang)
    _caption(figure, patterns, lang)
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()


def _draw_over_time(
    axes: Axes, local: list[tuple[datetime, float]], zone: ZoneInfo, start: datetime, now: datetime, *, lang: str,
    days: int,
) -> None:  # fmt: skip
    """Each reading as a dot (blue above 0, red below) and the daily mean as a line, from `start` to now."""
    times = [t for t, _ in local]
    values = [v for _, v in local]
    colours = [_NEGATIVE_COLOUR if v < 0 else _POSITIVE_COLOUR for v in values]
    axes.scatter(times, values, c=colours, s=18, alpha=0.55)  # type: ignore[arg-type]
    daily: dict[datetime, list[float]] = defaultdict(list)
    for t, v in local:
        daily[datetime(t.year, t.month, t.day, 12, tzinfo=zone)].append(v)
    days_sorted = sorted(daily)
    daily_means = [sum(daily[d]) / len(daily[d]) for d in days_sorted]
    axes.plot(days_sorted, daily_means, color="#444444", linewidth=1.6, marker="o",  # type: ignore[arg-type]
              markersize=3, label=say_mood("chart_daily", lang))  # fmt: skip
    axes.axhline(0, color="#999999", linewidth=0.8)
    axes.set_ylim(-1.05, 1.05)
    # A little room past now: today's readings are not drawn on the frame's edge.
    axes.set_xlim(start.astimezone(zone), (now + timedelta(hours=18)).astimezone(zone))  # type: ignore[arg-type]
    axes.set_ylabel(say_mood("chart_valence", lang))
    axes.set_title(say_mood("chart_title", lang, days=days))
    axes.xaxis.set_major_locator(AutoDateLocator(tz=zone, maxticks=8))
    axes.xaxis.set_major_formatter(DateFormatter("%d/%m" if lang == "fr" else "%b %d", tz=zone))
    axes.legend(loc="lower left", fontsize=8)


def _draw_weekdays(axes: Axes, local: list[tuple[datetime, float]], lang: str) -> None:
    """The mean valence of each weekday, Monday first."""
    per_day: dict[int, list[float]] = defaultdict(list)
    for t, v in local:
        per_day[t.weekday()].append(v)
    means = [sum(per_day[d]) / len(per_day[d]) if per_day[d] else 0.0 for d in range(7)]
    names = [name[:3] for name in WEEKDAYS[lang]]
    axes.bar(names, means, color=[_NEGATIVE_COLOUR if m < 0 else _POSITIVE_COLOUR for m in means])
    axes.axhline(0, color="#999999", linewidth=0.8)
    axes.set_title(say_mood("chart_weekdays", lang))
    axes.tick_params(axis="y", labelleft=False)


def _caption(figure: Figure, patterns: Sequence[MoodPattern], lang: str) -> None:
    """The believed patterns under the chart, one after the other (or that none is believed yet)."""
    lines = [line for p in patterns if (line := describe_pattern(p, lang))]
    figure.suptitle("  ·  ".join(lines) if lines else say_mood("chart_no_pattern", lang), y=0.02, va="bottom",
                    fontsize=10, color="#333333")  # fmt: skip
    figure.get_layout_engine().set(rect=(0, 0.06, 1, 0.94))  # type: ignore[union-attr, call-arg]
