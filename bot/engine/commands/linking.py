"""One person on several platforms: the link codes' rules, and what linking answers.

`/link` on one platform gives a code; `/link CODE` on another platform links that account INTO the
person of the account that asked for the code. Rules (enforced by the `AccountLinks` store, atomically):

- a code is 8 characters from a 32-letter alphabet (40 bits, about 10^12 codes), drawn with `secrets`;
- it is valid 10 minutes, for one redemption: the first attempt that finds it burns it, whatever the outcome;
- it binds to the account that asked for it (a new /link replaces that account's previous code);
- it is redeemable only from another platform, by an account that is not linked yet, and only if the
  person has no account on that platform yet (one account per platform per person);
- the redeeming account must hold no memories of its own (checked before the code is touched): nothing is
  ever merged, so no one can pour their memories into, or read them out of, someone else's;
- each account may ask for 5 codes and try 5 codes per hour.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U to misread
CODE_LENGTH = 8
CODE_VALIDITY = timedelta(minutes=10)
RATE_WINDOW = timedelta(hours=1)
CODES_PER_WINDOW = 5  # /link asked, per account
TRIES_PER_WINDOW = 5  # /link CODE tried, per account
_MISREAD = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """ABCD-EFGH: easier to copy by hand."""
    return f"{code[:4]}-{code[4:]}"


def normalised_code(text: str) -> str | None:
    """The code as typed ("abcd-efgh", "ABCD EFGH", an O for a 0), or None when it cannot be one."""
    code = "".join(text.split()).replace("-", "").upper().translate(_MISREAD)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def rate_window(at: datetime) -> int:
    """The number of the fixed hour-long window `at` falls in (attempts are counted per window)."""
    return int(at.timestamp() // RATE_WINDOW.total_seconds())


class Redeemed(StrEnum):
    LINKED = "linked"
    INVALID = "invalid"  # no such code, already used, or malformed: the same answer, nothing to learn
    EXPIRED = "expired"
    SAME_PLATFORM = "same_platform"  # the code was asked for on this platform
    ALREADY_LINKED = "already_linked"  # this account already belongs to a linked person
    PLATFORM_TAKEN = "platform_taken"  # the person already has an account on this platform
    HAS_MEMORIES = "has_memories"  # this account has memories of its own
    RATE_LIMITED = "rate_limited"


@dataclass(frozen=True, slots=True)
class IssuedCode:
    code: str | None  # None: rate-limited
    expires_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Redemption:
    outcome: Redeemed
    person_key: str | None = None  # LINKED: the person the account now belongs to
