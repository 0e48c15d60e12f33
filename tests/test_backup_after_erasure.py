"""Erasure that reaches backups: a copy of the data dir (what the README tells operators to back up) taken before
`/forget all`, restored after it with the master key and the key store as they are then, shows none of the
person's words, while everyone else's come back. The data keys live in the key store beside the data dir, never
inside it, so no backup of the data dir holds one."""

from __future__ import annotations

import shutil
from pathlib import Path

from memory.privacy.crypto import new_master_key
from tests.fakes.chat_process import running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_souvenir, souvenir_env

SECRET = "Quetzalcoatlus"
KEPT = "Brontosaurus"


async def test_a_backup_taken_before_forget_all_no_longer_shows_the_persons_words(
    fake_llm: FakeOpenAI, data_dir: Path, tmp_path: Path
) -> None:
    keys = tmp_path / "keys"
    env = {**souvenir_env(data_dir, fake_llm.base_url, None), "SOUVENIR_ENCRYPTION_KEY": new_master_key(),
           "SOUVENIR_KEY_DIR": str(keys)}  # fmt: skip
    async with running_chat(env, "--user", "max") as chat:
        await chat.say(f"/remember {KEPT} is my dog", expect="I'll remember that")
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say(f"/remember {SECRET} is the name of my boat", expect="I'll remember that")
    assert not keys.is_relative_to(data_dir) and any(keys.iterdir())  # the keys are not in the data dir

    backup = tmp_path / "backup"
    shutil.copytree(data_dir, backup)  # the operator's nightly copy
    restored = {**env, "SOUVENIR_DATA_DIR": str(backup)}
    code, before, err = await run_souvenir(restored, "memories", "list", "--user", "terminal:lea")
    assert code == 0 and SECRET in before, err  # the copy opens, before the erasure

    async with running_chat(env, "--user", "lea") as chat:
        await chat.say("/forget all", expect="(/forget yes)")
        await chat.say("/forget yes", expect="I've forgotten everything about you")

    code, listed, err = await run_souvenir(restored, "memories", "list", "--user", "terminal:lea")
    assert code == 0, err
    assert SECRET not in listed + err
    code, listed, err = await run_souvenir(restored, "memories", "list", "--user", "terminal:max")
    assert code == 0 and KEPT in listed, err  # the restore brings back everyone else
