"""The name a person says they go by ("My name is Alice", "je m'appelle Alice", "call me Ali").

A stated name wins over the platform's display name (often a login) wherever the companion names them.
Only a statement counts: a question ("what's my name?") or a lower-case word ("call me tomorrow") is no name.
"""

from __future__ import annotations

import re

NAME_STATEMENT = re.compile(
    r"\b(?:my name is|my name's|i'm called|i am called|call me|je m'appelle|mon (?:pré)?nom (?:est|c'est)|"
    r"appelle-moi)\s+(?P<name>[A-ZÀ-Ý][\w-]+)",
    re.I,
)
_NOT_NAMES = frozenset(
    "back later again soon now tonight tomorrow when if please maybe anytime jamais demain ce soir plus tard".split()
)
_QUESTION = re.compile(r"[^.!?\n]*\?")


def stated_name(text: str) -> str | None:
    """The name the person gives for themself in `text`, as they wrote it, or None."""
    statements = _QUESTION.sub(" ", text)  # "is my name Alice?" states nothing
    for match in NAME_STATEMENT.finditer(statements):
        name = match["name"]
        if name[0].isupper() and name.casefold() not in _NOT_NAMES:
            return name
    return None
