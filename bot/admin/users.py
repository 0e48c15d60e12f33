"""Which stored person an operator means by `--user`: a whole key, or a bare id when only one person has it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.model import UserProfile, UserRef
from bot.errors import InvalidInput

EXAMPLE = "a key like telegram:12345 or terminal:you"
LIST_HINT = "`souvenir memories users` lists everyone"


def _split(key: str) -> tuple[str, str]:
    platform, _, user_id = key.partition(":")
    return platform, user_id


def user_of(key: str, display_name: str = "") -> UserRef:
    platform, user_id = _split(key)
    return UserRef(platform, user_id, display_name or user_id)


def pick_user(given: str, known: Sequence[UserProfile]) -> UserRef:
    """`platform:id` is taken as given; a bare id must match the id part of exactly one stored key."""
    given = given.strip()
    platform, sep, user_id = given.partition(":")
    if sep:
        if not platform or not user_id:
            raise InvalidInput(f"--user: expected {EXAMPLE} (got {given!r})")
        return user_of(given, next((p.display_name for p in known if p.user_key == given), ""))
    if not given:
        raise InvalidInput(f"--user: expected {EXAMPLE} (got {given!r})")
    exact = [p for p in known if _split(p.user_key)[1] == given]
    if len(exact) == 1:
        return user_of(exact[0].user_key, exact[0].display_name)
    if exact:
        keys = ", ".join(p.user_key for p in exact)
        raise InvalidInput(f"--user {given} is ambiguous: it could be {keys}; give the whole key")
    lowered = given.casefold()
    close = [
        p.user_key
        for p in known
        if lowered in _split(p.user_key)[1].casefold() or (p.display_name and lowered in p.display_name.casefold())
    ]
    if close:
        raise InvalidInput(f"--user {given}: nobody has exactly that id; did you mean {', '.join(close)}?")
    raise InvalidInput(f"--user {given}: nobody is stored with that id; give {EXAMPLE} ({LIST_HINT})")
