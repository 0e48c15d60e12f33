"""Unprompted messages: birthdays, anniversaries, dated-event notes and check-ins, sent exactly once.

`open_proactive_jobs` (the app's entry point) runs the every-minute sweep and yields the `Planner`.
"""

from jobs.planner import Planner
from jobs.runner import open_proactive_jobs

__all__ = ["Planner", "open_proactive_jobs"]
