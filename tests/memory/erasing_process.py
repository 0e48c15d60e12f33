"""A process that erases one person from an embedded shard and dies before closing it (as on SIGKILL).

Usage: python -m tests.memory.erasing_process SHARD_DIR ERASED_WORD KEPT_WORD
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid
from pathlib import Path

from memory.qdrant.driver import IndexPoint, Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.payload import CREATED_AT_TS, KIND, SCOPE, USER_KEY
from memory.words.sparse import encode_document

DIMENSION = 8


def point(user_key: str, text: str, seed: float) -> IndexPoint:
    payload = {USER_KEY: user_key, "text": text, KIND: "semantic", SCOPE: "dm", CREATED_AT_TS: 1.7e9 + seed}
    return IndexPoint(str(uuid.uuid4()), [seed + i for i in range(DIMENSION)], encode_document(text), payload)


async def main(shard_dir: Path, erased: str, kept: str) -> None:
    driver = await EdgeDriver.open(shard_dir, DIMENSION)
    await driver.upsert("terminal:lea", [point("terminal:lea", f"{erased} is my boat", 1.0)])
    await driver.upsert("terminal:max", [point("terminal:max", f"{kept} is my dog", 2.0)])
    await driver.delete(Where(user_key="terminal:lea"))
    print("erased", flush=True)
    os._exit(0)  # no close: the shard is never purged by this process


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3]))
