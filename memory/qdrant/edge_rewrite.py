"""After an erasure, the embedded shard is rewritten so that no file keeps the erased words.

Deleting points in qdrant-edge only marks them: their payloads stay in the segment's `payload_storage/`
until an optimizer vacuums the segment (never, for a segment under `vacuum_min_vector_number` points), and
the write-ahead log keeps every upsert's bytes after flush and close. So the live points (dense and sparse
vectors, payloads) are copied into a fresh shard beside the old one, which then takes its place:

    <shard>.erased   marker: an erasure happened and the shard still holds its bytes (written at once)
    <shard>.new      the fresh shard being written; complete once `<shard>.new/COMPLETE` exists
    <shard>.old      the previous shard, between the two renames of the swap

The old shard is kept until the new one is complete, so a crash at any step loses nothing; `recover`, run
before the shard opens, finishes or discards what a dead process left and says whether the marker asks for
a rewrite. Everything here is synchronous (qdrant-edge is): callers run it in a worker thread.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import qdrant_edge as qe

log = logging.getLogger(__name__)

COMPLETE = "COMPLETE"
PAGE = 1000  # points read and written per call


def marker_path(shard_dir: Path) -> Path:
    return shard_dir.with_name(shard_dir.name + ".erased")


def new_path(shard_dir: Path) -> Path:
    return shard_dir.with_name(shard_dir.name + ".new")


def old_path(shard_dir: Path) -> Path:
    return shard_dir.with_name(shard_dir.name + ".old")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def mark_erased(shard_dir: Path) -> None:
    """Say, durably, that the shard holds erased bytes: a process that dies before closing rewrites at next open."""
    marker = marker_path(shard_dir)
    if marker.exists():
        return
    fd = os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    _fsync_dir(marker.parent)


def recover(shard_dir: Path) -> bool:
    """Finish or undo a swap a dead process left; True when the marker asks for a rewrite."""
    new, old = new_path(shard_dir), old_path(shard_dir)
    if not shard_dir.exists() and old.exists():
        if (new / COMPLETE).exists():  # died between the two renames: the new shard is whole
            new.rename(shard_dir)
        else:  # cannot happen with the order below, but never lose the old one
            old.rename(shard_dir)
        _fsync_dir(shard_dir.parent)
    if new.exists():  # an unfinished copy: the old shard is still in place
        shutil.rmtree(new)
    if old.exists():  # the swap was done; only its clean-up was not
        shutil.rmtree(old)
    return marker_path(shard_dir).exists()


def _named_vectors(record: qe.Record) -> dict[str, Any]:
    vectors = record.vector
    if not isinstance(vectors, dict):  # the shard's config names every vector
        raise TypeError(f"point {record.id} has unnamed vectors")
    return dict(vectors)


def _copy_live_points(source: qe.EdgeShard, target: qe.EdgeShard) -> int:
    copied = 0
    offset = None
    while True:
        request = qe.ScrollRequest(offset=offset, limit=PAGE, with_payload=True, with_vector=True)
        records, offset = source.scroll(request)
        points = [qe.Point(r.id, _named_vectors(r), dict(r.payload or {})) for r in records]
        if points:
            target.update(qe.UpdateOperation.upsert_points(points))
            copied += len(points)
        if offset is None:
            return copied


def rewrite(shard: qe.EdgeShard, shard_dir: Path, create: Callable[[Path], qe.EdgeShard]) -> int:
    """Copy `shard`'s live points into a fresh shard made by `create` (with its payload indexes), swap it in
    place of `shard_dir`, and return how many points it holds. Both shards are closed on the way; the fresh
    one is not optimized here (the next open does it, as for any shard)."""
    new, old = new_path(shard_dir), old_path(shard_dir)
    if new.exists():
        shutil.rmtree(new)
    fresh = create(new)
    try:
        copied = _copy_live_points(shard, fresh)
        fresh.flush()
    finally:
        fresh.close()
    shard.close()
    (new / COMPLETE).touch(mode=0o600)
    _fsync_dir(new)
    shard_dir.rename(old)
    new.rename(shard_dir)
    _fsync_dir(shard_dir.parent)
    (shard_dir / COMPLETE).unlink()
    shutil.rmtree(old)
    marker_path(shard_dir).unlink(missing_ok=True)
    _fsync_dir(shard_dir.parent)
    log.info("memory index rewritten after an erasure: %d memories kept, erased ones purged from disk", copied)
    return copied
