"""Running `souvenir` as a subprocess the way a person would, against loopback fakes."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


async def run_chat(lines: list[str], env: dict[str, str], *args: str) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "chat", *args,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate("\n".join(lines).encode() + b"\n"), 120)
    return process.returncode or 0, stdout.decode(), stderr.decode()


def souvenir_env(data_dir: Path, llm_url: str, redis_url: str | None) -> dict[str, str]:
    env = {
        "SOUVENIR_DATA_DIR": str(data_dir),
        "SOUVENIR_LLM_PROVIDER": "openai-compatible",
        "SOUVENIR_LLM_BASE_URL": llm_url,
        "SOUVENIR_LLM_MAX_RETRIES": "0",
        "SOUVENIR_LLM_TIMEOUT_S": "5",
        "SOUVENIR_LOG_LEVEL": "WARNING",
    }
    if redis_url:
        env["SOUVENIR_REDIS_URL"] = redis_url
    return env


async def run_souvenir(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    stdout, stderr = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, stdout.decode(), stderr.decode()
