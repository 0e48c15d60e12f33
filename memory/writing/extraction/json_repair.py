"""Reading the JSON object a local model meant to write: code fences, chatter, trailing commas, quotes."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_SINGLE_QUOTED = re.compile(r"(?<![\w\\])'((?:[^'\\\n]|\\.|'(?=\w))*)'(?![\w])")
_BARE_KEY = re.compile(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*:)")
_PY_LITERALS = {"True": "true", "False": "false", "None": "null"}


def _outer_object(text: str) -> str:
    start = text.find("{")
    end = text.rfind("}")
    if start < 0:
        return text
    return text[start : end + 1] if end > start else text[start:]


def _close_brackets(text: str) -> str:
    """Close what a truncated answer left open (strings, arrays, objects), innermost first."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    return text + ('"' if in_string else "") + "".join(reversed(stack))


def _requote(text: str) -> str:
    def swap(match: re.Match[str]) -> str:
        inner = match.group(1).replace('"', '\\"').replace("\\'", "'")
        return f'"{inner}"'

    return _SINGLE_QUOTED.sub(swap, text)


def parse_json_object(raw: str) -> dict[str, Any]:
    """The JSON object in `raw`, repairing common breakage. Raises ValueError when nothing can be read."""
    fenced = _FENCE.search(raw)
    text = _outer_object(fenced.group(1) if fenced else raw).strip()
    attempts = [text]
    repaired = _TRAILING_COMMA.sub(r"\1", text)
    attempts.append(repaired)
    if '"' not in repaired or repaired.count("'") > repaired.count('"'):
        repaired = _requote(repaired)
        attempts.append(repaired)
    repaired = _BARE_KEY.sub(r'\1"\2"\3', repaired)
    for literal, value in _PY_LITERALS.items():
        repaired = re.sub(rf"(?<=[:\[,\s]){literal}(?=[,\]}}\s])", value, repaired)
    attempts.append(repaired)
    attempts.append(_TRAILING_COMMA.sub(r"\1", _close_brackets(repaired.rstrip().rstrip(","))))
    for attempt in attempts:
        try:
            value = json.loads(attempt)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    raise ValueError("no JSON object could be read from the model's answer")
