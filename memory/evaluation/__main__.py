"""`python -m memory.evaluation locomo --data PATH [--k 10] [--json OUT] [--baselines]`: the same command as
`souvenir eval locomo`, parsed in one place."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main(["eval", *sys.argv[1:]]))
