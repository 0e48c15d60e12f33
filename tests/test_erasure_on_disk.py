"""Erasure that reaches the disk: after `/forget all` (or `souvenir memories forget --all`) and a clean stop, no
file under the data dir (embedded Redis's append-only files, embedded Qdrant's segments and write-ahead log)
holds the person's words, while what others said stays and is still found."""

from __future__ import annotations

import re
from pathlib import Path

from tests.fakes.chat_process import ChatProcess, running_chat
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_souvenir, souvenir_env

SECRET = "Quetzalcoatlus"
KEPT = "Brontosaurus"  # another person's word: erasure takes one person only


def files_holding(data_dir: Path, word: str) -> list[str]:
    """Every file under the data dir whose bytes hold `word` (any case)."""
    needle = word.lower().encode()
    return sorted(
        str(path.relative_to(data_dir))
        for path in data_dir.rglob("*")
        if path.is_file() and not path.is_symlink() and needle in path.read_bytes().lower()
    )


async def _tell_the_secret(chat: ChatProcess) -> None:
    await chat.say(f"My secret word is {SECRET}, tell no one.", expect=f"echo: My secret word is {SECRET}")
    await chat.say(f"/remember {SECRET} is the name of my boat", expect="I'll remember that")


async def _max_says_his(env: dict[str, str]) -> None:
    async with running_chat(env, "--user", "max") as chat:
        await chat.say(f"/remember {KEPT} is my dog", expect="I'll remember that")


async def test_forget_all_in_the_chat_leaves_no_file_holding_the_words(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    await _max_says_his(env)
    async with running_chat(env, "--user", "lea") as chat:
        await _tell_the_secret(chat)
        await chat.say("/forget all", expect="(/forget yes)")
        await chat.say("/forget yes", expect="I've forgotten everything about you")
    assert files_holding(data_dir, KEPT)  # the scan sees what is kept...
    assert files_holding(data_dir, SECRET) == []  # ...and nothing of what was erased

    code, listed, err = await run_souvenir(env, "memories", "list", "--user", "terminal:max")
    assert code == 0, err
    assert KEPT in listed


async def test_forget_all_from_the_command_line_leaves_no_file_holding_the_words(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    await _max_says_his(env)
    async with running_chat(env, "--user", "lea") as chat:
        await _tell_the_secret(chat)
    assert files_holding(data_dir, SECRET)  # on disk before the erasure

    code, _, err = await run_souvenir(env, "memories", "forget", "--all", "--user", "terminal:lea")
    assert code == 0, err
    assert files_holding(data_dir, SECRET) == []
    assert files_holding(data_dir, KEPT)


async def test_forgetting_one_memory_takes_its_words_off_the_disk_at_the_clean_stop(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    env = souvenir_env(data_dir, fake_llm.base_url, None)
    async with running_chat(env, "--user", "lea") as chat:
        await chat.say(f"/remember {SECRET} is the name of my boat", expect="I'll remember that")
        await chat.say(f"/remember {KEPT} is my dog", expect="I'll remember that")
        listed = await chat.say("/memories", expect=f". {SECRET} is the name")  # its own line, numbered
        # The memories' own numbers (what /forget takes), not the letters of what I know about them, above.
        [number] = [m[1] for line in listed.splitlines() if SECRET in line and (m := re.match(r"\W*(\d+)\. ", line))]
        await chat.say(f"/forget {number}", expect="Forgotten")
    assert files_holding(data_dir, KEPT)
    assert files_holding(data_dir, SECRET) == []
