"""SOUVENIR_IMAGES_*: off by default; the endpoint defaults to the LLM's for openai; bad values say what is wanted."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.errors import ConfigError


def test_defaults() -> None:
    settings = load_settings(_env_file=None)
    assert (settings.images_enabled, settings.images_model, settings.images_daily_limit) == (False, "gpt-image-1", 5)


def test_with_openai_the_endpoint_and_key_are_the_llms() -> None:
    settings = load_settings(_env_file=None, llm_provider="openai", llm_api_key="sk-llm", images_enabled=True)
    assert settings.resolved_images_base_url is None  # the SDK's own: api.openai.com
    key = settings.resolved_images_api_key
    assert key is not None and key.get_secret_value() == "sk-llm"


def test_an_images_endpoint_of_its_own_takes_its_own_key() -> None:
    settings = load_settings(
        _env_file=None, llm_provider="openai", llm_api_key="sk-llm", images_enabled=True,
        images_base_url="http://localhost:7860/v1",
    )  # fmt: skip
    assert settings.resolved_images_base_url == "http://localhost:7860/v1"
    assert settings.resolved_images_api_key is None


def test_enabled_without_an_endpoint_for_another_provider_is_one_clear_line() -> None:
    with pytest.raises(ConfigError, match="SOUVENIR_IMAGES_BASE_URL: required when SOUVENIR_IMAGES_ENABLED=true"):
        load_settings(_env_file=None, images_enabled=True)


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("images_base_url", "not a url", "SOUVENIR_IMAGES_BASE_URL: expected an http:// or https:// URL"),
        ("images_daily_limit", "-1", "SOUVENIR_IMAGES_DAILY_LIMIT: expected a number of at least 0"),
        ("images_enabled", "maybe", "SOUVENIR_IMAGES_ENABLED: expected true or false"),
    ],
)
def test_bad_values_name_the_variable(field: str, value: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        load_settings(_env_file=None, **{field: value})
