"""Inline-button payloads: compact strings (Telegram allows 64 bytes) and a strict parser.

Callback data comes back from the client and can be forged, so nothing in it is trusted: it only
names a page offset and a position on that page, and every action re-reads the presser's OWN
memories through `UserCommands`. A short fingerprint of the memory id guards against the list having
shifted between showing the page and pressing the button.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

MAX_OFFSET = 999_999
MAX_PAGE_SIZE = 20

_SHOW = re.compile(r"m:p:(\d{1,6})")
_FORGET = re.compile(r"m:f:(\d{1,6}):(\d{1,2}):([0-9a-f]{8})")
_FORGET_ALL = re.compile(r"fa:(yes|no)")
_WHY_FORGET = re.compile(r"w:f:(\d{1,2}):([0-9a-f]{8})")
MAX_WHY_ITEMS = 50


@dataclass(frozen=True, slots=True)
class ShowPage:
    offset: int


@dataclass(frozen=True, slots=True)
class ForgetItem:
    offset: int
    number: int  # 1-based position on the page
    fingerprint: str


@dataclass(frozen=True, slots=True)
class ForgetAll:
    confirmed: bool


@dataclass(frozen=True, slots=True)
class WhyForget:
    """ "Forget #n" under /memories why: the n-th memory the last reply drew on, if it is still that one."""

    number: int
    fingerprint: str


CallbackAction = ShowPage | ForgetItem | ForgetAll | WhyForget


def fingerprint(memory_id: str) -> str:
    return hashlib.sha256(memory_id.encode()).hexdigest()[:8]


def show_page_data(offset: int) -> str:
    return f"m:p:{_clamp_offset(offset)}"


def forget_item_data(offset: int, number: int, memory_id: str) -> str:
    return f"m:f:{_clamp_offset(offset)}:{number}:{fingerprint(memory_id)}"


def forget_all_data(confirmed: bool) -> str:
    return "fa:yes" if confirmed else "fa:no"


def why_forget_data(number: int, memory_id: str) -> str:
    return f"w:f:{number}:{fingerprint(memory_id)}"


def parse_callback(data: str | None) -> CallbackAction | None:
    """The action a button asks for, or None when the payload is not one of ours or out of bounds."""
    if not data or len(data) > 64:
        return None
    if match := _SHOW.fullmatch(data):
        return ShowPage(int(match[1]))
    if match := _FORGET.fullmatch(data):
        number = int(match[2])
        if not 1 <= number <= MAX_PAGE_SIZE:
            return None
        return ForgetItem(int(match[1]), number, match[3])
    if match := _FORGET_ALL.fullmatch(data):
        return ForgetAll(match[1] == "yes")
    if match := _WHY_FORGET.fullmatch(data):
        number = int(match[1])
        return WhyForget(number, match[2]) if 1 <= number <= MAX_WHY_ITEMS else None
    return None


def _clamp_offset(offset: int) -> int:
    return max(0, min(offset, MAX_OFFSET))
