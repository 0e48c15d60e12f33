"""The pattern finder believes planted effects and nothing in noise (synthetic readings, no reader)."""

from __future__ import annotations

from datetime import UTC, timedelta
from math import comb
from zoneinfo import ZoneInfo

import pytest

from bot.engine.mood import MoodReading, TimedReading
from memory.mood.patterns import find_patterns
from memory.mood.stats import holm, hypergeometric_tail
from memory.mood.topics import topics_of
from tests.memory.mood_series import MONDAY, VALENCE, planted_labels, readings


def test_a_planted_sunday_anxiety_is_found_with_its_weekday_and_mood() -> None:
    series = readings(planted_labels(1, weeks=8, sunday_anxiety=0.8))
    weekday = [p for p in find_patterns(series, "UTC") if p.kind == "weekday"]
    assert [(p.weekday, p.mood) for p in weekday] == [("sunday", "anxiety")]
    assert weekday[0].p_value is not None and weekday[0].p_value < 0.05
    assert weekday[0].evidence >= 8  # at least one anxious message each Sunday


@pytest.mark.parametrize("seed", [101, 102, 103, 104, 105])
def test_pure_noise_yields_no_weekday_pattern(seed: int) -> None:
    series = readings(planted_labels(seed, weeks=12, per_day=(1, 4)))
    assert [p for p in find_patterns(series, "UTC") if p.kind == "weekday"] == []


def test_weekdays_are_the_persons_own() -> None:
    """Anxious on Sunday evenings in Honolulu (UTC-10): Monday mornings in UTC."""
    honolulu = ZoneInfo("Pacific/Honolulu")
    evenings = planted_labels(2, weeks=8, sunday_anxiety=0.9, hours=(18, 23))  # as local wall times
    series = readings([(at.replace(tzinfo=honolulu).astimezone(UTC), label) for at, label in evenings])
    local = [(p.weekday, p.mood) for p in find_patterns(series, "Pacific/Honolulu") if p.kind == "weekday"]
    in_utc = [(p.weekday, p.mood) for p in find_patterns(series, "UTC") if p.kind == "weekday"]
    assert local == [("sunday", "anxiety")]
    assert in_utc == [("monday", "anxiety")]


def test_too_little_data_is_not_believed() -> None:
    series = readings(planted_labels(1, weeks=3, sunday_anxiety=1.0, per_day=(3, 5)))
    assert find_patterns(series, "UTC") == []


def test_a_heavier_stretch_is_a_downward_trend_since_it_began() -> None:
    labelled = planted_labels(3, weeks=9, per_day=(2, 4), low_from_day=49)  # the last two weeks
    (trend,) = [p for p in find_patterns(readings(labelled), "UTC") if p.kind == "trend"]
    assert trend.direction == "down"
    began = (MONDAY + timedelta(days=49)).date()
    assert trend.since is not None and abs((trend.since - began).days) <= 4


def test_late_night_sadness_is_a_time_of_day_pattern() -> None:
    labelled = planted_labels(4, weeks=8)
    nights = [(MONDAY + timedelta(days=d, hours=1, minutes=20), "sadness") for d in range(0, 56, 3)]
    series = readings(labelled) + [TimedReading(at, MoodReading("sadness", -0.7, 0.6)) for at, _ in nights]
    found = [(p.hours, p.mood) for p in find_patterns(series, "UTC") if p.kind == "time_of_day"]
    assert found == [("late night", "sadness")]


def test_a_person_named_when_anxious_is_a_topic_pattern() -> None:
    series = readings(planted_labels(5, weeks=8))
    father = [
        TimedReading(MONDAY + timedelta(days=d, hours=20), MoodReading("anxiety", VALENCE["anxiety"], 0.6), ("father",))
        for d in range(1, 56, 4)
    ]
    found = [(p.topic, p.mood) for p in find_patterns(series + father, "UTC") if p.kind == "topic"]
    assert found == [("father", "anxiety")]


def test_holm_and_the_exact_tail() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    # 3 of 4 drawn from 10 holding 5 successes: (C(5,3)C(5,1) + C(5,4)) / C(10,4)
    assert hypergeometric_tail(3, 4, 5, 10) == pytest.approx((comb(5, 3) * 5 + comb(5, 4)) / comb(10, 4))


def test_topics_are_relations_topics_and_names() -> None:
    assert topics_of("Mon père m'a appelé, et Julie aussi") == ("father", "Julie")
    assert topics_of("My boss moved the meeting to Monday") == ("boss", "work")
    assert topics_of("Sunday again.") == ()
