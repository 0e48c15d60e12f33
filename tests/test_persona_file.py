"""Persona files: YAML or JSON, and a clear line when one is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.errors import ConfigError
from bot.persona_file import load_persona


def test_the_default_persona_is_souvenir() -> None:
    persona = load_persona(None)
    assert persona.name == "Souvenir" and persona.boundaries


def test_yaml_and_json_files_load(tmp_path: Path) -> None:
    yaml_file = tmp_path / "p.yaml"
    yaml_file.write_text("name: Camille\npersonality: Drôle et tendre.\nboundaries: [Jamais de conseils médicaux]\n")
    json_file = tmp_path / "p.json"
    json_file.write_text(json.dumps({"name": "Sam", "personality": "Calm.", "speaking_style": "Brief."}))

    assert load_persona(yaml_file).boundaries == ("Jamais de conseils médicaux",)
    assert load_persona(json_file).speaking_style == "Brief."


@pytest.mark.parametrize(
    ("content", "expected"),
    [("name: Camille\n", "personality"), ("{not json", "not valid YAML or JSON"), ("- a list\n", "expected a mapping")],
)
def test_a_broken_persona_file_names_the_setting_and_the_problem(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "persona.yaml"
    path.write_text(content)
    with pytest.raises(ConfigError, match="SOUVENIR_PERSONA_FILE") as error:
        load_persona(path)
    assert expected in str(error.value)


def test_a_missing_persona_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_persona(tmp_path / "nope.yaml")


def test_a_persona_may_name_its_own_speaking_voice(tmp_path: Path) -> None:
    path = tmp_path / "nova.yaml"
    path.write_text("name: Nova\npersonality: Bright.\nvoice: ' nova '\n", encoding="utf-8")

    assert load_persona(path).speaking_voice == "nova"
    assert load_persona(None).speaking_voice == ""  # the default persona speaks with SOUVENIR_VOICE_TTS_VOICE
