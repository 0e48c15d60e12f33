"""docs/configuration.md is generated from bot.config.Settings; it must not go stale."""

from __future__ import annotations

from bot.config import Settings
from scripts import config_reference


def test_every_setting_has_a_meaning() -> None:
    missing = [
        f"SOUVENIR_{name.upper()}"
        for name, field in Settings.model_fields.items()
        if not (field.description or config_reference.MEANINGS.get(name))
    ]
    assert missing == [], "add Field(description=...) in bot/config/ or an entry to MEANINGS"


def test_committed_reference_is_current() -> None:
    committed = config_reference.OUTPUT.read_text(encoding="utf-8")
    assert committed == config_reference.render(), (
        "docs/configuration.md is stale: run python -m scripts.config_reference"
    )
    for name in Settings.model_fields:
        assert f"`SOUVENIR_{name.upper()}`" in committed
