"""Unprompted messages: birthdays, anniversaries, dated-event notes and check-ins, sent exactly once.

`open_proactive_jobs` (the app's entry point) runs the every-minute sweep and yields the `Planner`; both take
their options (`SweepOptions`, `ScheduleOptions`), which the wiring builds from the settings.

It alone imports APScheduler. It imports Redis (the schedule and what was sent), the engine's values and ports
(messages go out through the `Messenger` port, never a platform) and `bot.errors`; never memory, the adapters or
the wiring (contracts in pyproject.toml).
"""

from jobs.planner import Planner
from jobs.runner import open_proactive_jobs
from jobs.schedule import ScheduleOptions
from jobs.sweep import SweepOptions

__all__ = ["Planner", "ScheduleOptions", "SweepOptions", "open_proactive_jobs"]
