"""`souvenir doctor` as an operator runs it: a subprocess against a real Redis and the loopback fakes of
Telegram, Discord and an OpenAI-compatible LLM."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.souvenir_process import run_souvenir, souvenir_env


def _closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def _line(out: str, name: str) -> str:
    [line] = [line for line in out.splitlines() if line.split("] ", 1)[-1].startswith(f"{name}:")]
    return line


async def test_everything_configured_works(fake_llm: FakeOpenAI, data_dir: Path, redis_url: str) -> None:
    async with FakeTelegram() as telegram, FakeDiscord.running() as discord:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, redis_url),
            "SOUVENIR_TELEGRAM_TOKEN": telegram.token,
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_DISCORD_TOKEN": "fake-token",
            "SOUVENIR_DISCORD_API_URL": discord.api_root,
        }
        code, out, err = await run_souvenir(env, "doctor")
    assert code == 0, out + err
    assert "FAIL" not in out and "Traceback" not in out + err
    assert "[  ok] config:" in out
    assert "[  ok] data dir:" in out
    assert "append-only file" in _line(out, "redis") and "valkey" in _line(out, "redis")
    assert "1-token call" in _line(out, "llm")
    assert "@souvenir_test_bot" in _line(out, "telegram")
    assert "token valid: souvenir" in _line(out, "discord")
    assert [r.body.get("max_tokens") or r.body.get("max_completion_tokens") for r in fake_llm.requests] == [1]


async def test_with_nothing_configured_it_says_what_is_missing_one_line_each(data_dir: Path) -> None:
    env = souvenir_env(data_dir, _closed_port_url(), None)
    code, out, err = await run_souvenir(env, "doctor")
    assert code == 1
    assert "Traceback" not in out + err
    assert "[FAIL] llm:" in out and "ollama serve" in out
    assert "[  --] telegram: not configured (SOUVENIR_TELEGRAM_TOKEN)" in out
    assert "[  --] discord: not configured (SOUVENIR_DISCORD_TOKEN)" in out
    assert "[note] platforms: none configured" in _line(out, "platforms")


async def test_the_unreachable_llm_is_said_once_with_its_fix(data_dir: Path) -> None:
    env = souvenir_env(data_dir, _closed_port_url(), None)
    code, out, err = await run_souvenir(env, "doctor")
    assert code == 1
    assert (out + err).count("ollama serve") == 1, out + err
    assert (out + err).count("did not answer") + (out + err).count("Nothing answers") == 1, out + err


async def test_the_terminal_only_setup_passes_with_a_note_about_platforms(fake_llm: FakeOpenAI, data_dir: Path) -> None:
    """The README's first step: `souvenir chat` on a local model, no Telegram or Discord token."""
    code, out, err = await run_souvenir(souvenir_env(data_dir, fake_llm.base_url, None), "doctor")
    assert code == 0, out + err
    assert "FAIL" not in out and "Traceback" not in out + err
    platforms = _line(out, "platforms")
    assert platforms.startswith("[note] platforms: none configured; `souvenir chat` works")
    assert "SOUVENIR_TELEGRAM_TOKEN" in platforms and "SOUVENIR_DISCORD_TOKEN" in platforms
    said = [line for line in (out + err).splitlines() if line.strip()]
    assert len(said) == len(set(said)), out + err


async def test_each_failure_comes_with_its_fix(fake_llm: FakeOpenAI, data_dir: Path, tmp_path: Path) -> None:
    async with FakeTelegram() as telegram, FakeDiscord.running() as discord:
        env = {
            **souvenir_env(data_dir, fake_llm.base_url, "redis://127.0.0.1:1/0"),
            "SOUVENIR_TELEGRAM_TOKEN": "999:wrong",
            "SOUVENIR_TELEGRAM_API_URL": telegram.api_root,
            "SOUVENIR_DISCORD_TOKEN": "wrong-token",
            "SOUVENIR_DISCORD_API_URL": discord.api_root,
        }
        code, out, err = await run_souvenir(env, "doctor")
    assert code == 1 and "Traceback" not in out + err
    assert "[FAIL] redis: cannot reach Redis" in out and "SOUVENIR_REDIS_URL" in out
    assert "[FAIL] telegram: Telegram rejected the token" in out and "@BotFather" in out
    assert "[FAIL] discord: Discord rejected the token" in out and "Reset Token" in out
    assert out.count("fix:") == 3


async def test_invalid_settings_are_one_failing_line(data_dir: Path) -> None:
    env = {**souvenir_env(data_dir, _closed_port_url(), None), "SOUVENIR_WINDOW_TURNS": "many"}
    code, out, err = await run_souvenir(env, "doctor")
    assert code == 1 and "Traceback" not in out + err
    assert "[FAIL] config: SOUVENIR_WINDOW_TURNS: expected a whole number (got 'many')" in out
