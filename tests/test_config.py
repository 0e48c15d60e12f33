"""Bad configuration gives one clear line naming the variable, exit code 2, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def _souvenir(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SOUVENIR_")}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], env={**clean, **env}, cwd=cwd, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("env", "named", "expected"),
    [
        ({"SOUVENIR_DEFAULT_TIMEZONE": "Mars/Olympus"}, "SOUVENIR_DEFAULT_TIMEZONE", "IANA time zone"),
        ({"SOUVENIR_LLM_PROVIDER": "skynet"}, "SOUVENIR_LLM_PROVIDER", "openai"),
        ({"SOUVENIR_LLM_PROVIDER": "openai"}, "SOUVENIR_LLM_API_KEY", "API key"),
        ({"SOUVENIR_WINDOW_TURNS": "lots"}, "SOUVENIR_WINDOW_TURNS", "expected a whole number (got 'lots')"),
        ({"SOUVENIR_WINDOW_TURNS": "1"}, "SOUVENIR_WINDOW_TURNS", "expected a number of at least 2 (got '1')"),
        ({"SOUVENIR_DEFAULT_LANGUAGE": "de"}, "SOUVENIR_DEFAULT_LANGUAGE", "expected 'en' or 'fr' (got 'de')"),
        ({"SOUVENIR_QUIET_HOURS": "late"}, "SOUVENIR_QUIET_HOURS", "HH:MM-HH:MM"),
        ({"SOUVENIR_LLM_BASE_URL": "not-a-url"}, "SOUVENIR_LLM_BASE_URL", "http:// or https:// URL"),
        ({"SOUVENIR_EMBEDDING_BASE_URL": "localhost:8080"}, "SOUVENIR_EMBEDDING_BASE_URL", "http:// or https://"),
        ({"SOUVENIR_MAX_MESSAGE_CHARS": "10"}, "SOUVENIR_MAX_MESSAGE_CHARS", "at least 200"),
    ],
)
def test_invalid_settings_name_the_variable(env: dict[str, str], named: str, expected: str, tmp_path: Path) -> None:
    result = _souvenir("chat", env=env, cwd=tmp_path)

    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert named in lines[0] and expected in lines[0]
    assert "Input should be" not in lines[0] and "Value error" not in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["chat"], ["memories", "list", "--user", "terminal:you"]])
def test_a_data_dir_that_cannot_be_created_is_one_line_and_exit_2(command: list[str], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = {"SOUVENIR_DATA_DIR": str(blocker / "data"), "SOUVENIR_REDIS_URL": "redis://127.0.0.1:1/0"}

    result = _souvenir(*command, env=env, cwd=tmp_path)

    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "SOUVENIR_DATA_DIR" in lines[0] and str(blocker / "data") in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_run_without_a_platform_token_says_how_to_set_one(tmp_path: Path) -> None:
    result = _souvenir("run", env={}, cwd=tmp_path)

    assert result.returncode == 2
    assert "SOUVENIR_TELEGRAM_TOKEN" in result.stderr and "SOUVENIR_DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_every_subcommand_has_help(tmp_path: Path) -> None:
    commands = (["run"], ["chat"], ["memories", "list"], ["memories", "forget"], ["eval", "locomo"])
    for args in (["--help"], *([*c, "--help"] for c in commands)):
        result = _souvenir(*args, env={}, cwd=tmp_path)
        assert result.returncode == 0 and "usage: souvenir" in result.stdout


def test_dotenv_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("SOUVENIR_DEFAULT_TIMEZONE=Europe/Paris\nSOUVENIR_WINDOW_TURNS=8\n")
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert settings.default_timezone == "Europe/Paris" and settings.window_turns == 8


def test_openai_compatible_defaults_to_ollama() -> None:
    settings = load_settings(llm_provider="openai-compatible")
    assert settings.llm_base_url == "http://localhost:11434/v1"
    with pytest.raises(ConfigError, match="SOUVENIR_LLM_API_KEY"):
        load_settings(llm_provider="anthropic")


def test_the_disclosure_cannot_be_spaced_more_than_three_hours_apart() -> None:
    assert load_settings(disclosure_interval_hours=1.5).disclosure_policy.interval.total_seconds() == 5400
    with pytest.raises(ConfigError, match=r"SOUVENIR_DISCLOSURE_INTERVAL_HOURS: expected .*3.*got 4"):
        load_settings(disclosure_interval_hours=4)


def test_the_key_store_is_beside_the_data_dir_never_inside_it(tmp_path: Path) -> None:
    settings = load_settings(_env_file=None, data_dir=tmp_path / "data")
    assert (settings.resolved_key_store, settings.resolved_key_dir) == ("file", tmp_path / "data-keys")
    assert load_settings(_env_file=None, redis_url="redis://localhost:6379/0").resolved_key_store == "redis"
    with pytest.raises(ConfigError, match="SOUVENIR_KEY_DIR: must be outside SOUVENIR_DATA_DIR"):
        load_settings(_env_file=None, data_dir=tmp_path / "data", key_dir=tmp_path / "data" / "keys")
