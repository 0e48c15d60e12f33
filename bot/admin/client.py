"""The CLI's side of the admin socket: ask the process that holds the data dir, if one does."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp

from bot.admin.operations import AdminRequest, Answer
from bot.admin.server import PATH
from bot.errors import DataDirInUse, StoreUnavailable
from memory.redis.data_dir_lock import Holder, current_holder, in_use_message

# A process that has just taken the data dir opens its admin socket once its stores are up (seconds).
STARTING_WAIT_S = 120.0
_POLL_S = 0.2


async def _endpoint(data_dir: Path) -> Holder | None:
    """The holder once it serves its admin socket; None when no live process holds the data dir."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STARTING_WAIT_S
    told = False
    while True:
        holder = await asyncio.to_thread(current_holder, data_dir)
        if holder is None or "admin" in holder.info:
            return holder
        if loop.time() > deadline:
            raise DataDirInUse(in_use_message(data_dir, holder) + " (it does not answer on an admin socket)")
        if not told:
            print(f"souvenir: waiting for Souvenir (pid {holder.pid}) to finish starting…", file=sys.stderr)
            told = True
        await asyncio.sleep(_POLL_S)


async def ask_running_process(data_dir: Path, request: AdminRequest) -> Answer | None:
    """The running process's answer, or None when no process holds the data dir (the CLI opens the stores)."""
    holder = await _endpoint(data_dir)
    if holder is None:
        return None
    endpoint, token = holder.info["admin"], str(holder.info.get("token", ""))
    if "unix" in endpoint:
        connector: aiohttp.BaseConnector = aiohttp.UnixConnector(path=endpoint["unix"])
        url = f"http://souvenir{PATH}"
    else:
        connector, url = aiohttp.TCPConnector(), f"http://{endpoint['tcp']}{PATH}"
    try:
        async with (
            aiohttp.ClientSession(connector=connector) as session,
            session.post(url, json=request.model_dump(), headers={"Authorization": f"Bearer {token}"}) as response,
        ):
            if response.status != 200:
                raise StoreUnavailable(f"Souvenir (pid {holder.pid}) refused the request: HTTP {response.status}")
            data = await response.json()
    except (aiohttp.ClientError, ValueError) as exc:
        if await asyncio.to_thread(current_holder, data_dir) is None:
            return None  # it stopped meanwhile: the stores are free
        raise StoreUnavailable(f"Souvenir (pid {holder.pid}) did not answer on its admin socket: {exc}") from None
    return Answer(int(data["code"]), str(data.get("out", "")), str(data.get("err", "")), str(data.get("png", "")))
