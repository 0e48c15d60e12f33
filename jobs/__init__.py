"""Unprompted messages: birthdays, anniversaries, dated-event notes and check-ins, sent exactly once.

`open_proactive_jobs` (the app's entry point) runs the every-minute sweep and yields the `Planner`; both take
their options (`SweepOptions`, `ScheduleOptions`), which the wiring builds from the settings.
"""

from jobs.planner import Planner
from jobs.runner import open_proactive_jobs
from jobs.schedule import ScheduleOptions
from jobs.sweep import SweepOptions

__all__ = ["Planner", "ScheduleOptions", "SweepOptions", "open_proactive_jobs"]
