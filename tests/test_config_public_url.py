"""SOUVENIR_PUBLIC_URL: the memory browser's address, https only (plain http on loopback), one clear line else."""

from __future__ import annotations

import pytest

from bot.config import load_settings
from bot.errors import ConfigError


def test_unset_means_the_memory_browser_is_off() -> None:
    assert load_settings(http_port=8080).public_url is None
    assert load_settings(http_port=8080, public_url="  ").public_url is None


@pytest.mark.parametrize(
    "url",
    ["https://souvenir.example.org", "https://souvenir.example.org/", "http://127.0.0.1:8080", "http://localhost:9000",
     "http://[::1]:8080", "https://example.org:8443/souvenir"],
)  # fmt: skip
def test_https_and_loopback_http_are_accepted(url: str) -> None:
    assert load_settings(http_port=8080, public_url=url).public_url == url.rstrip("/")


@pytest.mark.parametrize(
    "url", ["http://souvenir.example.org", "ftp://example.org", "souvenir.example.org", "https://", "http://10.0.0.2"]
)
def test_anything_else_is_refused_in_one_line(url: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_settings(http_port=8080, public_url=url)

    message = str(refused.value)
    assert message.startswith("SOUVENIR_PUBLIC_URL: expected an https:// address")
    assert "\n" not in message and "Value error" not in message


def test_it_needs_the_http_port_it_is_served_on() -> None:
    with pytest.raises(ConfigError, match=r"SOUVENIR_PUBLIC_URL: .*SOUVENIR_HTTP_PORT"):
        load_settings(public_url="https://souvenir.example.org")
