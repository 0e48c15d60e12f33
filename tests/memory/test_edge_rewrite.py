"""The embedded shard's rewrite after an erasure survives a crash: a process that dies before closing leaves
a marker, and the next open purges the erased words; a swap cut short is finished or undone, never lost."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from memory.qdrant.driver import Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.edge_rewrite import COMPLETE, marker_path, new_path, old_path, recover
from tests.fakes.souvenir_process import ROOT
from tests.memory.erasing_process import DIMENSION
from tests.test_erasure_on_disk import files_holding

ERASED, KEPT = "Quetzalcoatlus", "Brontosaurus"


async def _erase_and_die(shard_dir: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.memory.erasing_process", str(shard_dir), ERASED, KEPT,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0 and b"erased" in out, err.decode()


async def test_a_process_that_died_after_an_erasure_has_its_words_purged_at_the_next_open(tmp_path: Path) -> None:
    shard_dir = tmp_path / "qdrant"
    await _erase_and_die(shard_dir)
    assert files_holding(tmp_path, ERASED)  # the dead process left the words on disk
    assert marker_path(shard_dir).exists()

    driver = await EdgeDriver.open(shard_dir, DIMENSION)
    try:
        assert files_holding(tmp_path, ERASED) == []
        assert not marker_path(shard_dir).exists()
        assert await driver.count(Where(user_key="terminal:max")) == 1
        [hit] = await driver.newest(Where(user_key="terminal:max"), 5)
        assert hit.payload["text"] == f"{KEPT} is my dog"
    finally:
        await driver.close()
    assert files_holding(tmp_path, KEPT)


def _shard(path: Path, content: str) -> None:
    path.mkdir()
    (path / "data").write_text(content)


def test_a_swap_cut_between_its_two_renames_keeps_the_complete_new_shard(tmp_path: Path) -> None:
    shard_dir = tmp_path / "qdrant"
    _shard(old_path(shard_dir), "old")
    _shard(new_path(shard_dir), "new")
    (new_path(shard_dir) / COMPLETE).touch()

    recover(shard_dir)

    assert (shard_dir / "data").read_text() == "new"
    assert not old_path(shard_dir).exists() and not new_path(shard_dir).exists()


def test_a_copy_cut_short_is_dropped_and_the_old_shard_kept(tmp_path: Path) -> None:
    shard_dir = tmp_path / "qdrant"
    _shard(shard_dir, "old")
    _shard(new_path(shard_dir), "half")
    marker_path(shard_dir).touch()

    assert recover(shard_dir) is True  # the rewrite is still owed

    assert (shard_dir / "data").read_text() == "old"
    assert not new_path(shard_dir).exists()
