"""A Redis that cannot be reached is named without its secrets, whichever form the URL gives them in."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import open_core
from bot.config import load_settings
from bot.errors import StoreUnavailable


@pytest.mark.parametrize(
    "url",
    [
        "redis://souvenir:s3cret-pass@127.0.0.1:1/0",
        "unix:///nonexistent/valkey.sock?username=souvenir&password=s3cret-pass",
        "rediss://:s3cret-pass@127.0.0.1:1/0?password=s3cret-pass",
    ],
)
async def test_an_unreachable_redis_is_named_without_its_password(url: str, data_dir: Path) -> None:
    settings = load_settings(data_dir=data_dir, redis_url=url, llm_provider="openai-compatible")
    with pytest.raises(StoreUnavailable) as caught:
        async with open_core(settings):
            pass
    assert "s3cret-pass" not in str(caught.value) and "souvenir:" not in str(caught.value)
    assert "cannot reach Redis" in str(caught.value)
