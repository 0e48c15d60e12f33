"""One process at a time on a data dir: the second is told who holds it; a dead holder's file is taken over."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from pathlib import Path

import pytest

from bot.errors import DataDirInUse
from memory.redis.data_dir_lock import LOCK_NAME, current_holder, hold_data_dir
from tests.fakes.souvenir_process import ROOT

HOLDER = """
import sys, time
from pathlib import Path
from memory.redis.data_dir_lock import hold_data_dir
with hold_data_dir(Path(sys.argv[1])):
    print("holding", flush=True)
    sys.stdin.read()
"""


async def _holding_process(data_dir: Path) -> asyncio.subprocess.Process:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(data_dir), cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    assert await asyncio.wait_for(process.stdout.readline(), 60) == b"holding\n"
    return process


async def test_a_second_holder_is_refused_with_the_first_ones_pid(data_dir: Path) -> None:
    process = await _holding_process(data_dir)
    try:
        with pytest.raises(DataDirInUse, match=rf"in use by another Souvenir process \(pid {process.pid}\)"):
            with hold_data_dir(data_dir):
                pass
        holder = current_holder(data_dir)
        assert holder is not None and holder.pid == process.pid
    finally:
        process.kill()
        await process.wait()


async def test_the_lock_of_a_killed_process_is_taken_over(data_dir: Path) -> None:
    process = await _holding_process(data_dir)
    process.kill()  # no clean-up runs: its pid stays in the file
    await process.wait()
    assert json.loads((data_dir / LOCK_NAME).read_text())["pid"] == process.pid
    assert current_holder(data_dir) is None

    with hold_data_dir(data_dir) as lock:
        lock.publish(admin={"unix": "x"})
        holder = current_holder(data_dir)
        assert holder is not None and holder.info["admin"] == {"unix": "x"}
        assert stat.S_IMODE((data_dir / LOCK_NAME).stat().st_mode) == 0o600


def test_nothing_holds_a_fresh_data_dir(data_dir: Path) -> None:
    assert current_holder(data_dir) is None
    with hold_data_dir(data_dir):
        pass
    assert current_holder(data_dir) is None
