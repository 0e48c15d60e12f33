"""Encryption at rest as a person runs it: `souvenir chat` on the embedded stores (valkey and Qdrant Edge in
SOUVENIR_DATA_DIR) with SOUVENIR_ENCRYPTION_KEY set. A secret word told to the companion never reaches a file
in plain text, yet is recalled after a restart; a wrong or missing key stops the start with one line."""

from __future__ import annotations

import json
from pathlib import Path

from bot.config import load_settings
from memory.privacy.crypto import new_master_key
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.souvenir_process import run_chat, run_souvenir, souvenir_env

SECRET = "Zanzibarquokka"


def _env(data_dir: Path, llm: FakeOpenAI, key: str | None) -> dict[str, str]:
    env = souvenir_env(data_dir, llm.base_url, None)  # no Redis URL: the embedded valkey, in the data dir
    env["SOUVENIR_WINDOW_TURNS"] = "2"  # the secret leaves the short-term window: recall must bring it back
    env["SOUVENIR_LLM_EXTRACTION"] = "false"
    if key is not None:
        env["SOUVENIR_ENCRYPTION_KEY"] = key
    return env


def _files_saying(data_dir: Path, word: str) -> list[str]:
    """Every file under the data dir whose bytes hold `word` as it was written (UTF-8, any case)."""
    needle = word.lower().encode()
    return [
        str(path.relative_to(data_dir))
        for path in sorted(data_dir.rglob("*"))
        if path.is_file() and needle in path.read_bytes().lower()
    ]


def _written_files(data_dir: Path) -> list[Path]:
    return [p for p in data_dir.rglob("*") if p.is_file() and p.stat().st_size > 0]


def _last_request(llm: FakeOpenAI) -> str:
    """The last reply request, its conversation turns included: a message of the talk going on is there, not in
    the background."""
    return json.dumps([r.body for r in llm.requests if "response_format" not in r.body][-1], ensure_ascii=False)


def _system_prompts(llm: FakeOpenAI) -> list[str]:
    chats = [r.body for r in llm.requests if "response_format" not in r.body]
    return [str(body["messages"][0]["content"]) for body in chats]


async def test_a_secret_never_reaches_a_file_in_clear_yet_is_recalled_after_a_restart(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    env = _env(data_dir, fake_llm, new_master_key())
    code, out, err = await run_chat(
        [f"My secret word is {SECRET}, please remember it", "I had tea with lemon this morning"], env, "--user", "lea"
    )
    assert code == 0, err
    assert f"echo: My secret word is {SECRET}" in out

    # The stores wrote their files (the AOF and the shard's WAL and segments), and none says the word.
    written = _written_files(data_dir)
    assert any("appendonlydir" in str(p) for p in written) and any("qdrant" in str(p) for p in written)
    assert _files_saying(data_dir, SECRET) == []
    assert _files_saying(data_dir, "lemon") == []  # the conversation window too

    asked_before = len(fake_llm.requests)
    code, out, err = await run_chat(["What was my secret word again?"], env, "--user", "lea")
    assert code == 0, err
    prompts = _system_prompts(fake_llm)
    # Long-term memory brought it back: it is among what the model was told it remembers.
    recalled = [p for p in prompts[-1:] if SECRET in p.partition("Background you remember")[2]]
    assert recalled, prompts[-1]
    # And the short-term window opened after the restart: the last exchange is in the new request.
    last = [r.body for r in fake_llm.requests[asked_before:] if "response_format" not in r.body][-1]
    assert any("lemon" in str(m.get("content")) for m in last["messages"][1:-1])
    assert _files_saying(data_dir, SECRET) == []


async def test_a_wrong_or_missing_key_stops_the_start_with_one_line_and_changes_nothing(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    key = new_master_key()
    code, _, err = await run_chat([f"My secret word is {SECRET}"], _env(data_dir, fake_llm, key), "--user", "lea")
    assert code == 0, err

    for wrong in (new_master_key(), None):
        code, out, err = await run_chat(["hello"], _env(data_dir, fake_llm, wrong), "--user", "lea")
        assert code == 2, (out, err)
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and "SOUVENIR_ENCRYPTION_KEY" in lines[0], err
        assert "Traceback" not in err and "echo: hello" not in out
        if wrong is not None:
            assert wrong not in err  # the key is never shown

    # Nothing was overwritten: the right key still opens everything.
    code, out, err = await run_chat(["What is my secret word?"], _env(data_dir, fake_llm, key), "--user", "lea")
    assert code == 0, err
    assert SECRET in _last_request(fake_llm)


async def test_rotate_key_rewraps_the_data_keys_so_only_the_new_key_opens_the_data(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    old, new = new_master_key(), new_master_key()
    code, _, err = await run_chat([f"My secret word is {SECRET}"], _env(data_dir, fake_llm, old), "--user", "lea")
    assert code == 0, err

    code, out, err = await run_souvenir(
        _env(data_dir, fake_llm, None), "rotate-key", f"--old={old}", f"--new={new}"
    )
    assert code == 0, err
    assert "rewrapped 1 data keys" in out

    code, _, err = await run_chat(["hello"], _env(data_dir, fake_llm, old), "--user", "lea")
    assert code == 2 and "SOUVENIR_ENCRYPTION_KEY" in err
    code, _, err = await run_chat(["What is my secret word?"], _env(data_dir, fake_llm, new), "--user", "lea")
    assert code == 0, err
    assert SECRET in _last_request(fake_llm)


async def test_rotate_key_with_a_key_that_does_not_open_the_data_changes_nothing(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    key = new_master_key()
    code, _, err = await run_chat([f"My secret word is {SECRET}"], _env(data_dir, fake_llm, key), "--user", "lea")
    assert code == 0, err

    code, _, err = await run_souvenir(
        _env(data_dir, fake_llm, None), "rotate-key", f"--old={new_master_key()}", f"--new={new_master_key()}"
    )
    assert code == 2 and "--old does not open" in err

    code, _, err = await run_chat(["What is my secret word?"], _env(data_dir, fake_llm, key), "--user", "lea")
    assert code == 0, err
    assert SECRET in _last_request(fake_llm)


async def test_keygen_prints_a_key_the_settings_accept_and_a_malformed_key_is_refused_unseen(
    fake_llm: FakeOpenAI, data_dir: Path
) -> None:
    code, out, _ = await run_souvenir({}, "keygen")
    assert code == 0
    key = out.strip()
    assert load_settings(encryption_key=key).encryption_key is not None
    code, again, _ = await run_souvenir({}, "keygen")
    assert code == 0 and again.strip() != key  # fresh each time

    code, out, err = await run_chat(["hello"], _env(data_dir, fake_llm, "not-a-key-but-a-secret"))
    assert code == 2
    assert "SOUVENIR_ENCRYPTION_KEY" in err and "souvenir keygen" in err
    assert "not-a-key-but-a-secret" not in err
