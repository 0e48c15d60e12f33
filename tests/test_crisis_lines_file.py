"""SOUVENIR_CRISIS_LINES_FILE: the operator's lines over the built-in ones; a bad file is one clear line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.crisis_lines_file import load_crisis_lines
from bot.errors import ConfigError


def test_the_file_adds_countries_and_replaces_the_ones_it_names(tmp_path: Path) -> None:
    path = tmp_path / "lines.json"
    document = {
        "countries": {"de": ["Telefonseelsorge: 0800 111 0 111"], "FR": ["Ligne locale : 01 23 45 67 89"]},
        "languages": {"de": "DE"},
    }
    path.write_text(json.dumps(document), encoding="utf-8")

    lines = load_crisis_lines(path)

    assert lines.lines_for("Europe/Berlin", "en")[0] == "Telefonseelsorge: 0800 111 0 111"
    assert lines.lines_for(None, "de")[0] == "Telefonseelsorge: 0800 111 0 111"
    assert lines.lines_for("Europe/Paris", "fr")[0] == "Ligne locale : 01 23 45 67 89"
    assert "988" in lines.lines_for("America/Denver", "en")[0]  # the built-in ones stay
    assert "findahelpline.com" in lines.lines_for("Asia/Tokyo", "en")[-1]


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "not valid JSON"),
        ('{"countries": {"France": ["3114"]}}', "countries"),
        ('{"countries": {"FR": []}}', "countries.FR"),
        ('{"lines": {}}', "lines"),
    ],
)
def test_a_bad_file_is_one_line_naming_the_setting(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "lines.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_crisis_lines(path)
    message = str(raised.value)
    assert message.startswith("SOUVENIR_CRISIS_LINES_FILE:") and says in message and "\n" not in message


def test_adult_content_is_off_by_default_and_only_takes_off_or_private() -> None:
    assert load_settings().adult_content == "off"
    with pytest.raises(ConfigError, match="SOUVENIR_ADULT_CONTENT"):
        load_settings(adult_content="always")
