"""`load_settings()`: the settings, or one `ConfigError` line that names the variable and what it expects."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.config.settings import Settings
from bot.errors import ConfigError

# What a person should write, for pydantic's error types (its own messages read "Input should be a valid
# integer, unable to parse string as an integer").
_EXPECTED: dict[str, str] = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_parsing": "a number",
    "bool_parsing": "true or false, on or off, yes or no",
    "time_parsing": "a time of day such as 09:00",
    "path_type": "a folder path",
}
_BOUNDS = {"greater_than_equal": ("ge", "of at least"), "less_than_equal": ("le", "of at most"),
           "greater_than": ("gt", "above"), "less_than": ("lt", "below")}  # fmt: skip

_SECRET_FIELDS = {"encryption_key"}


def _expected(first: Any) -> str:
    kind = str(first.get("type", ""))
    context = first.get("ctx") or {}
    if kind == "value_error" and "error" in context:
        return str(context["error"])  # our validators say what they expect
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind == "literal_error" and "expected" in context:
        return str(context["expected"])
    if kind in _BOUNDS and _BOUNDS[kind][0] in context:
        bound, words = _BOUNDS[kind]
        return f"a number {words} {context[bound]:g}"
    message = str(first.get("msg", "a valid value"))
    return message.removeprefix("Value error, ").removeprefix("Input should be ")


def _describe(error: ValidationError) -> str:
    """One line naming the variable, what it expects and what it got."""
    first = error.errors()[0]
    loc = first.get("loc") or ()
    if not loc:
        # Model-level checks already start with the variable name.
        return str(first.get("msg", "invalid settings")).removeprefix("Value error, ")
    value = first.get("input")
    secret = str(loc[0]) in _SECRET_FIELDS  # never echoed back, even when invalid
    shown = "" if isinstance(value, dict) or value is None or secret else f" (got {value!r})"
    return f"SOUVENIR_{str(loc[0]).upper()}: expected {_expected(first)}{shown}"


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None
