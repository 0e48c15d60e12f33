"""What Souvenir writes is readable by its own user only: umask 077 from the start, and a data dir (0700)
whose older files (written before, or by hand) are brought down to 0600 / directories 0700 when it opens.

The embedded Valkey and Qdrant inherit the umask, so their files, the persona and avatar files and the mood
charts the CLI draws are all created 0600."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

PRIVATE_UMASK = 0o077


def restrict_new_files() -> None:
    """Every file and directory this process (and its children) creates: owner only."""
    os.umask(PRIVATE_UMASK)


def make_private(data_dir: Path) -> int:
    """`data_dir` at 0700 and everything in it at most owner-only; returns how many modes were tightened.
    Entries owned by someone else are left as they are (only the owner may change a mode)."""
    tightened = 0
    uid = os.getuid()
    for root, dirs, files in os.walk(data_dir):
        for path in [Path(root), *(Path(root) / d for d in dirs), *(Path(root) / f for f in files)]:
            try:
                info = path.lstat()
            except OSError:
                continue  # gone meanwhile
            if stat.S_ISLNK(info.st_mode) or info.st_uid != uid or not info.st_mode & 0o077:
                continue
            try:
                os.chmod(path, stat.S_IMODE(info.st_mode) & 0o700)
            except OSError as exc:
                log.warning("cannot make %s private: %s", path, exc.strerror or exc)
                continue
            tightened += 1
        dirs[:] = [d for d in dirs if not (Path(root) / d).is_symlink()]
    return tightened
