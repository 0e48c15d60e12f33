"""Everything `souvenir` keeps under the data dir (embedded Redis and Qdrant files, the lock, the persona) is
readable by its own user only: directories 0700, files 0600, even a data dir made 0755 beforehand."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import souvenir_env


def readable_by_others(data_dir: Path) -> list[str]:
    found = []
    for root, dirs, files in os.walk(data_dir):
        for path in [Path(root), *(Path(root) / d for d in dirs), *(Path(root) / f for f in files)]:
            mode = path.lstat().st_mode
            if not stat.S_ISLNK(mode) and not stat.S_ISSOCK(mode) and mode & 0o077:
                found.append(f"{path.relative_to(data_dir)} {stat.filemode(mode)}")
    return found


async def test_the_data_dir_and_every_file_in_it_are_private(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    os.chmod(data_dir, 0o755)
    (data_dir / "notes.txt").write_text("copied in by hand")
    os.chmod(data_dir / "notes.txt", 0o644)
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("/remember my cat is called Miso", expect="I'll remember that")
        await chat.say("hello", expect="echo: hello")
    assert (data_dir / "qdrant").is_dir() and (data_dir / "redis" / "appendonlydir").is_dir()
    assert readable_by_others(data_dir) == []
