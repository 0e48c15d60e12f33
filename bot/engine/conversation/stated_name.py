"""The name a person says they go by ("My name is Alice", "je m'appelle Alice", "call me Ali", "hey, I'm Priya",
"moi c'est Mathilde").

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
# An introduction: "hi, I'm Priya", "I'm Priya btw", "this is Sam here", « salut, moi c'est Mathilde ». "I'm"
# is also "I'm Tired" and "I'm French": it counts only after a greeting or before "btw", "here", "by the way".
INTRODUCTION = re.compile(
    r"(?:\b(?:moi,? c'est|ici c'est)\s+(?P<moi>[A-ZÀ-Ý][\w-]+)"
    r"|(?:\b(?:hi|hey|hello|hiya|heya|yo|salut|coucou|bonjour|bonsoir)\b[,!.]*\s*(?:there\s*)?,?\s*)"
    r"(?:i'm|i am|im|it's|this is|je suis|c'est)\s+(?P<greeted>[A-ZÀ-Ý][\w-]+)(?=\s*(?:[,.!]|$|btw|by the way|here|"
    r"and|from|et|d'ailleurs|au fait))"
    r"|\b(?:i'm|i am|this is)\s+(?P<aside>[A-ZÀ-Ý][\w-]+)\s+(?:btw|by the way|here)\b)",
    re.I,
)
_NOT_INTRODUCED = frozenset(
    "english french american british canadian irish scottish welsh german spanish italian belgian swiss "
    "française français québécois back home here fine good great ok okay sorry so not just really tired bored "
    "done sure still also going ready new happy sad busy alone free sick late early lost confused cold hot "
    "hungry sleepy awake alive dead catholic christian muslim jewish buddhist hindu atheist gay lesbian bi trans "
    "queer straight fr sérieux désolé désolée bien là prêt prête fatigué fatiguée".split()
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
    return introduced_name(statements)


def introduced_name(text: str) -> str | None:
    """The name in an introduction ("hi, I'm Priya", « moi c'est Mathilde »), capitalised as names are, or None."""
    for match in INTRODUCTION.finditer(text):
        name = match["moi"] or match["greeted"] or match["aside"]
        if name[0].isupper() and name.casefold() not in _NOT_NAMES | _NOT_INTRODUCED:
            return name
    return None
