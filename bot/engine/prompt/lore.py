"""Lore from a character card's book: entries whose keys appear in what the person wrote.

Matching follows the Character Card V2 book: keys are case-insensitive unless `case_sensitive`, whole words
unless the entry says otherwise (SillyTavern's `match_whole_words` extension), regular expressions with
`use_regex` (read by RE2, in time linear in the message whatever the pattern, so a card cannot stall a reply
with a pattern that backtracks; a pattern RE2 cannot read — look-arounds, back-references — never matches);
`selective` entries also need one of their `secondary_keys`; `constant` entries always apply.
Entries are placed in `insertion_order`; over the token budget, the lowest `priority` goes first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import re2

from bot.engine.prompt.tokens import rough_tokens


@dataclass(frozen=True, slots=True)
class LoreEntry:
    keys: tuple[str, ...]
    content: str
    insertion_order: int = 0
    constant: bool = False
    case_sensitive: bool = False
    whole_words: bool = True
    use_regex: bool = False
    selective: bool = False
    secondary_keys: tuple[str, ...] = ()
    priority: int = 0

    def triggered_by(self, text: str) -> bool:
        if self.constant:
            return True
        if not any(self._found(key, text) for key in self.keys):
            return False
        return not (self.selective and self.secondary_keys) or any(self._found(k, text) for k in self.secondary_keys)

    def _found(self, key: str, text: str) -> bool:
        if not key.strip():
            return False
        flags = 0 if self.case_sensitive else re.IGNORECASE
        if self.use_regex:
            pattern = _card_pattern(key, self.case_sensitive)
            return pattern is not None and pattern.search(text) is not None
        pattern = re.escape(key.strip())
        if self.whole_words:
            pattern = rf"(?<!\w){pattern}(?!\w)"
        return re.search(pattern, text, flags) is not None


@lru_cache(maxsize=1024)
def _card_pattern(key: str, case_sensitive: bool) -> re2._Regexp | None:
    try:
        return re2.compile(key if case_sensitive else f"(?i){key}")
    except re2.error:
        return None


def triggered_lore(entries: Sequence[LoreEntry], text: str, budget_tokens: int) -> list[LoreEntry]:
    """The entries `text` triggers that fit in `budget_tokens`, in insertion order."""
    hits = [(n, e) for n, e in enumerate(entries) if e.content.strip() and e.triggered_by(text)]
    kept: list[tuple[int, LoreEntry]] = []
    used = 0
    # Constant entries first, then by priority (highest first), then as written: what fits is kept.
    for n, entry in sorted(hits, key=lambda hit: (not hit[1].constant, -hit[1].priority, hit[0])):
        cost = rough_tokens(entry.content)
        if used + cost <= budget_tokens:
            kept.append((n, entry))
            used += cost
    return [entry for _, entry in sorted(kept, key=lambda hit: (hit[1].insertion_order, hit[0]))]
