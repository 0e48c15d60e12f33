"""Peak resident memory of this process."""

from __future__ import annotations

import resource


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
