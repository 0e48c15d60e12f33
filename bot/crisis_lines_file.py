"""SOUVENIR_CRISIS_LINES_FILE: the operator's crisis lines, a JSON file validated with pydantic at the edge.

    {"countries": {"DE": ["Telefonseelsorge: 0800 111 0 111 (24/7, kostenlos)"]},
     "languages": {"de": "DE"},
     "everywhere": ["findahelpline.com"]}

Countries are ISO 3166 codes (the country a person's time zone belongs to); the file adds to the built-in
lines and replaces those of the countries it names ("replace_defaults": true drops the built-in ones).
`languages` says which country's lines a person gets when their time zone names no country.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

from bot.engine.safety.crisis_lines import (
    DEFAULT_EVERYWHERE,
    DEFAULT_LANGUAGE_COUNTRIES,
    DEFAULT_LINES,
    CrisisLines,
    warm_zone_countries,
)
from bot.errors import ConfigError

SETTING = "SOUVENIR_CRISIS_LINES_FILE"
Line = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=300)]
Country = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z]{2}$")]


class _CrisisLinesFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    countries: dict[Country, Annotated[list[Line], Field(min_length=1)]] = {}
    languages: dict[Annotated[str, StringConstraints(pattern=r"^[a-z]{2}$")], Country] = {}
    everywhere: Annotated[list[Line], Field(min_length=1)] | None = None
    replace_defaults: bool = False

    @field_validator("languages")
    @classmethod
    def _known_countries(cls, value: dict[str, str]) -> dict[str, str]:
        return {language: country.upper() for language, country in value.items()}


def load_crisis_lines(path: Path | None) -> CrisisLines:
    """The built-in lines, with the operator's file over them. Blocking (reads files): run off the event loop."""
    warm_zone_countries()
    if path is None:
        return CrisisLines()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        parsed = _CrisisLinesFile.model_validate(data)
    except OSError as exc:
        raise ConfigError(f"{SETTING}: cannot read {path} ({exc.strerror})") from None
    except ValueError as exc:  # ValidationError is one
        raise ConfigError(f"{SETTING}: {path}: {_problem(exc)}") from None
    countries = {} if parsed.replace_defaults else dict(DEFAULT_LINES)
    countries.update({country: tuple(lines) for country, lines in parsed.countries.items()})
    languages = {} if parsed.replace_defaults else dict(DEFAULT_LANGUAGE_COUNTRIES)
    languages.update(parsed.languages)
    everywhere = tuple(parsed.everywhere) if parsed.everywhere else DEFAULT_EVERYWHERE
    return CrisisLines(by_country=countries, by_language=languages, everywhere=everywhere)


def _problem(exc: ValueError) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(map(str, first["loc"]))
        return f"'{where}': {first['msg']}" if where else str(first["msg"])
    return "not valid JSON"
