"""One process at a time on a data dir's embedded stores: a lock file holding the owner's pid.

The lock is an exclusive `flock` on `data_dir/souvenir.lock` (0600), taken before the embedded Redis or
Qdrant starts. The kernel drops it when the process dies however it dies, so a file left by a dead process
is simply taken over. The file also says how to reach the owner's admin socket (`publish`), so the operator
CLI can ask the running process instead of opening the stores a second time.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.errors import DataDirInUse

LOCK_NAME = "souvenir.lock"


@dataclass(frozen=True)
class Holder:
    """The process that holds a data dir, and what it published about itself (empty while it starts)."""

    pid: int | None
    info: dict[str, Any] = field(default_factory=dict)


class DataDirLock:
    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd

    def publish(self, **info: Any) -> None:
        """Replace what the lock file says about this process (its pid is always kept)."""
        _write(self._fd, {"pid": os.getpid(), **info})


def _write(fd: int, document: dict[str, Any]) -> None:
    data = json.dumps(document).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


def _read(path: Path) -> Holder:
    try:
        document = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return Holder(None)  # being rewritten this very moment
    pid = document.pop("pid", None)
    return Holder(pid if isinstance(pid, int) else None, document)


def in_use_message(data_dir: Path, holder: Holder) -> str:
    who = f"another Souvenir process (pid {holder.pid})" if holder.pid else "another Souvenir process"
    return f"the data dir {data_dir} is in use by {who}; stop it first or use another SOUVENIR_DATA_DIR"


@contextmanager
def hold_data_dir(data_dir: Path) -> Iterator[DataDirLock]:
    """Hold the data dir until exit, or raise DataDirInUse naming the process that holds it."""
    path = data_dir / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataDirInUse(in_use_message(data_dir, _read(path))) from None
        os.fchmod(fd, 0o600)
        _write(fd, {"pid": os.getpid()})
        try:
            yield DataDirLock(path, fd)
        finally:
            # Emptied, not removed: another process may have just opened this very file to lock it.
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)


def current_holder(data_dir: Path) -> Holder | None:
    """The live process holding the data dir, or None when none does (no file, or one a dead process left)."""
    path = data_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except (FileNotFoundError, NotADirectoryError):
        return None  # nothing there (a data dir that cannot exist is reported when the stores open)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read(path)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
