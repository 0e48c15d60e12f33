"""`souvenir memories …` while `souvenir chat` serves on the same data dir (embedded Redis and Qdrant): the
running process answers over its admin socket; a second chat on the folder is refused before any server starts."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.souvenir_process import ROOT, run_chat, run_souvenir, souvenir_env

STARTED = "Valkey is starting"


def _memory_id(listed: str, word: str) -> str:
    [line] = [line for line in listed.splitlines() if word in line]
    return line.split()[0]


async def test_list_search_export_users_and_forget_while_the_chat_runs(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("hi", expect="echo: hi")
        await chat.say("/remember my cat is called Miso", expect="I'll remember that")
        await chat.say("/remember I love Blue Note jazz", expect="I'll remember that")

        code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:lea")
        assert code == 0, err
        assert "Miso" in listed and "Blue Note" in listed

        code, found, err = await run_souvenir(env, "memories", "search", "--user", "lea", "what is my cat's name?")
        assert code == 0, err
        assert "Miso" in found.splitlines()[0]

        code, exported, err = await run_souvenir(env, "memories", "export", "--user", "lea")
        assert code == 0, err
        assert any("Miso" in m["text"] for m in json.loads(exported)["memories"])

        code, users, err = await run_souvenir(env, "memories", "users")
        assert code == 0, err
        total = re.findall(r"\((\d+) of (\d+)\)", listed)[-1][1]
        assert re.search(rf"^terminal:lea\s+lea\s+{total} memories$", users, re.MULTILINE), users

        miso = _memory_id(listed, "Miso")
        code, said, err = await run_souvenir(env, "memories", "forget", "--user", "lea", "--id", miso)
        assert code == 0 and said.strip().startswith(f"Forgot memory {miso} of terminal:lea: "), err

        # The chat, still running, sees the change at once and still answers.
        shown = await chat.say("/memories", expect="Blue Note")
        assert "Miso" not in shown
        await chat.say("hello again", expect="echo: hello again")

    # With the chat gone, the CLI opens the stores itself and finds the same.
    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "lea")
    assert code == 0, err
    assert "Blue Note" in listed and "Miso" not in listed


async def test_a_second_chat_on_the_same_data_dir_gets_one_line_and_starts_no_server(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    async with running_chat(env, "--user", "lea") as first:
        code, out, err = await run_chat(["hello"], env, "--user", "max")

        assert code == 2
        [line] = err.strip().splitlines()
        assert "in use" in line and f"pid {first.process.pid}" in line and str(data_dir) in line
        assert "echo: hello" not in out
        # Only the first chat's valkey ever started on this folder.
        assert (data_dir / "redis" / "valkey.log").read_text().count(STARTED) == 1
        await first.say("still here?", expect="echo: still here?")


async def test_memories_answer_while_souvenir_run_serves_telegram(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    async with FakeTelegram() as telegram:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, None),
            "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_LOG_LEVEL": "INFO",
        }
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run",
            cwd=ROOT, env={**clean, "PYTHONPATH": str(ROOT), **env},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert process.stderr is not None
        log = ""
        try:
            while "Souvenir is running on telegram" not in log:
                line = await asyncio.wait_for(process.stderr.readline(), 90)
                assert line, log
                log += line.decode()
            drain = asyncio.create_task(process.stderr.read())  # keeps the pipe from filling
            await telegram.push_text(77, "/remember my cat is called Miso")
            await telegram.wait_for(lambda: any("remember" in t for t in telegram.texts(77)), 30)
            await telegram.push_text(77, "Hello")
            await telegram.wait_for(lambda: any("echo: Hello" in t for t in telegram.texts(77)), 30)

            code, users, err = await run_souvenir(env, "memories", "users")
            assert code == 0, err
            assert "telegram:77" in users
            code, listed, err = await run_souvenir(env, "memories", "list", "--user", "77")
            assert code == 0, err
            assert "Miso" in listed
        finally:
            process.terminate()
            await asyncio.wait_for(process.wait(), 60)
        assert process.returncode == 0
        assert "Traceback" not in (await drain).decode()
