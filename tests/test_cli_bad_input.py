"""`souvenir memories …` with arguments a shell can hand over but no store can take: one clear line, exit 2."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import ROOT, souvenir_env


async def _souvenir(env: dict[str, str], *args: str | bytes) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args,
        cwd=ROOT,
        env={**clean, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8", **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode or 0, out.decode(), err.decode(errors="replace")


async def test_arguments_that_are_not_utf8_get_one_line_and_no_traceback(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)

    code, _, err = await _souvenir(env, "memories", "list", "--user", b"terminal:\xff")
    assert code == 2 and "Traceback" not in err
    assert err.strip() == "souvenir: --user: not valid UTF-8 (check the terminal's encoding)"

    code, _, err = await _souvenir(env, "memories", "search", "--user", "terminal:you", b"caf\xe9 \xed\xa0\x80")
    assert code == 2 and "Traceback" not in err and "the query: not valid UTF-8" in err


async def test_wrong_values_get_plain_answers(fake_llm: FakeOpenAI, redis_url: str, data_dir: Path) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    for args, expected_code, expected in [
        (("memories", "list", "--user"), 2, "expected one argument"),
        (("memories", "list", "--user", "terminal:you", "--limit", "abc"), 2, "invalid int value"),
        (("memories", "list", "--user", "terminal:you", "--limit", "-5"), 0, "(0 of 0)"),
        (("memories", "list", "--user", "telegram:*"), 0, "(0 of 0)"),
        (("memories", "forget", "--user", "*", "--all"), 2, "nobody is stored with that id"),
        (("memories", "forget", "--user", "terminal:you", "--id", "abc"), 1, "terminal:you has no memory 'abc'"),
    ]:
        code, out, err = await _souvenir(env, *args)
        assert code == expected_code and expected in out + err and "Traceback" not in err, (args, out, err)
