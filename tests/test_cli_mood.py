"""`souvenir mood --user KEY --png OUT [--days N]`: the person's chart as a PNG file, on the stores the chat
wrote to, or asked of the running chat over its admin socket."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.mood_history import PNG_SIGNATURE
from tests.fakes.souvenir_process import run_chat, run_souvenir, souvenir_env


async def test_mood_draws_the_chart_of_what_the_person_wrote(
    fake_llm: FakeOpenAI, redis_url: str, data_dir: Path, tmp_path: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, redis_url)
    said = ["I'm so tired today", "Work was great though, I'm happy", "A calm evening now"]
    code, _, err = await run_chat(said, env, "--user", "lea")
    assert code == 0, err

    chart = tmp_path / "lea.png"
    code, out, err = await run_souvenir(env, "mood", "--user", "lea", "--png", str(chart), "--days", "30")

    assert code == 0, err
    assert out.strip() == str(chart)
    assert chart.read_bytes().startswith(PNG_SIGNATURE)


async def test_mood_with_too_few_readings_says_so_and_writes_no_file_also_while_the_chat_runs(
    fake_llm: FakeOpenAI, data_dir: Path, tmp_path: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    chart = tmp_path / "lea.png"
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("hi", expect="echo: hi")
        code, out, err = await run_souvenir(env, "mood", "--user", "lea", "--png", str(chart))
        assert code == 0, err
        assert re.fullmatch(r"terminal:lea: only [0-2] mood readings? so far; the chart needs at least 3\n", out), out
    assert not chart.exists()

    code, _, err = await run_souvenir(env, "mood", "--user", "nobody", "--png", str(chart))
    assert code == 2 and "Traceback" not in err
